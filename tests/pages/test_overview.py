"""Overview: the numbers, the stage table and the waterfall follow the engine as parameters move."""

import pytest

from compactor.engine import build_response
from compactor.samples import load_sample
from explorer.frames import stages as stage_frames
from explorer.frames.views import LIST_LIMIT
from harness.apptest import (
    MOVES,
    assert_clean,
    chart_rows,
    engine,
    follows_the_engine,
    goto,
    load,
    metrics,
    start,
    static_table,
    table,
)
from tests.explorer.requests import rich_request

PAGE = "pages/overview.py"


def stage_table(at):
    """The stage table: static (``st.table``), so its long lists wrap, between items only (an
    item's words are joined by no-break spaces)."""
    return static_table(at, "Which")


def acted_on(at):
    """The expander's table: every message each stage acted on, by stage."""
    acted = table(at, "what")
    return {stage: list(group["message"]) for stage, group in acted.groupby("stage", sort=True)}


#: The headline's figures; the outcomes section below has its own (tests/pages/test_outcomes.py).
HEADLINE = (
    "Characters out",
    "Messages out",
    "Retained characters",
    "Budget",
    "Protected characters",
)


def reported(at):
    waterfall = chart_rows(at, "step").set_index("step")
    stages = stage_table(at)
    return {
        "metrics": {k: v for k, v in metrics(at).items() if k in HEADLINE},
        "deltas": {
            m.label: m.proto.delta for m in at.metric if m.proto.delta and m.label in HEADLINE
        },
        "stages": list(stages["Messages"]),
        "which": list(stages["Which"]),
        "acted": acted_on(at),
        "waterfall": {step: (row.low, row.high) for step, row in waterfall.iterrows()},
        "warned": any("alone hold" in w.value for w in at.warning),
    }


def expected(result):
    response = build_response(result)
    loss, budget, totals = response["loss"], response["budget"], result.totals
    stages = response["stages"]
    acted = {
        "1. pin": [f"#{t.index}" for t in result.messages if t.protected],
        "2. dedupe": [f"#{r.index}" for r in result.deduplication.removed],
        "3. trim": [f"#{c.index}" for c in result.trimming.cuts],
        "4. drop": [f"#{d.index}" for d in result.dropping.dropped],
    }
    return {
        "metrics": {
            "Characters out": f"{loss['output_chars']:,}",
            "Messages out": f"{loss['output_messages']:,}",
            "Retained characters": f"{loss['retained_char_ratio']:.2%}",
            "Budget": "met" if budget["budget_met"] else f"short by {budget['shortfall_chars']:,}",
            "Protected characters": f"{budget['protected_chars']:,}",
        },
        "deltas": {
            "Characters out": f"-{loss['dropped_chars'] + loss['truncated_chars']:,} of "
            f"{loss['input_chars']:,}",
            "Messages out": f"-{loss['dropped_messages']:,} of {loss['input_messages']:,}",
            "Budget": f"{budget['output_chars']:,} of {budget['budget_chars']:,}",
            "Protected characters": "exceed the budget"
            if budget["protected_exceeds_budget"]
            else "within the budget",
        },
        "stages": [
            stages[0]["protected_messages"],
            stages[1]["removed_messages"],
            stages[2]["trimmed_messages"],
            stages[3]["dropped_messages"],
        ],
        "which": list(stage_frames.stage_rows(result, glue=stage_frames.NO_BREAK)["which"]),
        "acted": {stage: names for stage, names in acted.items() if names},
        "waterfall": {
            "Input": (0, totals.input),
            "Dedupe": (totals.after_dedupe, totals.input),
            "Trim": (totals.after_trim, totals.after_dedupe),
            "Drop": (totals.output, totals.after_trim),
            "Output": (0, totals.output),
        },
        "warned": budget["protected_exceeds_budget"],
    }


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_overview_follows_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


def test_a_budget_below_the_protected_characters_is_flagged():
    follows_the_engine(PAGE, rich_request(), reported, expected, ("budget_chars", 100))


def test_long_stage_lists_are_shortened_in_the_table_and_complete_in_the_expander():
    at = goto(load(start(), load_sample("largest").request), PAGE)
    assert_clean(at)
    result = engine(at)
    assert reported(at) == expected(result)
    acted = acted_on(at)
    which = stage_table(at).set_index("Stage")["Which"]
    for stage in ("3. trim", "4. drop"):  # 194 trims and 176 drops on the largest sample
        count = len(acted[stage])
        assert count > LIST_LIMIT
        assert which[stage].endswith(f" and {count - LIST_LIMIT:,} more")
    assert sum(map(len, acted.values())) == len(table(at, "what"))
    assert any("Every message a stage acted on" in e.label for e in at.expander)
