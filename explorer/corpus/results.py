"""The Corpus page's results: every setting against the frontier, one setting's distribution
over the conversations and its worst conversations, each of which opens in the
single-conversation views with that setting."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from typing import Any

import pandas as pd
import streamlit as st

from compactor.analyses.outcomes import BARE, PROTECTED
from compactor.evaluation import SUMMARY_BUDGETS, knee_budgets, summarise
from compactor.wording import percent, plural, points
from explorer import navigation
from explorer.corpus import charts, frames
from explorer.corpus import labelled as corpus_questions
from explorer.corpus import store as corpus_store
from explorer.corpus.widgets import CORPUS_KEY, RUN_KEY, SETTING_KEY
from explorer.frames import snippets
from explorer.session import keys, state
from explorer.widgets import common, page
from explorer.widgets import outcomes as outcome_widgets
from explorer.widgets import report as report_widgets
from explorer.widgets import setting as setting_widgets

WORST_KEY = "corpus_worst"
VIEW_KEY = "corpus_view"
OPEN_KEY = "corpus_open"
RUN_PICK_KEY = "corpus_run_pick"
MEASURE_KEY = "corpus_measure"
WORST_NEEDED_KEY = "corpus_worst_needed"
VIEW_NEEDED_KEY = "corpus_view_needed"
OPEN_NEEDED_KEY = "corpus_open_needed"
USE_KEY = "corpus_use_setting"
DOWNLOAD_KEY = "corpus_download_setting"
REPORT_KEY = "corpus_download_report"
#: The frontier chart's vertical axis: the measure's column and its label.
MEASURES = {"retention": "Anchors kept", "needed_recall": "Needed-later recall"}
#: The baselines' form in a column's words.
FORM_WORDS = {PROTECTED: "protected", BARE: "bare"}
#: The single-conversation views a worst conversation opens in.
VIEWS = (
    "pages/overview.py",
    "pages/anchors.py",
    "pages/pairing.py",
    "pages/timeline.py",
    "pages/output.py",
)


def shown_run(corpus: corpus_store.Corpus) -> corpus_store.Run | None:
    """The run the page shows for ``corpus``: the last one run or reopened, else none."""
    if st.session_state.get(CORPUS_KEY) is not corpus:
        return None
    return st.session_state.get(RUN_KEY)


def _describe(entry: corpus_store.RunEntry) -> str:
    if entry.budgets is None:
        budgets = "every budget of the sweep"
    else:
        budgets = "budgets " + ", ".join(f"{b:,}" for b in entry.budgets)
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.created))
    return f"{when}: {plural(entry.settings, 'setting')} at {budgets}, {plural(entry.rows, 'row')}"


def _pick(corpus: corpus_store.Corpus) -> None:
    found = corpus_store.get_run(corpus.key, st.session_state[RUN_PICK_KEY])
    if found is not None:
        st.session_state[RUN_KEY] = found
        st.session_state.pop(SETTING_KEY, None)


def pick_run(corpus: corpus_store.Corpus) -> None:
    """The runs kept for the corpus, to show another one (only when there are several)."""
    shown = shown_run(corpus)
    entries = corpus_store.run_entries(corpus.key)
    grids = {entry.grid: entry for entry in entries}
    if shown is None or len(entries) < 2 or shown.grid not in grids:
        return
    st.session_state[RUN_PICK_KEY] = shown.grid
    st.selectbox(
        "Results",
        list(grids),
        key=RUN_PICK_KEY,
        format_func=lambda grid: _describe(grids[grid]),
        on_change=_pick,
        args=(corpus,),
        help="Every run of this corpus is kept in the workspace; pick one to see it again.",
    )


def summaries(corpus: corpus_store.Corpus, run: corpus_store.Run) -> list[dict[str, Any]]:
    """The engine's summaries of the run: at its listed budgets, or, for a sweep run, at the
    summary budgets and the budgets where the share meeting its budget changes (the knee),
    up to the corpus's largest conversation."""
    if run.budgets is not None or all("budget_chars" in s for s in run.settings):
        return summarise(run.rows)
    largest = max(sum(len(m["content"]) for m in i.request["messages"]) for i in corpus.items)
    budgets = sorted(set(SUMMARY_BUDGETS) | set(knee_budgets(run.rows)))
    return summarise(run.rows, frames.summary_budgets(budgets, largest))


def _open(corpus: corpus_store.Corpus, label: str, setting: dict[str, Any]) -> None:
    """Load one conversation of the corpus with ``setting`` (a callback: before the sidebar)."""
    items = {frames.conversation_label(i.conversation): i for i in corpus.items}
    item = items.get(label)
    if item is not None:
        state.load(corpus_store.conversation_of(corpus, item, state.params()), setting)


def _view_titles() -> dict[str, str]:
    titles = {spec.path: spec.title for spec in navigation.PAGES}
    return {path: titles[path] for path in VIEWS}


def _summary_table(summary: pd.DataFrame, form: str) -> None:
    percent = st.column_config.NumberColumn(format="percent")
    chars = st.column_config.NumberColumn(format="localized")
    other = frames.FORM_KEYS[BARE if form == PROTECTED else PROTECTED]
    keep_last, drawn, lift = frames.FORM_KEYS[form]
    words = FORM_WORDS[form]
    common.table(
        summary.drop(columns=["chars_per_conversation", *other], errors="ignore"),
        column_config={
            "setting": st.column_config.TextColumn("setting", width="medium"),
            "budget_met_count": st.column_config.NumberColumn("budget met (conversations)"),
            "budget_met_rate": common.share_column(
                "budget met", help="Rounded down: 100.0% only when every conversation met it"
            ),
            "retention": st.column_config.NumberColumn("anchors kept", format="percent"),
            **{f"anchor_retention_{p}": percent for p in ("median", "p10", "p90")},
            **{
                name: percent
                for name in summary.columns
                if name.startswith(("needed_recall", "probes_", "reread_recall"))
            },
            keep_last: common.share_column(f"needed-later recall, keep-last ({words})"),
            drawn: common.share_column(f"needed-later recall, random ({words})"),
            lift: common.points_column(f"needed-later lift over keep-last ({words})"),
            **{f"output_chars_{p}": chars for p in ("median", "p10", "p90")},
            "output_chars": st.column_config.NumberColumn("output_chars (all)", format="localized"),
        },
    )


def recommended_point(corpus: corpus_store.Corpus) -> dict[str, Any] | None:
    """The Recommend page's last winner on this corpus, as a frontier point (None when it made
    none for this corpus)."""
    point = st.session_state.get(keys.RECOMMENDED_POINT_KEY)
    return point if point is not None and point["corpus"] == corpus.key else None


def results(corpus: corpus_store.Corpus, run: corpus_store.Run) -> None:
    """Every setting against the frontier, then the chosen setting over the conversations."""
    raw = summaries(corpus, run)
    summary = frames.summary_frame(raw)
    if summary.empty:
        st.info("The run has no rows to summarise.", icon=":material/info:")
        return
    labels = list(summary["setting"])
    if st.session_state.get(SETTING_KEY) not in labels:
        st.session_state[SETTING_KEY] = labels[int(summary["frontier"].to_numpy().argmax())]
    chosen = st.session_state[SETTING_KEY]
    cols = st.columns(4)
    cols[0].metric("Conversations", f"{len(corpus.items):,}")
    cols[1].metric("Settings", f"{len(summary):,}")
    cols[2].metric("Rows", f"{len(run.rows):,}")
    cols[3].metric(
        "On the frontier",
        f"{int(summary['frontier_at_budget'].sum()):,}",
        help="Settings no other setting of their budget, nor keep-last or random at it, beats "
        "on anchors kept with as few characters",
    )
    measures = [m for m in MEASURES if m in summary]
    if st.session_state.get(MEASURE_KEY) not in measures:
        st.session_state[MEASURE_KEY] = measures[0]
    st.subheader("What a setting keeps against characters out")
    st.radio(
        "Measure",
        measures,
        key=MEASURE_KEY,
        horizontal=True,
        format_func=MEASURES.get,
        help="Anchors kept of all anchors, or needed-later recall: of the needs of each "
        "conversation's last messages on an anchor the earlier ones hold, the share whose "
        "source the compacted earlier messages keep. Keep-last and random (the mean of 20 "
        "draws) at each budget are the grey reference points.",
    )
    measure = st.session_state[MEASURE_KEY]
    form = outcome_widgets.baselines_control()
    reference = frames.baseline_frame(raw, form)
    if reference.empty and any(not frames.is_setting(s) for s in raw):
        st.caption(
            "This run predates the protected baselines: run it again for them, or choose bare."
        )
    elif "needed_recall" in summary:
        st.caption(
            "Judge: needed-later recall (anchors, the product's own notion of a fact). "
            + (
                "Keep-last and random are bare: they may drop a system prompt a setting keeps."
                if form == BARE
                else "Keep-last and random keep first, whole, what each setting's keep_roles "
                "and pins protect, then apply recency or random to the rest."
            )
        )
    st.altair_chart(
        charts.frontier(
            summary,
            chosen,
            measure=measure,
            baselines=reference,
            recommended_point=recommended_point(corpus),
        ),
        width="stretch",
    )
    st.subheader("Budget met, per setting")
    st.altair_chart(charts.budget_met(summary), width="stretch")
    with st.expander(f"Every setting's summary ({len(summary):,})"):
        _summary_table(summary, form)

    st.subheader("One setting over the conversations")
    st.selectbox("Setting", labels, key=SETTING_KEY, persist_state="session")
    at = labels.index(chosen)
    one, setting = summary.iloc[at], frames.setting_of(frames.settings_of(raw)[at])
    rows = frames.rows_frame(frames.setting_rows(run.rows, setting))
    ship(corpus, one, setting, raw)
    cols = st.columns(4)
    cols[0].metric("Budget met", frames.budget_met_text(one))
    cols[1].metric("Anchors kept", percent(one["retention"]))
    cols[2].metric("Tool pairs broken", f"{int(one['tool_pairs_broken']):,}")
    if "needed_recall" in one:
        recall, keep_last = one["needed_recall"], one.get(frames.FORM_KEYS[form][0])
        every_met = frames.every_budget_met(one)
        cols[3].metric(
            "Needed-later recall",
            percent(recall),
            delta=None
            if keep_last is None or keep_last != keep_last or recall != recall
            else points(recall - keep_last),
            # a lift over keep-last (which always fits) is no win when the setting returned more
            delta_color="normal" if every_met else "off",
            help=f"The delta is the lift over keep-last ({FORM_WORDS[form]}) at the same budget."
            + (
                ""
                if every_met
                else " This setting missed its budget (budget met "
                f"{frames.budget_met_text(one)}): it kept more than keep-last was allowed to."
            ),
        )
    reread = frames.reread_text(one)
    if reread is not None:
        st.caption(reread)
    corpus_questions.results(corpus, raw, frames.settings_of(raw)[at])
    left, right = st.columns(2)
    with left:
        st.altair_chart(charts.retention_histogram(rows), width="stretch")
    with right:
        st.altair_chart(charts.output_histogram(rows), width="stretch")
    worst(corpus, rows, setting)
    if rows["needs"].notna().any():
        worst_needed(corpus, rows, setting)


def ship(
    corpus: corpus_store.Corpus,
    summary: pd.Series,
    setting: dict[str, Any],
    summaries: list[dict[str, Any]] | None = None,
) -> None:
    """The chosen setting (the ringed point of the frontier chart, a row of the summary) into
    the sidebar, or saved as a compaction.toml whose note says where it was chosen; and the
    report of the run's ``summaries`` with that setting."""
    chosen = snippets.sidebar_setting(setting, note=frames.setting_note(corpus.name, summary))
    use, download, report = st.columns(3)
    with use:
        setting_widgets.use(setting, USE_KEY)
    with download:
        setting_widgets.download(chosen, DOWNLOAD_KEY)
    with report:
        report_widgets.corpus(summaries or [], len(corpus.items), corpus.name, REPORT_KEY, chosen)
    setting_widgets.show_last_use()


def worst_needed(corpus: corpus_store.Corpus, rows: pd.DataFrame, setting: dict[str, Any]) -> None:
    """The conversations the setting treats worst by needed-later recall, each to open."""
    st.subheader("Its worst conversations by needed-later recall")
    bad = frames.worst_needed_frame(rows)
    if bad.empty:
        st.success(
            "Under this setting every need of a conversation's last messages is met.",
            icon=":material/check_circle:",
        )
        return
    st.caption(
        "The lowest needed-later recall first, then the most needs unmet; "
        f"{frames.listed_count(frames.count_needs_unmet(rows), 'with a need unmet')}."
    )
    common.table(
        bad,
        column_config={
            "conversation": st.column_config.TextColumn("conversation", width="small"),
            "needed_recall": st.column_config.NumberColumn("needed-later recall", format="percent"),
        },
    )
    _opener(corpus, bad, setting, (WORST_NEEDED_KEY, VIEW_NEEDED_KEY, OPEN_NEEDED_KEY))


def worst(corpus: corpus_store.Corpus, rows: pd.DataFrame, setting: dict[str, Any]) -> None:
    """The conversations the setting treats worst, and a button that opens one in a view."""
    st.subheader("Its worst conversations")
    bad = frames.worst_frame(rows)
    if bad.empty:
        st.success(
            "Under this setting no conversation loses an anchor, misses its budget or has a "
            "tool pair broken.",
            icon=":material/check_circle:",
        )
        return
    count = frames.count_with_problems(rows)
    st.caption(
        "Most anchors lost first, then a missed budget (the largest shortfall first), then the "
        f"most tool pairs broken; {frames.listed_count(count, 'with a problem')}."
    )
    common.table(
        bad,
        column_config={
            "conversation": st.column_config.TextColumn("conversation", width="small"),
            "problems": st.column_config.TextColumn("problems", width="large"),
        },
    )
    _opener(corpus, bad, setting, (WORST_KEY, VIEW_KEY, OPEN_KEY))


def picker_key(pick: str, shown: Iterable[str]) -> str:
    """The key of a worst-conversation picker (``pick``) showing the option labels ``shown``."""
    digest = hashlib.sha256("\n".join(shown).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{pick}:{digest[:12]}"


def _opener(
    corpus: corpus_store.Corpus,
    bad: pd.DataFrame,
    setting: dict[str, Any],
    keys: tuple[str, str, str],
) -> None:
    """Pick one of ``bad``'s conversations and a view, and open it there with ``setting``."""
    pick, view_key, open_key = keys
    titles = _view_titles()
    left, middle, right = st.columns([2, 1, 1], vertical_alignment="bottom")
    labels = list(bad["conversation"])
    if "problems" in bad:
        said = {c: f"{c}: {p}" for c, p in zip(labels, bad["problems"], strict=True)}
    else:
        said = {
            c: f"{c}: {int(unmet):,} of {int(needs):,} needs unmet"
            for c, unmet, needs in zip(labels, bad["needs_unmet"], bad["needs"], strict=True)
        }
    # Keyed by what it says: a keyed selectbox keeps its identity when only its option labels
    # change (another setting, another run) and the browser would go on showing the old label.
    widget = picker_key(pick, said.values())
    if st.session_state.get(widget) not in labels:
        chosen = st.session_state.get(pick)
        st.session_state[widget] = chosen if chosen in labels else labels[0]
    st.session_state[pick] = left.selectbox(
        "Conversation", labels, key=widget, format_func=said.get
    )
    middle.selectbox(
        "View", list(titles), key=view_key, format_func=titles.get, persist_state="session"
    )
    view = st.session_state.get(view_key) or VIEWS[0]
    opened = right.button(
        "Open with this setting",
        key=open_key,
        type="primary",
        icon=":material/open_in_new:",
        on_click=_open,
        args=(corpus, st.session_state[pick], setting),
        width="stretch",
    )
    if opened:
        page.open_at_top()
        st.switch_page(navigation.file_of(view))
