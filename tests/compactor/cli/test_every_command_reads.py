"""Every command that takes a conversation reads every importable file, through the one entry
``compact`` uses (compactor.cli._records.read_input): each format fixture and each real log, with
``--record 0`` for a file of many conversations. Issue 26: ``summarize`` refused a memory-compact
request ("budget_chars: unknown field") and an agent log ("line 2, column 1: Extra data")."""

import json
from pathlib import Path

import pytest

from compactor.cli._commands import COMMANDS
from compactor.cli._main import main
from compactor.formats import ManyConversations, convert_text
from tests.llm_server import llm_fixture
from tests.paths import ROOT

llm = llm_fixture()


def importable() -> list[tuple[str, int | None]]:
    """(fixture path, record) of every fixture the import reads."""
    out = []
    for folder in ("formats", "real"):
        for path in sorted((ROOT / "tests" / "fixtures" / folder).iterdir()):
            if path.suffix not in (".json", ".jsonl"):
                continue
            try:
                convert_text(path.read_bytes())
                out.append((str(path.relative_to(ROOT)), None))
            except ManyConversations:
                out.append((str(path.relative_to(ROOT)), 0))
            except ValueError:  # a fixture of broken input, read by the import's own tests
                continue
    return out


FIXTURES = importable()
#: Every command that takes one conversation (evaluate and recommend take a corpus; serve none).
CONVERSATION_COMMANDS = (
    "compact",
    "shrink",
    "import",
    "sweep",
    "replay",
    "anchors",
    "outcomes",
    "graded",
    "tokens",
    "similar",
    "summarize",
)


def test_the_list_names_every_command_but_the_corpus_and_the_service():
    # report writes an HTML file, not JSON: tests/compactor/cli/test_report.py reads a real log
    registered = {command.name for command in COMMANDS}
    assert registered - set(CONVERSATION_COMMANDS) == {"evaluate", "recommend", "serve", "report"}
    assert len(FIXTURES) >= 18  # the format fixtures and every real log
    assert any("codex" in path for path, _ in FIXTURES)
    assert any("request.json" in path for path, _ in FIXTURES)


def extra_arguments(command: str, tmp_path: Path, llm_url: str) -> list[str]:
    if command == "shrink":
        setting = tmp_path / "compaction.toml"
        setting.write_text('strategy = "memory-compact"\nbudget_chars = 600\n', "utf-8")
        return ["--setting", str(setting)]
    if command == "summarize":
        return ["--base-url", llm_url, "--model", "small", "--keep-last", "1"]
    if command == "outcomes":
        return ["--future", "1", "--draws", "2"]
    return []


@pytest.mark.slow
@pytest.mark.parametrize("command", CONVERSATION_COMMANDS)
def test_every_command_reads_every_importable_file(command, tmp_path, capsys, llm):
    for path, record in FIXTURES:
        conversion = convert_text((ROOT / path).read_bytes(), record=record)
        n = len(conversion.request["messages"])
        argv = [command, str(ROOT / path), "--indent", "0"]
        argv += [] if record is None else ["--record", str(record)]
        code = main(argv + extra_arguments(command, tmp_path, llm.openai_url))
        out, err = capsys.readouterr()
        assert code == 0, (path, err)
        assert "Traceback" not in err
        printed = json.loads(out)
        if command == "import":
            assert printed == conversion.request
        elif command == "sweep":
            assert len(printed) == n
        elif command == "tokens":
            assert len(printed["messages"]) == n
        elif command == "replay":
            assert len(printed["turns"]) == n - 1
        elif command == "compact":
            assert printed["loss"]["input_messages"] == n, path
        elif command == "summarize":
            assert (
                printed["messages"][-1]["content"] == conversion.request["messages"][-1]["content"]
            )
        if command == "shrink":
            continue  # its report is the setting's, not the import's
        if path.endswith("request.json") and command not in ("import", "summarize"):
            assert err == ""  # a memory-compact request is taken as sent: nothing to report
        else:  # imported, with the import's report
            assert err.startswith(f"read as {conversion.format}"), (path, err)
