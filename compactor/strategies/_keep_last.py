"""Keep the last N messages: the largest N whose characters fit the budget, nothing else.

The simplest memory a chat application can have, and the baseline the other strategies are
measured against: no message is cut, and the N most recent messages are kept whole. When even
the last message alone exceeds the budget, N is 0.

The rule is written here once, as each message's from-budget (:func:`keep_last_from_budgets`):
the strategy, the replay's keep-last and the outcome baselines (SPEC part D) all read it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: The strategy's name (its registry key, its replay name and the baseline's name).
KEEP_LAST = "keep-last"


def keep_last_from_budgets(lengths: Sequence[int]) -> np.ndarray:
    """Per message, the smallest budget at which keep-last returns it: the characters of it and
    of every later message. They fall from the oldest message to the newest, so the messages
    kept at any budget are a run of the last ones.

    >>> keep_last_from_budgets([50, 40, 30, 20]).tolist()
    [140, 90, 50, 20]
    """
    sizes = np.asarray(lengths, dtype=np.int64)
    return np.cumsum(sizes[::-1])[::-1].copy()


def keep_last_count(lengths: Sequence[int], budget_chars: int) -> int:
    """The largest N such that the last N ``lengths`` add up to at most ``budget_chars``.

    >>> keep_last_count([50, 40, 30, 20], 60)
    2
    >>> keep_last_count([50, 40, 30, 20], 10)
    0
    """
    return int(np.count_nonzero(keep_last_from_budgets(lengths) <= budget_chars))


def keep_last(contents: Sequence[str], budget_chars: int) -> tuple[int, ...]:
    """Indices of the messages kept: the last :func:`keep_last_count` of them, oldest first."""
    n = keep_last_count([len(c) for c in contents], budget_chars)
    return tuple(range(len(contents) - n, len(contents)))
