"""Watched facts: where phrases the user cares about (an order id, a date, a name) end up.

Matching rule: a phrase matches any substring of a message's content that equals it ignoring
case, with Unicode full case folding (``STRASSE`` matches ``Straße``, ``ΣΊΣΥΦΟΣ`` matches
``σίσυφος``); a run of whitespace in the phrase matches any run of whitespace in the text (so an
id broken over two lines is found). Nothing else is normalised: accents count (``cafe`` does not
match ``café``), and a precomposed ``é`` does not match ``e`` followed by a combining accent.
Leading and trailing whitespace of a phrase is ignored. Substrings count: ``4471`` is found in
``DE-4471``.

An occurrence survives when its message is returned and the occurrence ends within the returned
prefix; one that lies (even partly) beyond the prefix a trim keeps is *cut away*, and that holds
at every budget, because the trim does not depend on the budget.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import regex

from compactor.analyses._sweeps import BudgetSweep, budget_sweep
from compactor.engine import CompactionResult

# Where a watched fact stands in one message.
VERBATIM = "verbatim"  # the message is returned and the fact is in the returned text
CUT_AWAY = "cut away"  # the message is returned, trimmed before the end of the fact
REMOVED = "removed"  # the message is not returned (duplicate or dropped)
NOT_FOUND = "not found"  # (fact level only) no message contains the phrase

_WHITESPACE_RUN = regex.compile(r"\s+")


@dataclass(frozen=True)
class FactInMessage:
    """A watched phrase in one message that contains it."""

    index: int
    role: str
    fate: str  # the message's Fate at the current setting
    occurrences: int
    first_start: int  # character span of the occurrence that ends first
    first_end: int
    kept_chars: int  # characters of the message returned when it is returned (after any trim)
    status: str  # "verbatim", "cut away" or "removed"
    #: Smallest budget (in the schema's range) at which the fact is returned from this message,
    #: the other parameters unchanged; None when no budget returns it from here.
    survives_from_budget: int | None


@dataclass(frozen=True)
class WatchedFact:
    phrase: str
    messages: tuple[FactInMessage, ...]  # the messages that contain it, in index order
    status: str  # "verbatim" if any message returns it, else "cut away", "removed", "not found"
    survives: bool  # some message returns it at the current setting
    #: Smallest budget at which some message returns it; None when none does at any budget.
    survives_from_budget: int | None


def parse_phrases(text: str) -> tuple[str, ...]:
    """One phrase per line of ``text``: stripped, blank lines skipped, repeats (any case) once."""
    seen: set[str] = set()
    phrases = []
    for line in text.splitlines():
        phrase = line.strip()
        if phrase and phrase.casefold() not in seen:
            seen.add(phrase.casefold())
            phrases.append(phrase)
    return tuple(phrases)


def phrase_pattern(phrase: str) -> regex.Pattern[str]:
    """The pattern that finds ``phrase`` under the matching rule; ValueError for a blank one."""
    words = _WHITESPACE_RUN.split(phrase.strip())
    if words == [""]:
        raise ValueError("a watched phrase must contain something other than whitespace")
    body = r"\s+".join(regex.escape(word) for word in words)
    return regex.compile(body, regex.IGNORECASE | regex.FULLCASE | regex.V1)


def find_phrase(phrase: str, text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` character spans where ``phrase`` occurs in ``text``."""
    return [m.span() for m in phrase_pattern(phrase).finditer(text, overlapped=True)]


def watch(
    result: CompactionResult, phrases: Iterable[str], sweep: BudgetSweep | None = None
) -> tuple[WatchedFact, ...]:
    """Where each phrase is in the history and whether it survives ``result``'s setting.

    ``sweep`` is :func:`~compactor.analyses._sweeps.budget_sweep` of ``result`` (computed when
    omitted).
    Blank phrases are skipped.
    """
    survival = (sweep or budget_sweep(result)).survival
    facts = []
    for phrase in phrases:
        if not phrase.strip():
            continue
        found = []
        for trace in result.messages:
            spans = find_phrase(phrase, trace.message.content)
            if not spans:
                continue
            start, end = min(spans, key=lambda span: (span[1], span[0]))
            kept = survival[trace.index].chars
            within = end <= kept
            if not within:
                status = CUT_AWAY if trace.survived else REMOVED
            else:
                status = VERBATIM if trace.survived else REMOVED
            from_budget = survival[trace.index].survives_from_budget if within else None
            found.append(
                FactInMessage(
                    trace.index,
                    trace.message.role,
                    str(trace.fate),
                    len(spans),
                    start,
                    end,
                    kept,
                    status,
                    from_budget,
                )
            )
        facts.append(_fact(phrase.strip(), found))
    return tuple(facts)


def _fact(phrase: str, found: Sequence[FactInMessage]) -> WatchedFact:
    statuses = {f.status for f in found}
    status = next(
        (s for s in (VERBATIM, CUT_AWAY, REMOVED) if s in statuses),
        NOT_FOUND,
    )
    budgets = [f.survives_from_budget for f in found if f.survives_from_budget is not None]
    return WatchedFact(
        phrase, tuple(found), status, status == VERBATIM, min(budgets) if budgets else None
    )
