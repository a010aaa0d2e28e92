"""`python -m compactor evaluate` on corpora with an unreadable part (issue 34, item 10): a line
of JSON Lines that is not JSON, or a truncated file in a folder, is set aside and listed like any
other bad record (exit 3, the rest evaluated); real processes."""

import json
import os
import subprocess
import sys

import pytest

from compactor.evaluation import CorpusStream, load_corpus, read_corpus_text
from tests.paths import ROOT


def record(i):
    return {
        "messages": [
            {"role": "user", "content": f"Where is order DE-{i}?"},
            {"role": "assistant", "content": f"Order DE-{i} ships on 2024-05-0{i % 9 + 1}."},
        ]
    }


def jsonl(*lines):
    return "".join(line + "\n" for line in lines)


def good(i):
    return json.dumps(record(i))


TRUNCATED = '{"messages": [{"role": "user", "content": "Where is'


def cli(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "compactor", "evaluate", *map(str, args)],
        capture_output=True,
        cwd=cwd,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def rows_of(path):
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def set_aside_lines(done):
    return [x for x in done.stderr.decode().splitlines() if x.startswith("set aside")]


@pytest.mark.parametrize("strategy", [[], ["--strategy", "keep-last"]])
def test_one_line_that_is_not_json_is_set_aside_and_the_rest_evaluated(strategy, tmp_path):
    (tmp_path / "runs.jsonl").write_text(jsonl(good(0), TRUNCATED, good(2), good(3)))
    out = tmp_path / "rows.jsonl"
    done = cli("runs.jsonl", "--budgets", "100", "--out", out, *strategy, cwd=tmp_path)
    said = done.stderr.decode()
    assert done.returncode == 3, said
    assert "Traceback" not in said
    column = TRUNCATED.index('"Where') + 1  # where the unterminated string starts
    assert set_aside_lines(done) == [
        f"set aside record 1: line 2, column {column}: Unterminated string starting at"
    ]
    assert "3 of the 4 conversations evaluated, 1 set aside" in said
    assert sorted({row["conversation"] for row in rows_of(out)}) == [0, 2, 3]


def test_a_truncated_file_in_a_folder_is_set_aside_and_the_others_evaluated(tmp_path):
    corpus = tmp_path / "recorded"
    (corpus / "team").mkdir(parents=True)
    (corpus / "a.json").write_text(json.dumps(record(1), indent=2))
    (corpus / "b.json").write_text(json.dumps(record(2), indent=2)[:70])  # cut off mid-write
    (corpus / "team" / "c.jsonl").write_text(jsonl(good(3), good(4)))
    out = tmp_path / "rows.jsonl"
    done = cli(corpus, "--budgets", "100", "--out", out, cwd=tmp_path)
    said = done.stderr.decode()
    assert done.returncode == 3, said
    assert "Traceback" not in said
    (line,) = set_aside_lines(done)
    assert line.startswith("set aside b.json: line ")
    assert "3 of the 4 conversations evaluated, 1 set aside" in said
    found = {row["conversation"] for row in rows_of(out)}
    assert found == {"a.json", "team/c.jsonl#0", "team/c.jsonl#1"}


def test_a_folder_whose_every_file_is_unreadable_evaluates_nothing_and_exits_2(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps(record(1))[:30])
    (tmp_path / "b.json").write_text("")
    done = cli(tmp_path, "--budgets", "100", cwd=tmp_path)
    said = done.stderr.decode()
    assert done.returncode == 2, said
    assert "Traceback" not in said
    listed = set_aside_lines(done)
    assert [x.split(":")[0] for x in listed] == ["set aside a.json", "set aside b.json"]
    assert "the input is empty" in listed[1]
    assert "0 of the 2 conversations evaluated" in said


def test_a_first_line_that_is_not_json_is_set_aside_too(tmp_path):
    (tmp_path / "runs.jsonl").write_text(jsonl(TRUNCATED, good(1), good(2)))
    done = cli("runs.jsonl", "--budgets", "100", cwd=tmp_path)
    assert done.returncode == 3, done.stderr.decode()
    (line,) = set_aside_lines(done)
    assert line.startswith("set aside record 0: line 1, column ")


def test_a_json_document_over_many_lines_is_not_taken_for_records_with_lines_set_aside(tmp_path):
    # a pretty-printed list of records: one line reads as a record, the others do not
    text = "[\n" + ",\n".join(good(i) for i in range(3)) + ",\n]\n"  # a trailing comma
    (tmp_path / "list.json").write_text(text)
    done = cli("list.json", "--budgets", "100", cwd=tmp_path)
    said = done.stderr.decode()
    assert done.returncode == 2, said
    assert said.startswith("line 5, column 1:") and "set aside" not in said


def test_the_stream_the_upload_and_load_corpus_read_the_same_records(tmp_path):
    text = jsonl(good(0), good(1), TRUNCATED, good(3))
    path = tmp_path / "runs.jsonl"
    path.write_text(text)
    stream = CorpusStream(path)
    streamed = list(stream)
    uploaded = read_corpus_text(text.encode(), "runs.jsonl")
    assert [i.conversation for i in streamed] == [0, 1, 3]
    assert uploaded.items == streamed
    assert [(a.conversation, a.problems) for a in uploaded.set_aside] == [
        (a.conversation, a.problems) for a in stream.set_aside
    ]
    assert uploaded.set_aside[0].label == "runs.jsonl, record 2"
    with pytest.raises(Exception) as caught:  # the all-or-nothing reading still refuses it
        load_corpus(path)
    assert [p.line for p in caught.value.problems] == [3]


def test_a_conversation_with_many_problems_takes_one_line_and_verbose_lists_them(tmp_path):
    bad = {"messages": [{"role": "robot", "content": f"line {i}"} for i in range(5)]}
    (tmp_path / "runs.jsonl").write_text(jsonl(good(0), json.dumps(bad), good(2)))
    quiet = set_aside_lines(cli("runs.jsonl", "--budgets", "100", cwd=tmp_path))
    loud = set_aside_lines(cli("runs.jsonl", "--budgets", "100", "--verbose", cwd=tmp_path))
    assert len(loud) > 1 and all(x.startswith("set aside record 1: ") for x in loud)
    more = len(loud) - 1
    assert quiet == [f"{loud[0]}; {more} more problem{'s' if more != 1 else ''} (--verbose)"]
