"""Parquet rows of a mixed corpus: rows differ in their columns (an agent session's rows carry the
re-read judge's columns, a support chat's do not), and every column must reach the file."""

import json

import pytest

import compactor.evaluation._output as output

pq = pytest.importorskip("pyarrow.parquet")  # the parquet extra, in the test extra


def test_columns_only_later_rows_carry_reach_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(output, "ROW_GROUP", 2)  # the re-read columns first appear in a later batch
    rows = [
        {"conversation": "chat-1", "needed_recall": 0.5, "rereads": None},
        {"conversation": "chat-2", "needed_recall": 1},
        {"conversation": "session", "needed_recall": 0.25, "rereads": 3, "rereads_held": 1},
    ]
    source = tmp_path / "rows.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    output.to_parquet(source, tmp_path / "rows.parquet")
    read = pq.read_table(tmp_path / "rows.parquet").to_pylist()
    columns = ["conversation", "needed_recall", "rereads", "rereads_held"]
    assert read == [{c: r.get(c) for c in columns} for r in rows]  # missing values read as None
