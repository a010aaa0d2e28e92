"""The Recommend page's widgets: the goal form, the search with its progress, and the result
kept in the session for reruns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from compactor.analyses.pricing import load_prices
from compactor.contract import AGENT_LIMITS, budget_range
from compactor.evaluation import CorpusItem, evaluate_strategy
from compactor.recommend import (
    OBJECTIVES,
    Goal,
    KeptNeed,
    Options,
    Recommendation,
    cut_points,
    needs_kept_over_defaults,
    recommend,
)
from explorer.recommend import frames
from explorer.session import keys

#: The last recommendation, with the request it was made for.
RESULT_KEY = "recommend_result"
FORM_KEY = "recommend_goal"
#: The "Never split a tool pair" constraint: the Tool pairs page ticks it before it sends a user
#: here (issue 40: the remedy for split pairs one click away).
PAIRS_KEY = "recommend_pairs"
FLOOR_KEY, MODEL_KEY = "recommend_floor", "recommend_model"
OBJECTIVE_KEY, BUDGET_KEY = "recommend_objective", "recommend_budget"


#: Where the search runs: the loaded conversation (at its cut points) or a corpus.
SOURCE_KEY = "recommend_source"
CONVERSATION, CORPUS = "The loaded conversation", "A corpus"


@dataclass(frozen=True)
class Found:
    """A recommendation, what it was made for (a request, or a corpus's name and size), and
    the needs of its check part it keeps that the schema defaults lose."""

    request: Any
    recommendation: Recommendation
    kept: tuple[KeptNeed, ...]


def source() -> str:
    """The loaded conversation or a corpus, as the user chooses."""
    return st.radio("Search on", [CONVERSATION, CORPUS], key=SOURCE_KEY, horizontal=True)


def corpus_source(key: str, items: Any) -> tuple[str, str, int]:
    """What a corpus recommendation was made for: the corpus's key and its size."""
    return ("corpus", key, len(items))


def goal_form(budget: int) -> tuple[Goal, Options] | None:
    """The goal, the trials and the seed, as the form gives them when submitted (else None)."""
    with st.form(FORM_KEY):
        left, middle, right = st.columns(3)
        low, high = budget_range(AGENT_LIMITS)  # a whole agent session's budget too
        chars = left.number_input(
            "Budget (characters)",
            low,
            high,
            min(max(int(budget), low), high),
            step=100,
            key=BUDGET_KEY,
        )
        objective = middle.selectbox(
            "Objective",
            list(OBJECTIVES),
            format_func=lambda n: OBJECTIVES[n].label,
            key=OBJECTIVE_KEY,
        )
        trials = right.number_input("Trials", 2, 500, 30, key="recommend_trials")
        seed = left.number_input("Seed", 0, 2**31 - 1, 0)
        met = middle.slider("Budget met on at least", 0.0, 1.0, 0.95, 0.05, format="percent")
        with right:
            system = st.checkbox("Keep every system message")
            pairs = st.checkbox("Never split a tool pair", key=PAIRS_KEY)
        floor = left.number_input(
            "Needed-later recall floor",
            0.0,
            1.0,
            value=None,
            step=0.05,
            key=FLOOR_KEY,
            help="Every candidate keeps at least this share of the needs (required for cost).",
        )
        models = load_prices().names()
        model = middle.selectbox(
            "Model (for cost)",
            models,
            index=None,
            key=MODEL_KEY,
            help="The cost objective minimises what the kept context costs at its prices.",
        )
        submitted = st.form_submit_button("Recommend", icon=":material/auto_awesome:")
    if not submitted:
        return None
    goal = Goal(
        budget_chars=int(chars),
        objective=objective,
        min_budget_met=float(met),
        keep_system=system,
        keep_tool_pairs=pairs,
        floor=None if floor is None else float(floor),
        model=model,
    )
    return goal, Options(trials=int(trials), seed=int(seed), workers=1)


def run(request: dict[str, Any], label: str, goal: Goal, options: Options) -> Found:
    """The search on the loaded conversation (checked at its cut points), with a progress bar."""
    bar = st.progress(0.0, text="Searching")

    def progress(done: int, total: int, trial: Any) -> None:
        bar.progress(min(1.0, done / total), text=f"Trial {done:,} of {total:,}")

    item = CorpusItem(label, request)
    found = recommend([item], goal, options, progress=progress)
    bar.empty()
    checked = [c for c in cut_points(item, options.future) if c.conversation in found.checking]
    winner = found.winner_trial
    kept = needs_kept_over_defaults(
        checked, goal.chars, winner.strategy, winner.params, options.future
    )
    return Found(request, found, kept)


def run_corpus(key: str, items: list[CorpusItem], goal: Goal, options: Options) -> Found:
    """The search on a corpus (tuned on some conversations, checked on the others), with a
    progress bar; the winner over the whole corpus kept as the Corpus frontier's
    "recommended" point."""
    bar = st.progress(0.0, text="Searching")

    def progress(done: int, total: int, trial: Any) -> None:
        bar.progress(min(1.0, done / total), text=f"Trial {done:,} of {total:,}")

    found = recommend(items, goal, options, progress=progress)
    bar.progress(1.0, text="Placing the winner on the corpus frontier")
    winner = found.winner_trial
    checked = [item for item in items if item.conversation in found.checking]
    kept = needs_kept_over_defaults(
        checked, goal.chars, winner.strategy, winner.params, options.future
    )
    rows = list(
        evaluate_strategy(
            items, winner.strategy, [dict(winner.params)], [goal.chars], workers=options.workers
        )
    )
    st.session_state[keys.RECOMMENDED_POINT_KEY] = frames.recommended_point(
        key, rows, winner.strategy, winner.params, goal.chars
    )
    bar.empty()
    return Found(corpus_source(key, items), found, kept)


def last(request: Any) -> Found | None:
    """The last recommendation, when it was made for ``request``."""
    found = st.session_state.get(RESULT_KEY)
    return found if found is not None and found.request == request else None


def keep(found: Found) -> None:
    st.session_state[RESULT_KEY] = found
