"""The explorer's state: the loaded conversation, the parameters, and the URL that reproduces them.

The URL carries the conversation (``sample=dispatcher``, or ``c=KEY`` for one kept in the
workspace, :mod:`explorer.session.workspace`), every parameter, and the view: the watched
phrases, the B parameters of A/B (``b_budget_chars=...``), the selected message, the
walkthrough step, the token encoding counted in (``tokens=o200k_base``) and the outcome views'
k (``k=7``; the default, 5, is not written). A link opens the exact view on the same server; a
conversation the server does not have is said in a notice, never replaced silently. Values in
a link are untrusted: each bad one falls back with a notice that never repeats unsafe text.
The parsing is plain functions (tested on their own; each value's reading and writing in
:mod:`explorer.session.linkvalues`); the functions at the end read and write
``st.session_state``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.contract import RANGES
from compactor.text import ENCODINGS, tokens_available
from explorer.session import keeping, workspace
from explorer.session.conversation import PARAM_NAMES, Conversation
from explorer.session.keys import (
    B_FOR_KEY,
    B_KEYS,
    FUTURE_WANTED_KEY,
    PHRASES_KEY,
    PHRASES_MAX_CHARS,
    PICKER_KEY,
    STEP_KEY,
    STEPS,
)
from explorer.session.linkvalues import (
    INTEGER,
    capped_future_notice,
    clean_float,
    expected,
    format_threshold,
    future_notice,
    last_value,
    parse_encoding,
    parse_future,
    parse_integer,
    parse_roles,
    parse_threshold,
    shown,
)

SAMPLE_PARAM = "sample"
CONVERSATION_PARAM = "c"
PHRASES_PARAM = "phrases"
B_PREFIX = "b_"
MESSAGE_PARAM = "message"
STEP_PARAM = "step"
#: The outcome views' k (``k=7``), only when it is not the default.
FUTURE_PARAM = "k"
#: The sidebar's count: characters (not in the link), or tokens of an encoding (``tokens=``).
TOKENS_PARAM = "tokens"
TOKENS_KEY = "count_in"
#: Widget keys of the sidebar's parameter controls (the budget has a slider and a number box).
PARAM_KEYS: Mapping[str, str] = {name: f"param_{name}" for name in PARAM_NAMES}
BUDGET_SLIDER_KEY = "param_budget_slider"
SAMPLE_KEY = "sample_choice"
#: The sample picker's value while a pasted, uploaded or edited conversation is loaded; the
#: workspace's other conversations are this prefix and their key.
YOURS = "(yours)"
CHOICE_PREFIX = "c:"
CONVERSATION_KEY = "conversation"
PENDING_KEY = "pending_load"
NOTICES_KEY = "url_notices"
READY_KEY = "explorer_ready"
#: The outcome views' k (the last k messages are the future) and the Conversation page's probe
#: file ({"key": conversation key, "name", "text"}), kept for the session.
FUTURE_KEY = "outcomes_future"
PROBES_KEY = "outcome_probes"

_INTEGER_PARAMS = ("budget_chars", "keep_last_n", "max_message_chars")


@dataclass(frozen=True)
class View:
    """The parts of a view beyond the parameters: none of them is set unless the link says."""

    phrases: str | None = None
    b_params: dict[str, Any] = field(default_factory=dict)
    message: int | None = None
    step: int | None = None
    tokens: str | None = None  # the encoding counted in; None: characters
    future: int | None = None  # the outcome views' k asked for; None: the default


@dataclass(frozen=True)
class LinkState:
    """What a URL asks for: a sample or a workspace conversation (None when not named), valid
    parameters, the view, notices."""

    sample: str | None
    params: dict[str, Any] = field(default_factory=dict)
    notices: tuple[str, ...] = ()
    conversation: str | None = None  # a workspace key
    view: View = field(default_factory=View)


def _parse_params(
    query: Mapping[str, str | Sequence[str]], prefix: str, notices: list[str], whose: str
) -> dict[str, Any]:
    """The parameters ``query`` names (each with ``prefix``); each bad one is left out and said
    in ``notices``, falling back to ``whose`` value."""
    params: dict[str, Any] = {}
    for name in PARAM_NAMES:
        if prefix + name not in query:
            continue
        raw = last_value(query[prefix + name])
        if name in _INTEGER_PARAMS:
            value: Any = parse_integer(name, raw)
        elif name == "duplicate_threshold":
            value = parse_threshold(raw)
        else:
            value = parse_roles(raw)
        if value is None:
            notices.append(
                f"The link's {prefix}{name} is {shown(raw)}, which is not {expected(name)}; "
                f"using {whose} instead."
            )
        else:
            params[name] = value
    return params


def _parse_view(query: Mapping[str, str | Sequence[str]], notices: list[str]) -> View:
    phrases = None
    if PHRASES_PARAM in query:
        phrases = last_value(query[PHRASES_PARAM])
        if len(phrases) > PHRASES_MAX_CHARS:
            phrases = phrases[:PHRASES_MAX_CHARS]
            notices.append(
                f"The link's watched phrases were longer than {PHRASES_MAX_CHARS:,} characters; "
                "only the first ones are watched."
            )
    b_params = _parse_params(query, B_PREFIX, notices, "the sidebar's value for B")
    message = step = None
    if MESSAGE_PARAM in query:
        raw = last_value(query[MESSAGE_PARAM])
        message = int(raw) if INTEGER.fullmatch(raw) else None
        if message is None:
            notices.append(
                f"The link's message is {shown(raw)}, not a message number (#0, #1, ...)."
            )
    if STEP_PARAM in query:
        raw = last_value(query[STEP_PARAM])
        step = int(raw) if raw in {str(s) for s in STEPS} else None
        if step is None:
            notices.append(f"The link's walkthrough step is {shown(raw)}, not one of 1 to 4.")
    tokens = None
    if TOKENS_PARAM in query:
        raw = last_value(query[TOKENS_PARAM])
        tokens = parse_encoding(raw)
        if tokens is None:
            notices.append(
                f"The link's tokens is {shown(raw)}, not one of {', '.join(ENCODINGS)}; "
                "counting in characters."
            )
    future = None
    if FUTURE_PARAM in query:
        future = parse_future(last_value(query[FUTURE_PARAM]))
        if future is None:
            notices.append(future_notice(last_value(query[FUTURE_PARAM])))
    return View(phrases, b_params, message, step, tokens, future)


def parse_link(query: Mapping[str, str | Sequence[str]], samples: Sequence[str]) -> LinkState:
    """The conversation, parameters and view a URL's query asks for; unknown keys are ignored."""
    notices: list[str] = []
    sample = conversation = None
    if CONVERSATION_PARAM in query:
        raw = last_value(query[CONVERSATION_PARAM])
        if workspace.KEY.fullmatch(raw):
            conversation = raw
        else:
            notices.append(
                f"The link names a conversation, {shown(raw)}, that is not a conversation key; "
                "showing the default sample instead."
            )
    elif SAMPLE_PARAM in query:
        raw = last_value(query[SAMPLE_PARAM])
        if raw in samples:
            sample = raw
        else:
            notices.append(
                f"The link names a sample, {shown(raw)}, that does not exist; "
                "showing the default sample instead."
            )
    params = _parse_params(query, "", notices, "the conversation's own value")
    view = _parse_view(query, notices)
    return LinkState(sample, params, tuple(notices), conversation, view)


def missing_conversation_notice(key: str, unreadable: bool = False) -> str:
    if unreadable:  # the workspace's own notice says why
        return (
            f"The link names conversation {key}, which could not be read from this server's "
            "workspace (see below); showing the default sample instead."
        )
    return (
        f"The link names conversation {key}, which this server does not have (it was loaded on "
        "another server, or this server's workspace was cleared), so it cannot be shown; "
        "showing the default sample instead. Load the file again to see it."
    )


def _param_values(params: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    """Every parameter as a link writes it (each name with ``prefix``)."""
    query = {}
    for name in PARAM_NAMES:
        value = params[name]
        if name == "keep_roles":
            query[prefix + name] = ",".join(value)
        elif name == "duplicate_threshold":
            query[prefix + name] = format_threshold(value)
        else:
            query[prefix + name] = str(int(value))
    return query


def link_query(
    sample: str | None,
    params: Mapping[str, Any],
    conversation: str | None = None,
    view: View | None = None,
) -> dict[str, str]:
    """The query that reproduces a view: the sample (or the workspace key of the conversation),
    every parameter, and the view's parts that are set."""
    query = {SAMPLE_PARAM: sample} if sample else {}
    if not sample and conversation:
        query[CONVERSATION_PARAM] = conversation
    query |= _param_values(params)
    view = view or View()
    if view.phrases:
        query[PHRASES_PARAM] = view.phrases
    if view.b_params:
        query |= _param_values(view.b_params, B_PREFIX)
    if view.message is not None:
        query[MESSAGE_PARAM] = str(view.message)
    if view.step is not None:
        query[STEP_PARAM] = str(view.step)
    if view.tokens:
        query[TOKENS_PARAM] = view.tokens
    if view.future is not None and view.future != DEFAULT_FUTURE:
        query[FUTURE_PARAM] = str(view.future)
    return query


def budget_slider_range(
    input_chars: int, budget: int, high: int | None = None
) -> tuple[int, int, int]:
    """``(min, max, step)`` of the budget slider: the schema's minimum up to this conversation.

    The number box beside it takes the schema's full range; the slider spans what matters for
    the loaded conversation (its characters, or the budget when that is larger), so a drag of a
    few pixels does not jump thousands of characters. ``high``: the largest budget of the
    conversation's mode (default the contract's; 2,000,000 for a whole session).
    """
    low, top_of_mode = (int(v) for v in RANGES["budget_chars"])
    high = top_of_mode if high is None else high
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


def params() -> dict[str, Any]:
    """The parameters the sidebar (A) holds now."""
    return read_params(PARAM_KEYS)


def set_params(values: Mapping[str, Any]) -> None:
    """Put parameters into the sidebar's widgets (before they are drawn, or from a callback)."""
    write_params(PARAM_KEYS, values)


#: The parameters each conversation had when the user left it, by its key (issue 40: choosing a
#: conversation again reset the budget and max_message_chars the user had set for it).
PARAMS_BY_CONVERSATION_KEY = "params_by_conversation"


def remember_params() -> None:
    """Keep the sidebar's parameters as the loaded conversation's own, for a return to it."""
    kept = st.session_state.setdefault(PARAMS_BY_CONVERSATION_KEY, {})
    kept[conversation().key] = params()


def remembered_params(conv: Conversation) -> dict[str, Any] | None:
    """The parameters ``conv`` had when the user last left it in this session; None if never."""
    return st.session_state.get(PARAMS_BY_CONVERSATION_KEY, {}).get(conv.key)


def choice_of(conv: Conversation) -> str:
    """The sample picker's value for the loaded ``conv``: its sample, or :data:`YOURS`."""
    return conv.sample or YOURS


def load(
    conv: Conversation, values: Mapping[str, Any] | None = None, *, stored: bool = False
) -> None:
    """Make ``conv`` the conversation, with ``values`` (default: its own parameters).

    Call before the sidebar is drawn or from a widget callback; from a page body use
    :func:`load_next_run`. A conversation that is not a sample is kept in the workspace, unless
    it was just read from it (``stored``).
    """
    if stored:
        keeping.stored(conv)
    elif conv.sample is None:  # kept, so that a link to it reopens it on this server
        keeping.keep(conv)
    st.session_state[CONVERSATION_KEY] = conv
    st.session_state[SAMPLE_KEY] = choice_of(conv)
    set_params(conv.params if values is None else values)


def load_next_run(conv: Conversation, values: Mapping[str, Any] | None = None) -> None:
    """Load ``conv`` at the start of the next run and rerun now (for code after the sidebar)."""
    st.session_state[PENDING_KEY] = (conv, values)
    st.rerun()


def apply_view(view: View, conv: Conversation, params: Mapping[str, Any]) -> None:
    """Put a link's view into the widgets' keys (before any of them is drawn)."""
    if view.phrases is not None:
        st.session_state[PHRASES_KEY] = view.phrases
    if view.b_params:
        write_params(B_KEYS, {**params, **view.b_params})
        st.session_state[B_FOR_KEY] = conv.key
    if view.message is not None and view.message < len(conv.messages):
        st.session_state[PICKER_KEY] = view.message
    if view.step is not None:
        st.session_state[STEP_KEY] = view.step
    if view.tokens is not None:
        st.session_state[TOKENS_KEY] = view.tokens
    if view.future is not None:
        st.session_state[FUTURE_WANTED_KEY] = view.future


def current_view(conv: Conversation) -> View:
    """The view's parts the session holds now, as a link carries them."""
    state = st.session_state
    b_params: dict[str, Any] = {}
    if state.get(B_FOR_KEY) == conv.key and all(key in state for key in B_KEYS.values()):
        b_params = read_params(B_KEYS)
    message = state.get(PICKER_KEY)
    step = state.get(STEP_KEY)
    future = state.get(FUTURE_WANTED_KEY)
    return View(
        phrases=state.get(PHRASES_KEY) or None,
        b_params=b_params,
        message=message if isinstance(message, int) and message < len(conv.messages) else None,
        step=step if step in STEPS else None,
        tokens=state.get(TOKENS_KEY) if state.get(TOKENS_KEY) in ENCODINGS else None,
        future=future if isinstance(future, int) and future != DEFAULT_FUTURE else None,
    )


def token_encoding() -> str | None:
    """The encoding the sidebar counts in; None for characters, or without the tokens extra."""
    choice = st.session_state.get(TOKENS_KEY)
    return choice if choice in ENCODINGS and tokens_available() else None


def start(samples: Mapping[str, Conversation], default_sample: str) -> None:
    """Prepare a run: on a session's first run read the URL; apply a load asked for last run."""
    if not st.session_state.get(READY_KEY):
        link = parse_link(st.query_params.to_dict(), list(samples))
        notices = list(link.notices)
        found: list[str] = []
        conv = workspace.get(link.conversation, found) if link.conversation else None
        keeping.say(found)
        if link.conversation and conv is None:
            notices.append(missing_conversation_notice(link.conversation, bool(found)))
        stored = conv is not None
        if conv is None:
            conv = samples[link.sample or default_sample]
        values = {**conv.params, **link.params}
        load(conv, values, stored=stored)
        apply_view(link.view, conv, values)
        if link.view.future is not None:
            capped = capped_future_notice(link.view.future, len(conv.messages))
            notices += [capped] if capped else []
        st.session_state[NOTICES_KEY] = tuple(notices)
        st.session_state[READY_KEY] = True
    pending = st.session_state.pop(PENDING_KEY, None)
    if pending is not None:
        load(*pending)


def sync_url(conv: Conversation, values: Mapping[str, Any]) -> None:
    """Write the view into the URL, only when it changed (each write reaches the browser)."""
    wanted = link_query(conv.sample, values, conv.key, current_view(conv))
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)
