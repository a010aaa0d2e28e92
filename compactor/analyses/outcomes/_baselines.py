"""Baselines (SPEC part D): what a team would do without the setting, at the same budget.

- **keep-last**: the longest run of the most recent whole messages whose characters fit;
- **random**: R seeded draws, draw ``s`` the order ``random.Random(s).shuffle`` gives the
  message indices; each draw removes messages in that order until the rest fits.

Both keep whole messages, and both keep a message exactly from one budget on: keep-last from
the characters of the message and every later one, a draw from the characters still present
when the draw reaches it (everything minus what it removed before). So each baseline is an
array of *from-budgets*, one per message (one row per draw), and its output at any budget is
``from_budget <= budget``: every figure at every budget, for all draws at once, with numpy.
Keep-last's from-budgets are the strategy's own rule (:mod:`compactor.strategies._keep_last`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from compactor.strategies import KEEP_LAST as KEEP_LAST  # the baseline's name
from compactor.strategies import keep_last_from_budgets

DEFAULT_DRAWS = 20
#: The percentiles the random interval reports (numpy's linear interpolation between draws).
PERCENTILES = (2.5, 97.5)
RANDOM = "random"


@lru_cache(maxsize=64)
def draw_orders(n: int, draws: int = DEFAULT_DRAWS) -> np.ndarray:
    """``orders[s]``: the removal order of draw ``s``, ``random.Random(s).shuffle`` of
    ``range(n)`` (read-only; remembered, the same for every conversation of ``n`` messages)."""
    orders = np.empty((draws, n), dtype=np.int64)
    for seed in range(draws):
        order = list(range(n))
        random.Random(seed).shuffle(order)
        orders[seed] = order
    orders.setflags(write=False)
    return orders


def random_from_budgets(lengths: Sequence[int], draws: int = DEFAULT_DRAWS) -> np.ndarray:
    """``from[s, i]``: the smallest budget at which draw ``s`` keeps message ``i``: the
    characters present when the draw reaches it."""
    sizes = np.asarray(lengths, dtype=np.int64)
    orders = draw_orders(len(sizes), draws)
    in_order = sizes[orders]
    present = sizes.sum() - (np.cumsum(in_order, axis=1) - in_order)
    out = np.empty_like(present)
    np.put_along_axis(out, orders, present, axis=1)
    return out


def keep_last_lengths(lengths: Sequence[int], budget_chars: int) -> np.ndarray:
    """Per message, its returned length under keep-last at ``budget_chars`` (-1: removed)."""
    sizes = np.asarray(lengths, dtype=np.int64)
    return np.where(keep_last_from_budgets(sizes) <= budget_chars, sizes, -1)


def random_lengths(
    lengths: Sequence[int], budget_chars: int, draws: int = DEFAULT_DRAWS
) -> np.ndarray:
    """Per draw and message, its returned length at ``budget_chars`` (-1: removed)."""
    sizes = np.asarray(lengths, dtype=np.int64)
    return np.where(random_from_budgets(sizes, draws) <= budget_chars, sizes, -1)


@dataclass(frozen=True)
class Interval:
    """A figure over the random draws: the mean, and the 2.5th and 97.5th percentiles."""

    mean: float | None
    low: float | None
    high: float | None
    draws: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": _round(self.mean),
            "low": _round(self.low),
            "high": _round(self.high),
            "draws": self.draws,
        }


def interval(values: Sequence[float] | np.ndarray | None, draws: int) -> Interval:
    """The :class:`Interval` of one figure per draw (all None when the figure is undefined)."""
    if values is None or len(values) == 0:
        return Interval(None, None, None, draws)
    array = np.asarray(values, dtype=np.float64)
    low, high = np.percentile(array, PERCENTILES)
    return Interval(float(array.mean()), float(low), float(high), draws)


def lift(setting: float | None, keep_last: float | None) -> float | None:
    """The setting's figure minus keep-last's (None when either is undefined)."""
    if setting is None or keep_last is None:
        return None
    return setting - keep_last


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
