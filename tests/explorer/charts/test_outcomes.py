"""The outcome charts: the role balance's bars, the recall curve's lines and band on the budget
axis of the sweep's charts, the misses per turn by role."""

from compactor import run, validate
from compactor.analyses.outcomes import continuation_check, find_needs, replay_misses, role_balance
from compactor.analyses.replay import ALWAYS, MemoryCompact, replay
from compactor.samples import load_samples
from explorer.charts import outcomes as charts
from explorer.frames import outcomes as frames
from explorer.theme import FATE_COLOURS

SAMPLES = {s.slug: validate(s.request) for s in load_samples()}


def test_the_role_balance_bars_hold_each_roles_input_and_output_share():
    balance = role_balance(run(SAMPLES["support-chat"]))
    spec = charts.role_balance(frames.balance_frame(balance)).to_dict()
    assert spec["mark"]["type"] == "bar"
    encoding = spec["encoding"]
    assert encoding["x"]["field"] == "share" and encoding["x"]["scale"]["domain"] == [0, 1]
    assert encoding["yOffset"]["field"] == "side"
    assert encoding["color"]["scale"]["domain"] == ["input", "output"]
    assert not set(encoding["color"]["scale"]["range"]) & set(FATE_COLOURS.values())
    rows = next(iter(spec["datasets"].values()))
    assert {(r["role"], r["side"]): r["share"] for r in rows if r["side"] == "input"} == {
        (s.role, "input"): s.input_share for s in balance.roles
    }


def test_the_recall_curve_has_three_lines_a_band_and_the_current_budget():
    request = SAMPLES["largest"]
    check = continuation_check(request)
    frame = frames.curve_frame(check, 200_000)
    spec = charts.recall_curve(frame, 120_000, (100, 200_000), extent=57).to_dict()
    band, lines, rule = spec["layer"]
    assert band["mark"]["type"] == "area"
    assert (band["encoding"]["y"]["field"], band["encoding"]["y2"]["field"]) == (
        "random_low",
        "random_high",
    )
    (fold,) = [t for t in lines["transform"] if "fold" in t]
    assert fold["fold"] == ["setting", "keep_last", "random"]
    assert lines["encoding"]["color"]["scale"]["domain"] == list(charts.CURVE_LINES.values())
    assert lines["encoding"]["x"]["scale"]["domain"] == [100, 200_000]
    assert lines["encoding"]["y"]["axis"]["minExtent"] == 57
    assert rule["mark"]["type"] == "rule"
    labels = [d[0].get("label") for d in spec["datasets"].values() if d]
    assert "current budget 120,000" in labels


def test_the_recall_curve_takes_its_own_domain_without_an_extent():
    frame = frames.curve_frame(continuation_check(SAMPLES["research-chat"]), 5_000)
    spec = charts.recall_curve(frame, 1_000).to_dict()
    lines = spec["layer"][1]
    assert lines["encoding"]["x"]["scale"]["domain"] == [100, 5_000]
    assert "minExtent" not in lines["encoding"]["y"].get("axis", {})


def test_the_misses_chart_stacks_misses_by_role_per_replayed_loop():
    request = SAMPLES["largest"]
    needs = find_needs(request.contents, request.roles)
    done = replay(
        request.messages,
        MemoryCompact(request.params),
        policy=ALWAYS,
        budget_chars=request.params.budget_chars,
    )
    frame = frames.misses_frame({"memory-compact": replay_misses(done, needs)})
    spec = charts.misses_per_turn(frame).to_dict()
    assert spec["mark"]["type"] == "bar"
    assert spec["encoding"]["row"]["field"] == "loop"
    assert spec["encoding"]["y"]["aggregate"] == "sum"
    roles = spec["encoding"]["color"]["scale"]["domain"]
    assert set(roles) == set(frame["role"])
    assert not set(spec["encoding"]["color"]["scale"]["range"]) & set(FATE_COLOURS.values())
