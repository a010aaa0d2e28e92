"""Every registry strategy in the lineup and the replay, on every sample and real fixture."""

import json

import pytest

from compactor import validate
from compactor.analyses.replay.strategies import Registered, replay_request
from compactor.cli.main import main
from compactor.evaluation import load_corpus
from compactor.samples import load_samples
from compactor.strategies import registry
from compactor.strategies.lineup import compare_strategies
from compactor.strategies.outcome import REMOVED
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"
NAMES = [n for n in registry.names() if n != "semantic-dedupe"]


def histories():
    for sample in load_samples():
        yield sample.name, validate(sample.request)
    for item in load_corpus(str(REAL)):
        yield str(item.conversation), validate(item.request)


HISTORIES = list(histories())


@pytest.mark.parametrize(("name", "request_"), HISTORIES, ids=[h[0][:30] for h in HISTORIES])
def test_the_lineup_runs_every_strategy_and_returns_sendable_messages(name, request_):
    comparison = compare_strategies(request_)
    assert [o.key for o in comparison.outcomes] == NAMES
    for outcome in comparison.outcomes:
        if not outcome.available:
            continue
        assert len(outcome.messages) == len(request_.messages)
        returned = outcome.returned()
        assert len(returned) == outcome.output_messages
        assert sum(len(m["content"]) for m in returned) == outcome.output_chars
        assert outcome.budget_met == (outcome.output_chars <= comparison.budget_chars)
        for m in outcome.messages:
            if m.kept != REMOVED:
                assert m.id == request_.messages[m.index].id


@pytest.mark.parametrize(("name", "request_"), HISTORIES, ids=[h[0][:30] for h in HISTORIES])
def test_the_replay_runs_every_strategy_on_every_turn(name, request_):
    if len(request_.messages) > 60:
        request_ = validate({**request_.to_dict(), "messages": request_.to_dict()["messages"][:60]})
    for strategy in NAMES:
        replayed = replay_request(request_, strategy)
        assert replayed.strategy == strategy
        assert len(replayed.turns) == len(request_.messages) - 1


def test_clearing_earlier_results_shows_as_a_shorter_stable_prefix():
    messages = [{"role": "user", "content": "fix it"}]
    for k in range(4):
        messages += [
            {"role": "assistant", "content": f"[tool call read id=c{k}] {{}}"},
            {"role": "tool", "content": "x" * 400, "id": f"c{k}"},
        ]
    request = validate({"messages": messages, "budget_chars": 1000})
    replayed = replay_request(
        request, Registered("anthropic-clear-tool-uses", request.params, {"keep": 1})
    )
    cleared = [t for t in replayed.turns if t.stable_prefix_messages < t.messages_in - 1]
    assert cleared, "a turn that clears an earlier result invalidates the cached prefix"


def test_evaluate_with_a_strategy_and_a_grid(tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    code = main(
        [
            "evaluate",
            str(REAL / "codex_tool_calls.jsonl"),
            "--strategy",
            "anthropic-clear-tool-uses",
            "--strategy-param",
            "clear_tool_inputs=true",
            "--strategy-grid",
            "keep=1,3,5",
            "--budgets",
            "2000",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["strategy_params"]["keep"] for r in rows] == [1, 3, 5]
    for key in ("output_chars", "budget_met", "anchors", "anchors_kept", "tool_pairs_broken"):
        assert all(key in r for r in rows)
    assert "strategy anthropic-clear-tool-uses, 3 settings" in capsys.readouterr().out


def test_evaluate_names_a_bad_strategy_parameter(capsys):
    code = main(
        ["evaluate", str(REAL), "--strategy", "vercel-prune", "--strategy-param", "toolCalls=some"]
    )
    assert code == 2
    assert "vercel-prune.toolCalls" in capsys.readouterr().err
