"""Question sets: labelled evidence over a whole corpus, read once, each question asked of its
conversation; the rows' probe figures and failed ids equal compacting each request the plain
way, and a bad question is set aside with its line or JSON path while the others are judged."""

import json

import pytest

from compactor.analyses.outcomes import failed_probes_outcome
from compactor.cli._main import main
from compactor.contract import AUTO_LIMITS
from compactor.errors import UnreadableJSON
from compactor.evaluation import (
    CorpusStream,
    RunOptions,
    evaluate,
    evaluate_strategy,
    grid_points,
    read_questions_text,
    summarise,
)
from compactor.input import validate
from compactor.strategies import get_strategy
from tests.compactor.evaluation.brute import brute_baseline, brute_row
from tests.corpora import shared_questions, tau_bench_corpus
from tests.paths import CORPUS


def test_every_row_s_probe_figures_and_failed_ids_equal_compacting_each_request():
    questions = read_questions_text(json.dumps(shared_questions()), "shared.json")
    assert not questions.set_aside
    items = list(CorpusStream(CORPUS, questions=questions))
    assert questions.asked == len(shared_questions()) and not questions.set_aside
    settings = grid_points({}, {"keep_last_n": [0, 4]})
    rows = list(evaluate(items, settings, [2_000, 8_000], RunOptions(workers=1)))
    by_name = {item.conversation: item for item in items}
    failed_somewhere = False
    for row in rows:
        item = by_name[row["conversation"]]
        if row["strategy"] == "memory-compact":
            setting = {k: row[k] for k in ("keep_last_n", "keep_roles", "duplicate_threshold",
                                           "max_message_chars")}  # fmt: skip
            assert row == brute_row(item, setting, row["budget_chars"])
        else:
            roles = row["keep_roles"]  # the protected form of a grid's keep_roles, or bare
            expected = brute_baseline(item, row["strategy"], row["budget_chars"], keep_roles=roles)
            assert row == expected
        failed_somewhere |= bool(row["probes_failed"] and row["probes_failed"]["strict"])
    assert failed_somewhere  # the budgets are small enough for a question to fail
    for summary in summarise(rows):
        mine = [r for r in rows if _same(r, summary)]
        assert summary["probes_total"] == sum(r["probes"] for r in mine)
        if summary.get("strategy") == "random":
            assert summary["probes_failed"] is None
            continue
        for kind in ("strict", "partial"):
            met = sum(r["probes"] - len(r["probes_failed"][kind]) for r in mine)
            assert summary[f"probes_met_{kind}"] == met
            assert summary[f"probe_recall_{kind}"] == round(met / summary["probes_total"], 6)
        listed = [(f["conversation"], f["id"]) for f in summary["probes_failed"]]
        assert sorted(listed) == sorted(
            (r["conversation"], i)
            for r in mine
            for i in dict.fromkeys(sum(r["probes_failed"].values(), []))
        )


def _same(row, summary):
    keys = ("strategy", "budget_chars", "keep_last_n", "keep_roles", "duplicate_threshold",
            "max_message_chars")  # fmt: skip
    return all(row.get(k) == summary.get(k) for k in keys)


DOCUMENT = """{"questions": [
  {"record": 0, "id": "ok", "evidence": [0, 1], "question": "who asked?"},
  {"record": 0, "id": "far", "evidence": [1, 99]},
  {"record": 0, "evidence": [true], "answer": "", "note": 1},
  {"record": 7, "id": "gone", "evidence": [0]},
  {"record": 0, "id": "ok", "evidence": [0]},
  {"record_id": 1, "id": "by-id", "evidence": [2]}
]}"""


def test_bad_questions_of_a_document_are_set_aside_with_their_json_path_and_line():
    corpus = tau_bench_corpus(2, long_record=None)
    questions = read_questions_text(DOCUMENT, "set.json")
    items = _read(corpus, questions)
    assert [p.id for p in items[0].probes] == ["ok"]
    assert items[0].probes[0].question == "who asked?"
    assert [p.id for p in items[1].probes] == ["by-id"]  # task_id 1 is record 1
    said = {(a.id, p.path): p.message for a in questions.set_aside for p in a.problems}
    assert said[("far", "$.questions[1].evidence[1]")].startswith("names no message")
    assert "line 3, column 3" in said[("far", "$.questions[1].evidence[1]")]
    assert said[("2", "$.questions[2].evidence[0]")].startswith("should be a message id")
    assert said[("2", "$.questions[2].answer")].startswith("should be a non-empty string")
    assert said[("2", "$.questions[2].note")].startswith("is not a field of a question")
    assert "line 4, column 3" in said[("2", "$.questions[2].note")]
    assert said[("gone", "$.questions[3].record")].startswith("names no conversation")
    assert said[("ok", "$.questions[4].id")].startswith("repeats the id 'ok'")
    assert questions.asked == 2 and questions.unusable == 4


def test_bad_lines_are_set_aside_with_their_line_and_the_rest_are_asked(tmp_path):
    lines = [
        '{"record": 0, "id": "a", "evidence": [0]}',
        "",
        "{not json",
        '{"record": 0, "id": "b", "evidence": ["no-such-id"]}',
        '{"record_id": "nobody", "id": "c", "evidence": [0]}',
        "[1]",
    ]
    questions = read_questions_text("\n".join(lines), "set.jsonl")
    items = _read(tau_bench_corpus(1, long_record=None), questions)
    assert [p.id for p in items[0].probes] == ["a"]
    found = sorted((p.line, p.column, a.id) for a in questions.set_aside for p in a.problems)
    assert found == [(3, 2, None), (4, 1, "b"), (5, 1, "c"), (6, 1, None)]
    text = {p.line: str(p) for a in questions.set_aside for p in a.problems}
    assert text[4] == (
        "line 4, column 1: $.evidence[0]: names no message: no message has the id 'no-such-id'"
    )
    assert "no conversation of the corpus has the id 'nobody'" in text[5]


def test_a_broken_first_line_of_json_lines_is_set_aside_like_any_other():
    questions = read_questions_text('{"record": 0,\n{"record": 0, "evidence": [0]}\n', "q.jsonl")
    assert [q.id for q in questions.questions] == ["1"]
    assert [p.line for a in questions.set_aside for p in a.problems] == [1]


def test_a_question_set_that_is_not_json_is_refused_with_its_line_and_column():
    with pytest.raises(UnreadableJSON) as error:
        read_questions_text('[\n  {"record": 0,\n  "evidence": [0]\n', "set.json")
    assert error.value.problems[0].line == 4


def _read(corpus: bytes, questions):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tau.json"
        path.write_bytes(corpus)
        return list(CorpusStream(path, questions=questions))


def test_evaluate_questions_end_to_end_names_the_judge_lists_failures_and_sets_aside(
    tmp_path, capsys
):
    corpus = tmp_path / "tau.json"
    corpus.write_bytes(tau_bench_corpus(3, long_record=None))
    records = json.loads(corpus.read_text())
    asked = records[1]["traj"][1]["content"][:12]
    lines = [
        {"record_id": 0, "id": "prompt", "evidence": [0], "question": "the [policy](x)?"},
        {"record": 1, "id": "early", "evidence": [1, 2], "answer": asked},
        {"record": 2, "id": "late", "evidence": [len(records[2]["traj"]) - 1]},
    ]  # fmt: skip
    text = (
        "\n".join(json.dumps(q) for q in lines) + '\n{"record": 9, "id": "lost", "evidence": [0]}\n'
    )
    (tmp_path / "q.jsonl").write_text(text)
    out = tmp_path / "rows.jsonl"
    code = main(["evaluate", str(corpus), "--questions", str(tmp_path / "q.jsonl"),
                 "--budgets", "3000", "--workers", "1", "--out", str(out)])  # fmt: skip
    shown = capsys.readouterr()
    assert code == 3  # a question set aside: the run finished, the others judged
    assert "judge: labelled questions (q.jsonl, 3 questions)" in shown.out
    assert "question 'lost' set aside: line 4, column 1: $.record: names no conversation" in (
        shown.err
    )
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    setting = [r for r in rows if r["strategy"] == "memory-compact"]
    failed = {(r["conversation"], i) for r in setting for i in r["probes_failed"]["strict"]}
    assert failed  # 3,000 characters hold less than the evidence
    for conversation, probe in failed:
        assert f"fails '{probe}' of {conversation!r}" in shown.out
    assert sum(r["probes"] for r in setting) == 3
    keep_last = [r for r in rows if r["strategy"] == "keep-last"]
    assert all(r["probes_failed"] is not None for r in keep_last)
    assert all(r["probes_failed"] is None for r in rows if r["strategy"] == "random")


def test_a_registry_strategy_s_rows_judge_the_questions_beside_keep_last_and_random():
    questions = read_questions_text(json.dumps(shared_questions()), "shared.json")
    items = list(CorpusStream(CORPUS, questions=questions))
    strategy = get_strategy("anchor-keep")
    rows = list(evaluate_strategy(items, "anchor-keep", [{}], [2_000], workers=1))
    by_name = {item.conversation: item for item in items}
    for row in rows:
        item = by_name[row["conversation"]]
        request = validate(item.request, limits=AUTO_LIMITS)
        result = strategy.apply(request, budget_chars=2_000, params={})
        contents = request.contents
        assert row["probes_failed"] == failed_probes_outcome(item.probes, contents, result)
        for kind in ("strict", "partial"):
            failed = len(row["probes_failed"][kind])
            assert round(row[f"probes_{kind}"] * row["probes"]) == row["probes"] - failed
        for name, baseline in (("probes_keep_last", "keep-last"), ("probes_random", "random")):
            brute = brute_baseline(item, baseline, 2_000)
            assert row[name] == {k: brute[f"probes_{k}"] for k in ("strict", "partial", "answer")}


def test_evaluate_strategy_questions_end_to_end_lists_what_the_strategy_fails(tmp_path, capsys):
    corpus = tmp_path / "tau.json"
    corpus.write_bytes(tau_bench_corpus(2, long_record=None))
    lines = [{"record": r, "id": f"q{r}-{i}", "evidence": [i]} for r in (0, 1) for i in (0, 1, 5)]
    (tmp_path / "q.json").write_text(json.dumps({"questions": lines}))
    out = tmp_path / "rows.jsonl"
    asked = ["--questions", str(tmp_path / "q.json"), "--strategy", "anchor-keep"]
    code = main(["evaluate", str(corpus), *asked, "--budgets", "3000", "--workers", "1",
                 "--out", str(out)])  # fmt: skip
    shown = capsys.readouterr().out
    assert code == 0 and "judge: labelled questions (q.json, 6 questions)" in shown
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    failed = [(r["conversation"], i) for r in rows for i in r["probes_failed"]["partial"]]
    assert failed  # 3,000 characters hold less than a system prompt of 6,000
    for conversation, probe in failed:
        assert f"fails '{probe}' of {conversation!r}: evidence dropped" in shown
    met = sum(r["probes"] - len(r["probes_failed"]["strict"]) for r in rows)
    assert f"strict {met} of 6, " in shown


def test_questions_without_the_outcomes_are_refused(tmp_path, capsys):
    (tmp_path / "q.json").write_text("[]")
    corpus = tmp_path / "tau.json"
    corpus.write_bytes(tau_bench_corpus(1, long_record=None))
    code = main(["evaluate", str(corpus), "--questions", str(tmp_path / "q.json"), "--no-outcomes"])
    assert code == 2 and "drop --no-outcomes" in capsys.readouterr().err


def test_the_questions_of_a_conversation_set_aside_are_set_aside_with_it():
    questions = read_questions_text(
        '[{"record": 0, "id": "kept", "evidence": [0]}, {"record": 1, "id": "with", '
        '"evidence": [0]}]',
        "set.json",
    )
    records = json.loads(tau_bench_corpus(2, long_record=None))
    records[1]["traj"] = [{"role": "narrator", "content": "not a conversation"}]
    items = _read(json.dumps(records).encode(), questions)
    assert [i.conversation for i in items] == [0] and [p.id for p in items[0].probes] == ["kept"]
    (aside,) = questions.set_aside
    assert aside.id == "with" and aside.problems[0].path == "$[1].record"
    assert "its conversation 1 is set aside" in aside.problems[0].message
