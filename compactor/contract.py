"""The constants of the memory-compact contract, defined once and reported from here."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any


def _load(name: str) -> Any:
    return json.loads(resources.files("compactor.data").joinpath(name).read_text("utf-8"))


#: The seed's own input JSON Schema (a verbatim copy of the catalog entry's ``inputSchema``).
INPUT_SCHEMA: Mapping[str, Any] = _load("memory_compact.input.schema.json")
#: The catalog's published request example (the "dispatcher" conversation).
REQUEST_EXAMPLE: Mapping[str, Any] = _load("memory_compact.request.example.json")

_PROPS = INPUT_SCHEMA["properties"]
_MESSAGE = _PROPS["messages"]["items"]["properties"]

ROLES: tuple[str, ...] = tuple(_MESSAGE["role"]["enum"])
#: The request's parameters (every top-level field but ``messages``), in the schema's order.
PARAMETERS: tuple[str, ...] = tuple(name for name in _PROPS if name != "messages")
#: Parameter defaults exactly as the schema states them.
DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {name: spec["default"] for name, spec in _PROPS.items() if "default" in spec}
)
#: Parameter ranges exactly as the schema states them: name -> (minimum, maximum).
RANGES: Mapping[str, tuple[float, float]] = MappingProxyType(
    {
        name: (spec["minimum"], spec["maximum"])
        for name, spec in _PROPS.items()
        if "minimum" in spec and "maximum" in spec
    }
)
LIMITS = MappingProxyType(
    {
        "min_messages": _PROPS["messages"]["minItems"],
        "max_messages": _PROPS["messages"]["maxItems"],
        "max_content_chars": _MESSAGE["content"]["maxLength"],
        "max_id_chars": _MESSAGE["id"]["maxLength"],
        "max_keep_roles": _PROPS["keep_roles"]["maxItems"],
    }
)

# The two limit modes. "contract" is the catalog's schema exactly (what ``POST
# /v1/memory-compact``, ``compact`` on the command line and ``compactor.compact`` check by
# default). "agent" runs the same four stages on whole agent sessions: it lifts exactly the checks
# in AGENT_LIFTED and nothing else (every other bound, type and default is the contract's).
CONTRACT_LIMITS = "contract"
AGENT_LIMITS = "agent"
LIMIT_MODES: tuple[str, ...] = (CONTRACT_LIMITS, AGENT_LIMITS)
#: For a reader of whole conversations (the analyses' command lines, graded, the explorer): the
#: contract's mode for a request within its limits, else the agent mode.
AUTO_LIMITS = "auto"
#: The largest budget the agent mode accepts (500,000 tokens at about 4 characters a token).
AGENT_MAX_BUDGET_CHARS = 2_000_000


def _agent_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(schema))
    props = out["properties"]
    del props["messages"]["maxItems"]
    del props["messages"]["items"]["properties"]["content"]["maxLength"]
    props["budget_chars"]["maximum"] = AGENT_MAX_BUDGET_CHARS
    return out


#: The input schema of the agent mode: the contract's with AGENT_LIFTED lifted.
AGENT_INPUT_SCHEMA: Mapping[str, Any] = _agent_schema(INPUT_SCHEMA)
#: The checks the agent mode lifts, in words (the docs and ``--help`` quote them).
AGENT_LIFTED: tuple[str, ...] = (
    f"at most {LIMITS['max_messages']} messages (any number from {LIMITS['min_messages']})",
    f"at most {LIMITS['max_content_chars']:,} characters a content (any length)",
    f"a budget of at most {int(RANGES['budget_chars'][1]):,} characters "
    f"(at most {AGENT_MAX_BUDGET_CHARS:,})",
)


def budget_range(limits: str = CONTRACT_LIMITS) -> tuple[int, int]:
    """The budgets a mode accepts, ``(low, high)``: ``budget_range("agent")[1] == 2_000_000``."""
    low, high = RANGES["budget_chars"]
    return int(low), AGENT_MAX_BUDGET_CHARS if limits == AGENT_LIMITS else int(high)


#: The algorithm's name, as the catalog names it: the name every layer gives the contract's
#: engine among the strategies (the registry, settings, rows, replays, the command line).
MEMORY_COMPACT = "memory-compact"

# Stage 1, pin: the reasons in the order the contract lists them, and each in words
# (``{role}`` and ``{n}`` are the message's role and keep_last_n).
PIN_REASONS: tuple[str, ...] = ("pin", "role", "recent")
PIN_REASON_TEXT: Mapping[str, str] = MappingProxyType(
    {
        "pin": "it is pinned (pin: true)",
        "role": "its role, {role}, is in keep_roles",
        "recent": "it is one of the last {n} messages (keep_last_n)",
    }
)


def pin_reason(reason: str, role: str, keep_last_n: int) -> str:
    """Why a message is protected, in words: ``pin_reason("role", "system", 2)``."""
    return PIN_REASON_TEXT[reason].format(role=role, n=keep_last_n)


# Stage 3, trim.
SENTENCE_ENDS = frozenset(".!?…。！？")
FULL_WIDTH_SENTENCE_ENDS = frozenset("。！？")
#: A sentence cut is used only when it keeps at least this share of the allowed length.
SENTENCE_CUT_MIN_SHARE = 0.4

# Stage 4, drop.
WEIGHTS: Mapping[str, float] = MappingProxyType({"recency": 0.5, "role": 0.3, "topic_overlap": 0.2})
ROLE_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {"system": 1.0, "user": 1.0, "assistant": 0.7, "tool": 0.5}
)
TOPIC_TERM_COUNT = 25
#: Topic terms are words longer than three characters.
TOPIC_TERM_MIN_CHARS = 4
SCORE_DECIMALS = 6
SIMILARITY_DECIMALS = 6
RATIO_DECIMALS = 4

# The free-text parts of the response, in the project's own words.
DEDUPE_METHOD = (
    "Jaccard overlap of word sets, same role only; the earlier message still present wins"
)
TRIM_CUT_AT = (
    "last sentence end within the limit if it keeps at least 40 percent of it, "
    "else a hard cut at the limit that never splits a grapheme cluster"
)
DROP_ORDER = "lowest score first, lower index first on a tie"
SCORING_NOTE = (
    "score = 0.5 * recency + 0.3 * role weight + 0.2 * topic overlap, rounded to 6 decimals. "
    "Recency is the message's position in the history, index / (messages - 1), from 0 (oldest) "
    "to 1 (newest). Role weight is taken from role_weights. Topic overlap is the share of the "
    "message's distinct words (from its original content) that are in topic_terms_used: the 25 "
    "most frequent words longer than three characters across the whole input history, most "
    "frequent first, ties in alphabetical order."
)


@dataclass(frozen=True)
class Stage:
    """One stage of the pipeline as every report names it (response, walkthrough, views)."""

    name: str  # the response's ``stage``
    order: int  # the response's ``order``, 1 to 4
    title: str  # a heading: what the stage is for
    parameter: str  # the parameter the stage reads
    method: str  # its rule in words


#: The four stages in order: the one table the response, the walkthrough and every view read.
STAGES: tuple[Stage, ...] = (
    Stage(
        "pin",
        1,
        "Pin: protect what must stay",
        "keep_roles",
        "pinned messages, messages of keep_roles and the last keep_last_n are protected",
    ),
    Stage("dedupe", 2, "Dedupe: remove repeats", "duplicate_threshold", DEDUPE_METHOD),
    Stage("trim", 3, "Trim: cut long messages", "max_message_chars", TRIM_CUT_AT),
    Stage("drop", 4, "Drop: fit the budget", "budget_chars", DROP_ORDER),
)
STAGE: Mapping[str, Stage] = MappingProxyType({s.name: s for s in STAGES})

LIMITS_TEXT = (
    "This is a rule-based method without a language model. It never summarises, paraphrases or "
    "rewrites: every returned content is an unchanged prefix of its input, and nothing is added. "
    "Duplicates are found by shared vocabulary, not meaning: the same fact in other words is not "
    "recognised, and two different questions with the same words can be. A trim keeps the start "
    "of a message and can cut away its point. Scores know position, role and frequent words, not "
    "importance. Protected messages are never removed, so when they alone exceed the budget the "
    "budget cannot be met and budget_met is false."
)
