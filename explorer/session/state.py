"""The explorer's state: the loaded conversation, the parameters, and the URL that reproduces them.

The URL carries the sample and every parameter (``?sample=dispatcher&budget_chars=400&...``), so
a link opens the exact view. Values in a link are untrusted: each bad one falls back to the
sample's published value with a notice that never repeats unsafe text. The parsing is plain
functions (tested on their own); the functions at the end read and write ``st.session_state``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from compactor.contract import RANGES, ROLES
from explorer.session.conversation import PARAM_NAMES, Conversation

SAMPLE_PARAM = "sample"
#: Widget keys of the sidebar's parameter controls (the budget has a slider and a number box).
PARAM_KEYS: Mapping[str, str] = {name: f"param_{name}" for name in PARAM_NAMES}
BUDGET_SLIDER_KEY = "param_budget_slider"
SAMPLE_KEY = "sample_choice"
#: The sample picker's value while a pasted, uploaded or edited conversation is loaded.
YOURS = "(yours)"
CONVERSATION_KEY = "conversation"
PENDING_KEY = "pending_load"
NOTICES_KEY = "url_notices"
READY_KEY = "explorer_ready"

_INTEGER = re.compile(r"[0-9]{1,9}")
_DECIMAL = re.compile(r"[0-9]{0,3}(?:\.[0-9]{1,12})?")
# Shown back in a notice only when it cannot carry Markdown, HTML or a link.
_SHOWABLE = re.compile(r"[A-Za-z0-9.,+-]{1,24}")
_INTEGER_PARAMS = ("budget_chars", "keep_last_n", "max_message_chars")


@dataclass(frozen=True)
class LinkState:
    """What a URL asks for: a sample (None when not named), valid parameters, notices."""

    sample: str | None
    params: dict[str, Any] = field(default_factory=dict)
    notices: tuple[str, ...] = ()


def shown(raw: str) -> str:
    """A link value as a notice may show it: itself when harmless, else a neutral description."""
    return f"'{raw}'" if _SHOWABLE.fullmatch(raw) else "a value that cannot be shown"


def _last(value: str | Sequence[str]) -> str:
    """A repeated query key counts with its last value, as ``st.query_params`` reads it."""
    if isinstance(value, str):
        return value
    return value[-1] if value else ""


def parse_integer(name: str, raw: str) -> int | None:
    """An integer parameter from a link, or None when it is not a whole number in range."""
    low, high = RANGES[name]
    if not _INTEGER.fullmatch(raw):
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


def _expected(name: str) -> str:
    """What a link's value for ``name`` must be, in words."""
    if name == "keep_roles":
        return "a comma-separated list of " + ", ".join(ROLES)
    low, high = RANGES[name]
    if name == "duplicate_threshold":
        return f"a number from {low} to {high}"
    return f"a whole number from {low:,} to {high:,}"


def parse_link(query: Mapping[str, str | Sequence[str]], samples: Sequence[str]) -> LinkState:
    """The sample and parameters a URL's query asks for; unknown keys are ignored."""
    notices: list[str] = []
    sample = None
    if SAMPLE_PARAM in query:
        raw = _last(query[SAMPLE_PARAM])
        if raw in samples:
            sample = raw
        else:
            notices.append(
                f"The link names a sample, {shown(raw)}, that does not exist; "
                "showing the default sample instead."
            )
    params: dict[str, Any] = {}
    for name in PARAM_NAMES:
        if name not in query:
            continue
        raw = _last(query[name])
        if name in _INTEGER_PARAMS:
            value: Any = parse_integer(name, raw)
        elif name == "duplicate_threshold":
            value = parse_threshold(raw)
        else:
            value = parse_roles(raw)
        if value is None:
            notices.append(
                f"The link's {name} is {shown(raw)}, which is not {_expected(name)}; "
                "using the conversation's own value instead."
            )
        else:
            params[name] = value
    return LinkState(sample, params, tuple(notices))


def format_threshold(value: float) -> str:
    """The shortest text that reads back as the same number (``0.9``, ``1``, ``0.875``)."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def link_query(sample: str | None, params: Mapping[str, Any]) -> dict[str, str]:
    """The query that reproduces a view: the sample (when one is loaded) and every parameter."""
    query = {SAMPLE_PARAM: sample} if sample else {}
    for name in PARAM_NAMES:
        value = params[name]
        if name == "keep_roles":
            query[name] = ",".join(value)
        elif name == "duplicate_threshold":
            query[name] = format_threshold(value)
        else:
            query[name] = str(int(value))
    return query


def clean_float(value: float) -> float:
    """A slider's float without binary noise (``0.8700000000000001`` is ``0.87``)."""
    return float(f"{float(value):.12g}")


def budget_slider_range(input_chars: int, budget: int) -> tuple[int, int, int]:
    """``(min, max, step)`` of the budget slider: the schema's minimum up to this conversation.

    The number box beside it takes the schema's full range; the slider spans what matters for
    the loaded conversation (its characters, or the budget when that is larger), so a drag of a
    few pixels does not jump thousands of characters.
    """
    low, high = (int(v) for v in RANGES["budget_chars"])
    top = max(input_chars, budget, low + 100)
    unit = 10 ** max(0, len(str(top)) - 2)
    top = min(high, -(-top // unit) * unit)
    step = 10 ** max(0, len(str(top)) - 3)
    return low, top, step


# --- session state --------------------------------------------------------------------------


def conversation() -> Conversation:
    return st.session_state[CONVERSATION_KEY]


def read_params(keys: Mapping[str, str]) -> dict[str, Any]:
    """The parameters a parameter form (``explorer.widgets.params``) holds under ``keys``."""
    out = {name: st.session_state[key] for name, key in keys.items()}
    out["keep_roles"] = list(out["keep_roles"])
    out["duplicate_threshold"] = clean_float(out["duplicate_threshold"])
    return out


def write_params(keys: Mapping[str, str], values: Mapping[str, Any]) -> None:
    """Put parameters into a form's keys (before it is drawn, or from a callback)."""
    for name, key in keys.items():
        value = values[name]
        st.session_state[key] = list(value) if name == "keep_roles" else value


def keep_sidebar_values() -> None:
    """Carry the sidebar's values into this run's widgets (call before drawing them).

    Each page of a multipage app has its own widgets, so the sidebar of the page the user opens
    would start from its defaults; values the code sets before a widget is drawn win, which is
    how the sidebar keeps its values from page to page (Streamlit's documented way).
    """
    for key in (*PARAM_KEYS.values(), BUDGET_SLIDER_KEY, SAMPLE_KEY):
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def params() -> dict[str, Any]:
    """The parameters the sidebar (A) holds now."""
    return read_params(PARAM_KEYS)


def set_params(values: Mapping[str, Any]) -> None:
    """Put parameters into the sidebar's widgets (before they are drawn, or from a callback)."""
    write_params(PARAM_KEYS, values)


def load(conv: Conversation, values: Mapping[str, Any] | None = None) -> None:
    """Make ``conv`` the conversation, with ``values`` (default: its own parameters).

    Call before the sidebar is drawn or from a widget callback; from a page body use
    :func:`load_next_run`.
    """
    st.session_state[CONVERSATION_KEY] = conv
    st.session_state[SAMPLE_KEY] = conv.sample or YOURS
    set_params(conv.params if values is None else values)


def load_next_run(conv: Conversation, values: Mapping[str, Any] | None = None) -> None:
    """Load ``conv`` at the start of the next run and rerun now (for code after the sidebar)."""
    st.session_state[PENDING_KEY] = (conv, values)
    st.rerun()


def start(samples: Mapping[str, Conversation], default_sample: str) -> None:
    """Prepare a run: on a session's first run read the URL; apply a load asked for last run."""
    if not st.session_state.get(READY_KEY):
        link = parse_link(st.query_params.to_dict(), list(samples))
        conv = samples[link.sample or default_sample]
        load(conv, {**conv.params, **link.params})
        st.session_state[NOTICES_KEY] = link.notices
        st.session_state[READY_KEY] = True
    pending = st.session_state.pop(PENDING_KEY, None)
    if pending is not None:
        load(*pending)


def sync_url(conv: Conversation, values: Mapping[str, Any]) -> None:
    """Write the view into the URL, only when it changed (each write reaches the browser)."""
    wanted = link_query(conv.sample, values)
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)
