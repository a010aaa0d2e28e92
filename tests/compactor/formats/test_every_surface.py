"""Every format of the registry through every surface (issue 33): a real fixture of each is read
by every reading surface (the registry's convert, ``import``, ``shrink`` in Python and on the
command line, the explorer's paste and upload, the corpus loader of ``evaluate``), and each
format with a writer is written by every writing surface (``compact --emit``, ``shrink``'s
same-format output). What each surface offers is the registry's list, so a format added to one
surface and not another fails here, as does a format added to the registry without a fixture."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from compactor import shrink_with_report
from compactor.cli._main import build_parser, main
from compactor.evaluation._corpus import load_corpus_text
from compactor.formats import (
    FORMATS,
    TARGETS,
    WRITABLE,
    ManyConversations,
    convert,
    convert_text,
    detect_format,
    read_document,
)
from compactor.integrations import Setting
from explorer.frames import imports
from tests.paths import ROOT

#: A real conversation in each format (``tests/fixtures/real``: recorded by other projects).
FIXTURES = {
    "request": "formats/request.json",
    "messages": "formats/messages.json",
    "openai": "formats/openai_chat.json",
    "responses": "formats/openai_responses.json",
    "anthropic": "formats/anthropic_messages.json",
    "vercel": "formats/vercel_model.json",
    "langchain": "formats/langchain_messages.json",
    "sharegpt": "formats/sharegpt.json",
    "jsonl": "formats/chat.jsonl",
    "claude-code": "real/claude_code_hello_world.jsonl",
    "codex": "real/codex_tool_calls.jsonl",
    "records": "real/tau_airline_3_records.json",
}
#: A budget every fixture fits in: nothing is removed, so a written conversation holds every
#: message and reads back as its format (a plain list with no call would read as ``messages``).
WHOLE = Setting(budget_chars=400_000)


def path_of(name: str) -> Path:
    return ROOT / "tests" / "fixtures" / FIXTURES[name]


def record_of(name: str) -> int | None:
    """The record a surface is asked for: the first, in a file of many conversations."""
    return 0 if FORMATS[name].many else None


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code = main([*argv, "--indent", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in err
    return json.loads(out)


@pytest.fixture
def setting(tmp_path: Path) -> str:
    """The ``--setting`` file of :data:`WHOLE`."""
    path = tmp_path / "compaction.toml"
    path.write_text('strategy = "memory-compact"\nbudget_chars = 400000\n', "utf-8")
    return str(path)


def choices(command: str, option: str) -> list[str]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    (action,) = [a for a in sub.choices[command]._actions if option in a.option_strings]
    return list(action.choices)


def test_every_format_has_a_real_fixture_here():
    assert list(FIXTURES) == list(FORMATS)
    assert all(path_of(name).is_file() for name in FIXTURES)


def test_every_surface_offers_exactly_the_registry():
    names = list(FORMATS)
    for command in ("import", "compact", "shrink", "evaluate"):
        assert choices(command, "--format") == names, command
    assert list(imports.FORMAT_CHOICES) == names  # the paste box, the upload, the corpus loader
    writable = [name for name, entry in FORMATS.items() if entry.write is not None]
    assert list(WRITABLE) == writable
    assert choices("compact", "--emit") == ["response", *writable, "same"] == list(TARGETS)


@pytest.mark.parametrize("name", FIXTURES)
def test_every_format_is_read_by_every_reading_surface(name, capsys, setting):
    path, record = path_of(name), record_of(name)
    data = path.read_bytes()
    expected = convert_text(data, name, record)
    assert convert_text(data, record=record).request == expected.request  # detected
    if not FORMATS[name].many:
        assert expected.format == name

    # the registry itself: detection and convert on the parsed value
    document = read_document(data, name)
    value = document.data if document.data is not None else [v for _, v in document.lines]
    if FORMATS[name].detect is not None:
        assert detect_format(value) == name
    if not FORMATS[name].many:
        assert convert(value, name).request == expected.request

    # python -m compactor import, detected and named
    argv = [] if record is None else ["--record", str(record)]
    assert run(capsys, "import", str(path), *argv) == expected.request
    assert run(capsys, "import", str(path), "--format", name, *argv) == expected.request

    # the explorer's paste box and upload (the same frame function reads both)
    attempt = imports.read(data, name)
    if FORMATS[name].many:
        assert attempt.kind == "collection"
        attempt = imports.read_record(attempt, record)
    assert attempt.ok and attempt.conversion.request == expected.request
    assert imports.read(data).conversion == attempt.conversion or FORMATS[name].many

    # evaluate's corpus loader
    items = load_corpus_text(data, path.name, name)
    assert items[0].request == expected.request
    if FORMATS[name].many:
        assert len(items) == len(document.collection)

    # shrink, on the command line and in Python: the same conversation, compacted
    shrunk = run(capsys, "shrink", str(path), "--setting", setting, *argv)
    written = FORMATS[name].write is not None and not FORMATS[name].many
    assert detect_format(shrunk) == (name if written else "request")
    if FORMATS[name].many:
        with pytest.raises(ManyConversations):  # as import without --record
            shrink_with_report(value, WHOLE, format=name)
        return
    assert shrink_with_report(value, WHOLE, format=name).report.format == name
    if FORMATS[name].detect is not None:
        assert shrink_with_report(value, WHOLE).report.format == name


@pytest.mark.parametrize("name", WRITABLE)
def test_every_format_with_a_writer_is_written_by_every_writing_surface(name, capsys, setting):
    path = path_of(name)
    data = path.read_bytes()
    conversion = convert_text(data, name)
    contents = [m["content"] for m in conversion.request["messages"]]

    def reads_back(written: Any) -> None:
        assert detect_format(written) == name
        again = convert(written, name).request["messages"]
        assert [m["content"] for m in again] == contents

    # compact --emit NAME from its own file, --emit same, and --emit NAME from another format
    whole = ["--budget-chars", "400000"]
    reads_back(run(capsys, "compact", str(path), "--emit", name, *whole))
    reads_back(run(capsys, "compact", str(path), "--emit", "same", *whole))
    other = path_of("openai" if name != "openai" else "anthropic")
    written = run(capsys, "compact", str(other), "--emit", name, *whole)
    assert convert(written, name).request["messages"]

    # shrink's same-format output, in Python and on the command line
    value = json.loads(data)
    reads_back(shrink_with_report(value, WHOLE).messages)
    reads_back(run(capsys, "shrink", str(path), "--setting", setting))


def format_table() -> str:
    """The table of formats docs/cli.md shows, made from the registry."""
    rows = ["| format | what it is | written by |", "|---|---|---|"]
    for name, entry in FORMATS.items():
        label = entry.label.replace("|", "\\|")
        if entry.write is not None:
            written = "`compact --emit`, `shrink`"
        elif entry.many:
            written = "read only, a record at a time (`shrink` gives a request)"
        else:
            written = "read only (`shrink` gives a request)"
        rows.append(f"| `{name}` | {label} | {written} |")
    return "\n".join(rows)


def test_the_docs_table_of_formats_is_the_registry():
    docs = (ROOT / "docs" / "cli.md").read_text("utf-8")
    assert format_table() in docs, "docs/cli.md: paste this table\n" + format_table()
