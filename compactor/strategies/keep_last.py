"""Keep the last N messages: the largest N whose characters fit the budget, nothing else.

The simplest memory a chat application can have, and the baseline the other strategies are
measured against: no message is cut, and the N most recent messages are kept whole. When even
the last message alone exceeds the budget, N is 0.
"""

from __future__ import annotations

from collections.abc import Sequence


def keep_last_count(lengths: Sequence[int], budget_chars: int) -> int:
    """The largest N such that the last N ``lengths`` add up to at most ``budget_chars``.

    >>> keep_last_count([50, 40, 30, 20], 60)
    2
    >>> keep_last_count([50, 40, 30, 20], 10)
    0
    """
    total = 0
    for n, length in enumerate(reversed(lengths)):
        total += length
        if total > budget_chars:
            return n
    return len(lengths)


def keep_last(contents: Sequence[str], budget_chars: int) -> tuple[int, ...]:
    """Indices of the messages kept: the last :func:`keep_last_count` of them, oldest first."""
    n = keep_last_count([len(c) for c in contents], budget_chars)
    return tuple(range(len(contents) - n, len(contents)))
