"""Probe recall wherever needed-later recall is (SPEC part D): with a probe file given on the
Conversation page, A/B compare shows it for A and B beside their keep-last and random,
Strategies for every strategy of the lineup and random, the Budget sweep as a curve over every
budget; each figure is the analyses layer's own, and on a small case what ``compact`` returns,
read by hand. Without probes, each page says how to give them and shows no probe figure."""

import json

import pytest

from compactor import compact, run, validate
from compactor.analyses.outcomes import (
    parse_probes,
    probe_curve,
    probe_outcomes,
    probe_recall_outcome,
)
from compactor.strategies import compare_strategies
from explorer.frames import outcomes as frames
from explorer.session import state
from explorer.widgets.probes import HOW_TO_LOAD, KIND_KEY, PROBE_TEXT_KEY
from harness.apptest import (
    assert_clean,
    chart_rows,
    charts,
    goto,
    load,
    request_of,
    start,
    table,
)

#: Memory-compact keeps #1 (it drops the long #2); keep-last, from the end, fits #3 to #5 only.
SMALL = {
    "messages": [
        {"role": "system", "content": "You are a dispatcher for the Lyon depot."},
        {
            "role": "user",
            "content": "Order DE-4471 left Lyon on Monday with 14 pallets for the Paris depot.",
            "id": "order",
        },
        {
            "role": "assistant",
            "content": "Thanks, I will check. "
            + "Let me think about the routes and the weather for a while. " * 4,
        },
        {"role": "user", "content": "Any news on the trucks? They said the A6 was closed."},
        {"role": "assistant", "content": "The A6 is open again; DE-4471 arrives Thursday."},
        {"role": "user", "content": "Good. When exactly does DE-4471 reach Paris?"},
    ],
    "budget_chars": 300,
    "keep_last_n": 1,
}
SMALL_PROBES = {
    "probes": [
        {"id": "order", "evidence": ["order"], "answer": "DE-4471"},
        {"id": "chat", "evidence": [2, 4]},
    ]
}


def with_probes(at, text):
    """Give the probe file ``text`` on the Conversation page, as a user pastes it."""
    at = goto(at, "pages/conversation.py")
    at.text_area(key=PROBE_TEXT_KEY).set_value(text).run()
    at.button(key="outcome_probes_use").click().run()
    assert_clean(at)
    return at


def sample_probes(at):
    """Probes of a loaded sample: pairs, single messages, answers from the messages' text."""
    request = validate(request_of(at))
    n = len(request.messages)
    items = [
        {"id": f"p{i}", "evidence": [i, (i + 3) % n], "answer": request.contents[i].split()[0]}
        for i in range(0, n, 2)
    ] + [{"id": "last", "evidence": [n - 2]}]
    return json.dumps({"probes": items})


def started(sample):
    at = start({"sample": sample})
    text = sample_probes(at)
    return with_probes(at, text), text


def kinds(row):
    return tuple(row[k] for k in frames.PROBE_KINDS)


def figures(recall):
    return tuple(getattr(recall, k) for k in frames.PROBE_KINDS)


def same(shown, expected):
    assert len(shown) == len(expected)
    for a, b in zip(shown, expected, strict=True):
        assert (a is None or a != a) if b is None else a == pytest.approx(b)


@pytest.mark.parametrize("sample", ["pins-and-ids", "research-chat"])
def test_a_b_compare_shows_probe_recall_under_a_and_b(sample):
    at, text = started(sample)
    at = goto(at, "pages/compare.py")
    at.number_input(key="ab_budget_chars").set_value(1500).run()
    assert_clean(at)
    request = validate(request_of(at))
    probes = parse_probes(json.loads(text), request.messages)
    shown = table(at, "strict")
    for side, budget in (("A", request.params.budget_chars), ("B", 1500)):
        side_request = validate({**request_of(at), "budget_chars": budget})
        found = probe_outcomes(probes, run(side_request))
        rows = shown[shown["side"] == side].set_index("strategy")
        assert set(rows["budget_chars"]) == {budget}
        same(kinds(rows.loc[frames.SETTING]), figures(found.setting))
        keep_last, drawn = frames.baseline_label(found), frames.baseline_label(found, "random")
        same(kinds(rows.loc[keep_last]), figures(found.keep_last))
        same(
            kinds(rows.loc[f"{drawn} (mean)"]),
            tuple(found.random[k].mean for k in frames.PROBE_KINDS),
        )
        same(
            kinds(rows.loc[f"{drawn} (97.5%)"]),
            tuple(found.random[k].high for k in frames.PROBE_KINDS),
        )
    # the needed-later table is still there, beside it
    assert list(table(at, "lift")["side"]) == ["A", "B"]


@pytest.mark.parametrize("sample", ["pins-and-ids", "support-chat"])
def test_strategies_shows_every_strategys_probe_recall_and_randoms(sample):
    at, text = started(sample)
    at = goto(at, "pages/strategies.py")
    assert_clean(at)
    request = validate(request_of(at))
    probes = parse_probes(json.loads(text), request.messages)
    shown = table(at, "probes_strict").set_index("strategy")
    assert "recall" in shown.columns  # beside needed-later recall, in one table
    comparison = compare_strategies(request)
    ran = [o for o in comparison.results if o.available]
    assert len(ran) >= 4
    for o in ran:
        expected = probe_recall_outcome(probes, request.contents, o)
        same(tuple(shown.loc[o.name, f"probes_{k}"] for k in frames.PROBE_KINDS), figures(expected))
    found = probe_outcomes(probes, run(request))
    same(
        tuple(shown.loc["memory-compact", f"probes_{k}"] for k in frames.PROBE_KINDS),
        figures(found.setting),
    )
    same(
        tuple(shown.loc["keep the last N", f"probes_{k}"] for k in frames.PROBE_KINDS),
        figures(found.in_form("bare").keep_last),  # the lineup's keep-last is the bare rule
    )
    random = next(i for i in shown.index if i.startswith("random"))
    same(
        tuple(shown.loc[random, f"probes_{k}"] for k in frames.PROBE_KINDS),
        tuple(found.random[k].mean for k in frames.PROBE_KINDS),
    )


@pytest.mark.parametrize("sample", ["pins-and-ids", "largest"])
def test_the_budget_sweep_draws_the_probe_recall_curve(sample):
    at, text = started(sample)
    at = goto(at, "pages/sweeps.py")
    assert_clean(at)
    request = validate(request_of(at))
    probes = parse_probes(json.loads(text), request.messages)
    for kind in ("strict", "partial"):
        if kind != "strict":
            at.button_group(key=KIND_KEY).set_value(kind).run()
            assert_clean(at)
        curve = chart_rows(at, "kind")
        assert set(curve["kind"]) == {kind}
        steps = curve[~curve["end"]]
        expected = [
            s
            for s in probe_curve(probes, run(request), kind)
            if s.from_budget <= curve["budget"].max()
        ]
        assert list(steps["budget"]) == [s.from_budget for s in expected]
        assert list(steps["setting"]) == [s.setting for s in expected]
        assert list(steps["keep_last"]) == [s.keep_last for s in expected]
        assert list(steps["random"]) == pytest.approx([s.random.mean for s in expected])
        # on the budget charts' axis
        assert curve["budget"].max() == chart_rows(at, "joins")["budget"].max()


def test_a_small_case_equals_what_compact_returns_read_by_hand():
    at = with_probes(load(start(), SMALL), json.dumps(SMALL_PROBES))
    # by hand: compact keeps #1 whole and removes #2; keep-last keeps #3, #4 and #5
    returned = {m["index"]: m["content"] for m in compact(SMALL)["messages"]}
    contents = [m["content"] for m in SMALL["messages"]]
    assert returned[1] == contents[1] and 2 not in returned and 4 in returned
    assert sum(map(len, contents[2:])) > SMALL["budget_chars"] >= sum(map(len, contents[3:]))
    setting = (0.5, 0.5, 1.0)  # "order" strict, partial and answered; "chat" lost #2
    keep_last = (0.0, 0.0, 0.0)

    at = goto(at, "pages/strategies.py")
    assert_clean(at)
    shown = table(at, "probes_strict").set_index("strategy")
    assert tuple(shown.loc["memory-compact", f"probes_{k}"] for k in frames.PROBE_KINDS) == setting
    assert (
        tuple(shown.loc["keep the last N", f"probes_{k}"] for k in frames.PROBE_KINDS) == keep_last
    )

    at = goto(at, "pages/compare.py")
    assert_clean(at)
    rows = table(at, "strict").set_index(["side", "strategy"])
    assert kinds(rows.loc[("A", frames.SETTING)]) == setting
    (label,) = [s for side, s in rows.index if side == "A" and s.startswith(frames.KEEP_LAST)]
    assert kinds(rows.loc[("A", label)]) == keep_last

    at = goto(at, "pages/sweeps.py")
    assert_clean(at)
    curve = chart_rows(at, "kind")
    at_budget = curve[curve["budget"] <= SMALL["budget_chars"]].iloc[-1]
    assert (at_budget["setting"], at_budget["keep_last"]) == (0.5, 0.0)
    # the protected keep-last keeps the system prompt #0 first, then meets "chat" once #2 to #5
    # fit whole in what is left, and "order" too once #1 to #5 do
    prompt = len(contents[0])
    assert curve[curve["keep_last"] >= 0.5]["budget"].min() == prompt + sum(map(len, contents[2:]))
    assert curve[curve["keep_last"] == 1.0]["budget"].min() == sum(map(len, contents))


@pytest.mark.parametrize("page", ["pages/compare.py", "pages/strategies.py", "pages/sweeps.py"])
def test_without_probes_a_page_says_how_to_give_them_and_shows_no_probe_figure(page):
    at = goto(load(start(), SMALL), page)
    assert_clean(at)
    assert HOW_TO_LOAD in [c.value for c in at.caption]
    assert not any("strict" in f.value.columns for f in at.dataframe)
    assert not any("probes_strict" in f.value.columns for f in at.dataframe)
    assert not any("kind" in frame.columns for _, data in charts(at) for frame in data.values())


def test_a_probe_file_that_cannot_be_used_is_said_on_each_page_never_a_traceback():
    bad = json.dumps({"probes": [{"id": "x", "evidence": [6, "nobody"]}]})
    at = with_probes(load(start(), SMALL), bad)
    for page in ("pages/compare.py", "pages/strategies.py", "pages/sweeps.py"):
        at = goto(at, page)
        assert_clean(at)
        assert any("probe file cannot be used" in e.value for e in at.error), page
        where = list(table(at, "where")["where"])
        assert where == ["$.probes[0].evidence[0]", "$.probes[0].evidence[1]"], page


def test_using_an_empty_paste_says_to_paste_first_and_keeps_nothing():
    at = goto(load(start(), SMALL), "pages/conversation.py")
    at.button(key="outcome_probes_use").click().run()
    assert_clean(at)
    assert "Paste a probe file above first." in [c.value for c in at.caption]
    assert state.PROBES_KEY not in at.session_state
