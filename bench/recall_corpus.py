"""What the recall benchmarks share: the conversations they read, the budget shares they judge
at, and the bootstrap interval of a pooled lift (bench.ours, bench.strategies, bench.outcomes)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

SHARES = (0.1, 0.2, 0.3, 0.5)
ROOT = Path(__file__).resolve().parent.parent
#: The shared corpus and the real fixtures: the conversations every recall table is read on.
FOLDERS = (ROOT.parent / "shared" / "corpus", ROOT / "tests" / "fixtures" / "real")
RESAMPLES = 2000


def conversations(paths: Sequence[Path | str]) -> list[tuple[str, list[dict]]]:
    """Every conversation of 4 messages or more under ``paths`` (any importable format), named
    ``folder/conversation``."""
    from compactor.evaluation import load_corpus

    out = []
    for folder in map(Path, paths):
        for item in load_corpus(folder, keep_last=True, cut_long=True):
            messages = item.request["messages"]
            if len(messages) >= 4:
                out.append((f"{folder.name}/{item.conversation}", messages))
    return out


def lift_interval(
    needs: Sequence[float], diff: Sequence[float], seed: int = 0
) -> tuple[float, float, float]:
    """A pooled lift (sum of ``diff`` over sum of ``needs``, one entry a conversation) and its
    95% bootstrap interval: each resample draws conversations with replacement and pools them."""
    n = np.asarray(needs, dtype=np.float64)
    d = np.asarray(diff, dtype=np.float64)
    picks = np.random.default_rng(seed).integers(0, len(n), size=(RESAMPLES, len(n)))
    lifts = d[picks].sum(axis=1) / n[picks].sum(axis=1)
    low, high = np.percentile(lifts, (2.5, 97.5))
    return float(d.sum() / n.sum()), float(low), float(high)
