"""Every registry strategy (anchor-keep too) in the lineup, the replay, the replay command and
the corpus evaluation, on every sample and real fixture."""

import json

import pytest

from compactor import validate
from compactor.analyses.replay._strategies import Registered, replay_request
from compactor.cli._main import main
from compactor.evaluation import load_corpus
from compactor.samples import load_samples
from compactor.strategies import _registry as registry
from compactor.strategies._lineup import compare_strategies
from compactor.strategies._returned import REMOVED
from tests.compactor.analyses.outcomes.brute import plain_needs
from tests.compactor.analyses.outcomes.test_judge_outcome import returned_spans
from tests.compactor.analyses.outcomes.test_judge_spans import plain_span_recall
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
    assert [o.key for o in comparison.results] == NAMES
    for outcome in comparison.results:
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


@pytest.mark.parametrize("name", NAMES)
def test_the_replay_command_runs_every_strategy_on_every_history(name, tmp_path, capsys):
    for k, (_, request_) in enumerate(HISTORIES):
        data = request_.to_dict()
        data["messages"] = data["messages"][:30]
        path = tmp_path / f"{k}.json"
        path.write_text(json.dumps(data))
        assert main(["replay", str(path), "--strategy", name, "--indent", "0"]) == 0
        printed = json.loads(capsys.readouterr().out)
        expected = replay_request(validate(data), name).to_dict()
        assert printed["final"] == expected["final"]
        assert len(printed["turns"]) == len(data["messages"]) - 1


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


def past_recall(item, name, budget, future=5):
    """The continuation check by hand: the past compacted by the strategy at the budget,
    each future need met when a source lies in a span its message returns (test_judge_outcome
    checks those spans against the returned text)."""
    request = validate(item.request)
    past = validate({**item.request, "messages": item.request["messages"][:-future]})
    params = {"keep_last_n": 5} if name == "memory-compact" else None
    outcome = registry.apply(name, past, budget_chars=budget, params=params)
    spans = [returned_spans(c, m) for c, m in zip(past.contents, outcome.messages, strict=True)]
    judged, met = plain_span_recall(plain_needs(request.contents, request.roles), spans, len(spans))
    return len(judged), len(met)


@pytest.mark.parametrize("name", NAMES)
def test_evaluate_runs_every_strategy_on_every_sample_and_real_fixture(name, tmp_path, capsys):
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps(s.request) + "\n" for s in load_samples()))
    items = [*load_corpus(str(samples)), *load_corpus(str(REAL))]
    for corpus in (samples, REAL):
        out = tmp_path / f"{corpus.stem}-{name}.jsonl"
        code = main(
            [
                "evaluate",
                str(corpus),
                "--strategy",
                name,
                "--budgets",
                "600,3000",
                "--out",
                str(out),
            ]
            + ["--workers", "2", "--keep-last", "--cut-long"]
            + (["--strategy-param", "keep_last_n=5"] if name == "memory-compact" else [])
        )
        assert code == 0, capsys.readouterr().err
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        by_name = {item.conversation: item for item in load_corpus(str(corpus), keep_last=True)}
        assert len(rows) == 2 * len(by_name)
        assert [r["conversation"] for r in rows[::2]] == list(by_name)
        for row in rows:
            assert row["strategy"] == name
            item = by_name[row["conversation"]]
            if len(item.request["messages"]) < 7:
                continue  # past_recall needs a past of two messages or more
            assert (row["needs"], row["needs_met"]) == past_recall(item, name, row["budget_chars"])
    assert items


def test_evaluate_rows_are_the_same_on_one_worker_or_two(tmp_path):
    rows = []
    for workers in ("1", "2"):
        out = tmp_path / f"rows-{workers}.jsonl"
        argv = ["evaluate", str(REAL), "--strategy", "anchor-keep", "--workers", workers]
        assert main([*argv, "--budgets", "800,2400", "--out", str(out)]) == 0
        rows.append(out.read_text())
    assert rows[0] == rows[1] and rows[0]


def test_evaluate_names_a_bad_strategy_parameter(capsys):
    code = main(
        ["evaluate", str(REAL), "--strategy", "vercel-prune", "--strategy-param", "toolCalls=some"]
    )
    assert code == 2
    assert "vercel-prune.toolCalls" in capsys.readouterr().err
