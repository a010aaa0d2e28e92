"""Outcomes on the pages (SPEC part D): what Overview, Budget sweep, A/B compare and Strategies
show is the engine's continuation check, on several samples and on an imported real file; k is a
control; an unmet need opens its message in the fate timeline; a past that is no request says
why."""

import json

import pytest

from compactor import run, validate
from compactor.analyses.anchors._report import find_anchors
from compactor.analyses.outcomes import (
    continuation_check,
    find_needs,
    parse_probes,
    probe_outcomes,
    replay_misses,
)
from compactor.analyses.replay._strategies import replay_request
from compactor.formats import apply_fixes, convert_text
from explorer.frames import outcomes as frames
from explorer.replay.runs import MEMORY_ALWAYS
from explorer.session import state
from explorer.widgets.outcomes import OPEN_PICK_KEY, PROBE_TEXT_KEY
from harness.apptest import (
    assert_clean,
    chart_rows,
    goto,
    load,
    metrics,
    request_of,
    start,
    table,
)
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real" / "claude_code_coverage_fix.jsonl"


def engine(at, k=5):
    return continuation_check(validate(request_of(at)), future=k)


def shown(at):
    """The metrics, the baselines' by their labels' start (the label names their form)."""
    m = metrics(at)

    def starting(prefix):
        return next((v for k, v in m.items() if k.startswith(prefix)), None)

    return {
        "recall": m.get("Needed-later recall"),
        "keep_last": starting("Keep-last"),
        "random": starting("Random"),
        "lift": starting("Lift over keep-last"),
    }


def expected(check):
    return {
        "recall": frames.percent(check.recall),
        "keep_last": frames.percent(check.keep_last.recall),
        "random": frames.percent(check.random.mean),
        "lift": frames.signed_points(check.lift),
    }


def unmet(at):
    try:
        frame = table(at, "lost")
    except AssertionError:
        return []
    return list(zip(frame["message"], frame["anchor"], frame["lost"], strict=True))


def check_overview(at, k=5):
    assert_clean(at)
    check = engine(at, k)
    assert shown(at) == expected(check)
    deltas = {m.label: m.proto.delta for m in at.metric}
    random_label = f"{frames.baseline_label(check, frames.RANDOM).capitalize()} (20 draws)"
    assert f"Lift over {frames.baseline_label(check)}" in deltas
    assert (
        deltas["Needed-later recall"]
        == f"{check.setting.met:,} of {check.setting.needs:,} needs met"
    )
    assert (
        f"{frames.percent(check.random.low)} to {frames.percent(check.random.high)}"
        in (deltas[random_label])
    )
    rows = unmet(at)
    assert [(m, a) for m, a, _ in rows] == [(f"#{u.user}", u.anchor) for u in check.setting.unmet]
    for (_, _, lost), need in zip(rows, check.setting.unmet, strict=True):
        each = list(dict.fromkeys(f"#{s.index}" for s in need.sources))  # a message once
        assert each == [p.split()[0] for p in lost.split("; ")]
    roles = table(at, "needs")
    assert list(roles["role"]) == [r.role for r in check.setting.by_role]
    assert list(roles["met"]) == [r.met for r in check.setting.by_role]
    balance = chart_rows(at, "side")
    assert set(balance["role"]) == {m["role"] for m in request_of(at)["messages"]}
    return check


@pytest.mark.parametrize("sample", ["pins-and-ids", "research-chat", "support-chat", "largest"])
def test_overview_shows_the_engines_needed_later_recall(sample):
    check = check_overview(start({"sample": sample}))
    assert check.valid


def test_overview_follows_k_and_the_budget():
    at = start({"sample": "pins-and-ids"})
    at.number_input(key=state.FUTURE_KEY).set_value(3).run()
    check_overview(at, 3)
    at.number_input(key=state.PARAM_KEYS["budget_chars"]).set_value(4000).run()
    assert at.number_input(key=state.FUTURE_KEY).value == 3
    check_overview(at, 3)


def test_overview_on_an_imported_real_session():
    request = apply_fixes(convert_text(REAL.read_bytes())).request
    at = load(start(), {**request, "budget_chars": 3000})
    check_overview(at)


def test_k_is_capped_at_n_minus_2_and_comes_back_on_a_longer_conversation():
    at = start({"sample": "dispatcher"})  # 6 messages
    assert at.number_input(key=state.FUTURE_KEY).value == 4
    assert at.number_input(key=state.FUTURE_KEY).max == 4
    check_overview(at, 4)
    at = goto(load(at, _sample_request("support-chat")), "pages/overview.py")
    assert at.number_input(key=state.FUTURE_KEY).value == 5


def test_a_past_that_is_not_a_request_says_why_instead_of_figures():
    request = {
        "messages": [
            {"role": "user", "content": "Order DE-4471 please."},
            {"role": "assistant", "content": "DE-4471 is booked."},
        ],
        "budget_chars": 400,
    }
    at = load(start(), request)
    assert_clean(at)
    assert "Needed-later recall" not in metrics(at)
    assert any("not a valid request" in e.value for e in at.error)
    assert "must have at least 2 items" in " ".join(table(at, "problem")["problem"])


def test_no_needs_is_said():
    request = {
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Hello there."},
            {"role": "assistant", "content": "Hi."},
            {"role": "user", "content": "How are you?"},
        ],
        "budget_chars": 400,
    }
    at = load(start(), request)
    assert_clean(at)
    assert any("nothing to judge" in i.value for i in at.info)


def test_an_unmet_need_opens_its_message_in_the_fate_timeline():
    at = start({"sample": "largest"})
    check = engine(at)
    target = check.setting.unmet[-1].user
    at.selectbox(key=OPEN_PICK_KEY).set_value(target).run()
    at.button(key="outcomes_open").click().run()
    assert_clean(at)
    assert at.selectbox(key=state.PICKER_KEY).value == target


@pytest.mark.parametrize("sample", ["pins-and-ids", "largest"])
def test_the_budget_sweep_draws_the_engines_recall_curve(sample):
    at = goto(start({"sample": sample}), "pages/sweeps.py")
    assert_clean(at)
    check = engine(at)
    curve = chart_rows(at, "random_high")
    steps = curve[~curve["end"]]
    expected_steps = [s for s in check.curve if s.from_budget <= curve["budget"].max()]
    assert list(steps["budget"]) == [s.from_budget for s in expected_steps]
    assert list(steps["setting"]) == [s.setting for s in expected_steps]
    assert list(steps["keep_last"]) == [s.keep_last for s in expected_steps]
    budgets = chart_rows(at, "joins")
    assert curve["budget"].max() == budgets["budget"].max()


def test_a_b_compare_shows_both_sides_recall():
    at = goto(start({"sample": "pins-and-ids"}), "pages/compare.py")
    at.number_input(key="ab_budget_chars").set_value(1500).run()
    assert_clean(at)
    frame = table(at, "lift").set_index("side")
    a = engine(at)
    b = continuation_check(validate({**request_of(at), "budget_chars": 1500}))
    for side, check in (("A", a), ("B", b)):
        assert frame.loc[side, "recall"] == pytest.approx(check.recall)
        assert frame.loc[side, "keep_last"] == pytest.approx(check.keep_last.recall)
        assert frame.loc[side, "random"] == pytest.approx(check.random.mean)
        assert frame.loc[side, "budget_chars"] == check.budget_chars


def test_strategies_shows_each_strategys_recall_on_the_past():
    at = goto(start({"sample": "research-chat"}), "pages/strategies.py")
    assert_clean(at)
    check = engine(at)
    frame = table(at, "lift").set_index("strategy")
    assert frame.loc["memory-compact", "recall"] == pytest.approx(check.recall)
    assert frame.loc["keep the last N", "recall"] == pytest.approx(check.keep_last.recall)
    random = next(i for i in frame.index if i.startswith("random"))
    assert frame.loc[random, "recall"] == pytest.approx(check.random.mean)


def _sample_request(slug):
    from compactor.samples import load_samples

    return next(s.request for s in load_samples() if s.slug == slug)


def replay_engine(at):
    request = validate(request_of(at))
    facts = [(a.text, a.occurrences) for a in find_anchors(request.contents)]
    done = replay_request(request, "memory-compact", policy="always", facts=facts)
    return replay_misses(done, find_needs(request.contents, request.roles))


@pytest.mark.parametrize("source", ["pins-and-ids", "real"])
def test_replay_names_the_first_miss_and_draws_the_misses_per_turn(source):
    if source == "real":
        request = apply_fixes(convert_text(REAL.read_bytes())).request
        at = goto(load(start(), {**request, "budget_chars": 3000}), "pages/replay.py")
    else:
        at = goto(start({"sample": source}), "pages/replay.py")
    assert_clean(at)
    misses = replay_engine(at)
    line = next(c.value for c in at.code if c.value.startswith(f"{MEMORY_ALWAYS}:"))
    assert line.endswith(frames.miss_clause(misses))
    if misses.first_miss is not None:
        first = misses.first_miss
        assert f"the first at turn {first.miss.turn}: {first.miss.anchor}" in line
    if misses.misses:
        drawn = chart_rows(at, "misses")
        mine = drawn[drawn["loop"] == MEMORY_ALWAYS]
        assert mine["misses"].sum() == len(misses.misses)
        assert set(zip(mine["turn"], mine["role"], strict=True)) == {
            (m.turn, m.role) for m in misses.misses
        }


PROBES = (
    '{"probes": [{"id": "order", "evidence": [1, 2], "answer": "%s"}, '
    '{"id": "late", "evidence": [%d]}]}'
)


def test_a_pasted_probe_file_shows_its_recall_on_overview():
    at = goto(start({"sample": "pins-and-ids"}), "pages/conversation.py")
    request = validate(request_of(at))
    answer = request.contents[2].split()[0]
    text = PROBES % (answer, len(request.messages) - 3)
    at.text_area(key=PROBE_TEXT_KEY).set_value(text).run()
    at.button(key="outcome_probes_use").click().run()
    assert_clean(at)
    assert list(table(at, "evidence")["probe"]) == ["order", "late"]
    at = goto(at, "pages/overview.py")
    assert_clean(at)
    found = probe_outcomes(parse_probes(json.loads(text), request.messages), run(request))
    shown_probes = table(at, "strict").set_index("strategy")
    for kind in ("strict", "partial", "answer"):
        assert shown_probes.loc[frames.SETTING, kind] == getattr(found.setting, kind)
        keep_last, drawn = frames.baseline_label(found), frames.baseline_label(found, "random")
        assert shown_probes.loc[keep_last, kind] == getattr(found.keep_last, kind)
        assert shown_probes.loc[f"{drawn} (mean)", kind] == pytest.approx(found.random[kind].mean)


def test_a_probe_that_names_no_message_is_an_error_with_its_path():
    at = goto(start({"sample": "pins-and-ids"}), "pages/conversation.py")
    bad = '{"probes": [{"id": "x", "evidence": ["no-such-id"]}]}'
    at.text_area(key=PROBE_TEXT_KEY).set_value(bad).run()
    at.button(key="outcome_probes_use").click().run()
    assert_clean(at)
    problems = table(at, "problem")
    assert list(problems["where"]) == ["$.probes[0].evidence[0]"]
    assert "names no message" in problems["problem"].iloc[0]
    at.text_area(key=PROBE_TEXT_KEY).set_value('{"probes": [').run()
    at.button(key="outcome_probes_use").click().run()
    assert table(at, "problem")["where"].iloc[0].startswith("line 1, column")


def test_a_long_system_prompt_the_setting_keeps_is_kept_by_the_baselines_the_page_shows():
    """The newcomer's finding (issue 36, item 2): the tau-bench file's 6,155-character system
    prompt, kept by memory-compact (keep_roles system), was dropped by keep-last and random at
    8,000 characters, and no page said so. Overview now compares with the protected forms and
    names them; the bare ones are one click away, labelled too."""
    from tests.paths import CORPUS

    request = convert_text((CORPUS / "tau_airline_tool_heavy.json").read_bytes()).request
    at = load(start(), {**request, "budget_chars": 8000})
    assert_clean(at)
    check = engine(at)
    assert len(request_of(at)["messages"][0]["content"]) > 6000
    m = metrics(at)
    assert m["Keep-last, system prompt kept"] == frames.percent(check.keep_last.recall)
    assert m["Random, system prompt kept (20 draws)"] == frames.percent(check.random.mean)
    assert m["Lift over keep-last, system prompt kept"] == frames.signed_points(check.lift)
    bare = check.in_form("bare")
    assert bare.keep_last.recall > check.keep_last.recall  # it had spent the prompt on turns
    assert any("keep first, whole, what the setting protects" in c.value for c in at.caption)
    at.radio(key=state.BASELINES_KEY).set_value("bare").run()
    assert_clean(at)
    m = metrics(at)
    assert m["Keep-last, bare"] == frames.percent(bare.keep_last.recall)
    assert m["Lift over keep-last, bare"] == frames.signed_points(bare.lift)
    assert any("may drop the 1 protected message" in c.value for c in at.caption)
    # the choice holds on the next page that compares, whose table names each side's form
    at = goto(at, "pages/compare.py")
    assert_clean(at)
    assert at.radio(key=state.BASELINES_KEY).value == "bare"
    assert set(table(at, "lift")["baselines"]) == {"keep-last, bare"}
