"""focus: keep what the pending turn is about, then the most recent context (issue 38).

An alternative beside memory-compact (``compact`` does not change), deterministic and without a
language model. Compaction runs before a model call, and what the model is about to be asked is
in hand: the *focus*, a text, by default the content of the last ``user`` message of the
history (the pending turn). Parts of the history are ranked by how well they match it, by BM25
(:mod:`compactor.text._relevance`, the ``focus`` extra: bm25s).

The rule:

1. The messages memory-compact protects (pins, roles in ``keep_roles``, the last
   ``keep_last_n``) are kept whole; when they alone exceed the budget every other message is
   removed, as memory-compact does.
2. Every other message is a unit, or, when longer than ``part_chars``, is cut into parts of at
   most ``part_chars`` (whole lines, a long line between words: paragraphs of a tool result).
3. The query: the focus's terms (weight 1) and the terms of the last ``query_messages``
   messages (the recent turns, the first 2,000 characters of each, weight 0.3; they do not
   match those messages' own parts), so that a pending turn that says little ("continue") or
   lies far back still has a query.
4. ``recent_share`` of the budget left (default half) goes to the most recent messages first,
   newest first, each whole while it fits, the first that does not fit cut to the parts that
   fit from its start: focus never keeps less recent context than that.
5. The parts that match the query with at least ``min_score`` (default 0.3) of the best
   part's score, best score first, while they fit (a part that does not fit is passed over):
   a weak match (a word the whole history repeats) does not displace recent context; then
   what budget is left goes to the remaining parts of the most recent messages, newest first.
   When the focus says nothing (none, ``""``, "ok", "continue": only stop words and
   :data:`~compactor.text.FILLER`), the parts that cover the history's rare words take the
   matches' place (``cover``; :func:`~compactor.text.rare_word_cover`).

A message's returned content is its kept parts joined, in order: every returned character is an
input character, in order, and nothing is added. The result accounts for every message: kept
whole, cut (its kept spans listed) or removed, and why, with the focus terms it matched and
their scores.

A focus of ``""`` says nothing, and a history with no user message has no default focus: both
run the query-free mode (with ``cover=False``, the recent turns are the query); a focus of any
length is read whole (each term counted once). None of these raises.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from compactor.contract import PIN_REASON_TEXT
from compactor.errors import Problem
from compactor.model import Request
from compactor.strategies import _spans as spanned
from compactor.strategies._returned import StrategyResult, unavailable_result
from compactor.strategies._spans import (
    GONE,
    PART,
    WHOLE,
    Span,
    SpannedMessage,
    SpannedResult,
    merged,
    protection,
)
from compactor.strategies._spec import (
    Parameter,
    RegisteredStrategy,
    Source,
    StrategyParameterError,
)
from compactor.text import (
    FILLER,
    RELEVANCE_HINT,
    Relevance,
    RelevanceUnavailable,
    query_terms,
    rare_word_cover,
    relevance,
    relevance_available,
    units,
)

KEY = "focus"
NAME = "focus (what the pending turn is about, then recent context)"
#: The strategy's own parameters and their defaults (``keep_last_n`` and ``keep_roles`` are the
#: request's own unless given here).
PARAMETERS: Mapping[str, Any] = {
    "focus": None,
    "part_chars": 1000,
    "recent_share": 0.5,
    "query_messages": 3,
    "cover": True,
    "min_score": 0.3,
    "spread": 0,
}
#: The weight of a recent turn's terms in the query (a focus term weighs 1).
RECENT_TERM_WEIGHT = 0.3
#: How much of each recent turn the query reads (a tool result's head names what it is).
QUERY_CHARS = 2000
#: The most matched terms a message's reason names (of the focus, and of the recent turns).
NAMED_TERMS = 5
#: The most matched terms a message's account keeps, best first.
MATCHED_TERMS = 12
INSTALL_HINT = RELEVANCE_HINT

# Why a part was kept.
RECENT, MATCH, RARE, FILL = "recent", "match", "rare", "fill"
#: The most rare words a message's reason names.
NAMED_WORDS = 6


def focus_available() -> bool:
    """Whether bm25s (the focus extra) is installed."""
    return relevance_available()


@dataclass(frozen=True)
class Focus:
    """The query one run used: the focus text, where it came from, and its terms."""

    text: str
    #: "given", "the last user message (message 12)", or "none: ..." when there is none.
    source: str
    #: The query's terms with their weights: the focus's first (1.0), then the recent turns'.
    terms: tuple[tuple[str, float], ...]
    #: How many last messages added their terms (their parts are not matched with them).
    turns: int = 0
    #: The query-free mode: the focus says nothing (none, "", "ok", "continue"), so the parts
    #: that cover the history's rare words are kept instead of those that match a query.
    free: bool = False

    @property
    def focus_terms(self) -> tuple[str, ...]:
        """The terms of the focus text itself (weight 1)."""
        return tuple(t for t, w in self.terms if w == 1.0)


@dataclass(frozen=True)
class FocusedMessage(SpannedMessage):
    """What focus did with one input message, and why."""

    index: int
    role: str
    original_chars: int
    kept: str  # "kept" (whole), "cut" (some spans) or "removed"
    #: The kept ``(start, end)`` spans of the input content, ordered, disjoint and not adjacent.
    spans: tuple[Span, ...]
    protected_because: tuple[str, ...]  # "pin", "role", "recent" (memory-compact's reasons)
    #: The query terms its kept parts matched (its parts', when removed), with their summed
    #: scores, best first (at most MATCHED_TERMS; the reason says how many more).
    matched: tuple[tuple[str, float], ...]
    reason: str


@dataclass(frozen=True)
class FocusResult(SpannedResult):
    """One focus run: the request, the budget, the query and the account of every message."""

    request: Request
    budget_chars: int
    parameters: Mapping[str, Any]
    focus: Focus
    messages: tuple[FocusedMessage, ...]


def default_focus(request: Request) -> tuple[str, str]:
    """The pending turn: the content of the last ``user`` message, and where it came from."""
    for message in reversed(request.messages):
        if message.role == "user":
            return message.content, f"the last user message (message {message.index})"
    return "", "none: the history has no user message"


def apply(
    request: Request, budget_chars: int | None = None, params: Mapping[str, Any] | None = None
) -> FocusResult:
    """Keep what the focus is about, then recent context, of ``request`` within ``budget_chars``.

    Args:
        request: a valid request; its ``keep_last_n`` and ``keep_roles`` and the messages' pins
            say what is protected (kept whole).
        budget_chars: the budget in characters (default: the request's own).
        params: ``focus`` (a text; default: the last user message), ``part_chars`` (how long a
            part may be, default 1,000), ``recent_share`` (the share of the budget kept for the
            most recent messages first, 0 to 1, default 0.5), ``query_messages`` (how many last
            messages add their terms to the query, default 3), ``min_score`` (the share of the
            best part's score a match needs, default 0.3), ``cover`` (the query-free mode when
            the focus says nothing, default on), ``keep_last_n`` and
            ``keep_roles`` (default: the request's).

    Returns:
        A :class:`FocusResult`: the query used, and per message whether it was kept, cut or
        removed, its kept spans, the focus terms it matched and why.

    Raises:
        StrategyParameterError: a parameter it does not take or cannot read.
        RelevanceUnavailable: bm25s is not installed (the message says how to install it).

    Example:
        >>> from compactor import validate
        >>> request = validate({"messages": [
        ...     {"role": "user", "content": "My parcel DE-4471 should reach Oslo by Friday."},
        ...     {"role": "assistant", "content": "Noted. Anything else about the weather?"},
        ...     {"role": "user", "content": "Lunch was good, thanks for asking earlier."},
        ...     {"role": "assistant", "content": "Glad to hear it."},
        ...     {"role": "user", "content": "When does my parcel reach Oslo?"}],
        ...     "budget_chars": 100, "keep_last_n": 1})
        >>> result = apply(request, 100, {"query_messages": 0})
        >>> result.focus.focus_terms
        ('parcel', 'reach', 'oslo')
        >>> [m.kept for m in result.messages]
        ['kept', 'removed', 'removed', 'kept', 'kept']
        >>> result.messages[0].reason
        'kept whole: it matches the focus (parcel 0.41, reach 0.41, oslo 0.41)'
    """
    run = _decide(request, budget_chars, params)
    options, budget, because, focus = run.options, run.budget, run.because, run.focus
    contents, pieces, why, by_message = request.contents, run.pieces, run.why, run.by_message
    over = run.protected_chars > budget
    focus_set = frozenset(focus.focus_terms)
    messages = []
    # what each message matched: its kept parts', or all its parts' when none was kept
    owner = [
        i if k in why or not any(j in why for j in by_message[i]) else -1
        for k, (i, _, _) in enumerate(pieces)
    ]
    matches = run.found.grouped(owner, MATCHED_TERMS)
    for i, message in enumerate(request.messages):
        text = contents[i]
        mine = by_message[i]
        if because[i]:
            spans: tuple[Span, ...] = ((0, len(text)),)
        else:
            spans = merged([pieces[k][1:] for k in mine if k in why])
        kept = GONE if not spans else WHOLE if spans == ((0, len(text)),) else PART
        matched, count = matches.get(i, ((), 0))
        said = [
            PIN_REASON_TEXT[r].format(role=message.role, n=options["keep_last_n"])
            for r in because[i]
        ]
        reason = _reason(
            said,
            kept,
            matched,
            {why[k] for k in mine if k in why},
            (sum(k in why for k in mine), len(mine)),
            over,
            focus_set,
            count,
            [w for k in mine for w in run.rare.get(k, ())],
            focus.free,
        )
        messages.append(
            FocusedMessage(i, message.role, len(text), kept, spans, because[i], matched, reason)
        )
    return FocusResult(request, budget, options, focus, tuple(messages))


def lineup_result(
    request: Request, budget_chars: int | None = None, params: Mapping[str, Any] | None = None
) -> StrategyResult:
    """focus as one result of the strategies' lineup: messages kept, cut or removed; a cut
    message's ``chars`` are its kept spans' characters and its ``spans`` list them (as
    anchor-keep's), so the judge reads what it really kept. Without bm25s it is a result that
    did not run, saying how to install it."""
    budget = request.params.budget_chars if budget_chars is None else int(budget_chars)
    try:
        run = _decide(request, budget, params)
    except RelevanceUnavailable as missing:
        return unavailable_result(KEY, NAME, "", str(missing), dict(params or {}), budget)
    options, focus = run.options, run.focus
    how = (
        f"protects pins, roles {list(options['keep_roles'])} and the last "
        f"{options['keep_last_n']} messages; keeps {options['recent_share']:g} of the budget "
        f"for the most recent messages, then parts of up to {options['part_chars']} characters "
        f"by BM25 against the focus ({focus.source}) and the last {options['query_messages']} "
        "messages, then recent context"
    )
    shown = focus.text if len(focus.text) <= 500 else focus.text[:500] + "…"
    parameters = {
        **options,
        "keep_roles": list(options["keep_roles"]),
        "focus": shown,
        "focus_from": focus.source,
        "focus_terms": list(focus.focus_terms[:30]),
    }
    contents, pieces, why = request.contents, run.pieces, run.why
    spans = [
        ((0, len(contents[i])),)
        if run.because[i]
        else merged([pieces[k][1:] for k in mine if k in why])
        for i, mine in enumerate(run.by_message)
    ]
    return spanned.spans_result(KEY, NAME, how, parameters, request, budget, spans)


def _run(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    # keep_last_n and keep_roles at None are the request's own; focus at None the pending turn
    return lineup_result(request, budget, {k: v for k, v in params.items() if v is not None})


#: focus in the registry (:mod:`compactor.strategies._registry` registers it).
STRATEGY = RegisteredStrategy(
    KEY,
    "focus (what the pending turn is about, then recent context)",
    Source(
        "this project: compactor/strategies/_focus.py (issue 38); BM25 by bm25s "
        "(https://github.com/xhluca/bm25s)",
        "compactor/strategies/_focus.py",
        "this project",
    ),
    (
        Parameter(
            "focus",
            "str",
            None,
            "what the pending turn is about (default: the last user message)",
            nullable=True,
        ),
        Parameter(
            "part_chars",
            "int",
            PARAMETERS["part_chars"],
            "how long a part of a long message may be",
            1,
        ),
        Parameter(
            "recent_share",
            "float",
            PARAMETERS["recent_share"],
            "the share of the budget kept for the most recent messages first (0 to 1)",
            0,
        ),
        Parameter(
            "query_messages",
            "int",
            PARAMETERS["query_messages"],
            "how many last messages add their terms to the query (weight 0.3)",
            0,
        ),
        Parameter(
            "min_score",
            "float",
            PARAMETERS["min_score"],
            "the share of the best part's score a part needs to be kept as a match (0 to 1)",
            0,
        ),
        Parameter(
            "spread",
            "int",
            PARAMETERS["spread"],
            "how many parts before and after a part add their scores to its own (0: none)",
            0,
        ),
        Parameter(
            "cover",
            "bool",
            PARAMETERS["cover"],
            "when the focus says nothing (none, empty, 'ok', 'continue'), keep the parts that "
            "cover the history's rare words (else the recent turns are the query)",
        ),
        Parameter("keep_last_n", "int", None, "the request's own unless given", 0, nullable=True),
        Parameter("keep_roles", "names", None, "the request's own unless given", nullable=True),
    ),
    _run,
    budget="budget_chars is the budget; keep_last_n and keep_roles are the request's own "
    "unless given",
    needs="the focus extra",
)


# --- the rule ----------------------------------------------------------------------------------


class _Run(NamedTuple):
    """What one run decided, before its account is written."""

    options: dict[str, Any]
    budget: int
    because: list[tuple[str, ...]]
    protected_chars: int
    focus: Focus
    pieces: tuple[tuple[int, int, int], ...]
    found: Relevance
    by_message: tuple[tuple[int, ...], ...]  # per message, its parts (indices into pieces)
    why: dict[int, str]  # part -> RECENT, MATCH, RARE or FILL
    rare: dict[int, tuple[str, ...]]  # part -> the rare words it was first to hold


def _decide(request: Request, budget_chars: int | None, params: Mapping[str, Any] | None) -> _Run:
    """The rule: which parts are kept, and why."""
    options = _options(request, params)
    budget = request.params.budget_chars if budget_chars is None else int(budget_chars)
    contents = request.contents
    because, protected_chars = protection(request, options)
    focus = _query(request, options)
    pieces, found, by_message, fill_order = _prepared(
        tuple(contents), tuple(because), options["part_chars"], focus.terms, focus.turns
    )
    why: dict[int, str] = {}
    rare: dict[int, tuple[str, ...]] = {}
    if protected_chars <= budget:
        left = budget - protected_chars
        left -= _recent(pieces, int(left * options["recent_share"]), why)
        if focus.free:
            cover = rare_word_cover([contents[i][s:e] for i, s, e in pieces], left, set(why))
            for k, words in zip(cover.picked, cover.words, strict=True):
                why[k] = RARE
                rare[k] = words
                left -= pieces[k][2] - pieces[k][1]
        else:
            scores = _spread(found.scores, options["spread"])
            left = _by_score(pieces, scores, left, why, options["min_score"])
        _fill_recent(pieces, left, why, fill_order)
    return _Run(
        options, budget, because, protected_chars, focus, pieces, found, by_message, why, rare
    )


@functools.lru_cache(maxsize=4)
def _prepared(
    contents: tuple[str, ...],
    because: tuple[tuple[str, ...], ...],
    part_chars: int,
    terms: tuple[tuple[str, float], ...],
    turns: int,
) -> tuple[
    tuple[tuple[int, int, int], ...],
    Relevance,
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
]:
    """What the budget does not change, kept for the last few histories and queries (keyed on
    the texts themselves, so that moving the budget over one history, the explorer's slider
    or a sweep, pays only for the choice): the parts, their BM25 scores for the query, each
    message's parts, and the order :func:`_fill_recent` reads them in (the parts, and arrays of
    one entry per part and query term it holds: about 1 MB per history of 1,000,000
    characters). Read-only for the callers: tuples, and arrays that cannot be written."""
    pieces = tuple(_pieces(contents, because, part_chars))
    # the recent turns' own words do not match their own parts
    sources = set(range(len(contents))[-turns:]) if turns else set()
    recent_terms = {t for t, w in terms if w != 1.0}
    own = [k for k, (i, _, _) in enumerate(pieces) if i in sources]
    found = relevance([contents[i][s:e] for i, s, e in pieces], dict(terms), (own, recent_terms))
    for array in (found.scores, found._texts, found._terms, found._scores):
        array.flags.writeable = False
    by_message: list[list[int]] = [[] for _ in contents]
    for k, (i, _, _) in enumerate(pieces):
        by_message[i].append(k)
    # newest message first, each message's parts from its start
    fill_order = tuple(k for parts in reversed(by_message) for k in parts)
    return pieces, found, tuple(map(tuple, by_message)), fill_order


def _options(request: Request, params: Mapping[str, Any] | None) -> dict[str, Any]:
    given = dict(params or {})
    known = {*PARAMETERS, "keep_last_n", "keep_roles"}
    problems = [
        Problem(
            f"is not a parameter of {KEY}; its parameters are {', '.join(sorted(known))}",
            path=f"{KEY}.{name}",
        )
        for name in sorted(set(given) - known)
    ]
    own = {**PARAMETERS, "keep_last_n": request.params.keep_last_n}
    own["keep_roles"] = request.params.keep_roles
    options = {k: given[k] if given.get(k) is not None else v for k, v in own.items()}
    for name in STRATEGY.parameters:
        if name.name in given and given[name.name] is not None:
            try:
                name.check(given[name.name], f"{KEY}.{name.name}")
            except StrategyParameterError as error:
                problems += error.problems
    options["keep_roles"] = tuple(options["keep_roles"])
    share = options["recent_share"]
    if isinstance(share, int | float) and not isinstance(share, bool) and share > 1:
        problems.append(Problem(f"must be at most 1, not {share}", path=f"{KEY}.recent_share"))
    if problems:
        raise StrategyParameterError(problems)
    return options


def _query(request: Request, options: Mapping[str, Any]) -> Focus:
    """The focus's terms (weight 1), then the recent turns' (weight RECENT_TERM_WEIGHT)."""
    if options["focus"] is None:
        text, source = default_focus(request)
    else:
        text, source = options["focus"], "given"
    terms: dict[str, float] = dict.fromkeys(query_terms(text), 1.0)
    if options["cover"] and not set(terms) - FILLER:
        said = "no text" if not text.strip() else "nothing about what comes next"
        source = f"{source}; it says {said}: the history's rare words instead"
        return Focus(text, source, (), 0, free=True)
    if options["query_messages"]:
        for message in reversed(request.messages[-options["query_messages"] :]):
            for term in query_terms(message.content[:QUERY_CHARS]):
                terms.setdefault(term, RECENT_TERM_WEIGHT)
    return Focus(text, source, tuple(terms.items()), options["query_messages"])


def _pieces(
    contents: Sequence[str], because: Sequence[tuple[str, ...]], part_chars: int
) -> list[tuple[int, int, int]]:
    """``(message, start, end)`` of the parts of the unprotected messages, in order: a message
    of at most ``part_chars`` is one part; a longer one is cut into runs of whole lines (a long
    line between words) of at most ``part_chars``."""
    out = []
    for i, text in enumerate(contents):
        if because[i] or not text:
            continue
        if len(text) <= part_chars:
            out.append((i, 0, len(text)))
            continue
        quick = _whole_lines(text, part_chars)
        if quick is not None:
            out.extend((i, a, b) for a, b in quick)
            continue
        start = end = 0
        for a, b in units(text, part_chars):
            if b - start > part_chars and end > start:
                out.append((i, start, end))
                start = a
            end = b
        out.append((i, start, end))
    return out


def _whole_lines(text: str, part_chars: int) -> list[tuple[int, int]] | None:
    """The parts of ``text`` when none of its lines is longer than ``part_chars`` (each part
    the most whole lines that fit, found by searching back for a line break rather than by
    reading the lines one by one), else None."""
    out = []
    start, size = 0, len(text)
    while size - start > part_chars:
        end = text.rfind("\n", start, start + part_chars) + 1
        if end <= start:
            return None  # a line longer than a part: cut between words
        out.append((start, end))
        start = end
    out.append((start, size))
    return out


def _recent(pieces: Sequence[tuple[int, int, int]], room: int, why: dict[int, str]) -> int:
    """The most recent messages within ``room``, newest first, each whole while it fits; the
    first that does not fit keeps the parts that fit from its start, and ends the run. Returns
    the characters kept."""
    used = 0
    k = len(pieces) - 1
    while k >= 0:
        index = pieces[k][0]
        first = k
        while first > 0 and pieces[first - 1][0] == index:
            first -= 1
        size = sum(e - s for _, s, e in pieces[first : k + 1])
        if used + size <= room:
            for j in range(first, k + 1):
                why[j] = RECENT
            used += size
            k = first - 1
            continue
        for j in range(first, k + 1):
            part = pieces[j][2] - pieces[j][1]
            if used + part > room:
                break
            why[j] = RECENT
            used += part
        break
    return used


def _spread(scores: Any, width: int) -> Any:
    """Each part's score summed with those of the ``width`` parts before and after it (0: its
    own): a run of parts about the focus (a passage of short turns, some of which say only
    "yes") ranks as a run."""
    if not width or not len(scores):
        return scores
    return np.convolve(scores, np.ones(2 * width + 1), mode="same")


def _by_score(
    pieces: Sequence[tuple[int, int, int]],
    scores: Any,
    left: int,
    why: dict[int, str],
    min_score: float = 0.0,
) -> int:
    """The parts that match the query with at least ``min_score`` of the best part's score,
    best score first (ties: the later part), while they fit (one that does not fit is passed
    over); returns the characters left."""
    floor = max(float(max(scores, default=0.0)) * min_score, 0.0)
    order = sorted(
        (k for k in range(len(pieces)) if scores[k] > 0 and scores[k] >= floor),
        key=lambda k: (-scores[k], -k),
    )
    for k in order:
        if left <= 0:
            break
        size = pieces[k][2] - pieces[k][1]
        if k not in why and size <= left:
            why[k] = MATCH
            left -= size
    return left


def _fill_recent(
    pieces: Sequence[tuple[int, int, int]],
    left: int,
    why: dict[int, str],
    order: Sequence[int] | None = None,
) -> None:
    """Spend what is left on the parts not kept yet, newest message first, each message's parts
    from its start (a part that does not fit is passed over; ``order``: the parts in that order,
    when known)."""
    if order is None:
        order = sorted(range(len(pieces)), key=lambda k: (-pieces[k][0], k))
    for k in order:
        if left <= 0:
            break
        size = pieces[k][2] - pieces[k][1]
        if k not in why and size <= left:
            why[k] = FILL
            left -= size


def _named(matched: Sequence[tuple[str, float]]) -> str:
    return ", ".join(f"{t} {s:.2f}" for t, s in matched[:NAMED_TERMS])


def _matches(matched: Sequence[tuple[str, float]], focus_terms: Collection[str], count: int) -> str:
    """``it matches the focus (terms)``, ``... and the recent turns (terms)``, or ``it matches
    the recent turns (terms)``; then how many more terms it matched, when more."""
    own = [m for m in matched if m[0] in focus_terms]
    recent = [m for m in matched if m[0] not in focus_terms]
    said = []
    if own:
        said.append(f"the focus ({_named(own)})")
    if recent:
        said.append(f"the recent turns ({_named(recent)})")
    shown = min(len(own), NAMED_TERMS) + min(len(recent), NAMED_TERMS)
    more = f"; {count - shown} more terms" if count > shown else ""
    return "it matches " + " and ".join(said) + more


def _reason(
    protected: list[str],
    kept: str,
    matched: Sequence[tuple[str, float]],
    whys: set[str],
    parts: tuple[int, int],
    over: bool,
    focus_terms: Collection[str] = (),
    count: int = 0,
    rare_words: Sequence[str] = (),
    free: bool = False,
) -> str:
    if protected:
        return "protected, kept whole: " + "; ".join(protected)
    if over:
        return "removed: the protected messages alone exceed the budget"
    if kept == GONE:
        if matched:
            return (
                f"removed: {_matches(matched, focus_terms, count)}, but did not fit in what the "
                "budget held after better matches and recent context"
            )
        if free:
            return (
                "removed: older than the recent context the budget held, and it added fewer "
                "new rare words per character than the parts kept for them"
            )
        return "removed: no focus term in it, and older than the recent context the budget held"
    said = []
    if RECENT in whys:
        said.append("one of the most recent messages (the share of the budget kept for them)")
    if MATCH in whys:
        said.append(
            _matches(matched, focus_terms, count)
            if matched
            else "it lies among parts that match the focus (spread)"
        )
    if RARE in whys:
        more = len(rare_words) - NAMED_WORDS
        named = ", ".join(rare_words[:NAMED_WORDS]) + (f"; {more} more" if more > 0 else "")
        said.append(f"it was the first to hold rare words of the history ({named})")
    if FILL in whys:
        said.append("recent context in the room left")
    head = "kept whole" if kept == WHOLE else f"cut to {parts[0]} of its {parts[1]} parts"
    return f"{head}: " + " and ".join(said)
