"""The values a link carries, read and written: the parameters (whole numbers, the threshold,
roles), the token encoding, the outcome views' k; and how a notice may show a value it could not
use (never unsafe text)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.contract import AGENT_LIMITS, LIMITS, RANGES, ROLES, budget_range
from compactor.text import ENCODINGS

INTEGER = re.compile(r"[0-9]{1,9}")
#: k, the outcome views' future (the last k messages): at least 1, at most what the longest
#: valid request leaves (n - 2); a conversation caps it at its own n - 2.
FUTURE_RANGE = (1, LIMITS["max_messages"] - 2)
_DECIMAL = re.compile(r"[0-9]{0,3}(?:\.[0-9]{1,12})?")
# Shown back in a notice only when it cannot carry Markdown, HTML or a link.
_SHOWABLE = re.compile(r"[A-Za-z0-9.,+-]{1,24}")


def shown(raw: str) -> str:
    """A link value as a notice may show it: itself when harmless, else a neutral description."""
    return f"'{raw}'" if _SHOWABLE.fullmatch(raw) else "a value that cannot be shown"


def last_value(value: str | Sequence[str]) -> str:
    """A repeated query key counts with its last value, as ``st.query_params`` reads it."""
    if isinstance(value, str):
        return value
    return value[-1] if value else ""


def link_range(name: str) -> tuple[float, float]:
    """The values a link may give ``name``: the schema's range, and for ``budget_chars`` the
    agent mode's (up to 2,000,000: a whole session's link; the sidebar holds a conversation
    within the contract to its 400,000)."""
    if name == "budget_chars":
        return budget_range(AGENT_LIMITS)
    return RANGES[name]


def parse_integer(name: str, raw: str) -> int | None:
    """An integer parameter from a link, or None when it is not a whole number in range."""
    low, high = link_range(name)
    if not INTEGER.fullmatch(raw):
        return None
    value = int(raw)
    return value if low <= value <= high else None


def parse_threshold(raw: str) -> float | None:
    """``duplicate_threshold`` from a link, or None when it is not a number in range."""
    low, high = RANGES["duplicate_threshold"]
    if not raw or raw == "." or not _DECIMAL.fullmatch(raw):
        return None
    value = float(raw)
    return value if math.isfinite(value) and low <= value <= high else None


def parse_roles(raw: str) -> list[str] | None:
    """``keep_roles`` from a link (comma-separated, empty for none); None for an unknown role."""
    if raw.strip() == "":
        return []
    roles = [part.strip() for part in raw.split(",")]
    if any(role not in ROLES for role in roles):
        return None
    return list(dict.fromkeys(roles))


def parse_encoding(raw: str) -> str | None:
    """The token encoding a link counts in (``tokens=o200k_base``), or None when unknown."""
    return raw if raw in ENCODINGS else None


def parse_future(raw: str) -> int | None:
    """k from a link (``k=7``), or None when it is not a whole number in :data:`FUTURE_RANGE`."""
    low, high = FUTURE_RANGE
    if not INTEGER.fullmatch(raw):
        return None
    value = int(raw)
    return value if low <= value <= high else None


def future_notice(raw: str) -> str:
    """What a link's unusable k says."""
    low, high = FUTURE_RANGE
    return (
        f"The link's k is {shown(raw)}, which is not a whole number from {low} to {high}; "
        f"using the default, {DEFAULT_FUTURE}."
    )


def capped_future_notice(future: int, messages: int) -> str | None:
    """What a link's k says when the conversation it opens is too short for it (k at most
    n - 2); None when it fits."""
    top = max(1, messages - 2)
    if future <= top:
        return None
    return (
        f"The link's k is {future}, more than this conversation of {messages} messages allows "
        f"(1 to {top}); using {top} here, and {future} on a conversation long enough for it."
    )


def expected(name: str) -> str:
    """What a link's value for ``name`` must be, in words."""
    if name == "keep_roles":
        return "a comma-separated list of " + ", ".join(ROLES)
    low, high = link_range(name)
    if name == "duplicate_threshold":
        return f"a number from {low} to {high}"
    return f"a whole number from {low:,} to {high:,}"


def format_threshold(value: float) -> str:
    """The shortest text that reads back as the same number (``0.9``, ``1``, ``0.875``)."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def clean_float(value: float) -> float:
    """A slider's float without binary noise (``0.8700000000000001`` is ``0.87``)."""
    return float(f"{float(value):.12g}")
