"""The transcript (the Transcript page and the report): the conversation as a chat, each
message kept, cut or removed, so that a reader sees what the model will be sent beside what it
was (issue 26, item 16).

One row per input message, in order. Its content is split three ways, ``sent + cut_off +
removed == content``: ``sent`` is what the model sees (the engine's output), ``cut_off`` what the
trim cut from a message that is still sent, ``removed`` the whole of a message dedupe or drop
removed (one trimmed and then dropped included). Every figure comes from the engine's result.
"""

from __future__ import annotations

import pandas as pd

from compactor import CompactionResult, Fate, MessageTrace
from compactor.wording import plural

#: What happened to a message, as a reader of the transcript sees it.
KEPT, CUT, REMOVED = "kept", "cut", "removed"
SHOWN = (KEPT, CUT, REMOVED)
#: The stage that removed a message, by its fate.
REMOVED_BY = {Fate.DUPLICATE: "dedupe", Fate.DROPPED: "drop"}
COLUMNS = (
    "index", "message", "role", "id", "fate", "shown", "removed_by", "note", "cut",
    "sent", "cut_off", "removed", "original_chars", "sent_chars",
)  # fmt: skip


def shown(trace: MessageTrace) -> str:
    if not trace.survived:
        return REMOVED
    return CUT if trace.fate is Fate.TRIMMED else KEPT


def note(trace: MessageTrace, duplicate_of: tuple[int, float] | None = None) -> str:
    """Why the message is kept, cut or removed, in a few words (the explorer's own text);
    ``duplicate_of`` is the earlier message and the similarity dedupe removed it for."""
    cut = trace.cut
    cut_words = ""
    if cut is not None:
        how = "at a sentence end" if cut.kind == "sentence" else "a hard cut at max_message_chars"
        cut_words = f"cut to {cut.chars:,} of {cut.original_chars:,} characters ({how})"
    if trace.fate is Fate.PROTECTED:
        return "protected (" + ", ".join(trace.protected_because) + "), kept whole"
    if trace.fate is Fate.VERBATIM:
        return "kept whole"
    if trace.fate is Fate.TRIMMED:
        return cut_words
    if trace.fate is Fate.DUPLICATE:
        of = ""
        if duplicate_of is not None:
            of = f" of #{duplicate_of[0]} (similarity {duplicate_of[1]:.2f})"
        return f"removed by dedupe: a near-duplicate{of}"
    drop = trace.drop
    order = f", {_ordinal(drop.rank)} in the drop order" if drop else ""
    then = f"{cut_words}, then " if cut_words else ""
    return f"{then}removed by drop to meet the budget{order}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n:,}{suffix}"


def transcript_frame(result: CompactionResult) -> pd.DataFrame:
    """One row per input message: how it is shown, why, and its content split three ways."""
    duplicates = {r.index: (r.duplicate_of, r.similarity) for r in result.deduplication.removed}
    rows = []
    for trace in result.messages:
        content, output = trace.message.content, trace.output
        what = shown(trace)
        rows.append(
            {
                "index": trace.index,
                "message": f"#{trace.index}",
                "role": trace.message.role,
                "id": trace.message.id,
                "fate": trace.fate.value,
                "shown": what,
                "removed_by": REMOVED_BY.get(trace.fate, ""),
                "note": note(trace, duplicates.get(trace.index)),
                "cut": trace.cut.kind if trace.cut else "",
                "sent": output or "",
                "cut_off": content[trace.cut.chars :] if what == CUT and trace.cut else "",
                "removed": content if what == REMOVED else "",
                "original_chars": trace.original_chars,
                "sent_chars": trace.chars,
            }
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def summary(frame: pd.DataFrame) -> str:
    """One line for the top of the transcript: how many messages the model is sent, and how."""
    count = frame["shown"].value_counts()
    kept, cut, removed = (int(count.get(what, 0)) for what in SHOWN)
    stages = frame.loc[frame["shown"] == REMOVED, "removed_by"].value_counts()
    by = ", ".join(f"{int(n):,} by {stage}" for stage, n in stages.sort_index().items())
    sent, total = int(frame["sent_chars"].sum()), int(frame["original_chars"].sum())
    return (
        f"{plural(len(frame), 'message')} in, {kept + cut:,} sent to the model ({kept:,} whole, "
        f"{cut:,} cut), {removed:,} removed{f' ({by})' if by else ''}; the model sees "
        f"{sent:,} of {plural(total, 'character')}."
    )
