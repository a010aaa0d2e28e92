"""What ``evaluate --questions FILE`` adds to the summary: probe recall per setting beside
keep-last and random at its budget, judged by the labelled questions (named), the questions
each setting fails, and the questions set aside with where they are."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from compactor.cli._io import fail
from compactor.errors import quoted
from compactor.evaluation import MEMORY_COMPACT, STRATEGY, QuestionSet, failure_text
from compactor.wording import percent, plural

#: How many failed questions are listed per setting (the rows' probes_failed hold them all).
FAILED_SHOWN = 10
KINDS = ("strict", "partial", "answer")


def judge(questions: QuestionSet) -> str:
    """The judge's name, as every surface gives it."""
    return f"judge: labelled questions ({questions.name}, {plural(questions.asked, 'question')})"


def recall_text(summary: Mapping[str, Any], kind: str) -> str:
    """``7 of 12, 58.3%``: a setting's pooled probe recall of ``kind`` with its counts."""
    of = summary["probes_answerable"] if kind == "answer" else summary["probes_total"]
    if not of:
        return "-"
    met = summary[f"probes_met_{kind}"]
    count = f"{met:,}" if isinstance(met, int) else f"{met:,.1f}"
    return f"{count} of {of:,}, {percent(summary[f'probe_recall_{kind}'])}"


def questions_text(summaries: Sequence[Mapping[str, Any]], questions: QuestionSet) -> str:
    """Per setting, probe recall (strict, partial, answer; pooled over the questions, with
    counts) beside keep-last's and random's at its budget, and the questions it fails."""
    settings = [
        s
        for s in summaries
        if s.get(STRATEGY, MEMORY_COMPACT) == MEMORY_COMPACT and "probes_total" in s
    ]
    texts = {q.id: q.fields.get("question") for q in questions.questions}
    lines = [
        f"probe recall, {judge(questions)}; each setting beside keep-last / random at its budget",
        f"{'budget':>9} {'last_n':>6} {'keep_roles':<14} {'dup':>5} {'max':>5}  "
        + "  ".join(f"{kind + ': setting (keep-last/random)':<44}" for kind in KINDS),
    ]
    for s in settings:
        roles = "+".join(s["keep_roles"]) or "none"
        figures = "  ".join(
            f"{recall_text(s, kind) + ' (' + _baselines(s, kind) + ')':<44}" for kind in KINDS
        )
        lines.append(
            f"{s['budget_chars']:>9,} {s['keep_last_n']:>6} {roles:<14} "
            f"{s['duplicate_threshold']:>5.3g} {s['max_message_chars']:>5}  {figures}"
        )
        failed = s.get("probes_failed") or []
        for entry in failed[:FAILED_SHOWN]:
            asked = texts.get(entry["id"])
            lines.append(
                f"{'':>11}fails {quoted(entry['id'])} of {entry['conversation']!r}: "
                f"{failure_text(entry['failed'])}" + (f": {quoted(asked, 100)}" if asked else "")
            )
        if len(failed) > FAILED_SHOWN:
            more = len(failed) - FAILED_SHOWN
            lines.append(f"{'':>11}and {more:,} more (the rows' probes_failed list every one)")
    return "\n".join(lines) + "\n"


def strategy_questions_text(
    settings: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    questions: QuestionSet,
) -> str:
    """A registry strategy's probe recall per parameter setting and budget (pooled over the
    questions, with counts) beside keep-last's and random's at that budget, and the questions
    it fails."""
    texts = {q.id: q.fields.get("question") for q in questions.questions}
    lines = [f"probe recall, {judge(questions)}; beside keep-last / random at the budget"]
    for setting in settings:
        budgets = sorted({r["budget_chars"] for r in rows if r["strategy_params"] == setting})
        for budget in budgets:
            mine = [
                r
                for r in rows
                if r["strategy_params"] == setting and r["budget_chars"] == budget
                and r.get("probes")
            ]  # fmt: skip
            shown = json.dumps(setting, separators=(",", ":"))
            lines.append(f"{shown} at {budget:,}: " + "; ".join(_pooled(mine, k) for k in KINDS))
            failed = [
                (r["conversation"], probe, [k for k in KINDS if probe in r["probes_failed"][k]])
                for r in mine
                if r.get("probes_failed")
                for probe in dict.fromkeys(sum(r["probes_failed"].values(), []))
            ]
            for conversation, probe, kinds in failed[:FAILED_SHOWN]:
                asked = texts.get(probe)
                lines.append(
                    f"{'':>2}fails {quoted(probe)} of {conversation!r}: {failure_text(kinds)}"
                    + (f": {quoted(asked, 100)}" if asked else "")
                )
            if len(failed) > FAILED_SHOWN:
                more = len(failed) - FAILED_SHOWN
                lines.append(f"{'':>2}and {more:,} more (the rows' probes_failed list every one)")
    return "\n".join(lines) + "\n"


def _pooled(rows: Sequence[Mapping[str, Any]], kind: str) -> str:
    """``strict 7 of 12, 58.3% (keep-last 50.0%, random 41.2%)`` over a strategy's rows."""
    of = sum((r.get("probes_answerable") or 0) if kind == "answer" else r["probes"] for r in rows)
    if not of or any(r.get("probes_failed") is None for r in rows):
        return f"{kind} -"
    met = of - sum(len(r["probes_failed"][kind]) for r in rows)
    said = []
    for name, label in (("probes_keep_last", "keep-last"), ("probes_random", "random")):
        total = sum(
            (r[name][kind] or 0)
            * ((r.get("probes_answerable") or 0) if kind == "answer" else r["probes"])
            for r in rows
        )
        said.append(f"{label} {percent(total / of)}")
    return f"{kind} {met:,} of {of:,}, {percent(met / of)} ({', '.join(said)})"


def _baselines(summary: Mapping[str, Any], kind: str) -> str:
    return "/".join(
        percent(summary.get(f"probe_recall_{kind}_{name}"))
        if summary.get(f"probe_recall_{kind}_{name}") is not None
        else "-"
        for name in ("keep_last", "random")
    )


def report_set_aside(questions: QuestionSet) -> bool:
    """The questions set aside on standard error, each with where it is and why; whether any
    was."""
    if not questions.unusable:
        return False
    lines = []
    for found in questions.set_aside:
        name = "" if found.id is None else f" {quoted(found.id)}"
        for problem in found.problems:
            lines.append(f"question{name} set aside: {problem}")
    if questions.unusable > len(questions.set_aside):
        lines.append(f"and {questions.unusable - len(questions.set_aside):,} more not listed")
    lines.append(
        f"{plural(questions.asked, 'question')} of {questions.name} asked, "
        f"{questions.unusable:,} set aside (above)"
    )
    fail(lines)
    return True
