"""Reading a corpus: the collection import's records, named as ``import --all`` names them."""

import json
import subprocess
import sys

import pytest

from compactor.errors import FormatError, UnreadableJSON
from compactor.evaluation import CorpusItem, load_corpus, load_corpus_text
from compactor.formats import convert_text
from compactor.input._validation import errors_of
from tests.paths import CORPUS, ROOT

REAL = ROOT / "tests" / "fixtures" / "real"


def import_all(path):
    done = subprocess.run(
        [sys.executable, "-m", "compactor", "import", "--all", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("path", [CORPUS, REAL, REAL / "tau_airline_3_records.json"])
def test_a_folder_or_a_file_gives_the_records_import_all_gives(path):
    items = load_corpus(path)
    expected = import_all(path)
    assert [(i.conversation, i.request) for i in items] == [
        (line["record"], line["request"]) for line in expected
    ]
    assert all(errors_of(item.request) == [] for item in items)


def test_tool_links_come_from_the_import():
    items = load_corpus(REAL / "tau_airline_3_records.json")
    for k, item in enumerate(items):
        text = (REAL / "tau_airline_3_records.json").read_bytes()
        assert item.tool_links == convert_text(text, record=k).tool_links
    assert any(item.tool_links for item in items)


def test_a_jsonl_of_requests_is_numbered_by_line(tmp_path):
    requests = [
        {
            "messages": [{"role": "user", "content": f"hi {k}"}, {"role": "user", "content": "x"}],
            "budget_chars": 100 + k,
        }
        for k in range(3)
    ]
    path = tmp_path / "requests.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in requests) + "\n")
    items = load_corpus(path)
    assert [i.conversation for i in items] == [0, 1, 2]
    assert [i.request["messages"] for i in items] == [r["messages"] for r in requests]


def test_the_lines_import_all_prints_are_a_corpus(tmp_path):
    lines = import_all(CORPUS)
    path = tmp_path / "imported.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    items = load_corpus(path)
    assert items == [CorpusItem(line["record"], line["request"]) for line in lines]


def test_uploaded_text_reads_as_a_file_does():
    text = (REAL / "sharegpt_glaive_toolcall_4_records.json").read_bytes()
    assert load_corpus_text(text, "upload.json") == load_corpus(
        REAL / "sharegpt_glaive_toolcall_4_records.json"
    )


def test_a_line_that_is_not_json_names_the_file_and_line(tmp_path):
    (tmp_path / "good.json").write_bytes((CORPUS / "abcd_customer_support.json").read_bytes())
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "bad.jsonl").write_text('{"role": "user", "content": "a"}\n{"role": \n')
    with pytest.raises(UnreadableJSON) as caught:
        load_corpus(tmp_path)
    (problem,) = caught.value.problems
    assert (problem.line, "sub/bad.jsonl" in problem.message) == (2, True)


def test_a_bad_record_names_the_record_and_the_path_in_it(tmp_path):
    records = json.loads((REAL / "tau_airline_3_records.json").read_text())
    records[1]["traj"][2]["role"] = "robot"
    (tmp_path / "runs.json").write_text(json.dumps(records))
    with pytest.raises(FormatError) as caught:
        load_corpus(tmp_path)
    text = str(caught.value)
    assert "record runs.json#1" in text and "[1].traj[2]" in text
    assert "#0" not in text and "#2" not in text  # the good records are not blamed


def test_a_conversation_beyond_the_limits_is_read_whole_and_the_fix_is_an_option(tmp_path):
    long = {"messages": [{"role": "user", "content": "x" * 9000}, {"role": "user", "content": "y"}]}
    path = tmp_path / "long.json"
    path.write_text(json.dumps(long))
    (whole,) = load_corpus(path)  # evaluated in the agent mode
    assert len(whole.request["messages"][0]["content"]) == 9000
    (item,) = load_corpus(path, cut_long=True)
    assert len(item.request["messages"][0]["content"]) == 8000


def test_an_empty_folder_is_an_error(tmp_path):
    with pytest.raises(FormatError, match="holds no .json or .jsonl file"):
        load_corpus(tmp_path)


def probes_records(probes):
    messages = [
        {"role": "user", "content": "Order DE-4471, please.", "id": "m0"},
        {"role": "assistant", "content": "DE-4471 noted."},
    ]
    return [{"id": "a", "messages": messages, "probes": probes}, {"id": "b", "messages": messages}]


def test_a_record_carries_its_probes_refs_resolved(tmp_path):
    path = tmp_path / "probes.json"
    probes = [{"id": "p", "evidence": ["m0", 1], "answer": "DE-4471"}]
    path.write_text(json.dumps(probes_records(probes)))
    first, second = load_corpus(path)
    assert [(p.id, p.evidence, p.answer) for p in first.probes] == [("p", (0, 1), "DE-4471")]
    assert second.probes == ()


def test_a_probe_ref_naming_no_message_is_an_error_with_its_path(tmp_path):
    path = tmp_path / "probes.json"
    path.write_text(json.dumps(probes_records([{"id": "p", "evidence": ["m9", 2]}])))
    with pytest.raises(FormatError) as error:
        load_corpus(path)
    assert [p.path for p in error.value.problems] == [
        "[0].probes[0].evidence[0]",
        "[0].probes[0].evidence[1]",
    ]
    assert "no message has the id 'm9'" in error.value.problems[0].message
