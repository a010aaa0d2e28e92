"""What a report holds, as plain values: one decision (the transcript with each message's reason,
what each stage removed, the outcome figures beside keep-last and random, the strategies at the
same budget, the cost per turn, the setting) or a corpus's summary. Every figure comes from the
engine's own functions and the frames the pages show; nothing here decides anything.

The values are text and numbers only; :mod:`explorer.report.render` escapes every one of them.
A redacted report never holds a message's content nor its id: each message is its length and
its fate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import altair as alt
import pandas as pd

import compactor
from compactor import CompactionResult, Request, Setting, SettingError, run
from compactor.analyses.outcomes import (
    DEFAULT_FUTURE,
    KEEP_LAST,
    RANDOM,
    ContinuationCheck,
    continuation_check,
)
from compactor.analyses.pricing import CallCost, ModelPrice, ReplayCost, price_histories
from compactor.analyses.replay import Turn, replay_request
from compactor.contract import MEMORY_COMPACT
from compactor.strategies import StrategyComparison, compare_strategies, setting_toml
from compactor.wording import met_share, plural
from explorer.charts import compare as compare_charts
from explorer.charts import views as view_charts
from explorer.frames import compare as compare_frames
from explorer.frames import outcomes as outcome_frames
from explorer.frames import stages as stage_frames
from explorer.frames import transcript as transcript_frames
from explorer.frames import views as view_frames
from explorer.frames.snippets import setting_words, sidebar_setting
from explorer.theme import FATE_COLOURS, TOTAL_COLOUR

#: The judge every outcome figure is read by, named wherever a figure is shown (SPEC part D).
JUDGE = (
    "needed-later recall (SPEC part D): the last k messages are the future; a future message "
    "needs an anchor (an id, number, date, path) an earlier message holds, and the need is met "
    "when one of its sources in the compacted past is kept. The same judge reads the setting, "
    "keep-last (the most recent whole messages that fit the same budget) and random (messages "
    "removed in a seeded random order until the rest fits)."
)
#: The file name a report is saved under: the kind and the day it was made.
FILE_NAME = "compaction-report-{day}.html"


@dataclass(frozen=True)
class Table:
    """A table as the report shows it: column titles and rows of display text."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Section:
    """One part of the report: a heading, sentences, and any tables, charts and code block."""

    title: str
    paragraphs: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    charts: tuple[alt.TopLevelMixin, ...] = field(default=(), compare=False)
    code: str | None = None
    #: An anchor for the section (``id``), so a test or a reader can find it.
    key: str = ""


@dataclass(frozen=True)
class TranscriptRow:
    """One input message as the report shows it; ``sent``, ``cut_off`` and ``removed`` are its
    content split three ways, or in the redacted report a description of their lengths."""

    message: str
    role: str
    shown: str
    fate: str
    note: str
    sent: str
    cut_off: str
    removed: str


@dataclass(frozen=True)
class Report:
    """A whole report: its title, when and by which version it was made, and its parts."""

    title: str
    subtitle: str
    made: datetime
    version: str
    redacted: bool
    sections: tuple[Section, ...]
    transcript: tuple[TranscriptRow, ...] = ()

    @property
    def file_name(self) -> str:
        return file_name(self.made)


def file_name(made: datetime) -> str:
    """``compaction-report-2026-12-06.html``."""
    return FILE_NAME.format(day=made.strftime("%Y-%m-%d"))


# --- the cost per turn: the hook a price column plugs into --------------------------------------


@dataclass(frozen=True)
class CostColumn:
    """A column of the cost-per-turn table: its title and its value for one replay turn. The
    report's own columns are characters; a money column (a price per token, cached and not) is
    one more of these, passed to :func:`decision_report` as ``cost_columns``."""

    title: str
    value: Callable[[Turn], str]


COST_COLUMNS: tuple[CostColumn, ...] = (
    CostColumn("turn", lambda t: f"{t.turn:,}"),
    CostColumn("messages sent", lambda t: f"{t.messages_out:,}"),
    CostColumn("characters sent", lambda t: f"{t.chars_out:,}"),
    CostColumn("stable prefix (cacheable)", lambda t: f"{t.stable_prefix_chars:,}"),
    CostColumn("new characters", lambda t: f"{t.chars_out - t.stable_prefix_chars:,}"),
    CostColumn("compacted", lambda t: "yes" if t.compacted else "no"),
)


def cost_frame(turns: Sequence[Turn]) -> pd.DataFrame:
    """Per turn: the characters sent, the part a prompt cache can reuse from the turn before
    (the stable prefix) and the rest, long (one row per turn and part) for a stacked chart."""
    rows = []
    for t in turns:
        rows.append({"turn": t.turn, "part": "stable prefix", "chars": t.stable_prefix_chars})
        rows.append({"turn": t.turn, "part": "new", "chars": t.chars_out - t.stable_prefix_chars})
    return pd.DataFrame(rows, columns=["turn", "part", "chars"])


def cost_chart(frame: pd.DataFrame, height: int = 200) -> alt.Chart:
    """The characters sent on each turn, split into the stable prefix and the new part."""
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("turn:O", title="Turn", axis=alt.Axis(labelOverlap=True)),
            y=alt.Y("chars:Q", title="Characters sent", stack="zero"),
            color=alt.Color(
                "part:N",
                title="Characters",
                scale=alt.Scale(
                    domain=["stable prefix", "new"],
                    range=[FATE_COLOURS["verbatim"], FATE_COLOURS["trimmed"]],
                ),
                legend=alt.Legend(orient="top"),
            ),
            tooltip=["turn:O", "part:N", alt.Tooltip("chars:Q", format=",")],
        )
        .properties(height=height, width="container")
    )


# --- the outcome figures ------------------------------------------------------------------------


def outcome_frame(check: ContinuationCheck) -> pd.DataFrame:
    """The setting's needed-later recall beside keep-last's and random's mean (with its 2.5th to
    97.5th percentiles), one row each."""
    assert check.setting is not None and check.keep_last is not None
    r = check.random
    return pd.DataFrame(
        [
            {"who": "this setting", "recall": check.setting.recall, "low": None, "high": None},
            {"who": "keep-last", "recall": check.keep_last.recall, "low": None, "high": None},
            {"who": f"random ({r.draws} draws)", "recall": r.mean, "low": r.low, "high": r.high},
        ]
    )


def outcome_chart(frame: pd.DataFrame, height: int = 120) -> alt.LayerChart:
    """Needed-later recall of the setting, keep-last and random (its interval as a rule)."""
    base = alt.Chart(frame).encode(
        y=alt.Y("who:N", title=None, sort=list(frame["who"]), axis=alt.Axis(labelLimit=220))
    )
    bars = base.mark_bar(color=TOTAL_COLOUR, size=22).encode(
        x=alt.X(
            "recall:Q",
            title="Needed-later recall",
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format="%"),
        ),
        tooltip=["who:N", alt.Tooltip("recall:Q", format=".1%")],
    )
    spread = base.mark_rule(strokeWidth=2, color="currentColor").encode(x="low:Q", x2="high:Q")
    return alt.layer(bars, spread).properties(height=height, width="container")


def _outcomes(request: Request, future: int) -> Section:
    check = continuation_check(request, future=future)
    title = "What the next messages need, beside keep-last and random"
    if not check.valid:
        said = "; ".join(p.message for p in check.problems)
        return Section(title, (f"No figure: the past is not a valid request ({said}).",), key="out")
    if check.setting is None or not check.setting.needs:
        return Section(
            title,
            (
                f"None of the last {check.future:,} messages needs an anchor that an earlier "
                "message holds: there is nothing to judge.",
                f"Judge: {JUDGE}",
            ),
            key="outcomes",
        )
    assert check.keep_last is not None
    pct = outcome_frames.percent
    r = check.random
    table = Table(
        ("", "needed-later recall", "needs met"),
        (
            ("this setting", pct(check.setting.recall), f"{check.setting.met:,} of "
             f"{check.setting.needs:,}"),
            ("keep-last", pct(check.keep_last.recall), f"{check.keep_last.met:,} of "
             f"{check.keep_last.needs:,}"),
            (f"random ({r.draws} draws)", f"{pct(r.mean)} ({pct(r.low)} to {pct(r.high)})", ""),
        ),
    )  # fmt: skip
    return Section(
        title,
        (
            f"The first {check.past_messages:,} messages compacted at a budget of "
            f"{check.budget_chars:,} characters; the last {check.future:,} are the future. Lift "
            f"over keep-last: {outcome_frames.signed_points(check.lift)}.",
            f"Judge: {JUDGE}",
        ),
        (table,),
        (outcome_chart(outcome_frame(check)),),
        key="outcomes",
    )


# --- the parts of one decision ------------------------------------------------------------------


def _stages(result: CompactionResult) -> Section:
    rows = stage_frames.stage_rows(result)
    budget = result.request.params.budget_chars
    table = Table(
        ("stage", "rule", "messages", "result", "which", "characters removed"),
        tuple(
            (r.stage, r.rule, f"{r.messages:,}", r.result, r.which, f"{r.chars_removed:,}")
            for r in rows.itertuples()
        ),
    )
    chart = view_charts.waterfall(view_frames.waterfall_frame(result.totals), budget)
    return Section(
        "What each stage removed",
        (
            "The four stages run in order: pin protects, dedupe removes near-duplicates, trim "
            "cuts long messages, drop removes whole messages, lowest score first, until the "
            "budget is met. Messages are named by their number (#0 is the first).",
        ),
        (table,),
        (chart,),
        key="stages",
    )


def _strategies(request: Request, comparison: StrategyComparison | None) -> Section:
    if comparison is None:
        comparison = compare_strategies(request)
    totals = compare_frames.strategy_totals(comparison)
    budget = request.params.budget_chars

    def count(value: Any) -> str:
        return "" if pd.isna(value) else f"{int(value):,}"

    def met(value: Any) -> str:
        return "" if pd.isna(value) else ("yes" if value else "no")

    table = Table(
        ("strategy", "characters out", "tokens (estimate)", "messages out", "cut", "budget met",
         "how it ran"),
        tuple(
            (r.strategy, count(r.output_chars), count(r.tokens_estimate),
             count(r.output_messages), count(r.cut_messages), met(r.budget_met), str(r.how))
            for r in totals.itertuples()
        ),
    )  # fmt: skip
    return Section(
        "The strategies at the same budget",
        (
            f"Every strategy of the registry on the same conversation at the same budget "
            f"({budget:,} characters); memory-compact with this setting's parameters.",
        ),
        (table,),
        (compare_charts.strategy_totals(totals, budget, height=max(180, 30 * len(totals))),),
        key="strategies",
    )


def _cost(
    request: Request,
    cost_columns: Sequence[CostColumn],
    model: ModelPrice | None = None,
    lifetime: int | None = None,
) -> Section:
    replayed = replay_request(request, MEMORY_COMPACT)
    turns = replayed.turns
    if not turns:
        return Section("The cost per turn", ("One message: no turn to replay.",), key="cost")
    priced: list[str] = []
    if model is not None:
        cost = price_histories(
            replayed.histories, request.messages, model, lifetime_seconds=lifetime
        )
        cost_columns = (*cost_columns, *_price_columns(cost))
        priced = [_priced_text(cost)]
    columns = (*COST_COLUMNS, *cost_columns)
    table = Table(
        tuple(c.title for c in columns), tuple(tuple(c.value(t) for c in columns) for t in turns)
    )
    sent = sum(t.chars_out for t in turns)
    stable = sum(t.stable_prefix_chars for t in turns)
    return Section(
        "The cost per turn",
        (
            "The conversation replayed as an agent loop would send it, compacted with this "
            "setting on every turn. The stable prefix is the part of what is sent that equals "
            "the turn before's, which a prompt cache can reuse; the rest is new.",
            f"Over {plural(len(turns), 'turn')}: {sent:,} characters sent, {stable:,} of them "
            f"a stable prefix ({outcome_frames.percent(stable / sent if sent else None)}).",
            *priced,
        ),
        (table,),
        (cost_chart(cost_frame(turns)),),
        key="cost",
    )


def _setting_section(setting: Setting | None) -> Section:
    if setting is None:
        return Section(
            "The setting",
            ("This budget is beyond what a compaction.toml holds, so there is no setting file.",),
            key="setting",
        )
    return Section(
        "The setting",
        (
            f"{setting_words(setting)}. Save this block as compaction.toml: "
            "python -m compactor shrink FILE --setting compaction.toml applies it, and the "
            "agent integrations read it.",
        ),
        code=setting_toml(setting),
        key="setting",
    )


def _request_setting(request: Request) -> Setting | None:
    """The request's parameters as a memory-compact setting; None when its budget is beyond
    a setting's range (the agent mode's budgets go further)."""
    try:
        return sidebar_setting(request.params.to_dict())
    except SettingError:
        return None


def redacted_text(chars: int, fate: str) -> str:
    """What a redacted report shows for a message's content: its length and its fate."""
    return f"[{plural(chars, 'character')}, {fate}]" if chars else ""


def transcript_rows(result: CompactionResult, redacted: bool) -> tuple[TranscriptRow, ...]:
    """Every input message: its number, role, how it is shown, its fate, the reason (the
    Transcript page's), and its content split three ways, or their lengths when ``redacted``."""
    frame = transcript_frames.transcript_frame(result)
    rows = []
    for r in frame.itertuples():
        parts = (r.sent, r.cut_off, r.removed)
        if redacted:
            parts = tuple(redacted_text(len(p), r.fate) for p in parts)
        label = r.message if redacted or not r.id else f"{r.message} ({r.id})"
        rows.append(TranscriptRow(label, r.role, r.shown, r.fate, r.note, *parts))
    return tuple(rows)


def decision_report(
    request: Request,
    *,
    setting: Setting | None = None,
    result: CompactionResult | None = None,
    comparison: StrategyComparison | None = None,
    future: int = DEFAULT_FUTURE,
    redacted: bool = False,
    name: str | None = None,
    made: datetime | None = None,
    cost_columns: Sequence[CostColumn] = (),
    model: ModelPrice | None = None,
    cache_lifetime: int | None = None,
) -> Report:
    """The report of one decision: ``request`` compacted with its parameters (memory-compact).

    ``setting`` is the ``compaction.toml`` shown (by default the request's parameters as a
    memory-compact setting); ``result`` and ``comparison`` are ``run(request)`` and the lineup
    when the caller has them; ``future`` the k of the outcome figures; ``redacted`` replaces
    every message's content by its length and fate; ``name`` names the conversation (never in
    a redacted report); ``cost_columns`` add columns to the cost per turn; ``model`` prices
    every call of the replay at its entry of the price table (docs/cost.md), with the cache
    write of ``cache_lifetime`` seconds (default: the model's shortest).
    """
    if result is None:
        result = run(request)
    if setting is None:
        setting = _request_setting(request)
    made = made or datetime.now(UTC)
    frame = transcript_frames.transcript_frame(result)
    budget = request.params.budget_chars
    met = "met" if result.budget_met else "not met"
    summary = Section(
        "The decision",
        (
            transcript_frames.summary(frame),
            f"Budget {budget:,} characters, {met}: the output is {result.totals.output:,} "
            f"characters.",
        ),
        key="decision",
    )
    sections = (
        summary,
        _setting_section(setting),
        _stages(result),
        _outcomes(request, future),
        _strategies(request, comparison),
        _cost(request, cost_columns, model, cache_lifetime),
    )
    subtitle = "Redacted: every message is shown as its length and fate." if redacted else ""
    if name and not redacted:
        subtitle = f"Conversation: {name}"
    return Report(
        "Compaction report",
        subtitle,
        made,
        compactor.__version__,
        redacted,
        sections,
        transcript_rows(result, redacted),
    )


def _price_columns(cost: ReplayCost) -> tuple[CostColumn, ...]:
    """The priced replay's columns: each turn's tokens read from the cache, written, uncached,
    and its dollars (blank on a turn with no model call)."""
    by_turn = {c.turn: c for c in cost.turns}

    def cell(t: Any, what: Callable[[CallCost], str]) -> str:
        found = by_turn.get(t.turn)
        return what(found) if found is not None and found.call else ""

    dollars = lambda c: f"${c.cost.total:.4f}" if c.cost is not None else "no price"  # noqa: E731
    return (
        CostColumn("tokens read (cache)", lambda t: cell(t, lambda c: f"{c.split.reads:,}")),
        CostColumn("tokens written", lambda t: cell(t, lambda c: f"{c.split.writes:,}")),
        CostColumn("uncached", lambda t: cell(t, lambda c: f"{c.split.uncached:,}")),
        CostColumn(f"cost at {cost.model}", lambda t: cell(t, dollars)),
    )


def _priced_text(cost: ReplayCost) -> str:
    """The task's cost in one sentence, with how tokens were counted."""
    total = cost.cost
    split = cost.split
    tokens = f"tokens counted as {cost.tokens}" + (" (approximate)" if cost.approximate else "")
    if total is None:
        return f"{cost.model} has no input or output price in the table: no cost ({tokens})."
    return (
        f"At {cost.model}'s prices the task's {plural(cost.calls, 'model call')} cost "
        f"${total.total:.4f}: {split.reads:,} tokens read from the cache, {split.writes:,} "
        f"written to it, {split.uncached:,} uncached, {split.output:,} output ({tokens})."
    )


# --- a corpus -----------------------------------------------------------------------------------

#: The summary's columns the corpus report shows: each one's title and how a summary reads in it.
SUMMARY_COLUMNS: Mapping[str, tuple[str, Callable[[Mapping[str, Any]], str]]] = {
    "conversations": ("conversations", lambda s: f"{s['conversations']:,}"),
    "budget_met_rate": (
        "budget met",
        lambda s: met_share(round(s["budget_met_rate"] * s["conversations"]), s["conversations"]),
    ),
    "output_chars_median": (
        "characters out (median)",
        lambda s: f"{s['output_chars_median']:,.0f}",
    ),
    "anchor_retention_median": (
        "anchors kept (median)",
        lambda s: outcome_frames.percent(s["anchor_retention_median"]),
    ),
    "needed_recall": ("needed-later recall", lambda s: outcome_frames.percent(s["needed_recall"])),
    "needed_lift": (
        "lift over keep-last",
        lambda s: "" if _baseline(s) else outcome_frames.signed_points(s["needed_lift"]),
    ),
    "tool_pairs_broken": ("tool pairs split", lambda s: f"{s['tool_pairs_broken']:,}"),
}


def _baseline(summary: Mapping[str, Any]) -> bool:
    return summary.get("strategy", MEMORY_COMPACT) in (KEEP_LAST, RANDOM)


def summary_label(summary: Mapping[str, Any]) -> str:
    """A summary's setting in one line: its strategy, budget and parameters."""
    strategy = summary.get("strategy", MEMORY_COMPACT)
    params = [
        f"{k} {'+'.join(v) or 'none' if isinstance(v, list | tuple) else v}"
        for k in ("keep_last_n", "keep_roles", "duplicate_threshold", "max_message_chars")
        if strategy == MEMORY_COMPACT and (v := summary.get(k)) is not None
    ]
    if strategy in (KEEP_LAST, RANDOM):  # a baseline row, named by its form as on the Corpus page
        strategy = outcome_frames.corpus_baseline_label(strategy, summary.get("keep_roles"))
    budget = summary.get("budget_chars")
    at = f" at {budget:,} characters" if isinstance(budget, int) else ""
    return f"{strategy}{at}" + (f", {', '.join(params)}" if params else "")


def summary_frame(summaries: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Each summary's needed-later recall, for the corpus chart (the baselines beside)."""
    rows = [
        {"setting": summary_label(s), "recall": s.get("needed_recall")}
        for s in summaries
        if s.get("needed_recall") is not None
    ]
    return pd.DataFrame(rows, columns=["setting", "recall"])


def summary_chart(frame: pd.DataFrame, height: int = 160) -> alt.Chart:
    return (
        alt.Chart(frame)
        .mark_bar(color=TOTAL_COLOUR, size=20)
        .encode(
            y=alt.Y("setting:N", title=None, sort=None, axis=alt.Axis(labelLimit=420)),
            x=alt.X(
                "recall:Q",
                title="Needed-later recall (pooled)",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%"),
            ),
            tooltip=["setting:N", alt.Tooltip("recall:Q", format=".1%")],
        )
        .properties(height=height, width="container")
    )


def corpus_report(
    summaries: Sequence[Mapping[str, Any]],
    *,
    conversations: int,
    setting: Setting | None = None,
    name: str | None = None,
    made: datetime | None = None,
) -> Report:
    """The report of a corpus: each setting's summary (``compactor.evaluation.summarise``),
    keep-last's and random's beside it at the same budget, and the setting chosen."""
    if not summaries:
        raise ValueError("a corpus report needs at least one summary")
    made = made or datetime.now(UTC)
    shown = [c for c in SUMMARY_COLUMNS if any(s.get(c) is not None for s in summaries)]
    table = Table(
        ("setting", *(SUMMARY_COLUMNS[c][0] for c in shown)),
        tuple(
            (
                summary_label(s),
                *("" if s.get(c) is None else SUMMARY_COLUMNS[c][1](s) for c in shown),
            )
            for s in summaries
        ),
    )
    frame = summary_frame(summaries)
    charts = (summary_chart(frame, max(160, 30 * len(frame))),) if len(frame) else ()
    section = Section(
        "The corpus summary",
        (
            f"{plural(conversations, 'conversation')}. Each setting compacts every "
            "conversation at its budget; keep-last and random run at the same budget.",
            f"Judge: {JUDGE}",
        ),
        (table,),
        charts,
        key="corpus",
    )
    sections = (section,) if setting is None else (section, _setting_section(setting))
    subtitle = f"Corpus: {name}" if name else ""
    return Report(
        "Compaction report: a corpus", subtitle, made, compactor.__version__, False, sections
    )
