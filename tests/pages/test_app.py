"""The router and the shared sidebar: the first screen, parameters, the URL, the error guard."""

import json

import pytest

from compactor import compact
from compactor.contract import DEFAULTS, RANGES
from compactor.samples import DEFAULT_SAMPLE, load_sample, load_samples
from explorer.frames.stages import NO_BREAK
from explorer.navigation import PAGES
from explorer.session import state
from explorer.widgets.page import FRIENDLY_ERROR
from harness.apptest import (
    assert_clean,
    goto,
    load,
    metrics,
    params,
    set_param,
    start,
    static_table,
)
from tests.explorer.requests import rich_request

OPENED = load_sample(DEFAULT_SAMPLE).request  # the sample the explorer opens on
PUBLISHED = {k: v for k, v in OPENED.items() if k != "messages"}


@pytest.fixture(scope="module")
def first():
    return start()


def test_it_opens_on_the_tour_sample_with_its_published_parameters(first):
    assert_clean(first)
    assert first.title[0].value == "Overview"
    assert DEFAULT_SAMPLE == "tour"
    assert first.selectbox(key=state.SAMPLE_KEY).value == DEFAULT_SAMPLE
    assert params(first) == {**DEFAULTS, **PUBLISHED}


def test_the_first_screen_says_what_it_shows_and_what_to_try(first):
    response = compact(OPENED)
    loss = response["loss"]
    (said,) = [m.value for m in first.markdown if "You are looking at" in m.value]
    said = said.replace("\\", "")  # the explorer's words, made literal for Markdown
    name = load_sample(DEFAULT_SAMPLE).name
    assert (
        f"“{name}” ({loss['input_messages']:,} messages, {loss['input_chars']:,} characters)"
        in said
    )
    assert f"budget of {OPENED['budget_chars']:,} characters" in said
    assert "Try moving budget_chars in the sidebar" in said and "Walkthrough page" in said
    assert said.count(". ") + said.endswith(".") == 2  # two sentences


def test_the_first_screen_shows_every_stage_at_work(first):
    # a first look at the explorer shows all four stages acting, none "no change"
    response = compact(OPENED)
    pin, dedupe, trim, drop = response["stages"]
    stages = static_table(first, "Which").set_index("Stage")
    stages["Which"] = stages["Which"].str.replace(NO_BREAK, " ")  # an item wraps as a whole
    protected = pin["protected_indices"]
    assert stages.loc["1. pin", "Messages"] == len(protected) > 0
    for index in protected:
        assert f"#{index} (" in stages.loc["1. pin", "Which"]
    assert stages.loc["2. dedupe", "Messages"] == len(dedupe["removed"]) > 0
    for removed in dedupe["removed"]:
        assert (
            f"#{removed['index']} ≈ #{removed['duplicate_of']}" in stages.loc["2. dedupe", "Which"]
        )
    assert stages.loc["3. trim", "Messages"] == len(trim["trimmed"]) > 0
    for cut in trim["trimmed"]:
        assert f"#{cut['index']} " in stages.loc["3. trim", "Which"]
    assert stages.loc["4. drop", "Messages"] == len(drop["dropped"]) > 0
    for dropped in drop["dropped"]:
        assert f"#{dropped['index']} (score" in stages.loc["4. drop", "Which"]
    assert all(stages["Characters removed"].iloc[1:] > 0)
    assert metrics(first)["Messages out"] == str(len(response["messages"]))
    assert not first.warning  # no pairing warning, nothing over budget on a first look


def test_the_catalog_dispatcher_example_still_opens_from_a_link():
    at = start({"sample": "dispatcher"})
    assert_clean(at)
    dispatcher = load_sample("dispatcher").request
    assert params(at) == {k: v for k, v in dispatcher.items() if k != "messages"}
    response = compact(dispatcher)
    (removed,) = response["stages"][1]["removed"]
    stages = static_table(at, "Which").set_index("Stage")
    stages["Which"] = stages["Which"].str.replace(NO_BREAK, " ")
    assert stages.loc["2. dedupe", "Messages"] == 1
    assert f"#{removed['index']} ≈ #{removed['duplicate_of']}" in stages.loc["2. dedupe", "Which"]


def test_the_url_holds_the_sample_and_every_parameter(first):
    assert first.query_params == state.link_query(DEFAULT_SAMPLE, {**DEFAULTS, **PUBLISHED})


def test_a_link_reproduces_its_view():
    query = {
        "sample": DEFAULT_SAMPLE,
        "budget_chars": "150",
        "keep_last_n": "0",
        "keep_roles": "",
        "duplicate_threshold": "1",
        "max_message_chars": "80",
    }
    at = start(query)
    assert_clean(at)
    expected = {
        "budget_chars": 150,
        "keep_last_n": 0,
        "keep_roles": [],
        "duplicate_threshold": 1.0,
        "max_message_chars": 80,
    }
    assert params(at) == expected
    response = compact({"messages": OPENED["messages"], **expected})
    loss = response["loss"]
    assert metrics(at)["Characters out"] == f"{loss['output_chars']:,}"
    assert at.query_params == query


def test_bad_link_values_fall_back_with_notices_and_never_a_traceback():
    query = {
        "sample": "no-such-sample",
        "budget_chars": "![x](http://127.0.0.1:9/p.png)",
        "keep_last_n": "-1",
        "keep_roles": "system,root",
        "duplicate_threshold": "NaN",
        "max_message_chars": "80",
    }
    at = start(query)
    assert_clean(at)
    assert params(at) == {**DEFAULTS, **PUBLISHED, "max_message_chars": 80}
    notices = [w.value for w in at.warning if w.value.startswith("The link")]
    assert len(notices) == 5
    assert not any("http" in n or "![" in n for n in notices)
    assert at.query_params["budget_chars"] == str(PUBLISHED["budget_chars"])
    at.button(key="dismiss_notices").click().run()
    # the link's notices are gone; what stays is the page's own finding at max_message_chars 80
    # (a trim that cuts a tool call's line splits it from its result)
    assert [w.icon for w in at.warning] in ([], [":material/call_split:"])
    assert not any(w.value.startswith("The link") for w in at.warning)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("budget_chars", 150),
        ("keep_last_n", 0),
        ("keep_roles", ["system", "assistant"]),
        ("duplicate_threshold", 0.5),
        ("max_message_chars", 80),
    ],
)
def test_every_parameter_goes_into_the_url_and_the_request(name, value):
    at = set_param(start(), name, value)
    assert_clean(at)
    wanted = {**DEFAULTS, **PUBLISHED, name: value}
    assert params(at) == wanted
    assert at.query_params == state.link_query(DEFAULT_SAMPLE, wanted)
    shown = json.loads(at.sidebar.json[0].value)
    assert shown == {"messages": OPENED["messages"], **wanted}


def test_the_controls_have_exactly_the_schemas_ranges():
    at = start()
    box = at.number_input(key=state.PARAM_KEYS["budget_chars"])
    assert (box.min, box.max) == RANGES["budget_chars"]
    for name in ("keep_last_n", "duplicate_threshold", "max_message_chars"):
        slider = at.slider(key=state.PARAM_KEYS[name])
        assert (slider.min, slider.max) == RANGES[name]
    roles = at.multiselect(key=state.PARAM_KEYS["keep_roles"])
    assert roles.options == ["system", "user", "assistant", "tool"]
    assert roles.proto.max_selections == 4


def test_the_budget_slider_and_box_move_together():
    at = start()
    at.slider(key=state.BUDGET_SLIDER_KEY).set_value(250).run()
    assert params(at)["budget_chars"] == 250
    at.number_input(key=state.PARAM_KEYS["budget_chars"]).set_value(300).run()
    assert at.slider(key=state.BUDGET_SLIDER_KEY).value == 300
    at.number_input(key=state.PARAM_KEYS["budget_chars"]).set_value(400_000).run()
    assert_clean(at)
    assert at.slider(key=state.BUDGET_SLIDER_KEY).value == 400_000


def test_reset_restores_the_conversations_parameters():
    at = set_param(start(), "keep_last_n", 7)
    at = set_param(at, "max_message_chars", 999)
    at.button(key="reset_params").click().run()
    assert params(at) == {**DEFAULTS, **PUBLISHED}


def test_picking_a_sample_loads_it_with_its_published_parameters():
    at = load(start(), rich_request())
    assert at.selectbox(key=state.SAMPLE_KEY).value == state.YOURS
    assert "sample" not in at.query_params
    for sample in load_samples():
        at.selectbox(key=state.SAMPLE_KEY).set_value(sample.slug).run()
        assert_clean(at)
        published = {k: v for k, v in sample.request.items() if k != "messages"}
        assert params(at) == {**DEFAULTS, **published}
        assert at.query_params["sample"] == sample.slug


def test_a_large_request_is_shown_without_its_messages_in_the_sidebar():
    request = rich_request()
    request["messages"] = request["messages"] * 16  # 192 messages, about 30,000 characters
    at = load(start(), request)
    assert_clean(at)
    shown = json.loads(at.sidebar.json[0].value)
    assert "messages" not in shown
    assert shown["budget_chars"] == 600
    assert any("too long to show here" in c.value for c in at.sidebar.caption)


@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.title)
def test_an_unexpected_error_in_a_view_shows_a_friendly_message(spec, monkeypatch):
    at = start()

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("explorer.widgets.page.current", broken)
    monkeypatch.setattr("explorer.session.state.conversation", broken)
    goto(at, spec.path)
    assert not at.exception
    assert FRIENDLY_ERROR in [e.value for e in at.error]
    assert not any("boom" in m.value or "Traceback" in m.value for m in at.markdown)


def test_values_between_slider_steps_are_kept_exactly():
    largest = max(
        load_samples(), key=lambda s: sum(len(m["content"]) for m in s.request["messages"])
    )
    at = start({"sample": largest.slug, "duplicate_threshold": "0.875", "budget_chars": "123457"})
    assert_clean(at)
    assert not at.session_state[state.NOTICES_KEY]  # no notice about the link's values
    assert params(at)["duplicate_threshold"] == 0.875
    assert params(at)["budget_chars"] == 123_457
    assert at.slider(key=state.BUDGET_SLIDER_KEY).value == 123_457
    assert at.query_params["duplicate_threshold"] == "0.875"
