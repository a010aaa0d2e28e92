"""Data frames and sentences for the Check pages: watched facts (compactor.analyses._facts) and tool
pairs (compactor.analyses._pairing)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from compactor import CompactionResult
from compactor.analyses import LINK, NOT_FOUND, PairFix, PairingIssue, PairingReport, WatchedFact
from explorer.frames.views import name_list

# --- watched facts --------------------------------------------------------------------------

#: Split pairs the Tool pairs page shows (and checks a fix for, an engine run each) a page.
SPLIT_PER_PAGE = 5


def fact_budget_label(fact: WatchedFact, budget_range: tuple[int, int]) -> str:
    """From which budget a fact is in the output, in words."""
    if fact.status == NOT_FOUND:
        return "not in the history"
    if fact.survives_from_budget is None:
        return "at no budget in range (cut away by a trim or removed by dedupe)"
    if fact.survives_from_budget <= budget_range[0]:
        return f"at every budget (from {fact.survives_from_budget:,} characters)"
    return f"from {fact.survives_from_budget:,} characters"


def facts_frame(facts: Iterable[WatchedFact], budget_range: tuple[int, int]) -> pd.DataFrame:
    """One row per watched phrase: where it is, whether it survives now, and from which budget."""
    rows = [
        {
            "phrase": f.phrase,
            "status": f.status,
            "survives": f.survives,
            "messages": len(f.messages),
            "where": name_list([f"#{m.index}" for m in f.messages]),
            "survives_from_budget": f.survives_from_budget,
            "smallest_budget": fact_budget_label(f, budget_range),
        }
        for f in facts
    ]
    columns = ["phrase", "status", "survives", "messages", "where", "survives_from_budget"]
    frame = pd.DataFrame(rows, columns=[*columns, "smallest_budget"])
    return frame.astype({"survives_from_budget": "Int64", "survives": "bool"})


def fact_messages_frame(facts: Iterable[WatchedFact]) -> pd.DataFrame:
    """One row per phrase and message containing it: the message's fate and the fact's status."""
    rows = [
        {
            "phrase": f.phrase,
            "message": f"#{m.index}",
            "index": m.index,
            "role": m.role,
            "fate": m.fate,
            "occurrences": m.occurrences,
            "at": f"{m.first_start:,} to {m.first_end:,}",
            "kept_chars": m.kept_chars,
            "status": m.status,
            "survives_from_budget": m.survives_from_budget,
        }
        for f in facts
        for m in f.messages
    ]
    columns = ["phrase", "message", "index", "role", "fate", "occurrences", "at", "kept_chars"]
    frame = pd.DataFrame(rows, columns=[*columns, "status", "survives_from_budget"])
    return frame.astype({"survives_from_budget": "Int64"})


# --- tool pairs -----------------------------------------------------------------------------


def pairs_frame(report: PairingReport, result: CompactionResult) -> pd.DataFrame:
    """Every tool call / result pair, how it was paired, each side's fate, and any breakage."""
    rows = [
        {
            "call": f"#{p.call}",
            "result": f"#{p.result}",
            "paired_by": "tool-call id" if p.source == LINK else "position",
            "call_fate": str(result.messages[p.call].fate),
            "result_fate": str(result.messages[p.result].fate),
            "call_kept": p.call_kept,
            "result_kept": p.result_kept,
            "problem": p.problem or "",
        }
        for p in report.pairs
    ]
    columns = ["call", "result", "paired_by", "call_fate", "result_fate", "call_kept"]
    return pd.DataFrame(rows, columns=[*columns, "result_kept", "problem"])


def pairing_summary(report: PairingReport) -> str:
    """One sentence: how many pairs compaction split, of how many."""
    n, broken = len(report.pairs), len(report.issues)
    pairs = f"{n:,} tool call/result pair{'s' if n != 1 else ''}"
    if broken == 0:
        return f"Every one of the {pairs} is kept whole or removed whole."
    kept_ids = name_list([f"#{i.index}" for i in report.issues])
    return (
        f"Compaction split {broken:,} of the {pairs}: {kept_ids} "
        f"{'is' if broken == 1 else 'are'} kept without {'its' if broken == 1 else 'their'} "
        "partner. Chat APIs reject a tool result without its call and a call without its result."
    )


#: Each split's cause, in words (``PairingIssue.cause``).
CAUSES = {
    "dedupe": (
        "dedupe removed it as a near-duplicate of an earlier message of its role: tool calls "
        "and results share most of their words (the call line's markup, the argument names, a "
        "repeated output), so two different calls can reach the threshold; the contract's "
        "dedupe compares words, not call ids"
    ),
    "drop": "drop removed it for the budget",
    "window": "drop removed it just before the last keep_last_n messages",
    "trim": "a trim cut away the call's line",
}


def split_line(issue: PairingIssue, fix: PairFix | None) -> str:
    """One split pair as a Markdown list item (numbers and names only, no message text): what
    is kept without what, the cause, and the fix that rejoins it."""
    advice = fix.advice if fix is not None else "no change of the request found to rejoin it"
    return (
        f"- **{issue.kind}** ({CAUSES.get(issue.cause, issue.cause)}): {issue.explanation}. "
        f"**Fix:** {advice}."
    )


def uncalled_notes(report: PairingReport, window_orphans: Sequence[int] = ()) -> list[str]:
    """What to say of the tool messages without a call in the input: those whose call the
    import's window left out, and the others (neither is a breakage of compaction).

    >>> notes = uncalled_notes(PairingReport((), (), (0, 3, 4)), (3, 4))
    >>> [note.split(": ")[-1] for note in notes]
    ['#3 and #4.', '#0.']
    >>> notes[0].startswith("Tool messages whose call is in a message the import's window left")
    True
    """
    orphans = set(window_orphans)
    windowed = [f"#{i}" for i in report.uncalled if i in orphans]
    others = [f"#{i}" for i in report.uncalled if i not in orphans]
    notes = []
    if windowed:
        one = len(windowed) == 1
        notes.append(
            f"Tool message{'' if one else 's'} whose call is in a message the import's window "
            f"left out (not a breakage of compaction): {name_list(windowed, limit=len(windowed))}."
        )
    if others:
        one = len(others) == 1
        notes.append(
            f"Tool message{'' if one else 's'} without a call before {'it' if one else 'them'} "
            "in the input (not a breakage of compaction): "
            f"{name_list(others, limit=len(others))}."
        )
    return notes


def removed_by_import_note(report: PairingReport) -> str | None:
    """The calls whose (empty) results the import removed, which no pair can show; or None."""
    calls = report.removed_by_import
    if not calls:
        return None
    one = len(calls) == 1
    listed = name_list([f"#{i}" for i in calls], limit=len(calls))
    return (
        f"The import removed the empty result{'' if one else 's'} of the tool call"
        f"{'' if one else 's'} in assistant message{'' if one else 's'} {listed}, so "
        f"{'it has' if one else 'they have'} no pair here. The Output page's provider exports "
        "give such a call an empty result again, so that the API accepts it."
    )


#: What a user can do about split pairs beyond each one's own fix (issue 40: one click away).
REMEDIES = (
    "The Output page's provider exports repair what is left: an orphan half is dropped (or, "
    "if you choose, kept as text), so the API accepts the history."
)
