"""URL state: links parse to valid parameters or fall back with a safe notice; views round-trip."""

import math

from hypothesis import given
from hypothesis import strategies as st

from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.contract import RANGES, ROLES
from explorer.session import linkvalues, state
from explorer.session.state import LinkState, budget_slider_range, link_query, parse_link

SAMPLES = ["dispatcher", "support"]
PARAMS = {
    "budget_chars": 400,
    "keep_last_n": 2,
    "keep_roles": ["system", "tool"],
    "duplicate_threshold": 0.875,
    "max_message_chars": 120,
}


def test_a_full_link_gives_the_sample_and_every_parameter():
    query = {"sample": "support", **link_query(None, PARAMS)}
    assert parse_link(query, SAMPLES) == LinkState("support", PARAMS, ())


def test_an_empty_link_asks_for_nothing():
    assert parse_link({}, SAMPLES) == LinkState(None, {}, ())


def test_a_repeated_key_counts_with_its_last_value():
    link = parse_link({"keep_last_n": ["3", "7"]}, SAMPLES)
    assert link.params == {"keep_last_n": 7}


def test_unknown_keys_are_ignored():
    assert parse_link({"utm_source": "mail", "budget_chars": "500"}, SAMPLES).params == {
        "budget_chars": 500
    }


def test_each_bad_value_is_dropped_with_a_notice_naming_the_parameter():
    bad = {
        "budget_chars": "99",
        "keep_last_n": "51",
        "keep_roles": "system,admin",
        "duplicate_threshold": "0.49",
        "max_message_chars": "4001",
    }
    link = parse_link(bad, SAMPLES)
    assert link.params == {}
    assert len(link.notices) == 5
    for name, notice in zip(bad, link.notices, strict=True):
        assert name in notice
        assert "using the conversation's own value" in notice
    assert "is '99', which is not a whole number from 100 to 2,000,000" in link.notices[0]
    assert "not a number from 0.5 to 1" in link.notices[3]
    assert "not a comma-separated list of system, user, assistant, tool" in link.notices[2]


def test_numbers_must_be_plain_decimal_text():
    for raw in ["4e2", "400.0", " 400", "+400", "0x190", "", "nan", "1_000"]:
        assert linkvalues.parse_integer("budget_chars", raw) is None, raw
    for raw in ["nan", "inf", "1e0", "1_0", "", ".", "0.9.1", "-0.9"]:
        assert linkvalues.parse_threshold(raw) is None, raw
    assert linkvalues.parse_threshold("1") == 1.0
    assert linkvalues.parse_threshold(".95") == 0.95


def test_roles_may_be_empty_and_are_deduplicated_in_order():
    assert linkvalues.parse_roles("") == []
    assert linkvalues.parse_roles("tool,system,tool") == ["tool", "system"]
    assert linkvalues.parse_roles("System") is None


def test_an_unknown_sample_gives_a_notice_and_no_sample():
    link = parse_link({"sample": "nope"}, SAMPLES)
    assert link.sample is None
    assert "'nope'" in link.notices[0]


def test_a_notice_never_repeats_text_that_could_carry_markup():
    hostile = [
        "![x](http://evil/p.png)",
        "<script>alert(1)</script>",
        "[a](javascript:x)",
        "**bold**",
        "a_b_",
        "`code`",
        "x" * 40,
    ]
    for raw in hostile:
        link = parse_link({"sample": raw, "budget_chars": raw}, SAMPLES)
        assert len(link.notices) == 2
        for notice in link.notices:
            assert raw not in notice
            assert "a value that cannot be shown" in notice


def test_the_link_of_a_custom_conversation_has_no_sample():
    assert "sample" not in link_query(None, PARAMS)
    assert link_query("dispatcher", PARAMS)["sample"] == "dispatcher"


def test_thresholds_are_written_in_their_shortest_exact_form():
    assert linkvalues.format_threshold(0.9) == "0.9"
    assert linkvalues.format_threshold(1) == "1"
    assert linkvalues.format_threshold(1.0) == "1"
    assert linkvalues.format_threshold(0.875) == "0.875"


@given(
    budget=st.integers(*RANGES["budget_chars"]),
    keep=st.integers(*RANGES["keep_last_n"]),
    roles=st.lists(st.sampled_from(ROLES), unique=True, max_size=4),
    threshold=st.floats(*RANGES["duplicate_threshold"]).map(lambda x: round(x, 6)),
    limit=st.integers(*RANGES["max_message_chars"]),
    future=st.none() | st.integers(*linkvalues.FUTURE_RANGE),
)
def test_every_valid_view_survives_a_round_trip_through_its_link(
    budget, keep, roles, threshold, limit, future
):
    params = {
        "budget_chars": budget,
        "keep_last_n": keep,
        "keep_roles": roles,
        "duplicate_threshold": threshold,
        "max_message_chars": limit,
    }
    query = link_query("dispatcher", params, view=state.View(future=future))
    link = parse_link(query, SAMPLES)
    # the default k (5) is not written, so it reads back as not set: the default
    wanted = None if future == DEFAULT_FUTURE else future
    assert link == LinkState("dispatcher", params, (), view=state.View(future=wanted))
    assert ("k" in query) == (wanted is not None)


def test_clean_float_removes_binary_noise_only():
    assert state.clean_float(0.8700000000000001) == 0.87
    assert state.clean_float(0.1234567) == 0.1234567
    assert state.clean_float(1) == 1.0


@given(chars=st.integers(0, 2_000_000), budget=st.integers(*RANGES["budget_chars"]))
def test_the_budget_slider_spans_the_conversation_and_holds_the_budget(chars, budget):
    low, high, step = budget_slider_range(chars, budget)
    schema_low, schema_high = RANGES["budget_chars"]
    assert low == schema_low
    assert schema_low < high <= schema_high
    assert high >= min(schema_high, max(chars, budget))
    assert budget <= high
    assert step >= 1 and (high - low) / step <= 4000


def test_the_budget_slider_of_a_small_conversation_moves_by_one_character():
    assert budget_slider_range(466, 400) == (100, 470, 1)
    assert budget_slider_range(1_583_000, 120_000)[1:] == (400_000, 1_000)
    assert not math.isnan(budget_slider_range(0, 100)[1])
