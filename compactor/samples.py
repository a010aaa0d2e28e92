"""The sample conversations in sample_histories/: a name, a one-line description and a request."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

#: Each sample is ``NN-slug.json`` holding ``{"name", "description", "request"}``; NN orders them.
#: The folder is the project's top-level sample_histories/, installed as this package's data.
SAMPLES_DIR: Traversable = resources.files("compactor.sample_histories")
#: The explorer opens on it: a sample where pin, dedupe, trim and drop each act at its parameters.
DEFAULT_SAMPLE = "tour"


@dataclass(frozen=True)
class Sample:
    slug: str
    name: str
    description: str
    request: dict[str, Any]


def load_samples(folder: Traversable = SAMPLES_DIR) -> tuple[Sample, ...]:
    """Every sample, in file-name order."""
    files = [f for f in folder.iterdir() if f.name.endswith(".json")]
    return tuple(_load(f) for f in sorted(files, key=lambda f: f.name))


def load_sample(slug: str, folder: Traversable = SAMPLES_DIR) -> Sample:
    """The sample called ``slug``; raises KeyError naming the samples there are."""
    samples = {s.slug: s for s in load_samples(folder)}
    if slug not in samples:
        raise KeyError(f"no sample {slug!r}; there are: {', '.join(samples)}")
    return samples[slug]


def _load(path: Traversable) -> Sample:
    data = json.loads(path.read_text("utf-8"))
    stem = path.name.removesuffix(".json")
    slug = stem.split("-", 1)[1] if stem[:2].isdigit() else stem
    return Sample(slug, data["name"], data["description"], data["request"])
