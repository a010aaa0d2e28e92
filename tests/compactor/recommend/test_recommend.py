"""recommend: a planted corpus whose best strategy is known, the check part never seen by the
tuner, the same recommendation under a seed, one conversation checked at cut points, the toml
round trip of every registered strategy, and the command end to end."""

from __future__ import annotations

import json
import sys

import pytest

from compactor import shrink
from compactor.cli._main import main
from compactor.evaluation import CorpusItem
from compactor.recommend import (
    RECOMMENDED,
    SPACES,
    Goal,
    Options,
    RecommendError,
    RecommendUnavailable,
    cut_points,
    optuna_available,
    params_of,
    recommend,
    split,
)
from compactor.strategies import (
    STRATEGIES,
    Setting,
    load_setting,
    setting_toml,
    strategy_available,
)

FILLER = (
    "Let me walk through the usual checks for this kind of question step by step, "
    "looking at the general policy and the standard timelines that apply here. "
) * 4


def planted(k: int) -> CorpusItem:
    """An order number and a city said once, early; long filler; a future that asks for both.
    Keep-last at a small budget loses them; a strategy that keeps salient terms keeps them."""
    order, city = f"QX-{7000 + k}", ["Lyon", "Porto", "Graz", "Turku"][k % 4]
    messages = [
        {"role": "user", "content": f"My order {order} is stuck; it ships to {city}."},
        {"role": "assistant", "content": f"Noted: order {order} to {city}. Checking."},
    ]
    for j in range(8):
        messages.append({"role": "user" if j % 2 else "assistant", "content": FILLER})
    messages += [
        {"role": "user", "content": f"Any news on {order}?"},
        {"role": "assistant", "content": f"Order {order} is in {city} now."},
        {"role": "user", "content": f"Great, {order} arrived in {city}."},
        {"role": "assistant", "content": "Glad to hear it."},
        {"role": "user", "content": "Thanks."},
    ]
    return CorpusItem(f"planted-{k}", {"messages": messages, "budget_chars": 1200})


CORPUS = [planted(k) for k in range(8)]
GOAL = Goal(budget_chars=900)
FAST = Options(trials=8, seed=3, workers=1, strategies=("keep-last", "anchor-keep"))


@pytest.fixture(scope="module")
def found():
    return recommend(CORPUS, GOAL, FAST)


def test_the_planted_best_strategy_wins_and_beats_keep_last_on_the_check(found):
    assert found.winner.strategy == "anchor-keep"
    check = found.check
    assert check.figure(RECOMMENDED).recall > check.figure("keep-last").recall
    assert check.beats_keep_last
    assert "beats keep-last" in check.verdict
    assert "needed-later recall" in check.judge
    assert found.winner.budget == ("chars", 900)


def test_the_tuner_never_sees_the_check_part(found):
    assert found.seen == set(found.tuning)
    assert not set(found.tuning) & set(found.checking)
    assert set(found.check.conversations) == set(found.checking)
    assert len(found.checking) == round(len(CORPUS) * FAST.check_share)


def test_the_same_seed_gives_the_same_trials_and_winner(found):
    again = recommend(CORPUS, GOAL, FAST)
    assert [(t.strategy, dict(t.params), t.recall) for t in again.trials] == [
        (t.strategy, dict(t.params), t.recall) for t in found.trials
    ]
    assert again.winner == found.winner


def test_keep_last_wins_when_nothing_is_needed_earlier():
    # every need's source is in the last messages: no setting can beat keep-last
    items = []
    for k in range(6):
        messages = [{"role": "user", "content": FILLER}, {"role": "assistant", "content": FILLER}]
        messages += [
            {"role": "user", "content": f"Order ZK-{k}00 please."},
            {"role": "assistant", "content": f"ZK-{k}00 noted."},
            {"role": "user", "content": f"ZK-{k}00 again?"},
            {"role": "assistant", "content": f"Yes, ZK-{k}00."},
            {"role": "user", "content": "Fine."},
            {"role": "assistant", "content": "Good."},
            {"role": "user", "content": "Bye."},
        ]
        items.append(CorpusItem(k, {"messages": messages, "budget_chars": 500}))
    found = recommend(items, Goal(budget_chars=400), FAST)
    assert not found.check.beats_keep_last
    assert "keep-last" in found.check.verdict


def test_one_conversation_is_tuned_and_checked_at_different_cut_points():
    long = planted(1)
    cuts = cut_points(long, 5)
    assert len({len(c.request["messages"]) for c in cuts}) == len(cuts) >= 3
    found = recommend([long], GOAL, FAST)
    assert found.one_conversation
    assert not set(found.tuning) & set(found.checking)
    assert found.seen == set(found.tuning)


def test_split_is_seeded_and_keeps_both_parts():
    names = list(range(10))
    assert split(names, 0.3, 1) == split(names, 0.3, 1)
    tune, check = split(names, 0.3, 1)
    assert len(check) == 3 and sorted(tune + check) == names
    with pytest.raises(RecommendError, match="at least 2"):
        split([1], 0.3, 0)


def test_a_goal_with_two_budgets_is_refused():
    with pytest.raises(RecommendError, match="exactly one budget"):
        recommend(CORPUS, Goal(budget_chars=900, budget_tokens=200), FAST)


def sample_params(name: str) -> dict:
    """A setting of the strategy other than its defaults: each dimension's first choice or
    its upper end (the registry's defaults for a strategy without a search space)."""
    chosen = {}
    for d in SPACES.get(name, ()):
        value = d.choices[-1] if d.kind == "choice" else d.high
        chosen[f"{name}.{d.name}"] = int(value) if d.kind == "int" else value
    return params_of(name, chosen) if name in SPACES else {}


@pytest.mark.parametrize("name", [n for n in STRATEGIES if strategy_available(n)])
def test_every_strategy_round_trips_through_compaction_toml_and_shrink_reads_it(name, tmp_path):
    setting = Setting(name, sample_params(name), budget_chars=700, name="recommended")
    path = tmp_path / "compaction.toml"
    path.write_text(setting_toml(setting), "utf-8")
    assert load_setting(path) == setting
    if name in ("llm-compact", "chunked-summary"):
        return  # a provider's call: read, not run, here
    history = CORPUS[0].request["messages"]
    out = shrink(history, str(path))
    assert isinstance(out, list) and out


def test_the_command_writes_a_setting_that_evaluate_reads(tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(i.request) for i in CORPUS) + "\n", "utf-8")
    out = tmp_path / "compaction.toml"
    code = main(
        [
            "recommend",
            str(corpus),
            "--budget",
            "900",
            "--trials",
            "6",
            "--workers",
            "1",
            "--strategies",
            "keep-last,anchor-keep",
            "--seed",
            "3",
            "--out",
            str(out),
            "--json",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["setting"] == load_setting(out).to_dict()
    assert {f["method"] for f in report["check"]["figures"]} == {
        "recommended",
        "schema defaults",
        "keep-last",
        "random",
    }
    code = main(["evaluate", str(corpus), "--setting", str(out), "--workers", "1"])
    assert code == 0
    assert "strategy " + load_setting(out).strategy in capsys.readouterr().out


def test_the_command_names_a_bad_budget_without_a_traceback(tmp_path, capsys):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps(CORPUS[0].request) + "\n", "utf-8")
    assert main(["recommend", str(corpus), "--budget", "5"]) == 2
    assert "budget" in capsys.readouterr().err


def test_without_optuna_it_names_the_command_that_installs_it(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "optuna", None)  # import optuna now fails
    assert not optuna_available()
    with pytest.raises(RecommendUnavailable) as raised:
        recommend(CORPUS, GOAL, FAST)
    assert '.venv/bin/pip install -e ".[recommend]"' in raised.value.problems[0].message
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps(CORPUS[0].request) + "\n", "utf-8")
    assert main(["recommend", str(corpus), "--budget", "900"]) == 2
    assert "[recommend]" in capsys.readouterr().err
