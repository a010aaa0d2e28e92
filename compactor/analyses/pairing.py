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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from compactor.engine.result import CompactionResult

LINK = "link"  # paired by an imported tool-call id
ADJACENCY = "adjacency"  # paired by position

# The two breakages.
RESULT_WITHOUT_CALL = "result without call"  # a kept tool message whose call was removed
CALL_WITHOUT_RESULT = "call without result"  # a kept assistant call whose result was removed


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
    partner_fate: str  # how the partner was removed: "duplicate" or "dropped"
    explanation: str


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
        call_kept, result_kept = traces[call].survived, traces[answer].survived
        problem = None
        if result_kept and not call_kept:
            problem = RESULT_WITHOUT_CALL
            issues.append(
                PairingIssue(
                    answer,
                    call,
                    problem,
                    source,
                    str(traces[call].fate),
                    f"tool result #{answer} is kept but its call, assistant message #{call}, "
                    f"was {traces[call].fate} ({_paired(source)})",
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
                    f"message #{answer}, was {traces[answer].fate} ({_paired(source)})",
                )
            )
        checked.append(ToolPair(call, answer, source, call_kept, result_kept, problem))
    issues.sort(key=lambda issue: (issue.index, issue.partner))
    removed = tuple(sorted({call for call, _ in removed_results}))
    return PairingReport(tuple(checked), tuple(issues), tuple(uncalled), removed)


def _paired(source: str) -> str:
    return "linked by tool-call id" if source == LINK else "paired by position"
