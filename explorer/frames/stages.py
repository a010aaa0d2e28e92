"""The Overview's stage table: what each stage did (with its lists shortened so the table
stays readable, and wrapping as whole items), and every message each stage acted on in full.

Like :mod:`explorer.views`, built from the engine's result; nothing here decides anything.
"""

from __future__ import annotations

from itertools import pairwise

import pandas as pd
from pandas.io.formats.style import Styler

from compactor import CompactionResult, Fate, contract
from compactor.analyses import TokenReport
from compactor.wording import plural
from explorer.frames.safe_text import markdown_literal
from explorer.frames.views import name_list


def label(name: str) -> str:
    """A stage as its tables name it: ``2. dedupe`` (order and name from the STAGES table)."""
    stage = contract.STAGE[name]
    return f"{stage.order}. {stage.name}"


def later_dropped(result: CompactionResult) -> list[int]:
    """The messages trim cut that drop then removed: counted by trim, and by drop again."""
    return [c.index for c in result.trimming.cuts if result.messages[c.index].fate is Fate.DROPPED]


def stage_results(result: CompactionResult) -> dict[str, str]:
    """What each stage's count means for the output, in words, so the stage table and the fate
    counts agree: a message trim cut and drop removed counts in both rows."""
    later = len(later_dropped(result))
    cuts = len(result.trimming.cuts)
    drops = len(result.dropping.dropped)
    trim = plural(cuts, "cut", "cut") if cuts else "none cut"
    if later:
        trim = f"{cuts:,} cut, of which {later:,} later dropped ({cuts - later:,} trimmed)"
    drop = f"{plural(drops, 'message')} dropped"
    if later:
        drop += f", {later:,} of them cut by trim first"
    return {
        "pin": f"{plural(len(result.protection.indices), 'message')} protected",
        "dedupe": f"{plural(len(result.deduplication.removed), 'message')} removed",
        "trim": trim,
        "drop": drop,
    }


def stage_rows(
    result: CompactionResult, glue: str = " ", tokens: TokenReport | None = None
) -> pd.DataFrame:
    """What each stage did, in order: its rule, how many messages, which, characters taken.

    ``glue`` joins the words of one item of "which" (a no-break space keeps "#19 ≈ #3 (0.786)"
    on one line where the list wraps). With ``tokens`` (a token report of ``result``), also the
    tokens each stage took and the characters / 4 estimate of them.
    """
    params = result.request.params
    totals = result.totals
    protected = [
        f"#{t.index} ({', '.join(t.protected_because)})" for t in result.messages if t.protected
    ]
    removed = [
        f"#{r.index} ≈ #{r.duplicate_of} ({r.similarity:.3f})" for r in result.deduplication.removed
    ]
    cuts = [
        f"#{c.index} {c.original_chars:,} → {c.chars:,} ({c.kind})" for c in result.trimming.cuts
    ]
    drops = [f"#{d.index} (score {d.score:g})" for d in result.dropping.dropped]
    protected, removed, cuts, drops = (
        [item.replace(" ", glue) for item in items] for items in (protected, removed, cuts, drops)
    )
    roles = ", ".join(params.keep_roles) or "none"
    said = stage_results(result)
    rows = [
        {
            "stage": label("pin"),
            "rule": f"keep_roles {roles}; keep_last_n {params.keep_last_n}; "
            f"{result.protection.explicit_pins} pinned",
            "messages": len(protected),
            "result": said["pin"],
            "which": name_list(protected),
            "chars_removed": 0,
        },
        {
            "stage": label("dedupe"),
            "rule": f"duplicate_threshold {params.duplicate_threshold:g}",
            "messages": len(removed),
            "result": said["dedupe"],
            "which": name_list(removed),
            "chars_removed": totals.input - totals.after_dedupe,
        },
        {
            "stage": label("trim"),
            "rule": f"max_message_chars {params.max_message_chars:,}",
            "messages": len(cuts),
            "result": said["trim"],
            "which": name_list(cuts),
            "chars_removed": totals.after_dedupe - totals.after_trim,
        },
        {
            "stage": label("drop"),
            "rule": f"budget_chars {params.budget_chars:,}",
            "messages": len(drops),
            "result": said["drop"],
            "which": name_list(drops),
            "chars_removed": totals.after_trim - totals.output,
        },
    ]
    frame = pd.DataFrame(rows)
    if tokens is not None:
        steps = list(pairwise([tokens.stages[0], *tokens.stages]))  # pin takes nothing
        frame["tokens_removed"] = [a.tokens - b.tokens for a, b in steps]
        frame["estimate_removed"] = [a.estimate - b.estimate for a, b in steps]
    return frame


NO_BREAK = "\u00a0"
#: The stage table's headers, by the columns of :func:`stage_rows`.
STAGE_HEADERS = {
    "stage": "Stage",
    "rule": "Rule",
    "messages": "Messages",
    "result": "Result",
    "which": "Which",
    "chars_removed": "Characters removed",
}


def token_headers(encoding: str) -> dict[str, str]:
    """The stage table's headers of the token columns."""
    return {
        "tokens_removed": f"{encoding} tokens removed",
        "estimate_removed": "Estimate removed (chars / 4)",
    }


def stage_table(result: CompactionResult, tokens: TokenReport | None = None) -> Styler:
    """:func:`stage_rows` for ``st.table`` (which wraps long lists, and renders Markdown): the
    explorer's own words only, made literal; counts with thousands separators, right-aligned
    (the values stay numbers)."""
    headers = {**STAGE_HEADERS, **(token_headers(tokens.encoding) if tokens else {})}
    frame = stage_rows(result, glue=NO_BREAK, tokens=tokens).rename(columns=headers)
    numbers = ["Messages", "Characters removed"]
    if tokens is not None:
        numbers += list(token_headers(tokens.encoding).values())
    words = [c for c in frame.columns if c not in numbers]
    return (
        frame.style.format("{:,}", subset=numbers)
        .format(markdown_literal, subset=words)
        .set_properties(subset=numbers, **{"text-align": "right", "white-space": "nowrap"})
    )


def stage_messages(result: CompactionResult) -> pd.DataFrame:
    """Every message each stage acted on, one row each, in stage order: the full lists behind
    the stage table's "which" (which names at most :data:`LIST_LIMIT` per stage)."""
    rows = [
        (label("pin"), t.index, "protected: " + ", ".join(t.protected_because))
        for t in result.messages
        if t.protected
    ]
    rows += [
        (
            label("dedupe"),
            r.index,
            f"duplicate of #{r.duplicate_of} (similarity {r.similarity:.3f})",
        )
        for r in result.deduplication.removed
    ]
    rows += [
        (
            label("trim"),
            c.index,
            f"cut from {c.original_chars:,} to {c.chars:,} characters ({c.kind})"
            + ("; later dropped" if result.messages[c.index].fate is Fate.DROPPED else ""),
        )
        for c in result.trimming.cuts
    ]
    rows += [
        (
            label("drop"),
            d.index,
            f"dropped as no. {d.rank:,} (score {d.score:g}; {d.chars:,} characters)",
        )
        for d in result.dropping.dropped
    ]
    frame = pd.DataFrame(rows, columns=["stage", "index", "what"])
    frame.insert(2, "role", [result.messages[i].message.role for i in frame["index"]])
    frame.insert(1, "message", [f"#{i}" for i in frame["index"]])
    return frame
