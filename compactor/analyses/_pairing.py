"""Tool pairing check: after compaction, does every kept tool result still have its call?

Chat APIs reject a ``tool`` message whose calling assistant message is missing, and an assistant
tool call without its result: the most reported breakage of history trimming. This module pairs
calls with results and flags the pairs that compaction split.

Pairs come from ``links`` where the history was imported with tool-call ids: ``(call, result)``
index pairs, the assistant message that made the call and the ``tool`` message that answered it
(the import adapters give them as ``Conversion.tool_links``); links are taken as given, their
roles are not checked. A ``tool`` message that no link names is paired by adjacency: its caller
is the nearest earlier ``assistant`` message with only ``tool`` messages in between (so
``assistant, tool, tool`` pairs both results with the one call). A ``tool`` message with no
such assistant message (the history starts with it, or a user or system message comes first)
has no caller in the input and is reported in ``uncalled``, not as a breakage of compaction.

Each split names its cause, the stage that removed the missing half: ``dedupe`` (a duplicate),
``drop`` (over the budget), ``window`` (dropped just before the last ``keep_last_n`` messages,
which keep the other half), or ``trim`` (the call's message is kept but its trim cut away the
call's ``[tool call NAME id=ID]`` line). :func:`pair_fix` finds a change of the request that
keeps the pair together, for that cause, and checks it by compacting again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from compactor import contract
from compactor.analyses._sweeps import survival_budgets
from compactor.engine import CompactionResult, Fate, MessageTrace, outputs
from compactor.formats import calls_in
from compactor.model import Request

LINK = "link"  # paired by an imported tool-call id
ADJACENCY = "adjacency"  # paired by position

# The two breakages.
RESULT_WITHOUT_CALL = "result without call"  # a kept tool message whose call was removed
CALL_WITHOUT_RESULT = "call without result"  # a kept assistant call whose result was removed

# What removed the missing half.
DEDUPE, TRIM, DROP, WINDOW = "dedupe", "trim", "drop", "window"


@dataclass(frozen=True)
class ToolPair:
    """One tool call and one of its results, and whether compaction kept each."""

    call: int  # index of the assistant message that made the call
    result: int  # index of the tool message that answered it
    source: str  # "link" or "adjacency"
    call_kept: bool
    result_kept: bool
    #: "result without call", "call without result", or None when both or neither are kept.
    problem: str | None


@dataclass(frozen=True)
class PairingIssue:
    """A kept message whose partner compaction removed."""

    index: int  # the kept message
    partner: int  # the removed message
    kind: str  # "result without call" or "call without result"
    source: str  # how the two were paired: "link" or "adjacency"
    partner_fate: str  # the partner's fate: "duplicate", "dropped" or "trimmed" (its call cut)
    explanation: str
    cause: str  # the stage that removed the partner: "dedupe", "trim", "drop" or "window"


@dataclass(frozen=True)
class PairingReport:
    pairs: tuple[ToolPair, ...]  # every call/result pair, by result index
    issues: tuple[PairingIssue, ...]  # the broken pairs, by the kept message's index
    uncalled: tuple[int, ...]  # tool messages without a caller in the input itself
    #: Calls (assistant message indices) whose result the import removed (it was empty), so
    #: no pair can show them; given by ``check_pairing(..., removed_results=...)``.
    removed_by_import: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.issues


def tool_pairs(
    roles: Sequence[str], links: Sequence[tuple[int, int]] | None = None
) -> tuple[list[tuple[int, int, str]], list[int]]:
    """``([(call, result, source)], uncalled)`` for a history with ``roles``.

    Raises ValueError for a link whose indices are outside the history or not in call-then-result
    order.
    """
    n = len(roles)
    pairs: list[tuple[int, int, str]] = []
    linked: set[int] = set()
    for k, (call, result) in enumerate(links or ()):
        if not (0 <= call < n and 0 <= result < n):
            raise ValueError(
                f"links[{k}] = ({call}, {result}): indices must be 0 to {n - 1} (the history "
                f"has {n} messages)"
            )
        if call >= result:
            raise ValueError(
                f"links[{k}] = ({call}, {result}): the call must come before its result"
            )
        if (call, result, LINK) not in pairs:
            pairs.append((call, result, LINK))
        linked.add(result)
    uncalled = []
    for i, role in enumerate(roles):
        if role != "tool" or i in linked:
            continue
        j = i - 1
        while j >= 0 and roles[j] == "tool":
            j -= 1
        if j >= 0 and roles[j] == "assistant":
            pairs.append((j, i, ADJACENCY))
        else:
            uncalled.append(i)
    pairs.sort(key=lambda p: (p[1], p[0]))
    return pairs, uncalled


def check_pairing(
    result: CompactionResult,
    links: Sequence[tuple[int, int]] | None = None,
    removed_results: Sequence[tuple[int, str]] = (),
) -> PairingReport:
    """Pair tool calls with their results and flag the pairs that compaction split.

    ``removed_results`` are ``(calling message, call id)`` of results the import removed
    (``Conversion.removed_results``); their calls are counted in ``removed_by_import``.
    """
    traces = result.messages
    pairs, uncalled = tool_pairs(result.request.roles, links)
    checked: list[ToolPair] = []
    issues: list[PairingIssue] = []
    for call, answer, source in pairs:
        line_cut = _call_line_cut(result.request, call, answer, traces[call].output)
        call_kept = traces[call].survived and not line_cut
        result_kept = traces[answer].survived
        problem = None
        if result_kept and not call_kept:
            problem = RESULT_WITHOUT_CALL
            if line_cut:
                why = f"was trimmed, which cut away its call line ({_paired(source)})"
            else:
                why = f"was {_removal(traces[call])} ({_paired(source)})"
            issues.append(
                PairingIssue(
                    answer,
                    call,
                    problem,
                    source,
                    str(traces[call].fate),
                    f"tool result #{answer} is kept but its call, assistant message #{call}, "
                    + why,
                    TRIM if line_cut else _cause(traces[call], traces[answer]),
                )
            )
        elif call_kept and not result_kept:
            problem = CALL_WITHOUT_RESULT
            issues.append(
                PairingIssue(
                    call,
                    answer,
                    problem,
                    source,
                    str(traces[answer].fate),
                    f"assistant message #{call} is kept but the result of its tool call, "
                    f"message #{answer}, was {_removal(traces[answer])} ({_paired(source)})",
                    _cause(traces[answer], traces[call]),
                )
            )
        checked.append(ToolPair(call, answer, source, call_kept, result_kept, problem))
    issues.sort(key=lambda issue: (issue.index, issue.partner))
    removed = tuple(sorted({call for call, _ in removed_results}))
    return PairingReport(tuple(checked), tuple(issues), tuple(uncalled), removed)


def _removal(trace: MessageTrace) -> str:
    """How a message was removed, in words: ``dropped``, or removed by dedupe and why."""
    if trace.fate == Fate.DUPLICATE and trace.nearest is not None:
        return f"removed by dedupe as a near-duplicate of #{trace.nearest.index}"
    return str(trace.fate)


def _cause(removed: MessageTrace, kept: MessageTrace) -> str:
    """The stage that removed ``removed`` while ``kept``, its partner, stayed."""
    if removed.fate == Fate.DUPLICATE:
        return DEDUPE
    if "recent" in kept.protected_because:
        return WINDOW
    return DROP


def _call_line_cut(request: Request, call: int, answer: int, output: str | None) -> bool:
    """Whether the call's message is returned without the line of the call ``answer`` answers
    (a trim cut it): the line with the result's id, else the call in the result's position
    among the tool messages after the call's message. False when the line is not known."""
    if output is None or len(output) == len(request.contents[call]):
        return False
    line = call_line_span(request, call, answer)
    return line is not None and line[1] > len(output)


def call_line_span(request: Request, call: int, answer: int) -> tuple[int, int] | None:
    """Where the line of the call that ``answer`` answers is in the call's message, if known."""
    found = calls_in(request.contents[call])
    wanted = request.messages[answer].id
    for line in found:
        if wanted is not None and line.id == wanted:
            return line.start, line.end
    position = 0
    for i in range(call + 1, answer):
        if request.roles[i] != "tool":
            return None
        position += 1
    if request.roles[answer] != "tool" or position >= len(found):
        return None
    return found[position].start, found[position].end


def _paired(source: str) -> str:
    return "linked by tool-call id" if source == LINK else "paired by position"


# --- fixes -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairFix:
    """A change of the request that keeps a split pair together, checked by compacting again."""

    params: Mapping[str, Any]  # parameter changes ({} when the fix only pins)
    pins: tuple[int, ...]  # messages to pin
    advice: str  # the change in words


def pair_fix(result: CompactionResult, issue: PairingIssue) -> PairFix | None:
    """The first change that fits the issue's cause and keeps the pair together when the
    request is compacted again (the other parameters as they are); pins come last, since they
    change the conversation itself. None when no change does (not expected: pinned messages are
    never removed or trimmed).

    By cause: ``dedupe``, ``duplicate_threshold`` above the removed message's highest word
    overlap with an earlier message of its role, or its role added to ``keep_roles``; ``trim``,
    ``max_message_chars`` up to the end of the call's line or to the message's length;
    ``window``, ``keep_last_n`` up to the removed message; ``drop`` and ``window``,
    ``budget_chars`` up to the budget from which drop keeps the removed message; then pinning
    the removed message, then both.
    """
    if issue.kind == RESULT_WITHOUT_CALL:
        call, answer = issue.partner, issue.index
    else:
        call, answer = issue.index, issue.partner
    for fix in _candidates(result, issue, call, answer):
        if _rejoined(result, fix, call, answer):
            return fix
    return None


def _candidates(result: CompactionResult, issue: PairingIssue, call: int, answer: int):
    request, params = result.request, result.request.params
    removed, role = issue.partner, result.request.roles[issue.partner]
    if issue.cause == DEDUPE:
        row = result.analysis.similarity[removed]
        highest = float(np.nanmax(row)) if not np.isnan(row).all() else 0.0
        threshold = round(math.floor(highest * 100) / 100 + 0.01, 2)
        if threshold <= contract.RANGES["duplicate_threshold"][1]:
            yield PairFix(
                {"duplicate_threshold": threshold},
                (),
                f"raise duplicate_threshold to {threshold:.2f}, above the word overlap of "
                f"#{removed} with the earlier {role} messages (at most {highest:.4f}), so "
                "dedupe keeps it",
            )
        if (
            role not in params.keep_roles
            and len(params.keep_roles) < contract.LIMITS["max_keep_roles"]
        ):
            yield PairFix(
                {"keep_roles": (*params.keep_roles, role)},
                (),
                f"add {role} to keep_roles: {role} messages are then protected, never removed "
                "as duplicates",
            )
    elif issue.cause == TRIM:
        line = call_line_span(request, call, answer)
        low, high = contract.RANGES["max_message_chars"]
        end = line[1] if line else 0
        for chars in sorted({max(end, int(low)), len(request.contents[call])}):
            if params.max_message_chars < chars <= high:
                yield PairFix(
                    {"max_message_chars": chars},
                    (),
                    f"raise max_message_chars to {chars:,}, so the trim of #{call} keeps its "
                    f"call line (it ends at character {end:,})",
                )
    elif issue.cause == WINDOW:
        keep = len(request.messages) - removed
        if keep <= contract.RANGES["keep_last_n"][1]:
            yield PairFix(
                {"keep_last_n": keep},
                (),
                f"raise keep_last_n to {keep}, so #{removed} is one of the last messages, "
                f"kept with #{issue.index}",
            )
    if issue.cause in (DROP, WINDOW):
        budget = survival_budgets(result)[removed].survives_from_budget
        if budget is not None and budget > params.budget_chars:
            yield PairFix(
                {"budget_chars": budget},
                (),
                f"raise budget_chars to {budget:,}: from there drop keeps #{removed}",
            )
    yield PairFix({}, (removed,), f"pin #{removed}: a pinned message is never removed or trimmed")
    yield PairFix(
        {},
        (call, answer),
        f"pin #{call} and #{answer}: pinned messages are never removed or trimmed",
    )


def _rejoined(result: CompactionResult, fix: PairFix, call: int, answer: int) -> bool:
    """Whether the request with ``fix`` made returns both halves, the call's line whole."""
    request = result.request
    messages = tuple(replace(m, pin=True) if m.index in fix.pins else m for m in request.messages)
    changed = Request(messages, replace(request.params, **fix.params), request.limits)
    out = outputs(changed, result.analysis)
    return (
        out[call] is not None
        and out[answer] is not None
        and not _call_line_cut(changed, call, answer, out[call])
    )
