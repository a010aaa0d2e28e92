"""anchor-keep: keep the parts of the history that hold what a later turn may need verbatim.

An alternative beside memory-compact (``compact`` does not change), deterministic and without a
language model. The messages memory-compact protects (pins, roles in ``keep_roles``, the last
``keep_last_n``) are kept whole. Every other message is cut into units (lines, long lines at
sentence ends and between words: :func:`compactor.text._salient.units`). Given a ``focus`` (a
text), the units that match its terms rank first: best BM25 score first while they fit
(:mod:`compactor.text._relevance`, the ``focus`` extra). Then a unit's value is the
salient terms it holds (ids, amounts, times, paths, code names:
:func:`compactor.text._salient.salient_terms`) that nothing kept so far holds, each weighted by
how often the history mentions it. Units are chosen greedily by new value per character while
they fit the budget (one kept occurrence of a term is enough), and what budget is left goes to
the remaining units of the most recent messages, newest first. A message's returned content is
the concatenation of its kept units, in order: every returned character is an input character,
in order, and nothing is added (no elision marker).

The result accounts for every message: kept whole, cut (its kept spans listed) or removed, and
why. The budget is met whenever the protected messages fit it; when they do not, every other
message is removed, as memory-compact does.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, NamedTuple

from compactor.contract import PIN_REASON_TEXT
from compactor.input import validate
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
from compactor.text import (
    UNIT_CHARS,
    RelevanceUnavailable,
    query_terms,
    relevance,
    salient_terms,
    salient_terms_of,
    units,
)

KEY = "anchor-keep"
NAME = "anchor-keep (the units that hold salient terms, then recent context)"
#: The strategy's own parameters and their defaults (``keep_last_n`` and ``keep_roles`` are the
#: request's own unless given here).
PARAMETERS: Mapping[str, Any] = {"unit_chars": UNIT_CHARS, "fill_recent": True, "focus": None}


@dataclass(frozen=True)
class KeptMessage(SpannedMessage):
    """What anchor-keep did with one input message, and why."""

    index: int
    role: str
    original_chars: int
    kept: str  # "kept" (whole), "cut" (some spans) or "removed"
    #: The kept ``(start, end)`` spans of the input content, ordered, disjoint and not adjacent.
    spans: tuple[Span, ...]
    protected_because: tuple[str, ...]  # "pin", "role", "recent" (memory-compact's reasons)
    new_terms: int  # salient terms first kept by this message's spans
    reason: str
    #: The focus terms its units kept for the focus matched, best first (none without a focus).
    focus_terms: tuple[str, ...] = ()


@dataclass(frozen=True)
class AnchorKeepResult(SpannedResult):
    """One anchor-keep run: the request, the budget and the account of every message."""

    request: Request
    budget_chars: int
    parameters: Mapping[str, Any]
    messages: tuple[KeptMessage, ...]

    def to_messages(self) -> list[dict[str, Any]]:
        """The returned messages as a request carries them (input id and pin carried)."""
        out = []
        for message, content in zip(self.request.messages, self.contents, strict=True):
            if content is not None:
                out.append({**message.to_dict(), "content": content})
        return out


def apply(
    request: Request, budget_chars: int | None = None, params: Mapping[str, Any] | None = None
) -> AnchorKeepResult:
    """Keep what later turns may need of ``request``'s history within ``budget_chars``.

    Args:
        request: a valid request; its ``keep_last_n`` and ``keep_roles`` and the messages'
            pins say what is protected (kept whole).
        budget_chars: the budget in characters (default: the request's own).
        params: ``unit_chars`` (how long a unit may be, default 160), ``fill_recent`` (spend
            what is left on the most recent messages, default true), ``focus`` (a text whose
            matching units rank first; default none), ``keep_last_n`` and ``keep_roles``
            (default: the request's).

    Returns:
        An :class:`AnchorKeepResult`: per message whether it was kept, cut or removed, its kept
        spans and why.

    Raises:
        RelevanceUnavailable: a ``focus`` is given and bm25s (the focus extra) is not installed.

    Example:
        >>> from compactor import validate
        >>> request = validate({"messages": [
        ...     {"role": "user", "content": "Hi there, long story first.\\nMy order is DE-4471."},
        ...     {"role": "assistant", "content": "Thanks. I will look into it now, one moment."},
        ...     {"role": "user", "content": "Any news?"}],
        ...     "budget_chars": 100, "keep_last_n": 1})
        >>> [m.kept for m in apply(request, 40).messages]
        ['cut', 'removed', 'kept']
        >>> apply(request, 40).contents[0]
        'My order is DE-4471.'
    """
    run = _decide(request, budget_chars, params)
    options, budget, because, contents = run.options, run.budget, run.because, request.contents
    chosen, new_terms, focused = run.chosen, run.new_terms, run.focused
    over = run.protected_chars > budget
    messages = []
    for i, message in enumerate(request.messages):
        text = contents[i]
        if because[i]:
            spans: tuple[Span, ...] = ((0, len(text)),)
        else:
            spans = merged(chosen.get(i, ()))
        kept = GONE if not spans else WHOLE if spans == ((0, len(text)),) else PART
        said = [
            PIN_REASON_TEXT[r].format(role=message.role, n=options["keep_last_n"])
            for r in because[i]
        ]
        matched = tuple(sorted(focused.get(i, {}), key=lambda t: (-focused[i][t], t)))
        reason = _reason(said, kept, new_terms[i], i in run.filled, over, matched)
        messages.append(
            KeptMessage(
                i, message.role, len(text), kept, spans, because[i], new_terms[i], reason, matched
            )
        )
    return AnchorKeepResult(request, budget, options, tuple(messages))


def lineup_result(
    request: Request, budget_chars: int | None = None, params: Mapping[str, Any] | None = None
) -> StrategyResult:
    """anchor-keep as one result of the strategies' lineup: messages kept, cut or removed; a
    cut message's ``chars`` are its kept spans' characters (not a prefix length) and its
    ``spans`` list them, so the judge reads what it really kept. With a focus and without bm25s
    it is a result that did not run, saying how to install it."""
    try:
        run = _decide(request, budget_chars, params)
    except RelevanceUnavailable as missing:
        budget = request.params.budget_chars if budget_chars is None else int(budget_chars)
        return unavailable_result(KEY, NAME, "", str(missing), dict(params or {}), budget)
    options = run.options
    how = (
        f"protects pins, roles {list(options['keep_roles'])} and the last "
        f"{options['keep_last_n']} messages; keeps units of up to {options['unit_chars']} "
        "characters"
        + (": those matching the focus first, then" if options["focus"] is not None else "")
        + " by new salient terms per character"
        + (", then recent context" if options["fill_recent"] else "")
    )
    parameters = {**options, "keep_roles": list(options["keep_roles"])}
    contents = request.contents
    spans = [
        ((0, len(contents[i])),)
        if run.because[i]
        else merged(run.chosen[i])
        if i in run.chosen
        else ()
        for i in range(len(contents))
    ]
    return spanned.spans_result(KEY, NAME, how, parameters, request, run.budget, spans)


def apply_dict(
    data: Mapping[str, Any], params: Mapping[str, Any] | None = None
) -> AnchorKeepResult:
    """:func:`apply` on a request as JSON (validated; raises :class:`compactor.InvalidRequest`)."""
    return apply(validate(dict(data)), None, params)


# --- the rule ----------------------------------------------------------------------------------


class _Run(NamedTuple):
    """What one run decided, before its account is written."""

    options: dict[str, Any]
    budget: int
    because: list[tuple[str, ...]]
    protected_chars: int
    chosen: dict[int, set[Span]]  # message -> its kept spans
    new_terms: list[int]  # per message, the salient terms first kept by its spans
    filled: set[int]  # the messages recent context added to
    focused: dict[int, dict[str, float]]  # message -> the focus terms it matched, summed


def _decide(request: Request, budget_chars: int | None, params: Mapping[str, Any] | None) -> _Run:
    """The rule: which units are kept."""
    options = _options(request, params)
    budget = request.params.budget_chars if budget_chars is None else int(budget_chars)
    contents, n = request.contents, len(request.messages)
    because, protected_chars = protection(request, options)
    chosen: dict[int, set[Span]] = {}
    new_terms = [0] * n
    filled: set[int] = set()
    focused: dict[int, dict[str, float]] = {}
    if protected_chars <= budget:
        left = budget - protected_chars
        key = (tuple(contents), tuple(because), options["unit_chars"])
        _, pieces = _prepared(*key)
        if options["focus"] is not None:
            left = _choose_by_focus(contents, pieces, options["focus"], left, chosen, focused)
        left = _choose_by_terms(_gains(*key), pieces, left, chosen, new_terms)
        if options["fill_recent"]:
            _fill_recent(_by_message(*key), left, chosen, filled)
    return _Run(options, budget, because, protected_chars, chosen, new_terms, filled, focused)


def _options(request: Request, params: Mapping[str, Any] | None) -> dict[str, Any]:
    given = dict(params or {})
    unknown = set(given) - set(PARAMETERS) - {"keep_last_n", "keep_roles"}
    if unknown:
        raise ValueError(f"{KEY} has no parameter {sorted(unknown)}; it takes {_known()}")
    options = {
        "keep_last_n": int(given.get("keep_last_n", request.params.keep_last_n)),
        "keep_roles": tuple(given.get("keep_roles", request.params.keep_roles)),
        "unit_chars": int(given.get("unit_chars", PARAMETERS["unit_chars"])),
        "fill_recent": bool(given.get("fill_recent", PARAMETERS["fill_recent"])),
        "focus": given.get("focus"),
    }
    if options["focus"] is not None and not isinstance(options["focus"], str):
        raise ValueError(f"{KEY}: focus is a text, not {type(options['focus']).__name__}")
    if options["unit_chars"] < 1 or options["keep_last_n"] < 0:
        raise ValueError(f"{KEY}: unit_chars is at least 1 and keep_last_n at least 0")
    return options


def _known() -> str:
    return ", ".join([*PARAMETERS, "keep_last_n", "keep_roles"])


class _Unit(NamedTuple):
    index: int  # the message
    start: int
    end: int
    terms: frozenset[str]


_NO_TERMS: frozenset[str] = frozenset()


def _pieces(
    contents: Sequence[str],
    because: Sequence[tuple[str, ...]],
    unit_chars: int,
    terms_of: Sequence[list[tuple[int, int, str]]],
) -> list[_Unit]:
    """The units of the unprotected messages, message by message, in order (``terms_of``:
    each content's :func:`salient_terms`)."""
    out: list[_Unit] = []
    unit = _new_unit  # a session has thousands of units: no keyword call per unit
    for i, text in enumerate(contents):
        if because[i]:
            continue
        terms = terms_of[i]
        if not terms:
            out.extend(
                [unit(_Unit, (i, start, end, _NO_TERMS)) for start, end in units(text, unit_chars)]
            )
            continue
        k, count = 0, len(terms)
        for start, end in units(text, unit_chars):
            if k == count or terms[k][0] >= end:
                out.append(unit(_Unit, (i, start, end, _NO_TERMS)))
                continue
            inside = []
            while k < count and terms[k][0] < end:
                if terms[k][1] <= end:
                    inside.append(terms[k][2])
                k += 1
            out.append(unit(_Unit, (i, start, end, frozenset(inside))))
    return out


_new_unit = tuple.__new__


@functools.lru_cache(maxsize=4)
def _prepared(
    contents: tuple[str, ...], because: tuple[tuple[str, ...], ...], unit_chars: int
) -> tuple[list[list[tuple[int, int, str]]], tuple[_Unit, ...]]:
    """Each content's salient terms and the units of the unprotected messages: what the budget
    does not change, kept for the last few histories (keyed on the texts themselves), so that
    moving the budget over one history (the explorer, a sweep) pays only for the choice.
    Read-only for the callers."""
    if sum(map(len, contents)) < ONE_PASS_CHARS:  # each text's terms remembered (a tuner's trials)
        terms = [salient_terms(text) for text in contents]
    else:  # an agent session: one pass over its arrays beats a regex step per character
        terms = salient_terms_of(contents)
    return terms, tuple(_pieces(contents, because, unit_chars, terms))


#: From how many characters a history's salient terms are found in one pass over them all
#: (:func:`salient_terms_of`) rather than text by text from the memo (the same terms).
ONE_PASS_CHARS = 100_000


def _weights(terms_of: Sequence[list[tuple[int, int, str]]]) -> dict[str, float]:
    """A term's weight: 1 + log of the number of messages that mention it (a term the history
    keeps coming back to is likelier to be needed again)."""
    mentions: Counter[str] = Counter()
    for terms in terms_of:
        mentions.update(set(map(_TERM, terms)))
    return {t: 1.0 + math.log(c) for t, c in mentions.items()}


_TERM = itemgetter(2)  # a salient term's text


class _Gains(NamedTuple):
    """What the greedy choice by terms starts from, for one history and protection."""

    weight: dict[str, float]  # a term's weight (:func:`_weights`)
    covered: frozenset[str]  # the terms the protected messages hold
    #: ``(-gain / size, -k, k)`` of every unit ``k`` that holds a term, a valid heap (sorted).
    heap: tuple[tuple[float, int, int], ...]


@functools.lru_cache(maxsize=4)
def _gains(
    contents: tuple[str, ...], because: tuple[tuple[str, ...], ...], unit_chars: int
) -> _Gains:
    """Each unit's first gain per character, with the terms' weights and those the protected
    messages hold: what the budget does not change, kept for the last few histories as
    :func:`_prepared` is (one entry per unit that holds a term, and one per term: about 1 MB
    per history of 1,000,000 characters). Read-only for the callers (tuples, a frozen set, and a
    dict that :func:`_choose_by_terms` only reads)."""
    terms_of, pieces = _prepared(contents, because, unit_chars)
    weight = _weights(terms_of)
    covered = frozenset(t for i, terms in enumerate(terms_of) if because[i] for _, _, t in terms)
    worth = weight.__getitem__
    heap = [
        (-math.fsum(map(worth, u.terms - covered)) / (u.end - u.start), -k, k)
        for k, u in enumerate(pieces)
        if u.terms
    ]
    heap.sort()  # a sorted list is a heap; every entry differs (k), so pops go in one order
    return _Gains(weight, covered, tuple(heap))


def _choose_by_terms(
    gains: _Gains,
    pieces: Sequence[_Unit],
    left: int,
    chosen: dict[int, set[Span]],
    new_terms: list[int],
) -> int:
    """Greedy by new weight per character (lazy: a unit's gain only falls as terms are kept);
    returns the characters left."""
    covered = set(gains.covered)
    worth = gains.weight.__getitem__
    fsum, pop, push = math.fsum, heapq.heappop, heapq.heappush
    # Ties: the later unit first (recent context is likelier to matter), then the shorter.
    heap = list(gains.heap)
    while heap and left > 0:
        ratio, order, k = pop(heap)
        index, start, end, terms = pieces[k]
        size = end - start
        if size > left:
            continue
        fresh = terms - covered
        # summed exactly: the same in any order of the set's terms
        now = fsum(map(worth, fresh))
        if now <= 0:
            continue
        if -now / size > ratio + 1e-12:  # stale: put it back with its current value
            push(heap, (-now / size, order, k))
            continue
        chosen.setdefault(index, set()).add((start, end))
        new_terms[index] += len(fresh)
        covered |= terms
        left -= size
    return left


def _choose_by_focus(
    contents: Sequence[str],
    pieces: Sequence[_Unit],
    focus: str,
    left: int,
    chosen: dict[int, set[Span]],
    focused: dict[int, dict[str, float]],
) -> int:
    """The units that match the focus's terms, best BM25 score first (ties: the later unit)
    while they fit (one that does not fit is passed over); returns the characters left."""
    query = dict.fromkeys(query_terms(focus), 1.0)
    found = relevance([contents[u.index][u.start : u.end] for u in pieces], query)
    order = sorted(
        (k for k in range(len(pieces)) if found.scores[k] > 0),
        key=lambda k: (-found.scores[k], -k),
    )
    taken = []
    for k in order:
        unit = pieces[k]
        size = unit.end - unit.start
        if size <= left:
            chosen.setdefault(unit.index, set()).add((unit.start, unit.end))
            taken.append(k)
            left -= size
    for k, matches in found.matched(taken).items() if taken else ():
        terms = focused.setdefault(pieces[k].index, {})
        for term, score in matches:
            terms[term] = terms.get(term, 0.0) + score
    return left


@functools.lru_cache(maxsize=4)
def _by_message(
    contents: tuple[str, ...], because: tuple[tuple[str, ...], ...], unit_chars: int
) -> tuple[tuple[int, tuple[_Unit, ...]], ...]:
    """The units of :func:`_prepared` by message, newest message first, each message's in
    order (what :func:`_fill_recent` reads; kept beside them, read-only)."""
    by_message: dict[int, list[_Unit]] = {}
    for unit in _prepared(contents, because, unit_chars)[1]:
        by_message.setdefault(unit.index, []).append(unit)
    return tuple((index, tuple(by_message[index])) for index in sorted(by_message, reverse=True))


def _fill_recent(
    by_message: Sequence[tuple[int, Sequence[_Unit]]],
    left: int,
    chosen: dict[int, set[Span]],
    filled: set[int],
):
    """Spend what is left on the units not chosen yet, newest message first, each message's
    units from its start (a unit that does not fit is passed over; ``by_message``: each
    message's units, newest message first)."""
    for index, units_of in by_message:
        if left <= 0:  # every unit holds a character at least: none would fit
            break
        for unit in units_of:
            span = (unit.start, unit.end)
            size = unit.end - unit.start
            if size <= left and span not in chosen.get(index, ()):
                chosen.setdefault(index, set()).add(span)
                filled.add(index)
                left -= size


def _reason(
    protected: list[str],
    kept: str,
    new_terms: int,
    filled: bool,
    over: bool,
    focus_terms: Sequence[str] = (),
) -> str:
    if protected:
        return "protected, kept whole: " + "; ".join(protected)
    if over:
        return "removed: the protected messages alone exceed the budget"
    parts = []
    if focus_terms:
        parts.append(f"matches the focus ({', '.join(focus_terms[:5])})")
    if new_terms:
        parts.append(f"holds {new_terms} salient term{'s' * (new_terms != 1)} kept nowhere else")
    if filled:
        parts.append("recent context within the budget")
    if kept == GONE:
        return "removed: nothing in it was worth its characters within the budget"
    return f"{'kept whole' if kept == WHOLE else 'cut to its spans'}: " + " and ".join(parts)
