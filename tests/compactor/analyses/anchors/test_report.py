"""Anchors: the finder per kind (SPEC part C's own examples), on real conversations, and their
survival against brute force (the pipeline run again at many budgets)."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses._facts import watch
from compactor.analyses._sweeps import BUDGET_RANGE
from compactor.analyses.anchors import _finder as anchor_finder
from compactor.analyses.anchors._report import (
    STAGES,
    WATCHED,
    anchor_report,
    find_anchors,
    message_anchors,
    retention_curve,
    stage_losses,
)
from compactor.contract import ROLES
from compactor.formats import convert_text
from compactor.samples import load_samples
from tests.paths import CORPUS

EXAMPLES = settings(max_examples=120, deadline=None)


def kinds_of(text):
    return [(a.text, a.kind) for a in find_anchors([text])]


# --- the finder, kind by kind -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # SPEC part C's examples, each in a sentence.
        ("Your order DE-4471 is late.", [("DE-4471", "identifier")]),
        ("Result of call_9f2a follows", [("call_9f2a", "identifier")]),
        ("Booking 4OG6T3 confirmed", [("4OG6T3", "identifier")]),
        ("It costs 139 USD now", [("139 USD", "quantity")]),
        ("Refund: $1,250.00.", [("$1,250.00", "quantity")]),
        ("a 3.5 GB download", [("3.5 GB", "quantity")]),
        ("wake me at 03:10 please", [("03:10", "time")]),
        ("due 2024-05-17, not later", [("2024-05-17", "date")]),
        ("Thursday 14:00 works", [("Thursday", "date"), ("14:00", "time")]),
        ("see https://example.com/a?b=1.", [("https://example.com/a?b=1", "url")]),
        (
            "(https://en.wikipedia.org/wiki/Foo_(bar))",
            [("https://en.wikipedia.org/wiki/Foo_(bar)", "url")],
        ),
        ("write to ana.lima@example.co.uk today", [("ana.lima@example.co.uk", "email")]),
        ("edit src/app/main.py first", [("src/app/main.py", "path")]),
        (r"open C:\data\x.csv now", [(r"C:\data\x.csv", "path")]),
        ("the file /etc/hosts here", [("/etc/hosts", "path")]),
        (
            "call snake_case and camelCase, then dotted.name",
            [("snake_case", "code"), ("camelCase", "code"), ("dotted.name", "code")],
        ),
        # Dates beyond ISO, times beyond the clock, scaled and unit quantities.
        ("on May 17, 2024 or 17 May", [("May 17, 2024", "date"), ("17 May", "date")]),
        ("back in November", [("November", "date")]),
        ("meet at 9:30 pm or 10am", [("9:30 pm", "time"), ("10am", "time")]),
        (
            "about 5 thousand euros, 12% off",
            [("5 thousand euros", "quantity"), ("12%", "quantity")],
        ),
        ("paid USD 40 and €5", [("USD 40", "quantity"), ("€5", "quantity")]),
        ("订单DE-4471已发货", [("DE-4471", "identifier")]),
    ],
)
def test_each_kind_on_its_examples(text, expected):
    assert kinds_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "and/or km/h TCP/IP",  # two segments without an extension are not paths
        "e.g. i.e. U.S.A.",  # single letters between dots are not code
        "the 21st of the 1990s",  # ordinals and decades are not identifiers
        "May I have your name?",  # May alone is a verb
        "plain words, well-known ones",
        "edit 287:295 and 1:1",  # not clock times
        "release 7.26.5 and 3348917502",  # numbers alone are not anchors (no letter, no unit)
        "Straße12",  # digits touching a letter of another script are part of a word
    ],
)
def test_what_is_not_an_anchor(text):
    assert kinds_of(text) == []


def test_occurrences_are_exact_offsets_and_include_containers():
    contents = ["Username: cminh730", "cminh730@email.com", "see pydicom/x/main.py and main.py"]
    anchors = {a.text: a for a in find_anchors(contents)}
    assert anchors["cminh730"].occurrences == ((0, 10, 18), (1, 0, 8))
    assert anchors["main.py"].occurrences == ((2, 14, 21), (2, 26, 33))
    for a in anchors.values():
        assert all(contents[i][s:e] == a.text for i, s, e in a.occurrences)


# --- the fast path is the plain scan ----------------------------------------------------------

PIECES = [
    "DE-4471",
    "call_9f2a",
    "4OG6T3",
    "139 USD",
    "$1,250.00",
    "3.5 GB",
    "03:10",
    "2024-05-17",
    "2024-05-01T08:38:39Z",
    "Thursday",
    "14:00",
    "May",
    "17",
    ", 2024",
    "November",
    "USD",
    "5",
    "thousand",
    "euros",
    "per",
    "cent",
    "pm",
    "https://example.com/a_(b)",
    "ana@example.com",
    "src/app/main.py",
    r"C:\data\x.csv",
    "/etc/hosts",
    "snake_case",
    "camelCase",
    "dotted.name",
    "e.g.",
    "and/or",
    "7.26.5",
    "word",
    "The",
    "订单",
    "é",
    "ß",
    " ",
    " ",
    " ",
    "  ",
    ".",
    ",",
    "(",
    ")",
    "=",
    ":",
    "/",
    "-",
    "_",
    "\n",
    "\u00a0",
    "\u3000",
    "\t",
    "x" * 12,
]
texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join)


@EXAMPLES
@given(st.lists(texts, min_size=1, max_size=4))
def test_fast_path_finds_what_the_plain_scan_finds(contents):
    text, _ = anchor_finder.joined(contents)
    assert anchor_finder.find_matches(text, plain_below=0) == anchor_finder.find_matches_plainly(
        text
    )


def real_conversations():
    found = {
        path.name: convert_text(path.read_bytes()).request for path in sorted(CORPUS.glob("*.json"))
    }
    found.update({sample.slug: sample.request for sample in load_samples()})
    return found


REAL = real_conversations()


@pytest.mark.parametrize("name", sorted(REAL))
def test_fast_path_on_real_conversations(name):
    text, _ = anchor_finder.joined([m["content"] for m in REAL[name]["messages"]])
    assert anchor_finder.find_matches(text, plain_below=0) == anchor_finder.find_matches_plainly(
        text
    )


def test_real_conversations_have_their_facts_found():
    by_file = {
        name: {a.text: a.kind for a in find_anchors([m["content"] for m in r["messages"]])}
        for name, r in REAL.items()
        if name.endswith(".json")
    }
    support = by_file["abcd_customer_support.json"]
    assert support["cminh730@email.com"] == "email" and support["cminh730"] == "identifier"
    airline = by_file["tau_airline_tool_heavy.json"]
    for reservation in ["JG7FMM", "LQ940Q", "2FBBAH", "X7BYG1", "EQ1G6C", "BOH180"]:
        assert airline[reservation] == "identifier"
    assert airline["omar_davis_3817"] == "identifier"
    assert airline["2024-05-15"] == "date" and airline["15:00:00"] == "time"
    assert airline["omar.davis7857@example.com"] == "email"
    swe = by_file["swe_agent_pydicom_tool_trace.json"]
    assert swe["/pydicom__pydicom/reproduce_bug.py"] == "path"
    assert swe["reproduce_bug.py"] == "code" and swe["PixelRepresentation"] == "code"
    assert swe["pydicom/pixel_data_handlers/numpy_handler.py"] == "path"


# --- survival against brute force -------------------------------------------------------------


def rerun(result, **params):
    request = replace(result.request, params=replace(result.request.params, **params))
    return run(request, analysis=result.analysis)


def kept_directly(result, anchors):
    """Which anchors a run keeps, read straight from its returned contents."""
    out = {t.index: t.output for t in result.messages if t.survived}
    return [
        any(
            i in out and len(out[i]) >= e and out[i][s:e] == result.request.contents[i][s:e]
            for i, s, e in a.occurrences
        )
        for a in anchors
    ]


def budgets_to_try(report):
    low, high = BUDGET_RANGE
    edges = {a.survives_from_budget for a in report.anchors} | {
        s.from_budget for s in report.sweep.steps
    }
    near = {b + d for b in edges if b is not None for d in (-1, 0, 1)}
    return sorted({b for b in near | {low, high, report.budget_chars} if low <= b <= high})


def check_against_brute_force(request, watched=()):
    result = run(validate(request))
    report = anchor_report(result, watched)
    anchors = report.anchors
    assert [a.kept for a in anchors] == kept_directly(result, anchors)
    curve = retention_curve(report)
    for budget in budgets_to_try(report):
        at = rerun(result, budget_chars=budget)
        kept = kept_directly(at, anchors)
        assert kept == [
            a.survives_from_budget is not None and a.survives_from_budget <= budget for a in anchors
        ], budget
        step = next(s for s in curve if s.from_budget <= budget <= s.to_budget)
        assert (step.anchors_kept, step.output_chars) == (sum(kept), at.totals.output)
    return result, report


content = (
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=30)
    .map("".join)
    .filter(lambda c: 0 < len(c) <= 8000)
)


@st.composite
def anchor_requests(draw):
    messages = draw(
        st.lists(
            st.fixed_dictionaries(
                {"role": st.sampled_from(ROLES), "content": content},
                optional={"pin": st.booleans()},
            ),
            min_size=2,
            max_size=8,
        )
    )
    for i in range(1, len(messages)):
        if draw(st.integers(0, 4)) == 0:  # a repeat, so dedupe has work
            messages[i] = {**messages[i], **{k: messages[i - 1][k] for k in ("role", "content")}}
    return {
        "messages": messages,
        "budget_chars": draw(st.integers(100, 1500)),
        "keep_last_n": draw(st.integers(0, 3)),
        "keep_roles": draw(st.lists(st.sampled_from(ROLES), max_size=2, unique=True)),
        "max_message_chars": draw(st.integers(80, 200)),
        "duplicate_threshold": draw(st.sampled_from([0.5, 0.75, 0.9, 1])),
    }


@EXAMPLES
@given(anchor_requests())
def test_survival_matches_compacting_at_every_budget_on_random_conversations(request):
    check_against_brute_force(request)


@pytest.mark.parametrize("name", sorted(n for n in REAL if n != "largest"))
def test_survival_matches_compacting_at_every_budget_on_real_conversations(name):
    request = {**REAL[name], "max_message_chars": 300, "keep_last_n": 2}
    result, report = check_against_brute_force(request)
    assert report.anchors  # every real conversation here has some


# --- per stage, per message, watched facts ----------------------------------------------------


@pytest.mark.parametrize("name", sorted(n for n in REAL if n != "largest"))
def test_stage_losses_add_up_and_drop_losses_are_what_a_large_budget_keeps(name):
    request = {**REAL[name], "max_message_chars": 300, "keep_last_n": 2}
    result = run(validate(request))
    report = anchor_report(result)
    losses = stage_losses(report)
    assert [s.stage for s in losses] == list(STAGES)
    assert sum(len(s.anchors) for s in losses) == len(report.anchors) - report.kept_count
    # With the largest budget (these conversations are smaller) drop removes nothing: the
    # anchors kept then and lost now are exactly the ones drop removed.
    high = rerun(result, budget_chars=BUDGET_RANGE[1])
    kept_high = kept_directly(high, report.anchors)
    by_drop = {a.text for a, k in zip(report.anchors, kept_high, strict=True) if k and not a.kept}
    assert set(losses[2].anchors) == by_drop


def test_message_anchors_are_the_occurrences_in_that_message():
    result = run(validate({**REAL["abcd_customer_support.json"], "budget_chars": 300}))
    report = anchor_report(result)
    for trace in result.messages:
        here = message_anchors(report, trace.index)
        expected = sorted(
            (s, e, a.text) for a in report.anchors for i, s, e in a.occurrences if i == trace.index
        )
        assert [(m.start, m.end, m.text) for m in here] == expected
        for m in here:
            assert m.kept == (trace.survived and m.end <= trace.chars)
            assert (m.lost_at is None) == m.kept


def test_watched_facts_join_as_anchors_and_agree_with_the_facts_analysis():
    request = {**REAL["abcd_customer_support.json"], "budget_chars": 400}
    result = run(validate(request))
    phrases = ["crystal minh", "cminh730", "no such phrase"]
    report = anchor_report(result, phrases)
    by_text = {a.text: a for a in report.anchors}
    assert by_text["crystal minh"].kind == WATCHED
    assert by_text["cminh730"].kind == WATCHED  # replaced the identifier of the same text
    assert report.not_found == ("no such phrase",)
    for fact in watch(result, phrases[:2]):
        anchor = by_text[fact.phrase]
        assert anchor.kept == fact.survives
        assert anchor.survives_from_budget == fact.survives_from_budget
    check_against_brute_force(request, phrases)
