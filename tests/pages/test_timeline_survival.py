"""The fate timeline shows each message's survival budget, in its tooltip data and its detail."""

import pytest

from compactor.analyses._sweeps import BUDGET_RANGE, budget_sweep
from explorer.frames import sweeps as sweep_frames
from harness.apptest import MOVES, assert_clean, chart_rows, engine, on_page, set_param
from tests.explorer.requests import rich_request

PAGE = "pages/timeline.py"


def labels(result):
    return [sweep_frames.survival_label(s, BUDGET_RANGE) for s in budget_sweep(result).survival]


@pytest.mark.parametrize("move", MOVES[:3], ids=lambda m: f"{m[0]}={m[1]}")
def test_the_timeline_data_carries_the_survival_budget(move):
    at = on_page(PAGE, rich_request())
    rows = chart_rows(at, "kept_from").sort_values("index")
    assert list(rows["kept_from"]) == labels(engine(at))
    set_param(at, *move)
    assert_clean(at)
    rows = chart_rows(at, "kept_from").sort_values("index")
    assert list(rows["kept_from"]) == labels(engine(at))


def test_the_detail_says_from_which_budget_the_message_is_kept():
    at = on_page(PAGE, rich_request())
    sweep = budget_sweep(engine(at))
    shown = []
    for index in (0, 2, 4, 7):
        at.selectbox(key="timeline_message").set_value(index).run()
        assert_clean(at)
        said = [m.value for m in at.markdown if m.value.startswith("**Budget**")]
        label = sweep_frames.survival_label(sweep.survival[index], BUDGET_RANGE)
        assert said == [f"**Budget**: {label}"]
        shown.append(label.split()[0].rstrip(":"))
    assert set(shown) == {"always", "kept", "never"}  # protected, dropped by order, duplicate
