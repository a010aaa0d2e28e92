"""A/B compare: B starts as a copy of A; the rows that differ and the totals are compare_params."""

import pytest

from compactor import run, validate
from compactor.analyses._ab import compare_params
from compactor.analyses._pairing import check_pairing
from compactor.analyses.anchors import anchor_report
from compactor.model import Params
from compactor.samples import load_samples
from compactor.strategies import setting_from_toml
from explorer.session.keys import B_KEYS
from harness.apptest import (
    assert_clean,
    downloads,
    goto,
    load,
    on_page,
    params,
    request_of,
    set_param,
    start,
    table,
)
from tests.explorer.requests import rich_request

PAGE = "pages/compare.py"
B_WIDGETS = {
    "budget_chars": "number_input",
    "keep_last_n": "slider",
    "keep_roles": "multiselect",
    "duplicate_threshold": "slider",
    "max_message_chars": "slider",
}


def b_widget(at, name):
    return getattr(at, B_WIDGETS[name])(key=B_KEYS[name])


def b_params(at):
    out = {name: b_widget(at, name).value for name in B_WIDGETS}
    out["keep_roles"] = list(out["keep_roles"])
    return out


def as_params(values):
    return Params(**{**values, "keep_roles": tuple(values["keep_roles"])})


def engine_comparison(at):
    request = validate(request_of(at))
    return compare_params(request, as_params(params(at)), as_params(b_params(at)))


def number(text):
    """A number as the totals table writes it (thousands separators)."""
    return int(text.replace(",", ""))


def reported(at):
    rows = table(at, "fate_b")
    totals = table(at, "B vs A").set_index("measure")
    return {
        "differing": [r.message for r in rows.itertuples() if r.differs],
        "fates": [
            (r.message, r.fate_a, int(r.chars_a), r.fate_b, int(r.chars_b))
            for r in rows.itertuples()
        ],
        "chars": (
            number(totals.loc["Characters out", "A"]),
            number(totals.loc["Characters out", "B"]),
        ),
        "messages": (
            number(totals.loc["Messages out", "A"]),
            number(totals.loc["Messages out", "B"]),
        ),
        "budget_met": tuple(totals.loc["Budget met", ["A", "B", "B vs A"]]),
    }


def expected(comparison):
    return {
        "differing": [f"#{i}" for i in comparison.differing],
        "fates": [
            (f"#{m.index}", m.fate_a, m.chars_a, m.fate_b, m.chars_b) for m in comparison.messages
        ],
        "chars": (comparison.a.output_chars, comparison.b.output_chars),
        "messages": (comparison.a.output_messages, comparison.b.output_messages),
        "budget_met": (
            "yes" if comparison.a.budget_met else "no",
            "yes" if comparison.b.budget_met else "no",
            "same" if comparison.a.budget_met == comparison.b.budget_met else "changed",
        ),
    }


def test_b_starts_as_a_copy_of_a_and_nothing_differs():
    at = on_page(PAGE, rich_request())
    assert_clean(at)
    assert b_params(at) == params(at)
    assert reported(at) == expected(engine_comparison(at))
    assert reported(at)["differing"] == []
    assert any("B equals A" in i.value for i in at.info)


@pytest.mark.parametrize(
    ("name", "value", "changes_fates"),
    [
        ("budget_chars", 1500, True),
        ("budget_chars", 250, True),
        ("keep_last_n", 6, True),
        ("keep_roles", ["system", "tool"], True),
        ("duplicate_threshold", 0.5, False),  # what it removes, drop removes anyway at 600
        ("max_message_chars", 120, True),
    ],
    ids=lambda v: str(v),
)
def test_moving_a_b_parameter_marks_what_the_engine_says_differs(name, value, changes_fates):
    at = on_page(PAGE, rich_request())
    b_widget(at, name).set_value(value).run()
    assert_clean(at)
    assert b_params(at)[name] == value and params(at)[name] != value
    comparison = engine_comparison(at)
    assert bool(comparison.differing) == changes_fates
    assert reported(at) == expected(comparison)
    changed = table(at, "changed").set_index("parameter")
    assert list(changed.index[changed["changed"]]) == [name]
    assert any(f"B changes **{name}**" in m.value for m in at.markdown)


def test_moving_a_in_the_sidebar_compares_against_the_same_b():
    at = on_page(PAGE, rich_request())
    set_param(at, "budget_chars", 1500)
    assert_clean(at)
    assert b_params(at)["budget_chars"] == 600  # B stays where it was
    assert reported(at) == expected(engine_comparison(at))
    assert reported(at)["differing"]


def test_only_the_differing_rows_and_b_survives_a_page_switch():
    at = on_page(PAGE, rich_request())
    b_widget(at, "budget_chars").set_value(250).run()
    at.toggle(key="ab_only_differing").set_value(True).run()
    rows = table(at, "fate_b")
    comparison = engine_comparison(at)
    assert list(rows["message"]) == [f"#{i}" for i in comparison.differing]
    goto(at, "pages/overview.py")
    goto(at, PAGE)
    assert_clean(at)
    assert b_params(at)["budget_chars"] == 250


def test_copy_a_into_b_and_use_b_in_the_sidebar():
    at = on_page(PAGE, rich_request())
    b_widget(at, "max_message_chars").set_value(120).run()
    at.button(key="ab_use_b").click().run()
    assert_clean(at)
    assert params(at)["max_message_chars"] == 120
    assert at.query_params["max_message_chars"] == "120"  # the link follows
    set_param(at, "keep_last_n", 4)
    at.button(key="ab_copy_a").click().run()
    assert_clean(at)
    assert b_params(at) == params(at)


def test_another_conversation_starts_b_again_as_a_copy_of_a():
    at = on_page(PAGE, rich_request())
    b_widget(at, "budget_chars").set_value(250).run()
    request = {**rich_request(), "budget_chars": 900}
    request["messages"] = request["messages"][:8]
    load(at, request, label="Shorter")
    assert_clean(at)
    assert b_params(at) == params(at) and params(at)["budget_chars"] == 900


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
def test_every_sample_compares_against_a_lower_budget(sample):
    at = goto(start({"sample": sample.slug}), PAGE)
    budget = max(100, int(sample.request["budget_chars"]) // 2)
    b_widget(at, "budget_chars").set_value(budget).run()
    assert_clean(at)
    assert reported(at) == expected(engine_comparison(at))


def test_the_totals_count_the_anchors_each_side_lost_and_the_tool_pairs_it_split():
    # issue 26: the totals showed characters and messages only
    coding = next(s for s in load_samples() if s.name.startswith("Coding agent"))
    at = on_page(PAGE, {**coding.request, "budget_chars": 1500})
    b_widget(at, "budget_chars").set_value(6000).run()
    assert_clean(at)
    totals = table(at, "B vs A").set_index("measure")
    found = {}
    for side, values in (("A", params(at)), ("B", b_params(at))):
        result = run(validate({**request_of(at), **values}))
        report = anchor_report(result)
        lost = len(report.anchors) - report.kept_count
        split = len(check_pairing(result).issues)
        found[side] = (lost, split)
        assert number(totals.loc["Anchors lost", side]) == lost
        assert number(totals.loc["Tool pairs split", side]) == split
    # the budget moved both (the rows are read, not constant): B loses fewer anchors, splits more
    (a_lost, a_split), (b_lost, b_split) = found["A"], found["B"]
    assert b_lost < a_lost and b_split > a_split
    assert totals.loc["Anchors lost", "B vs A"] == f"{b_lost - a_lost:+,}"
    assert totals.loc["Tool pairs split", "B vs A"] == f"{b_split - a_split:+,}"


def test_focus_runs_under_a_and_under_b_with_one_focus_box():
    from compactor.strategies import focus_account

    at = on_page(PAGE, rich_request())
    b_widget(at, "budget_chars").set_value(300).run()
    box = next(t for t in at.text_area if t.key.startswith("ab_focus_"))
    box.set_value("refund invoice").run()
    assert_clean(at)
    a = validate(request_of(at))
    b = validate({**request_of(at), **b_params(at)})
    under = [focus_account(r, None, {"focus": "refund invoice"}) for r in (a, b)]
    shown = table(at, "focus_b")
    assert list(shown["focus_a"]) == [m.kept for m in under[0].messages]
    assert list(shown["focus_b"]) == [m.kept for m in under[1].messages]
    assert list(shown["chars_b"]) == [m.chars for m in under[1].messages]
    assert under[1].output_chars <= 300 < under[0].output_chars
    assert any("the focus: given" in c.value for c in at.caption)


def test_a_and_b_each_download_as_a_setting_of_their_own_parameters():
    with downloads() as found:
        at = on_page(PAGE, rich_request())
        b_widget(at, "keep_last_n").set_value(1).run()
    assert_clean(at)
    a = setting_from_toml(found["Download setting A"]["data"])
    b = setting_from_toml(found["Download setting B"]["data"])
    assert a.params["keep_last_n"] == params(at)["keep_last_n"]
    assert b.params["keep_last_n"] == 1
    assert a.budget_chars == b.budget_chars == params(at)["budget_chars"]
