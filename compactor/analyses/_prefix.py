"""What two successive calls send alike: replay's stable prefix and the price of a call's cache
read both start from it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def common_prefix(before: Sequence[Any], after: Sequence[Any]) -> int:
    """How many leading messages are equal in role and content (anything with ``role`` and
    ``content``)."""
    same = 0
    for a, b in zip(before, after, strict=False):
        if a.role != b.role or a.content != b.content:
            break
        same += 1
    return same
