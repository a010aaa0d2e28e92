"""Probe widgets (SPEC part D, labelled evidence): the probe file on the Conversation page, and
probe recall wherever needed-later recall is shown: Overview, A/B compare, Strategies and the
Budget sweep, each beside keep-last and random. The figures come from
:mod:`explorer.session.outcome_cache`, the tables from :mod:`explorer.frames.outcomes`.

Probe ids and answers are the conversation's user's own text: they appear in tables only,
never in Markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from compactor import CompactionResult, InvalidRequest, validate
from compactor.analyses.outcomes import InvalidProbes, Probe, parse_probes
from compactor.contract import AUTO_LIMITS
from compactor.model import Message
from compactor.strategies import StrategyComparison
from explorer.charts import outcomes as charts
from explorer.frames import outcomes as frames
from explorer.session import outcome_cache, state
from explorer.session.conversation import Conversation
from explorer.widgets import common

PROBE_TEXT_KEY = "outcome_probes_text"
PROBE_FILE_KEY = "outcome_probes_file"
#: The Budget sweep's choice of probe recall to draw (strict, partial or answer).
KIND_KEY = "sweeps_probe_kind"
SHARE = st.column_config.NumberColumn(format="percent")
HOW_TO_LOAD = (
    "Give a probe file on the Conversation page to see probe recall (strict, partial, answer) "
    "here too."
)
KIND_RULE = (
    "strict when every evidence message is kept whole, partial when each is kept (whole or "
    "cut), answer when its answer is still in a kept evidence message"
)


def stored_probes(conv: Conversation) -> dict[str, str] | None:
    """The probe file given beside ``conv`` this session, if any."""
    held = st.session_state.get(state.PROBES_KEY)
    return held if held and held.get("key") == conv.key else None


def read_probes(text: str, messages: Sequence[Message]) -> tuple[tuple[Probe, ...], tuple]:
    """The probes of a file's text, or its problems (each with its line or JSON path)."""
    data, problems = frames.read_json(text)
    if problems:
        return (), problems
    try:
        return parse_probes(data, messages), ()
    except InvalidProbes as error:
        return (), tuple(error.problems)


def probes_panel(conv: Conversation) -> None:
    """Conversation page: upload or paste a probe file ``{"probes": [...]}`` for this
    conversation; kept for the session, shown wherever needed-later recall is."""
    st.subheader("Probes (labelled evidence)")
    st.caption(
        'A probe file, {"probes": [{"id", "evidence": [message id or 0-based index, ...], '
        '"answer"?}]}, says which messages hold the evidence for a question; Overview, A/B '
        "compare, Strategies and the Budget sweep then show how many probes the setting keeps, "
        "beside keep-last and random."
    )
    try:
        messages = validate(conv.request(state.params()), limits=AUTO_LIMITS).messages
    except InvalidRequest:
        st.caption("Probes can be given once the conversation is a valid request.")
        return
    left, right = st.columns(2)
    upload = left.file_uploader("Upload a probe file", type=["json"], key=PROBE_FILE_KEY)
    pasted = right.text_area("or paste one", key=PROBE_TEXT_KEY, height=110)
    # never disabled: a paste is sent when the box loses focus, which a click on the button
    # does, so a button disabled until then would swallow that first click
    if right.button("Use the pasted probes", key="outcome_probes_use"):
        if pasted.strip():
            _keep(conv, "pasted", pasted)
        else:
            right.caption("Paste a probe file above first.")
    elif upload is not None and (stored_probes(conv) or {}).get("name") != upload.name:
        _keep(conv, upload.name, upload.getvalue().decode("utf-8", "replace"))
    held = stored_probes(conv)
    if held is None:
        return
    probes, problems = read_probes(held["text"], messages)
    if problems:
        common.show_problems("The probe file cannot be used; nothing is kept.", problems)
        return
    st.caption(f"{len(probes):,} probes kept for this conversation.")
    common.table(
        pd.DataFrame(
            [[p.id, ", ".join(f"#{i}" for i in p.evidence), p.answer] for p in probes],
            columns=["probe", "evidence", "answer"],
        )
    )
    if st.button("Forget the probes", key="outcome_probes_forget"):
        st.session_state.pop(state.PROBES_KEY, None)
        st.rerun()


def _keep(conv: Conversation, name: str, text: str) -> None:
    st.session_state[state.PROBES_KEY] = {"key": conv.key, "name": name, "text": text}


def loaded(result: CompactionResult) -> tuple[Probe, ...] | None:
    """The probes given beside the current conversation, resolved against ``result``'s
    messages; None when none are given, or when they cannot be used (then it says why)."""
    held = stored_probes(state.conversation())
    if held is None:
        return None
    probes, problems = read_probes(held["text"], result.request.messages)
    if problems:
        common.show_problems("The probe file cannot be used.", problems)
        return None
    return probes


def probes_figures(result: CompactionResult) -> None:
    """Overview: probe recall of the setting beside keep-last and random, when probes are given."""
    st.markdown("**Probe recall**")
    if stored_probes(state.conversation()) is None:
        st.caption("Give a probe file on the Conversation page to see how many probes are kept.")
        return
    probes = loaded(result)
    if probes is None:
        return
    found = outcome_cache.probes(state.conversation(), result, probes).in_form(
        state.baselines_form()
    )
    st.caption(
        f"{found.setting.probes:,} probes: {KIND_RULE} ({found.setting.answer_probes:,} probes "
        f"have one). {frames.baselines_note(found)}"
    )
    common.table(frames.probe_frame(found), column_config=_kind_columns())
    common.table(frames.probe_lift_frame(found), column_config=_lift_columns())


def ab_figures(results: Mapping[str, CompactionResult]) -> None:
    """A/B compare: probe recall under each side's parameters, beside its keep-last and random
    at its own budget."""
    first = next(iter(results.values()))
    if stored_probes(state.conversation()) is None:
        st.caption(HOW_TO_LOAD)
        return
    probes = loaded(first)
    if probes is None:
        return
    conv = state.conversation()
    form = state.baselines_form()
    found = {
        side: outcome_cache.probes(conv, r, probes).in_form(form) for side, r in results.items()
    }
    st.markdown("**Probe recall under A and under B**")
    st.caption(
        f"The whole conversation compacted with each side's parameters, {len(probes):,} probes: "
        f"{KIND_RULE}; keep-last and random at that side's budget."
    )
    common.table(frames.ab_probe_frame(found), column_config=_kind_columns())
    common.table(frames.ab_probe_frame(found, lift=True), column_config=_lift_columns())


def strategy_columns(
    result: CompactionResult, comparison: StrategyComparison
) -> pd.DataFrame | None:
    """Strategies: the probe columns of every strategy of ``comparison`` (the lineup on the
    whole conversation at ``result``'s budget) and random's, or None (after a caption or the
    problems) when no usable probes are given."""
    if stored_probes(state.conversation()) is None:
        st.caption(HOW_TO_LOAD)
        return None
    probes = loaded(result)
    if probes is None:
        return None
    found = outcome_cache.probes(state.conversation(), result, probes).in_form(
        state.baselines_form()
    )
    st.caption(
        f"Probe columns: the lineup on the whole conversation at the same budget, "
        f"{len(probes):,} probes: {KIND_RULE}. Keep the last N is the bare keep-last. "
        f"{frames.baselines_note(found)}"
    )
    return frames.strategy_probe_frame(probes, result.request.contents, comparison, found)


def probe_column_config() -> dict[str, Any]:
    return {
        f"probes_{kind}": st.column_config.NumberColumn(f"probes {kind}", format="percent")
        for kind in frames.PROBE_KINDS
    }


def curve_section(result: CompactionResult, budgets: pd.DataFrame, extent: int) -> None:
    """Budget sweep: a probe recall at every budget (strict unless chosen), beside keep-last
    and random, on the axis of the budget charts (``budgets``, a budget steps frame)."""
    st.subheader("Probe recall against the budget")
    if stored_probes(state.conversation()) is None:
        st.caption(HOW_TO_LOAD)
        return
    probes = loaded(result)
    if probes is None:
        return
    kind = (
        st.segmented_control("Probe recall", frames.PROBE_KINDS, default="strict", key=KIND_KEY)
        or "strict"
    )
    form = state.baselines_form()
    steps = outcome_cache.probes_curve(state.conversation(), result, probes, kind, form)
    labels = outcome_cache.probes(state.conversation(), result, probes).in_form(form)
    current = result.request.params.budget_chars
    step = next(s for s in steps if s.from_budget <= current <= s.to_budget)
    if step.setting is None:
        st.info(
            "No probe has an answer that one of its evidence messages holds: there is no "
            "answer recall to draw.",
            icon=":material/info:",
        )
        return
    st.caption(
        f"The whole conversation compacted at every budget, {len(probes):,} probes ({KIND_RULE}), "
        f"each line exact from one run. {kind.capitalize()} probe recall at the current budget "
        f"of {current:,}: this setting {frames.percent(step.setting)}, "
        f"{frames.baseline_label(labels)} {frames.percent(step.keep_last)}, "
        f"{frames.baseline_label(labels, frames.RANDOM)} {frames.percent(step.random.mean)} "
        f"({frames.percent(step.random.low)} to {frames.percent(step.random.high)}). "
        f"{frames.baselines_note(labels)}"
    )
    low, high = int(budgets["budget"].min()), int(budgets["budget"].max())
    frame = frames.probe_curve_frame(steps, kind, high)
    st.altair_chart(
        charts.recall_curve(
            frame,
            current,
            (low, high),
            extent,
            title=f"Probe recall ({kind})",
            names=frames.curve_names(labels),
        ),
        width="stretch",
    )


def _kind_columns() -> dict[str, Any]:
    return {kind: SHARE for kind in frames.PROBE_KINDS}


def _lift_columns() -> dict[str, Any]:
    """The probe lift's columns: differences of shares, in percentage points."""
    return {kind: common.points_column(f"{kind} lift") for kind in frames.PROBE_KINDS}
