"""``python -m compactor report``: one decision of a real agent log with a compaction.toml, the
redacted variant, a folder's corpus summary, and bad input said in one line with where."""

from __future__ import annotations

import json

import pytest

from compactor.cli._main import main
from tests.explorer.requests import HOSTILE, hostile_request
from tests.paths import ROOT

LOG = ROOT / "tests" / "fixtures" / "real" / "claude_code_hello_world.jsonl"
SETTING = (
    'name = "support bot"\nstrategy = "memory-compact"\nbudget_chars = 900\n\n'
    "[params]\nkeep_last_n = 1\n"
)


@pytest.fixture
def setting(tmp_path):
    path = tmp_path / "compaction.toml"
    path.write_text(SETTING, "utf-8")
    return path


def test_a_real_log_with_a_setting_gives_one_self_contained_file(tmp_path, setting, capsys):
    out = tmp_path / "report.html"
    code = main(["report", str(LOG), "--setting", str(setting), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    page = out.read_text("utf-8")
    assert "keep_last_n = 1" in page and "name = &#34;support bot&#34;" in page
    assert "Conversation: claude_code_hello_world.jsonl" in page
    assert "http://" not in page.split("<script", 1)[0]  # nothing in the head loads from afar
    assert err.strip().endswith(f"wrote {out}")


def test_the_redacted_variant_of_hostile_contents(tmp_path, capsys):
    source = tmp_path / "hostile.json"
    source.write_text(json.dumps(hostile_request()), "utf-8")
    out = tmp_path / "redacted.html"
    assert main(["report", str(source), "--redacted", "-o", str(out)]) == 0
    page = out.read_text("utf-8")
    assert all(content not in page for content in HOSTILE)
    assert "hostile.json" not in page and "Redacted" in page


def test_a_folder_gives_the_corpus_summary(tmp_path, setting, capsys):
    folder = tmp_path / "corpus"
    folder.mkdir()
    for i in range(2):
        (folder / f"c{i}.json").write_text(json.dumps(hostile_request()), "utf-8")
    out = tmp_path / "corpus.html"
    code = main(["report", str(folder), "--setting", str(setting), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    page = out.read_text("utf-8")
    assert "The corpus summary" in page and "keep-last, bare at 900 characters" in page
    assert "summarised 2 conversations at 900 characters" in err


def test_a_corpus_without_a_budget_and_a_bad_setting_are_said_in_one_line(tmp_path, capsys):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "c.json").write_text(json.dumps(hostile_request()), "utf-8")
    assert main(["report", str(folder), "-o", str(tmp_path / "x.html")]) == 2
    assert "needs a budget" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text('strategy = "memory-compact"\nbudget_chars = -3\n', "utf-8")
    source = tmp_path / "one.json"
    source.write_text(json.dumps(hostile_request()), "utf-8")
    assert main(["report", str(source), "--setting", str(bad), "-o", str(tmp_path / "y.html")]) == 2
    err = capsys.readouterr().err
    assert "budget_chars" in err and "Traceback" not in err
    assert not (tmp_path / "y.html").exists()


def test_a_file_of_many_conversations_gives_the_corpus_summary_unless_one_is_chosen(tmp_path):
    tau = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
    many, one = tmp_path / "many.html", tmp_path / "one.html"
    assert main(["report", str(tau), "--budget-chars", "3000", "-o", str(many)]) == 0
    assert "The corpus summary" in many.read_text("utf-8")
    assert (
        main(["report", str(tau), "--record", "1", "--budget-chars", "3000", "-o", str(one)]) == 0
    )
    page = one.read_text("utf-8")
    assert "The corpus summary" not in page and "The conversation before and after" in page


def test_a_flag_over_the_setting_shows_the_parameters_that_ran(tmp_path, setting, capsys):
    source = tmp_path / "one.json"
    source.write_text(json.dumps(hostile_request()["messages"]), "utf-8")
    out = tmp_path / "flag.html"
    argv = ["report", str(source), "--setting", str(setting), "--keep-last-n", "3"]
    assert main([*argv, "--budget-chars", "700", "-o", str(out)]) == 0
    page = out.read_text("utf-8")
    assert "keep_last_n = 3" in page and "budget_chars = 700" in page
    assert "keep_last_n = 1" not in page and "name = &#34;support bot&#34;" in page


def test_a_model_prices_every_call_of_the_cost_per_turn(tmp_path, setting, capsys):
    from compactor.analyses.pricing import load_prices, price_histories
    from compactor.analyses.replay import replay_request
    from compactor.cli._anchors import read_request
    from compactor.cli._main import build_parser

    model = load_prices().models[0]
    out = tmp_path / "priced.html"
    args = ["report", str(LOG), "--setting", str(setting), "-o", str(out), "--model", model.key]
    assert main(args) == 0, capsys.readouterr().err
    page = out.read_text("utf-8")
    request = read_request(build_parser().parse_args(args))
    cost = price_histories(replay_request(request).histories, request.messages, model)
    assert cost.calls > 0 and cost.cost is not None
    assert f"cost at {model.key}" in page
    assert f"the task&#39;s {cost.calls} model call" in page.replace("calls", "call")
    assert f"${cost.cost.total:.4f}" in page
    assert f"{cost.split.reads:,} tokens read from the cache" in page
