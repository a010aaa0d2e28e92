"""Reading a corpus at scale: each record looked at a bounded number of times (linear, counted
without timing), streamed one conversation at a time, and folders or paths that cannot be read
skipped or refused with a word."""

import json
import os
import subprocess
import sys

import pytest

import compactor.formats._collections as collections
import compactor.formats._registry as registry
from compactor.cli._main import main
from compactor.errors import FormatError
from compactor.evaluation import CorpusStream, load_corpus, load_corpus_text, read_corpus_text
from compactor.formats import convert_document, read_document
from tests.corpora import LONG_RECORD, tau_bench_corpus
from tests.paths import CORPUS, ROOT

REAL = ROOT / "tests" / "fixtures" / "real"


def tiny(count):
    return "".join(
        json.dumps({"messages": [{"role": "user", "content": f"q{i}"}, {"role": "assistant",
                   "content": f"a{i}"}]}) + "\n"
        for i in range(count)
    )  # fmt: skip


@pytest.fixture
def looks(monkeypatch):
    """How many times a value is asked whether it is a record (what finding a file's records
    costs): quadratic reading asks each of N records N times."""
    seen = []
    original = collections.is_record

    def counted(value):
        seen.append(1)
        return original(value)

    monkeypatch.setattr(collections, "is_record", counted)
    return seen


@pytest.mark.parametrize("count", [50, 400])
def test_every_path_reads_a_collection_looking_at_each_record_a_bounded_number_of_times(
    count, looks, tmp_path, capsys
):
    path = tmp_path / "tiny.jsonl"
    path.write_text(tiny(count))
    document = read_document(path.read_bytes())
    requests = [convert_document(document, None, k).request for k in range(count)]
    assert len(requests) == count and len(looks) <= 2 * count  # convert_document, record by record
    looks.clear()
    assert len(load_corpus_text(path.read_bytes(), "tiny.jsonl")) == count  # the Corpus page
    assert len(looks) <= 2 * count
    looks.clear()
    assert len(load_corpus(path)) == count
    assert len(looks) <= 2 * count
    looks.clear()
    assert main(["import", "--all", str(path)]) == 0  # import --all
    assert len(capsys.readouterr().out.splitlines()) == count and len(looks) <= 2 * count


@pytest.mark.parametrize(
    "name",
    ["folder", "real", "jsonl", "imported", "list", "one-per-line", "one-line", "format-jsonl"],
)
def test_the_stream_reads_what_load_corpus_reads(name, tmp_path):
    path = tmp_path / "corpus.jsonl"
    format = None
    if name == "folder":
        path = CORPUS
    elif name == "real":
        path = REAL
    elif name == "jsonl":
        path.write_text(tiny(30))
    elif name in ("imported", "format-jsonl"):
        requests = [json.loads(line) | {"budget_chars": 100} for line in tiny(5).splitlines()]
        lines = [{"record": f"r{i}", "id": None, "request": r} for i, r in enumerate(requests)]
        path.write_text("".join(json.dumps(line) + "\n\n" for line in lines))
        format = "jsonl" if name == "format-jsonl" else None
    elif name == "list":
        path = REAL / "tau_airline_3_records.json"
    elif name == "one-per-line":
        path.write_text('{"role": "user", "content": "a"}\n{"role": "assistant", "content": "b"}\n')
    else:
        path.write_text(tiny(1))
    stream = CorpusStream(path, format)
    expected = load_corpus(path, format)
    assert len(stream) == len(expected)
    assert list(stream) == expected
    assert (stream.read, stream.unusable, stream.problems) == (len(expected), 0, [])


def test_the_stream_converts_a_record_only_when_it_is_reached(monkeypatch, tmp_path):
    path = tmp_path / "tiny.jsonl"
    path.write_text(tiny(1000))
    converted = []
    original = registry.convert  # a record is read by its own format through the registry

    def counted(data, format=None):
        converted.append(1)
        return original(data, format)

    monkeypatch.setattr(registry, "convert", counted)
    stream = CorpusStream(path)
    assert len(stream) == 1000 and converted == []  # looked over, none converted
    first = next(iter(stream))
    assert (first.conversation, len(converted)) == (0, 1)


def test_a_bad_record_is_set_aside_with_where_and_the_others_go_on(tmp_path):
    path = tmp_path / "mixed.jsonl"
    lines = tiny(4).splitlines()
    lines[2] = json.dumps({"messages": [{"role": "robot", "content": "x"}]})
    path.write_text("\n".join(lines) + "\n")
    stream = CorpusStream(path)
    assert [item.conversation for item in stream] == [0, 1, 3]
    assert stream.unusable == 1 and len(stream) == 4
    assert all(p.line == 3 for p in stream.problems) and "record 2" in str(stream.problems[0])


def test_a_line_that_is_not_json_is_set_aside_and_the_others_go_on(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(tiny(3) + '{"messages": \n')
    stream = CorpusStream(path)
    assert len(stream) == 4 and [item.conversation for item in stream] == [0, 1, 2]
    (aside,) = stream.set_aside
    assert (aside.conversation, aside.label) == (3, "record 3")
    assert [(p.line, p.column) for p in aside.problems] == [(4, 14)]


def test_a_folder_skips_link_loops_and_devices_saying_so(tmp_path):
    (tmp_path / "good.jsonl").write_text(tiny(2))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "more.json").write_text(tiny(1))
    os.symlink("..", tmp_path / "sub" / "up")  # a loop back to the folder
    os.symlink("self.json", tmp_path / "self.json")  # a link to itself
    os.symlink("/dev/null", tmp_path / "null.jsonl")  # a device, through a link
    os.mkfifo(tmp_path / "pipe.jsonl")  # reading it would wait for a writer forever
    os.symlink("gone.json", tmp_path / "gone.json.jsonl")
    stream = CorpusStream(tmp_path)
    assert [item.conversation for item in stream] == [
        "good.jsonl#0",
        "good.jsonl#1",
        "sub/more.json",
    ]
    assert stream.skipped == [
        "gone.json.jsonl: cannot read it (No such file or directory)",
        "null.jsonl: a character device, not read",
        "pipe.jsonl: a named pipe, not read",
        "self.json: a link loop, not read",
        "sub/up: a link to a folder already read, not read again",
    ]
    assert [i.conversation for i in load_corpus(tmp_path)] == [
        "good.jsonl#0",
        "good.jsonl#1",
        "sub/more.json",
    ]


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_corpus_that_is_a_device_or_a_pipe_is_refused(kind, tmp_path):
    path = "/dev/zero" if kind == "device" else tmp_path / "pipe.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    with pytest.raises(FormatError, match="not a file or a folder of conversations"):
        load_corpus(path)
    done = subprocess.run(
        [sys.executable, "-m", "compactor", "evaluate", str(path), "--budgets", "1000"],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2
    said = done.stderr.decode()
    assert f"{path}: this is a " in said and "Traceback" not in said


def test_evaluate_lists_what_a_folder_skipped_and_the_records_it_could_not_use(tmp_path):
    robot = {"messages": [{"role": "robot", "content": "x"}]}
    (tmp_path / "good.jsonl").write_text(tiny(2) + json.dumps(robot) + "\n")
    os.symlink(".", tmp_path / "loop")
    out = tmp_path / "rows.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "compactor",
            "evaluate",
            str(tmp_path),
            "--budgets",
            "1000",
            "--no-outcomes",
            "--out",
            str(out),
            "--workers",
            "1",
        ],  # fmt: skip
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    said = done.stderr.decode()
    assert done.returncode == 3 and "Traceback" not in said  # done, with a record set aside
    assert "skipped loop: a link to a folder already read, not read again" in said
    assert "set aside record good.jsonl#2" in said
    assert "2 of the 3 conversations evaluated, 1 set aside" in said
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {row["conversation"] for row in rows} == {"good.jsonl#0", "good.jsonl#1"}


def test_a_content_over_the_limit_is_read_whole_and_the_cut_is_an_option(tmp_path):
    # issue 26 set the record aside; issue 35 reads it whole (the agent mode)
    path = tmp_path / "tau200.json"
    path.write_bytes(tau_bench_corpus())
    stream = CorpusStream(path)
    items = list(stream)
    assert [item.conversation for item in items] == list(range(200)) and stream.set_aside == []
    assert len(items[LONG_RECORD].request["messages"][5]["content"]) == 10_000
    fixed = CorpusStream(path, cut_long=True)
    items = list(fixed)
    assert len(items) == 200 and fixed.set_aside == []
    assert len(items[LONG_RECORD].request["messages"][5]["content"]) == 8000


def test_an_uploaded_corpus_is_read_whole():
    data = tau_bench_corpus()
    read = read_corpus_text(data, "tau200.json")
    assert [i.conversation for i in read.items] == list(range(200)) and read.set_aside == []
    assert len(load_corpus_text(data, "tau200.json")) == 200
