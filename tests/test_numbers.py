"""One convention for numbers (issue 36, items 3 and 6): a share is a percentage with one decimal,
a lift is in percentage points, and a budget-met share is a promise, rounded down and given with
its counts; JSON keeps shares 0..1 under its keys."""

import pandas as pd
import pytest

from compactor.evaluation import summarise
from compactor.wording import floor_percent, floor_share, met_share, percent, points
from explorer.corpus import frames as corpus_frames
from explorer.widgets.common import points_column, share_column, shown_in_percent
from tests.compactor.evaluation.test_summary import row


def test_budget_met_is_rounded_down_and_given_with_its_counts():
    assert met_share(509, 511) == "509 of 511, 99.6%"
    assert met_share(9_999, 10_000) == "9,999 of 10,000, 99.9%"  # never 100.0%
    assert met_share(10_000, 10_000) == "10,000 of 10,000, 100.0%"
    assert floor_percent(0.9999) == "99.9%" and floor_share(0.9996) == 0.999
    # brute force: the shown share is never above the true one, and within a tenth of a point
    for total in (1, 7, 511, 1000, 10_000):
        for met in {0, 1, total // 3, total - 1, total}:
            shown = float(met_share(met, total).rsplit(", ", 1)[1].rstrip("%"))
            assert shown <= 100 * met / total < shown + 0.1 + 1e-9


def test_a_corpus_summary_never_rounds_a_miss_up_to_every_conversation():
    rows = [row(k, 100, 50, 1, 1, True) for k in range(1_999)]
    rows.append(row(-1, 100, 150, 1, 1, False))
    (s,) = summarise(rows)
    assert s["budget_met_count"] == 1_999 and s["conversations"] == 2_000
    assert s["budget_met_rate"] == 0.9995  # the page showed it as 100%
    assert corpus_frames.budget_met_text(s) == "1,999 of 2,000, 99.9%"
    shown = corpus_frames.summary_frame([s])
    assert shown["budget_met_rate"].iloc[0] == 0.999
    assert "budget met 1,999 of 2,000, 99.9%" in corpus_frames.setting_note("c", s)


def test_recall_is_a_percentage_with_one_decimal_and_lift_is_in_points():
    assert percent(2 / 3) == "66.7%" and percent(0.75) == "75.0%" and percent(None) == "—"
    assert points(-0.0286) == "-2.9 pp" and points(0.2034) == "+20.3 pp"
    assert points(0.00004) == "±0.0 pp"


def test_a_table_shows_shares_in_percent_and_lifts_in_points_and_keeps_the_frame():
    frame = pd.DataFrame({"recall": [2 / 3, None], "lift": [-0.0286, 0.1], "n": [1, 2]})
    config = {"recall": share_column("recall"), "lift": points_column("lift"), "n": None}
    shown, shown_config = shown_in_percent(frame, config)
    assert shown["recall"].iloc[0] == pytest.approx(66.667, abs=1e-3)
    assert shown["lift"].tolist() == pytest.approx([-2.86, 10.0])
    assert shown_config["recall"]["type_config"]["format"] == "%.1f%%"
    assert shown_config["lift"]["type_config"]["format"] == "%+.1f pp"
    assert frame["recall"].iloc[0] == 2 / 3  # the frame itself is unchanged
    # Streamlit's own "percent" (two decimals) is routed through the convention too
    legacy = {"recall": {"type_config": {"type": "number", "format": "percent"}}}
    assert shown_in_percent(frame, legacy)[1]["recall"]["type_config"]["format"] == "%.1f%%"


def test_a_setting_that_missed_its_budget_is_not_called_a_win_over_keep_last():
    rows = [row(0, 100, 50, 1, 1, True), row(1, 100, 150, 1, 1, False)]
    (s,) = summarise(rows)
    assert not corpus_frames.every_budget_met(s)
    (s,) = summarise(rows[:1])
    assert corpus_frames.every_budget_met(s)
