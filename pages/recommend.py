"""Recommend: search the strategies and their parameters for the best setting under a goal, on
the loaded conversation (checked at cut points the search did not tune on) or on a corpus
(checked on conversations it did not tune on, loaded as the Corpus page loads one), beside the
schema defaults, keep-last and random; then download it as a compaction.toml. A corpus's
winner is labelled "recommended" on the Corpus page's frontier chart."""

import streamlit as st

from compactor.errors import ProblemError
from compactor.recommend import INSTALL_HINT, optuna_available, usd
from compactor.wording import percent
from explorer import navigation
from explorer.corpus import widgets as corpus_widgets
from explorer.recommend import frames as recommend_frames
from explorer.recommend import widgets as recommend_widgets
from explorer.session import state
from explorer.session.cache import Compaction
from explorer.widgets import common, page
from explorer.widgets import setting as setting_widgets

HOW = (
    "The search tries strategies that keep to a budget and their own parameters (Optuna's "
    "seeded sampler, one trial after another: the same goal and seed give the same answer). "
    "On the loaded conversation, it is cut at several points, each with its own future; on a "
    "corpus, the conversations are split. The search tunes on one part and the result is "
    "checked on the other only."
)


def draw(compaction: Compaction) -> None:
    if not optuna_available():
        st.info(INSTALL_HINT, icon=":material/download:")
        return
    st.caption(HOW)
    if recommend_widgets.source() == recommend_widgets.CORPUS:
        corpus_widgets.loader()  # the Corpus page's own loader: the same corpus on both pages
        loaded = corpus_widgets.current()
        if loaded is None:
            st.info(
                "Load a corpus: a file of many conversations, or a folder of them.",
                icon=":material/info:",
            )
            return
        st.text(f"Corpus: {loaded.name}, {len(loaded.items):,} conversations.")
        made_for = recommend_widgets.corpus_source(loaded.key, loaded.items)
        budget = 4000
    else:
        loaded, request = None, dict(compaction.request)
        made_for, budget = request, request.get("budget_chars", 4000)
    asked = recommend_widgets.goal_form(budget)
    if asked is not None:
        goal, options = asked
        try:
            if loaded is not None:
                found = recommend_widgets.run_corpus(loaded.key, list(loaded.items), goal, options)
            else:
                found = recommend_widgets.run(request, state.conversation().label, goal, options)
        except ProblemError as error:
            common.show_problems("No recommendation", error.problems)
            return
        recommend_widgets.keep(found)
    found = recommend_widgets.last(made_for)
    if found is None:
        return
    show(found)
    if loaded is not None:
        st.page_link(
            navigation.file_of("pages/corpus.py"),
            label="See it on the Corpus frontier (labelled “recommended”)",
            icon=":material/scatter_plot:",
        )


def show(found: recommend_widgets.Found) -> None:
    rec = found.recommendation
    winner = rec.winner_trial
    st.subheader("Recommended")
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    if rec.objective.minimise:
        shown = f"{usd(winner.cost)} per 1,000 conversations at {percent(winner.recall)}"
    else:
        shown = percent(winner.recall)
    left.metric(f"{winner.strategy}, {rec.objective.label} on the tuning part", shown)
    with right:
        setting_widgets.download(rec.winner, key="recommend_download")
    st.write(rec.check.verdict)
    over = "cut points" if rec.one_conversation else "conversations"
    st.caption(f"Judge: {rec.check.judge}. Intervals: 95%, a seeded bootstrap over {over}.")
    figures_table(recommend_frames.check_frame(rec), rec.objective.label)
    floor = recommend_frames.floor_frame(rec)
    if floor is not None:
        st.caption(
            f"The floor: needed-later recall at least {percent(rec.check.floor)}. "
            f"Judge: {rec.check.floor_judge}."
        )
        figures_table(floor, "needed-later recall")
    st.subheader("Runners-up")
    common.table(
        recommend_frames.runners_frame(rec),
        column_config={
            "recall": common.share_column(
                "needed-later recall" if rec.objective.minimise else rec.objective.label
            ),
            recommend_frames.COST: dollars_column("cost per 1,000 conversations"),
            "budget_met": common.share_column("budget met"),
        },
    )
    st.subheader("Why it wins")
    if found.kept:
        st.caption("Needs on the check part the recommendation keeps and the schema defaults lose")
        common.table(recommend_frames.why_frame(found.kept))
    else:
        st.write("On the check part it keeps no need the schema defaults lose.")


def dollars_column(label: str) -> object:
    return st.column_config.NumberColumn(label, format="$%.2f")


def figures_table(frame: object, label: str) -> None:
    """A check's figures: shares as percentages and lifts in points, or costs in dollars."""
    if recommend_frames.COST in frame.columns:  # type: ignore[attr-defined]
        value, diff = dollars_column, dollars_column
        label = "cost per 1,000 conversations"
    else:
        value, diff = common.share_column, common.points_column
    common.table(
        frame,
        column_config={
            "recall": value(label),
            recommend_frames.COST: value(label),
            "low": value("95% low"),
            "high": value("95% high"),
            "lift": diff("vs keep-last"),
            "lift_low": diff("lift 95% low"),
            "lift_high": diff("lift 95% high"),
            "budget_met": "budget met",
        },
    )


page.run("Recommend", draw)
