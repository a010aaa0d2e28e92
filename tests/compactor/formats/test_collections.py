"""Files that hold many conversations: numbered records (SPEC part C), one converted at a time."""

import json

import pytest

from compactor.errors import FormatError
from compactor.formats import ManyConversations, convert_text, read_document
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"
TAU = REAL / "tau_airline_3_records.json"
SHAREGPT = REAL / "sharegpt_glaive_toolcall_4_records.json"


@pytest.mark.parametrize(
    ("path", "count", "holder"), [(TAU, 3, "traj"), (SHAREGPT, 4, "conversations")]
)
def test_a_file_of_many_conversations_says_how_many(path, count, holder):
    with pytest.raises(ManyConversations) as caught:
        convert_text(path.read_bytes())
    assert len(caught.value.collection) == count
    assert caught.value.problems[0].message == (
        f"the file holds {count} conversations (records 0 to {count - 1}, each holding {holder})"
    )


def test_each_tau_record_is_its_trajectory_and_keeps_every_returned_text():
    records = json.loads(TAU.read_text("utf-8"))
    for i, record in enumerate(records):
        conversion = convert_text(TAU.read_bytes(), record=i)
        assert conversion.format in ("openai", "messages")  # one record has no tool call
        traj = record["traj"]
        kept = [m for m in traj if m.get("content") or m.get("tool_calls")]
        messages = conversion.request["messages"]
        assert [m["role"] for m in messages] == [m["role"] for m in kept]
        for message, original in zip(messages, kept, strict=True):
            assert message["content"].startswith(original["content"] or "")
        # the empty think results are lossy removals, their calls named for the pairing check
        empty = [m["tool_call_id"] for m in traj if m["role"] == "tool" and not m["content"]]
        assert [call for _, call in conversion.removed_results] == empty
        removed = [c for c in conversion.changes if c.kind == "empty-result-removed"]
        assert len(removed) == len(empty) and all(c.lossy for c in removed)
        assert all(c.source.startswith(f"[{i}].traj[") for c in removed)
        # the one numbering: sources name each message's place in the file
        assert conversion.sources[0] == f"[{i}].traj[0]"


def test_a_record_number_out_of_range_names_the_range():
    with pytest.raises(FormatError, match="there is no record 3: the file holds 3 conversations"):
        convert_text(TAU.read_bytes(), record=3)
    single = json.dumps([{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}])
    with pytest.raises(FormatError, match="there is no record 2: the file holds one"):
        convert_text(single, record=2)
    assert convert_text(single, record=0).request["messages"][0]["content"] == "a"


def test_jsonl_with_one_conversation_a_line_is_a_collection():
    records = json.loads(SHAREGPT.read_text("utf-8"))
    text = "\n".join(json.dumps(r) for r in records)
    document = read_document(text)
    assert len(document.collection) == 4
    assert [r.source for r in document.collection.records] == [f"line {i}" for i in range(1, 5)]
    second = convert_text(text, record=1)
    assert second.request == convert_text(SHAREGPT.read_bytes(), record=1).request


def test_a_broken_record_names_its_place_in_the_file():
    records = json.loads(TAU.read_text("utf-8"))
    records[2]["traj"][3]["role"] = "robot"
    with pytest.raises(FormatError) as caught:
        convert_text(json.dumps(records), record=2)
    assert caught.value.problems[0].path == "[2].traj[3].role"
    lines = "\n".join(json.dumps(r) for r in records)
    with pytest.raises(FormatError) as caught:
        convert_text(lines, record=2)
    problem = caught.value.problems[0]
    assert (problem.line, problem.message.split(":")[0]) == (3, "traj[3].role")


def test_records_have_their_ids():
    assert [r.id for r in read_document(TAU.read_bytes()).collection.records] == [
        r["task_id"] for r in json.loads(TAU.read_text("utf-8"))
    ]
