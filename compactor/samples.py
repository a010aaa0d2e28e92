"""The sample conversations in sample_histories/: a name, a one-line description and a request."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Each sample is ``NN-slug.json`` holding ``{"name", "description", "request"}``; NN orders them.
SAMPLES_DIR = Path(__file__).resolve().parent.parent / "sample_histories"
DEFAULT_SAMPLE = "dispatcher"


@dataclass(frozen=True)
class Sample:
    slug: str
    name: str
    description: str
    request: dict[str, Any]


def load_samples(folder: Path = SAMPLES_DIR) -> tuple[Sample, ...]:
    """Every sample, in file-name order."""
    return tuple(_load(path) for path in sorted(folder.glob("*.json")))


def load_sample(slug: str, folder: Path = SAMPLES_DIR) -> Sample:
    """The sample called ``slug``; raises KeyError naming the samples there are."""
    samples = {s.slug: s for s in load_samples(folder)}
    if slug not in samples:
        raise KeyError(f"no sample {slug!r}; there are: {', '.join(samples)}")
    return samples[slug]


def _load(path: Path) -> Sample:
    data = json.loads(path.read_text("utf-8"))
    slug = path.stem.split("-", 1)[1] if path.stem[:2].isdigit() else path.stem
    return Sample(slug, data["name"], data["description"], data["request"])
