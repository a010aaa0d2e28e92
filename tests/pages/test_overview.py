"""Overview: the numbers, the stage table and the waterfall follow the engine as parameters move."""

import pytest

from tests.explorer.requests import rich_request
from tests.pages.apptest import MOVES, chart_rows, follows_the_engine, metrics, table

PAGE = "pages/overview.py"


def reported(at):
    waterfall = chart_rows(at, "step").set_index("step")
    return {
        "metrics": metrics(at),
        "deltas": {m.label: m.proto.delta for m in at.metric if m.proto.delta},
        "stages": list(table(at, "which")["messages"]),
        "waterfall": {step: (row.low, row.high) for step, row in waterfall.iterrows()},
        "warned": any("alone hold" in w.value for w in at.warning),
    }


def expected(result):
    response = result.to_response()
    loss, budget, totals = response["loss"], response["budget"], result.totals
    stages = response["stages"]
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
