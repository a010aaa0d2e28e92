"""Frames of the Corpus page: the evaluation's rows (one per conversation, setting and budget),
its summary per setting, and a setting's distribution and worst conversations."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from compactor.analyses import REREAD_JUDGE
from compactor.analyses.outcomes import BARE, PROTECTED
from compactor.contract import PARAMETERS
from compactor.evaluation import (
    MEMORY_COMPACT,
    ROW_KEYS,
    STRATEGY,
    QuestionAside,
    SetAside,
    failure_text,
    worst_by_needed_recall,
)
from compactor.wording import floor_percent, floor_share, met_share, percent, plural
from explorer.frames.outcomes import corpus_baseline_label
from explorer.session.linkvalues import format_threshold

#: The columns of a row the engine reports, after the conversation and the five parameters.
COUNTS = tuple(key for key in ROW_KEYS if key != "conversation" and key not in PARAMETERS)
#: How many conversations the worst list shows at most.
WORST_LIMIT = 50


def listed_count(count: int, what: str, limit: int = WORST_LIMIT) -> str:
    """How many conversations have ``what``, counted before the list is cut: "200
    conversations with a problem, the first 50 shown"."""
    said = f"{count:,} conversation{'s' * (count != 1)} {what}"
    return said + (f", the first {limit:,} shown" if count > limit else "")


def setting_of(row: Mapping[str, Any]) -> dict[str, Any]:
    """The five parameters of a row (or of a summary), as a request takes them."""
    out = {name: row[name] for name in PARAMETERS}
    out["keep_roles"] = list(out["keep_roles"])
    return out


def roles_label(roles: Iterable[str]) -> str:
    roles = list(roles)
    return "+".join(roles) if roles else "none"


def setting_label(setting: Mapping[str, Any]) -> str:
    """A setting in a few words, the same on every chart, table and picker of the page."""
    return (
        f"budget {int(setting['budget_chars']):,} · last {int(setting['keep_last_n'])} · "
        f"roles {roles_label(setting['keep_roles'])} · "
        f"threshold {format_threshold(setting['duplicate_threshold'])} · "
        f"trim {int(setting['max_message_chars']):,}"
    )


def setting_key(setting: Mapping[str, Any]) -> tuple:
    """A setting as a value that can be compared and hashed (keep_roles as a tuple)."""
    return tuple(tuple(setting[n]) if n == "keep_roles" else setting[n] for n in PARAMETERS)


def conversation_label(conversation: Any) -> str:
    """A conversation's ``record`` as the page shows it: ``record 3`` or its path in a folder."""
    return f"record {conversation}" if isinstance(conversation, int) else str(conversation)


def set_aside_frame(set_aside: Iterable[SetAside], fix_labels: Mapping[str, str]) -> pd.DataFrame:
    """The conversations a load set aside, one row per problem: the record (as the page names
    it), where in the file, why, and the page's fix when one would make it usable (the box to
    tick, ``fix_labels`` giving each fix's label)."""
    records = []
    for found in set_aside:
        fix = " and ".join(f"tick “{fix_labels[f]}” above" for f in found.fixes)
        for problem in found.problems:
            records.append(
                {
                    "record": conversation_label(found.conversation),
                    "where": problem.where,
                    "reason": problem.message,
                    "fix": fix,
                }
            )
    return pd.DataFrame(records, columns=["record", "where", "reason", "fix"])


def rows_frame(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per (conversation, setting, budget), with the setting's label, the anchors lost,
    the characters over the budget and the anchor retention (empty where a conversation has no
    anchor: nothing to retain)."""
    columns = ["conversation", "setting", *PARAMETERS, *COUNTS]
    records = []
    for row in rows:
        record = {name: row[name] for name in ("conversation", *PARAMETERS, *COUNTS)}
        record["conversation"] = conversation_label(row["conversation"])
        record["keep_roles"] = roles_label(row["keep_roles"])
        record["setting"] = setting_label(row)
        records.append(record)
    frame = pd.DataFrame(records, columns=columns)
    needs = pd.Series([row.get("needs") for row in rows], dtype=float)
    met = pd.Series([row.get("needs_met") for row in rows], dtype=float)
    frame["needs"], frame["needs_met"] = needs, met
    frame["needed_recall"] = (met / needs).where(needs > 0)
    frame["anchors_lost"] = frame["anchors"] - frame["anchors_kept"]
    kept = frame["anchors_kept"].astype(float)
    anchors = frame["anchors"].astype(float)
    frame["retention"] = (kept / anchors).where(anchors > 0)
    frame["shortfall_chars"] = (frame["output_chars"] - frame["budget_chars"]).clip(lower=0)
    return frame.astype({"budget_met": bool})


def setting_rows(
    rows: Iterable[Mapping[str, Any]], setting: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Each conversation's row under one summary's setting (five parameters), in corpus order.

    A row holds from its budget up to the next row's of the same conversation and grid setting
    (rows at listed budgets, or at every point of the sweep), so the row in force at the
    setting's budget is the one with the largest budget not above it; it is given with the
    setting's budget, as the summary reads it.
    """
    wanted = setting_key({**setting, "budget_chars": 0})
    budget = setting["budget_chars"]
    found: dict[Any, Mapping[str, Any]] = {}
    for row in rows:
        if not is_setting(row) or row["budget_chars"] > budget:
            continue
        if setting_key({**row, "budget_chars": 0}) != wanted:
            continue
        held = found.get(row["conversation"])
        if held is None or row["budget_chars"] > held["budget_chars"]:
            found[row["conversation"]] = row
    return [{**row, "budget_chars": budget} for row in found.values()]


def is_setting(summary: Mapping[str, Any]) -> bool:
    """A grid's setting (memory-compact), not a baseline's pseudo-setting."""
    return (summary.get(STRATEGY) or MEMORY_COMPACT) == MEMORY_COMPACT


def settings_of(summaries: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The summaries of the grid's settings, without the baselines'."""
    return [s for s in summaries if is_setting(s)]


def in_form(summary: Mapping[str, Any], form: str) -> bool:
    """Whether a baseline's summary is of ``form`` (protected rows name their keep_roles)."""
    return (summary.get("keep_roles") is None) == (form == BARE)


#: Per form of the baselines, the summary's keys of keep-last's and random's needed-later
#: recall and of the lift over keep-last.
FORM_KEYS: Mapping[str, tuple[str, str, str]] = {
    PROTECTED: ("needed_recall_keep_last", "needed_recall_random", "needed_lift"),
    BARE: ("needed_recall_keep_last_bare", "needed_recall_random_bare", "needed_lift_bare"),
}


def baseline_frame(summaries: Sequence[Mapping[str, Any]], form: str = PROTECTED) -> pd.DataFrame:
    """The baselines' summaries in ``form``, one row per baseline, protection and budget: the
    frontier chart's reference points (characters out per conversation, anchors kept,
    needed-later recall)."""
    records = [
        {
            "strategy": s[STRATEGY],
            "budget_chars": s["budget_chars"],
            "setting": f"{corpus_baseline_label(s[STRATEGY], s.get('keep_roles'))} · budget "
            f"{int(s['budget_chars']):,}",
            "chars_per_conversation": s["output_chars"] / s["conversations"],
            "retention": s["anchors_kept"] / s["anchors"] if s["anchors"] else None,
            "needed_recall": s.get("needed_recall"),
        }
        for s in summaries
        if not is_setting(s) and in_form(s, form)
    ]
    columns = [
        "strategy",
        "budget_chars",
        "setting",
        "chars_per_conversation",
        "retention",
        "needed_recall",
    ]
    return pd.DataFrame(records, columns=columns).astype(
        {"retention": float, "needed_recall": float}
    )


def summary_frame(summaries: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The engine's summaries of the grid's settings, one row per setting, with its label and
    the axes of the frontier: characters out per conversation, the share of all anchors kept
    and (with outcomes) the needed-later recall; the baselines are :func:`baseline_frame`."""
    records = []
    for summary in settings_of(summaries):
        record = dict(summary)
        record["setting"] = setting_label(summary)
        record["keep_roles"] = roles_label(summary["keep_roles"])
        record["chars_per_conversation"] = summary["output_chars"] / summary["conversations"]
        # a promise, shown to a tenth of a percent: rounded down, never up to 100% (issue 36)
        record["budget_met_rate"] = floor_share(summary["budget_met_rate"])
        anchors = summary["anchors"]
        record["retention"] = summary["anchors_kept"] / anchors if anchors else None
        records.append(record)
    frame = pd.DataFrame(records)
    if frame.empty:
        return frame
    first = ["setting", *PARAMETERS, "conversations", "budget_met_rate", "frontier"]
    if "budget_met_count" in frame:  # the count beside its share (a run from before has none)
        first.insert(first.index("budget_met_rate"), "budget_met_count")
    frame = frame[first + [c for c in frame.columns if c not in first]]
    frame = frame.drop(columns=[STRATEGY], errors="ignore")
    if "needed_recall" in frame:
        frame = frame.astype({"frontier_needed": bool, "needed_recall": float})
    frame = frame.astype({"frontier": bool, "retention": float})
    frame["point"] = point_labels(frame)
    baselines = baseline_frame(summaries)
    for measure, flag in AT_BUDGET.items():
        if measure in frame:
            frame[flag] = frontier_at_budget(frame, measure, baselines)
    return frame


#: The frontier within each budget, per measure of the frontier chart: its column.
AT_BUDGET = {"retention": "frontier_at_budget", "needed_recall": "frontier_needed_at_budget"}


def frontier_at_budget(
    frame: pd.DataFrame, measure: str, baselines: pd.DataFrame | None = None
) -> pd.Series:
    """Whether each setting is on the frontier among the settings of its budget: no other
    setting at that budget, and no baseline at it (keep-last, random: ``baselines``), has at
    least as much of ``measure`` (retention, needed-later recall) with at most as many
    characters out per conversation, and more of one. A setting without the measure (no
    anchor, no need) is on none; a setting keep-last dominates is never on it."""
    on = pd.Series(False, index=frame.index)
    for budget, group in frame.groupby("budget_chars", sort=False):
        kept = group[measure].to_numpy(dtype=float)
        chars = group["chars_per_conversation"].to_numpy(dtype=float)
        if baselines is not None and measure in baselines and len(baselines):
            theirs = baselines[baselines["budget_chars"] == budget]
            kept_all = np.concatenate([kept, theirs[measure].to_numpy(dtype=float)])
            chars_all = np.concatenate(
                [chars, theirs["chars_per_conversation"].to_numpy(dtype=float)]
            )
        else:
            kept_all, chars_all = kept, chars
        with np.errstate(invalid="ignore"):
            for at, k in enumerate(group.index):
                if kept[at] != kept[at]:  # NaN: nothing to keep
                    continue
                dominated = (
                    (kept_all >= kept[at])
                    & (chars_all <= chars[at])
                    & ((kept_all > kept[at]) | (chars_all < chars[at]))
                )
                on[k] = not bool(dominated.any())
    return on


def point_labels(frame: pd.DataFrame) -> list[str]:
    """Each setting in as few words as tell it apart on the frontier chart: the parameters
    that vary over the summary (``3,000 · last 2 · trim 400``), the budget when none does."""
    words = {
        "budget_chars": lambda v: f"{int(v):,}",
        "keep_last_n": lambda v: f"last {int(v)}",
        "keep_roles": lambda v: f"roles {v}",
        "duplicate_threshold": lambda v: f"threshold {format_threshold(v)}",
        "max_message_chars": lambda v: f"trim {int(v):,}",
    }
    shown = [n for n in PARAMETERS if frame[n].nunique() > 1] or ["budget_chars"]
    return [" · ".join(words[n](row[n]) for n in shown) for _, row in frame.iterrows()]


def problems_of(row: Mapping[str, Any]) -> str:
    """What went wrong for one conversation under a setting, in words (empty when nothing)."""
    said = []
    if row["anchors_lost"]:
        said.append(f"{int(row['anchors_lost']):,} of {int(row['anchors']):,} anchors lost")
    if not row["budget_met"]:
        said.append(f"budget missed by {int(row['shortfall_chars']):,} characters")
    if row["tool_pairs_broken"]:
        broken = int(row["tool_pairs_broken"])
        said.append(f"{broken:,} tool pair{'s' if broken != 1 else ''} broken")
    return "; ".join(said)


def _has_problem(frame: pd.DataFrame) -> pd.Series:
    return (frame["anchors_lost"] > 0) | ~frame["budget_met"] | (frame["tool_pairs_broken"] > 0)


def count_with_problems(frame: pd.DataFrame) -> int:
    """How many conversations of a setting's :func:`rows_frame` have a problem (an anchor lost,
    the budget missed, a tool pair broken): all of them, however many :func:`worst_frame`
    lists."""
    return int(_has_problem(frame).sum())


def worst_frame(frame: pd.DataFrame, limit: int = WORST_LIMIT) -> pd.DataFrame:
    """The conversations a setting treats worst (``frame``: its :func:`rows_frame`): most
    anchors lost first, then a missed budget (the largest shortfall first), then the most tool
    pairs broken; only those with a problem, in that order, the first ``limit``."""
    bad = frame[_has_problem(frame)]
    ordered = bad.sort_values(
        ["anchors_lost", "budget_met", "shortfall_chars", "tool_pairs_broken"],
        ascending=[False, True, False, False],
        kind="stable",
    ).head(limit)
    out = ordered[
        [
            "conversation",
            "anchors",
            "anchors_kept",
            "anchors_lost",
            "budget_met",
            "output_chars",
            "shortfall_chars",
            "tool_pairs_broken",
        ]
    ].reset_index(drop=True)
    out.insert(1, "problems", [problems_of(r) for r in out.to_dict("records")])
    return out


def count_needs_unmet(frame: pd.DataFrame) -> int:
    """How many conversations of a setting's :func:`rows_frame` have a need unmet (all of
    them, however many :func:`worst_needed_frame` lists)."""
    return int((frame["needs"].fillna(0) > frame["needs_met"].fillna(0)).sum())


def worst_needed_frame(frame: pd.DataFrame, limit: int = WORST_LIMIT) -> pd.DataFrame:
    """The conversations a setting treats worst by needed-later recall (``frame``: its
    :func:`rows_frame`): those with a need unmet, the lowest recall first (the engine's
    :func:`~compactor.evaluation.worst_by_needed_recall`)."""
    rows = [
        {**r, "needs": int(r["needs"]), "needs_met": int(r["needs_met"])}
        for r in frame.to_dict("records")
        if r["needs"] == r["needs"] and r["needs"] > 0  # not NaN: the conversation has needs
    ]
    worst = worst_by_needed_recall(rows, limit)
    columns = [
        "conversation",
        "needs",
        "needs_met",
        "needed_recall",
        "anchors_lost",
        "output_chars",
    ]
    out = pd.DataFrame([{k: r[k] for k in columns} for r in worst], columns=columns)
    out.insert(3, "needs_unmet", out["needs"] - out["needs_met"])
    return out


def summary_budgets(budgets: Sequence[int], largest_input: int) -> list[int]:
    """The budgets a sweep run is summarised at: those below the corpus's largest conversation
    and the first at or above it (where every output fits whole, so larger ones add nothing)."""
    below = [b for b in budgets if b < largest_input]
    above = [b for b in budgets if b >= largest_input]
    return below + above[:1]


def reread_text(summary: Mapping[str, Any]) -> str | None:
    """A setting's re-read recall beside keep-last's and random's at its budget, with the count
    it rests on and the judge named; None when its conversations had no re-read."""
    rereads = summary.get("rereads")
    if rereads is None or rereads != rereads or not rereads:
        return None
    figures = [f"re-read recall {percent(summary.get('reread_recall'))}"]
    for key, name in (("reread_recall_keep_last", "keep-last"), ("reread_recall_random", "random")):
        value = summary.get(key)
        if value is not None and value == value:
            figures.append(f"{name} {percent(value)}")
    conversations = int(summary.get("reread_conversations") or 0)
    return (
        f"{'; '.join(figures)}, over {plural(int(rereads), 're-read')} "
        f"({int(summary.get('reread_chars') or 0):,} characters) after the recorded compactions "
        f"of {plural(conversations, 'conversation')}, each history compacted at this budget. "
        f"Judge: {REREAD_JUDGE}."
    )


def budget_met_text(summary: Mapping[str, Any]) -> str:
    """A setting's budget met as a promise: its counts and the share rounded down (``509 of
    511, 99.6%``), never 100% while a conversation missed (issue 36)."""
    count = summary.get("budget_met_count")
    if count is None or count != count:  # a summary from before the count: the share alone
        return floor_percent(summary["budget_met_rate"])
    return met_share(int(count), int(summary["conversations"]))


def every_budget_met(summary: Mapping[str, Any]) -> bool:
    """Whether the setting met its budget on every conversation (its lift over keep-last is
    then at the same size)."""
    count = summary.get("budget_met_count")
    if count is None or count != count:
        return summary["budget_met_rate"] >= 1
    return int(count) == int(summary["conversations"])


def setting_note(corpus: str, summary: Mapping[str, Any]) -> str:
    """The note a setting downloaded from the Corpus page carries: where it was chosen, and its
    figures there (the budget met, the anchors kept, the needed-later recall)."""
    said = [f"budget met {budget_met_text(summary)}"]
    retention = summary.get("retention")
    if retention is not None and retention == retention:  # not NaN: some anchors
        said.append(f"anchors kept {percent(retention)}")
    recall = summary.get("needed_recall")
    if recall is not None and recall == recall:
        said.append(f"needed-later recall {percent(recall)}")
    return (
        f"chosen on the Corpus page over {corpus} ({int(summary['conversations']):,} "
        f"conversations): {', '.join(said)}"
    )


def setting_said(params: Mapping[str, Any]) -> str:
    """A strategy's parameters as a person reads them, ``n = 1, roles = ["system"]``; with none
    set, "its own defaults" (issue 40: the table said "{}")."""
    said = ", ".join(f"{k} = {json.dumps(v)}" for k, v in sorted(params.items()))
    return said or "its own defaults"


def strategy_summary(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """A registry strategy's rows summed per setting and budget: conversations, the share
    within the budget, median output characters, anchors kept over anchors, tool pairs broken,
    and needed-later recall (met needs over needs, pooled; empty without needs)."""
    groups: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    for row in rows:
        shown = setting_said(row["strategy_params"])
        groups.setdefault((shown, int(row["budget_chars"])), []).append(row)
    records = []
    for (shown, budget), mine in groups.items():
        anchors = sum(r["anchors"] for r in mine)
        needs = sum(r.get("needs") or 0 for r in mine)
        records.append(
            {
                "parameters": shown,
                "budget_chars": budget,
                "conversations": len(mine),
                "budget_met": floor_share(sum(bool(r["budget_met"]) for r in mine) / len(mine)),
                "chars_median": float(pd.Series([r["output_chars"] or 0 for r in mine]).median()),
                "anchors_kept": sum(r["anchors_kept"] for r in mine) / anchors if anchors else None,
                "tool_pairs_broken": sum(r["tool_pairs_broken"] for r in mine),
                "needs": needs,
                "needed_recall": sum(r.get("needs_met") or 0 for r in mine) / needs
                if needs
                else None,
                **strategy_probes(mine),
            }
        )
    columns = [
        "parameters",
        "budget_chars",
        "conversations",
        "budget_met",
        "chars_median",
        "anchors_kept",
        "tool_pairs_broken",
        "needs",
        "needed_recall",
    ]
    if any("questions" in r for r in records):
        columns += ["questions", *STRATEGY_PROBE_SHARES]
    return pd.DataFrame(records, columns=columns)


def strategy_probes(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A registry strategy's probe recall over its rows of one setting and budget, pooled over
    the questions (strict, partial; answer over the answerable ones), and keep-last's and
    random's at that budget; nothing when the rows carry no probes."""
    probed = [r for r in rows if r.get("probes") and r.get("probes_failed") is not None]
    if not probed:
        return {}
    out: dict[str, Any] = {"questions": sum(r["probes"] for r in probed)}
    for kind in PROBE_KINDS:
        counts = [r["probes_answerable"] if kind == "answer" else r["probes"] for r in probed]
        of = sum(counts)
        met = of - sum(len(r["probes_failed"][kind]) for r in probed)
        out[kind] = met / of if of else None
        for name in ("keep_last", "random"):
            held = sum(
                (r[f"probes_{name}"][kind] or 0) * n for r, n in zip(probed, counts, strict=True)
            )
            out[f"{kind}_{name}"] = held / of if of else None
    return out


#: The probe recalls of the labelled questions, in the order they are shown.
PROBE_KINDS = ("strict", "partial", "answer")
#: The columns of :func:`probe_frame` that are shares (shown as percentages).
PROBE_SHARES = tuple(
    f"{kind}{suffix}" for kind in PROBE_KINDS for suffix in ("", "_keep_last", "_random")
) + ("needed_recall", "needed_recall_keep_last", "needed_recall_random")


#: The probe columns of :func:`strategy_summary` (shares), when the rows carry probes.
STRATEGY_PROBE_SHARES = tuple(
    f"{kind}{suffix}" for kind in PROBE_KINDS for suffix in ("", "_keep_last", "_random")
)


def probe_frame(summaries: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Per setting, its budget met (a promise: counts, rounded down), its probe recall pooled
    over the labelled questions (strict, partial, answer) with the counts it is made of, beside
    keep-last's and random's at its budget, and its needed-later recall beside theirs: one row
    per grid setting."""
    records = []
    for s in settings_of(summaries):
        if "probes_total" not in s:
            continue
        record: dict[str, Any] = {
            "setting": setting_label(s),
            "budget_met": budget_met_text(s),
            "questions": s["probes_total"],
        }
        for kind in PROBE_KINDS:
            record[kind] = s.get(f"probe_recall_{kind}")
            record[f"{kind}_met"] = s.get(f"probes_met_{kind}")
            if kind == "answer":
                record["answerable"] = s.get("probes_answerable")
            for name in ("keep_last", "random"):
                record[f"{kind}_{name}"] = s.get(f"probe_recall_{kind}_{name}")
        for name in ("needed_recall", "needed_recall_keep_last", "needed_recall_random"):
            record[name] = s.get(name)
        records.append(record)
    columns = ["setting", "budget_met", "questions"]
    for kind in PROBE_KINDS:
        columns += ["answerable"] if kind == "answer" else []
        columns += [kind, f"{kind}_met", f"{kind}_keep_last", f"{kind}_random"]
    columns += ["needed_recall", "needed_recall_keep_last", "needed_recall_random"]
    frame = pd.DataFrame(records, columns=columns)
    return frame.astype({name: float for name in PROBE_SHARES})


def failed_questions_frame(
    failed: Sequence[Mapping[str, Any]], texts: Mapping[str, str | None]
) -> pd.DataFrame:
    """The questions a setting fails (a summary's ``probes_failed``), one row each: its id,
    the conversation, what it lost (evidence dropped or cut, the answer lost) and its text
    (``texts``: id to question) as plain text."""
    records = [
        {
            "id": str(entry["id"]),
            "conversation": conversation_label(entry["conversation"]),
            "lost": failure_text(entry["failed"]),
            "question": texts.get(entry["id"]) or "",
        }
        for entry in failed
    ]
    return pd.DataFrame(records, columns=["id", "conversation", "lost", "question"])


def question_aside_frame(set_aside: Iterable[QuestionAside]) -> pd.DataFrame:
    """The questions set aside, one row per problem: the question's id, where it is in the
    file (its line, or its JSON path) and why."""
    records = [
        {"question": "" if found.id is None else found.id, "where": p.where, "reason": p.message}
        for found in set_aside
        for p in found.problems
    ]
    return pd.DataFrame(records, columns=["question", "where", "reason"])
