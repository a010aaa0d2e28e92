"""Outcome frames (SPEC part D): the engine's outcome figures as data frames and sentences, for
the Overview, Budget sweep, Replay, A/B compare, Strategies and Conversation pages (probe
recall beside needed-later recall wherever that is shown).

Pure functions of the engine's objects (:mod:`compactor.analyses.outcomes`); every share stays a
number in 0..1 (None where the engine has no figure), so tables sort and tests compare exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from compactor import wording
from compactor.analyses.outcomes import (
    BARE,
    DEFAULT_FUTURE,
    ContinuationCheck,
    CurveStep,
    Needs,
    Probe,
    ProbeOutcomes,
    ReplayMisses,
    RoleBalance,
    judge_note,
    judge_outcome,
    probe_recall_outcome,
    step_at,
)
from compactor.errors import Problem
from compactor.strategies import StrategyComparison

SETTING, KEEP_LAST, RANDOM = "this setting", "keep-last", "random"
#: The Strategies table's row of the protected keep-last (the lineup's keep-last is bare).
KEEP_LAST_PROTECTED = "keep-last-protected"
#: The probe recalls, in the order they are reported, and their columns beside other figures.
PROBE_KINDS = ("strict", "partial", "answer")
PROBE_COLUMNS = tuple(f"probes_{kind}" for kind in PROBE_KINDS)
#: How a source was lost, in the unmet needs table: memory-compact's stages, then the words the
#: judge uses for the other strategies.
LOST = {
    "dedupe": "dedupe",
    "trim": "trim",
    "drop": "drop (never kept)",
    "removed": "removed",
    "cut": "cut",
}


def future_range(messages: int) -> tuple[int, int]:
    """``(low, high)`` of k, the future's messages: 1 to n - 2 (1 when there are fewer)."""
    return 1, max(1, messages - 2)


def clamp_future(value: Any, messages: int) -> int:
    """``value`` as a k in range for ``messages`` (the default, 5, when it is not a number)."""
    low, high = future_range(messages)
    k = value if isinstance(value, int) and not isinstance(value, bool) else DEFAULT_FUTURE
    return min(max(k, low), high)


def percent(value: float | None) -> str:
    """``83.3%`` (one decimal: :func:`compactor.wording.percent`), or an em dash when none."""
    return wording.percent(value)


def signed_points(value: float | None) -> str:
    """A lift in percentage points: ``+12.5 pp``, ``-5.0 pp``, ``±0.0 pp``; an em dash when
    none (:func:`compactor.wording.points`)."""
    return wording.points(value)


def baseline_label(found: ContinuationCheck | ProbeOutcomes | None, name: str = KEEP_LAST) -> str:
    """The baseline ``name`` as ``found``'s figures are of it: "keep-last, system prompt kept"
    (protected), "keep-last, bare", or just "keep-last" when the setting protects nothing."""
    form = None if found is None else found.baselines
    return name if form is None else form.label(name)


def baselines_note(found: ContinuationCheck | ProbeOutcomes | None) -> str:
    """One sentence on the baselines' form, for a caption: what they keep first, or that they
    are bare; empty when the setting protects nothing (both forms are the same)."""
    form = None if found is None else found.baselines
    if form is None or not form.messages:
        return ""
    what = f"{form.messages:,} protected message{'s' if form.messages != 1 else ''}"
    size = f"{form.chars:,} characters"
    if form.form == BARE:
        return (
            f"Keep-last and random are bare: they may drop the {what} ({size}) the setting "
            "keeps, and spend that budget on other messages."
        )
    return (
        f"Keep-last and random keep first, whole, what the setting protects ({what}, {size}: "
        f"{form.kept}), then apply recency or random to the rest with the budget left."
    )


def curve_names(found: ContinuationCheck | ProbeOutcomes | None) -> dict[str, str]:
    """The recall curve's legend names of the baselines, in ``found``'s form."""
    return {
        "keep_last": baseline_label(found),
        "random": f"{baseline_label(found, RANDOM)} (mean)",
    }


def recall_frame(check: ContinuationCheck) -> pd.DataFrame:
    """Needed-later recall of the setting, keep-last and random (mean, 2.5th and 97.5th
    percentiles), with the needs judged and met; the baselines labelled with their form."""
    columns = ["strategy", "recall", "low", "high", "met", "needs"]
    if check.setting is None or check.keep_last is None:
        return pd.DataFrame(columns=columns)
    needs = check.setting.needs
    r = check.random
    rows = [
        [SETTING, check.setting.recall, None, None, check.setting.met, needs],
        [baseline_label(check), check.keep_last.recall, None, None, check.keep_last.met, needs],
        [baseline_label(check, RANDOM), r.mean, r.low, r.high, None, needs],
    ]
    return pd.DataFrame(rows, columns=columns)


def source_text(sources) -> str:
    """Where each past source of an unmet need was lost: ``#3 trim; #5 drop (never kept)``, each
    message once (two occurrences in one message are one source to a reader)."""
    by_message: dict[int, dict[str, None]] = {}
    for s in sources:
        by_message.setdefault(s.index, {})[LOST.get(s.lost_at, s.lost_at)] = None
    return "; ".join(f"#{i} {' and '.join(how)}" for i, how in by_message.items())


def unmet_frame(check: ContinuationCheck) -> pd.DataFrame:
    """Every unmet need of the setting: the message that needs it (``index`` and ``#j``), its
    role, the anchor and its kind, and where each past source was lost."""
    columns = ["index", "message", "role", "anchor", "kind", "lost"]
    unmet = () if check.setting is None else check.setting.unmet
    rows = [[u.user, f"#{u.user}", u.role, u.anchor, u.kind, source_text(u.sources)] for u in unmet]
    return pd.DataFrame(rows, columns=columns)


def role_recall_frame(check: ContinuationCheck) -> pd.DataFrame:
    """Needed-later recall by the role of the message that needs, setting beside keep-last."""
    columns = ["role", "needs", "met", "recall", "keep_last"]
    if check.setting is None or check.keep_last is None:
        return pd.DataFrame(columns=columns)
    kept = {r.role: r.recall for r in check.keep_last.by_role}
    rows = [[r.role, r.needs, r.met, r.recall, kept.get(r.role)] for r in check.setting.by_role]
    return pd.DataFrame(rows, columns=columns)


def balance_frame(balance: RoleBalance) -> pd.DataFrame:
    """Each role's share of the input's characters and of the output's, one row per share."""
    rows = []
    for share in balance.roles:
        rows.append([share.role, "input", share.input_share, share.input_chars])
        rows.append([share.role, "output", share.output_share, share.output_chars])
    return pd.DataFrame(rows, columns=["role", "side", "share", "chars"])


def curve_frame(check: ContinuationCheck, limit: int) -> pd.DataFrame:
    """Needed-later recall against the budget up to ``limit`` (the budget charts' right end):
    one row per step start, a last row at ``limit`` closing the final step."""
    return steps_frame(check.curve, limit)


def probe_curve_frame(steps: Sequence[CurveStep], kind: str, limit: int) -> pd.DataFrame:
    """Probe recall of ``kind`` against the budget up to ``limit``, as :func:`curve_frame`
    (a ``kind`` column says which recall it is)."""
    frame = steps_frame(steps, limit)
    frame.insert(0, "kind", kind)
    return frame


def steps_frame(steps: Sequence[CurveStep], limit: int) -> pd.DataFrame:
    """A recall curve's steps up to ``limit``: one row per step start, a last row at
    ``limit`` closing the final step."""
    rows = []
    for step in steps:
        if step.from_budget > limit:
            break
        rows.append(
            {
                "budget": step.from_budget,
                "to_budget": step.to_budget,
                "setting": step.setting,
                "keep_last": step.keep_last,
                "random": step.random.mean,
                "random_low": step.random.low,
                "random_high": step.random.high,
                "end": False,
            }
        )
    if rows and rows[-1]["budget"] < limit:
        rows.append({**rows[-1], "budget": limit, "end": True})
    columns = ["budget", "to_budget", "setting", "keep_last", "random", "random_low"]
    return pd.DataFrame(rows, columns=[*columns, "random_high", "end"])


def ab_frame(checks: Mapping[str, ContinuationCheck]) -> pd.DataFrame:
    """One row per side (A, B): the past's output characters and whether they met the budget
    (``met`` or ``over budget by N characters``), needed-later recall, keep-last's and random's
    at its budget, the lift, and the needs judged (an empty figure where the past is not a
    valid request)."""
    rows = []
    for side, check in checks.items():
        valid = check.setting is not None and check.keep_last is not None
        chars = None if check.result is None else check.result.totals.output
        rows.append(
            {
                "side": side,
                "baselines": baseline_label(check),
                "budget_chars": check.budget_chars,
                "chars": chars,
                "budget": None if chars is None else budget_text(chars - check.budget_chars),
                "recall": check.recall,
                "keep_last": check.keep_last.recall if valid else None,
                "random": check.random.mean,
                "random_low": check.random.low,
                "random_high": check.random.high,
                "lift": check.lift,
                "needs": check.setting.needs if valid else None,
            }
        )
    frame = pd.DataFrame(rows)
    return frame.astype({"needs": "Int64", "chars": "Int64"}) if len(frame) else frame


def strategy_frame(
    needs: Needs, comparison: StrategyComparison, check: ContinuationCheck
) -> pd.DataFrame:
    """Needed-later recall of each strategy of the lineup run on the past (the same judge for
    all), its output size and whether it met the budget, its lift over keep-last, and random's
    mean and interval as the reference.

    Equal size (issue 36): a strategy that returned more than the budget is listed after every
    one that met it, flagged ``over budget by N characters``, and set beside keep-last and
    random *at its own size* (``keep_last_at_size``, ``random_at_size``: the baselines at a
    budget of its output characters); its lift is over keep-last at that size."""
    base = None if check.keep_last is None else check.keep_last.recall
    met_rows, over_rows = [], []
    for o in comparison.results:
        recall = met = judged = None
        if o.available:
            judged_recall = judge_outcome(needs, o)
            recall, met, judged = judged_recall.recall, judged_recall.met, judged_recall.needs
        over = max(0, o.output_chars - comparison.budget_chars) if o.available else 0
        at_size = _baselines_at(check, o.output_chars) if over else None
        reference = base if at_size is None else at_size.keep_last
        (over_rows if over else met_rows).append(
            {
                "key": o.key,
                "strategy": o.name,
                "chars": o.output_chars if o.available else None,
                "budget": budget_text(over) if o.available else None,
                "recall": recall,
                "met": met,
                "needs": judged,
                "lift": None if recall is None or reference is None else recall - reference,
                "keep_last_at_size": None if at_size is None else at_size.keep_last,
                "random_at_size": None if at_size is None else at_size.random.mean,
                "note": judge_note(o.key),
            }
        )
    r = check.random
    references = []
    form = check.baselines
    if form is not None and form.form != BARE and form.messages and check.keep_last is not None:
        # the lineup's keep-last is the bare rule: the protected one is the reference here
        references.append(
            {
                "key": KEEP_LAST_PROTECTED,
                "strategy": f"{baseline_label(check)} (the reference)",
                "chars": None,
                "budget": None,
                "recall": base,
                "met": check.keep_last.met,
                "needs": check.keep_last.needs,
                "lift": None if base is None else 0.0,
                "keep_last_at_size": None,
                "random_at_size": None,
                "note": "the bare rule's figure is the lineup's keep-last row",
            }
        )
    random_row = {
        "key": RANDOM,
        "strategy": f"{baseline_label(check, RANDOM)} (mean of {r.draws}; {percent(r.low)} to "
        f"{percent(r.high)})",
        "chars": None,
        "budget": None,
        "recall": r.mean,
        "met": None,
        "needs": None if check.setting is None else check.setting.needs,
        "lift": None if r.mean is None or base is None else r.mean - base,
        "keep_last_at_size": None,
        "random_at_size": None,
        "note": None,
    }
    frame = pd.DataFrame([*met_rows, *over_rows, *references, random_row])
    return frame.astype(
        {
            "chars": "Int64",
            "met": "Int64",
            "needs": "Int64",
            "keep_last_at_size": "Float64",
            "random_at_size": "Float64",
        }
    )


def budget_text(over: int) -> str:
    """``met``, or ``over budget by 1,234 characters``."""
    return "met" if over <= 0 else f"over budget by {over:,} characters"


def _baselines_at(check: ContinuationCheck, chars: int) -> Any:
    """Keep-last's and random's recall at a budget of ``chars`` (the curve's step there; the
    largest budget of the range when ``chars`` is beyond it), None without a curve."""
    return step_at(check.curve, chars)


def probe_frame(found: ProbeOutcomes) -> pd.DataFrame:
    """Probe recall (strict, partial, answer) of the setting, keep-last and random (mean and
    interval), the baselines labelled with their form; the lift is :func:`probe_lift_frame`
    (in percentage points, not a share)."""
    kinds = PROBE_KINDS
    rows = [
        [SETTING, *(getattr(found.setting, k) for k in kinds)],
        [baseline_label(found), *(getattr(found.keep_last, k) for k in kinds)],
        [f"{baseline_label(found, RANDOM)} (mean)", *(found.random[k].mean for k in kinds)],
        [f"{baseline_label(found, RANDOM)} (2.5%)", *(found.random[k].low for k in kinds)],
        [f"{baseline_label(found, RANDOM)} (97.5%)", *(found.random[k].high for k in kinds)],
    ]
    return pd.DataFrame(rows, columns=["strategy", *kinds])


def probe_lift_frame(found: ProbeOutcomes) -> pd.DataFrame:
    """The setting's probe recall minus keep-last's (in its form), one row: a difference of
    shares, shown in percentage points."""
    lift = found.lift
    rows = [[f"lift over {baseline_label(found)}", *(lift[k] for k in PROBE_KINDS)]]
    return pd.DataFrame(rows, columns=["strategy", *PROBE_KINDS])


def ab_probe_frame(by_side: Mapping[str, ProbeOutcomes], lift: bool = False) -> pd.DataFrame:
    """:func:`probe_frame` (or with ``lift`` :func:`probe_lift_frame`) of each side (A, B), one
    after the other, with its side and budget."""
    frames = []
    for side, found in by_side.items():
        frame = probe_lift_frame(found) if lift else probe_frame(found)
        frame.insert(0, "budget_chars", found.budget_chars)
        frame.insert(0, "side", side)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def strategy_probe_frame(
    probes: Sequence[Probe],
    contents: Sequence[str],
    comparison: StrategyComparison,
    found: ProbeOutcomes,
) -> pd.DataFrame:
    """Probe recall (``probes_strict``, ``probes_partial``, ``probes_answer``) of each strategy
    of the lineup that ran on the conversation ``contents``, read from what it returned, and
    random's mean (``found``: the probes' outcomes at the same budget) as the last row."""
    rows = []
    for o in comparison.results:
        if o.available:
            recall = probe_recall_outcome(probes, contents, o)
            figures = {f"probes_{k}": getattr(recall, k) for k in PROBE_KINDS}
            rows.append({"key": o.key, "strategy": o.name, **figures})
    r = found.random
    rows.append(
        {
            "key": RANDOM,
            "strategy": f"{baseline_label(found, RANDOM)} (mean of {r['strict'].draws})",
            **{f"probes_{k}": r[k].mean for k in PROBE_KINDS},
        }
    )
    return pd.DataFrame(rows, columns=["key", "strategy", *PROBE_COLUMNS])


def with_probes(frame: pd.DataFrame | None, probes: pd.DataFrame) -> pd.DataFrame:
    """A strategy table (:func:`strategy_frame`) with the probe columns of
    :func:`strategy_probe_frame` beside it, by strategy key; a strategy only the probes have
    comes before random's row. Without a strategy table, the probes' frame itself."""
    if frame is None:
        return probes
    merged = frame.merge(probes[["key", *PROBE_COLUMNS]], on="key", how="left")
    extra = probes[~probes["key"].isin(frame["key"])]
    last = merged.iloc[-1:] if len(merged) and merged["key"].iloc[-1] == RANDOM else None
    parts = [merged if last is None else merged.iloc[:-1], extra, last]
    return pd.concat([p for p in parts if p is not None and len(p)], ignore_index=True)


def read_json(text: str) -> tuple[Any, tuple[Problem, ...]]:
    """``text`` as JSON, or the problem with its line and column."""
    try:
        return json.loads(text), ()
    except json.JSONDecodeError as error:
        return None, (Problem(f"is not JSON: {error.msg}", None, error.lineno, error.colno),)


def miss_clause(misses: ReplayMisses) -> str:
    """The replay's misses for the design-review line: ``41 needs missed, the first at turn 12:
    DE-4471, lost at turn 9 by the trim of #3.``"""
    if not misses.needs:
        return "No message needs an anchor an earlier one holds."
    count = len(misses.misses)
    if not count:
        return f"All {misses.needs:,} needs met."
    text = f"{count:,} of {misses.needs:,} needs missed"
    first = misses.first_miss
    if first is None:
        return text + "."
    how = "trim" if first.lost_stage == "trim" else "removal"
    return (
        f"{text}, the first at turn {first.miss.turn}: {first.miss.anchor}, lost at turn "
        f"{first.lost_turn} by the {how} of #{first.lost_index}."
    )


def misses_frame(by_loop: Mapping[str, ReplayMisses]) -> pd.DataFrame:
    """Misses per turn and role of the needing message, for each replayed loop."""
    rows = []
    for loop, found in by_loop.items():
        counts: dict[tuple[int, str], int] = {}
        for miss in found.misses:
            counts[miss.turn, miss.role] = counts.get((miss.turn, miss.role), 0) + 1
        rows += [[loop, t, role, n] for (t, role), n in sorted(counts.items())]
    return pd.DataFrame(rows, columns=["loop", "turn", "role", "misses"])


def corpus_baseline_label(strategy: str, keep_roles: Sequence[str] | None) -> str:
    """A corpus baseline summary's name (the Corpus page, the report), naming its form:
    ``keep-last, system + pinned kept`` (protected: it keeps the messages of those roles and the
    pinned ones first), ``keep-last, pinned kept`` (no role kept), or ``keep-last, bare``."""
    if keep_roles is None:
        return f"{strategy}, bare"
    return f"{strategy}, {' + '.join([*keep_roles, 'pinned'])} kept"
