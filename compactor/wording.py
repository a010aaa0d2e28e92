"""Words the reports share: a count with its noun in the right number.

>>> plural(1, "message"), plural(1200, "character"), plural(2, "query", "queries")
('1 message', '1,200 characters', '2 queries')
"""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` with thousands separators and ``noun`` (or ``nouns``, default noun + s)."""
    return f"{count:,} {noun if count == 1 else (nouns or noun + 's')}"
