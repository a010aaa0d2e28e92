"""The command line imports only the command that runs (issue 34, item 18): ``compact`` loads no
analysis, strategy, integration nor any library it does not use, ``--help`` loads no engine,
and both say exactly what the parser of every command says. What a process loads is checked,
never how long it takes (the figures are bench/cli_start.py's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from compactor.cli._commands import COMMANDS
from compactor.cli._main import build_parser, main
from tests.paths import ROOT

#: Prints the modules the process loaded (on standard error, once it ends) around a real
#: ``python -m compactor`` run with the arguments that follow.
LOADED = (
    "import atexit, json, runpy, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nLOADED ' + json.dumps(sorted(sys.modules))))\n"
    "sys.argv = ['compactor', *sys.argv[1:]]\n"
    "runpy.run_module('compactor', run_name='__main__', alter_sys=True)\n"
)
#: The layers above what ``compact`` runs (the engine and the formats), and libraries it never
#: needs: pandas and the explorer's, the service's and the providers' clients.
NOT_FOR_COMPACT = (
    "compactor.analyses",
    "compactor.evaluation",
    "compactor.strategies",
    "compactor.integrations",
    "compactor.providers",
    "compactor.service",
    "pandas",
    "pyarrow",
    "streamlit",
    "altair",
    "fastapi",
    "uvicorn",
    "pydantic",
    "httpx",
    "openai",
    "anthropic",
    "langchain_core",
    "ray",
    "tiktoken",
)


def run_loading(*args: str, stdin: bytes = b"") -> tuple[subprocess.CompletedProcess, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, "COLUMNS": "100"},
    )
    text = done.stderr.decode("utf-8")
    assert "\nLOADED " in text, text
    return done, json.loads(text.rsplit("\nLOADED ", 1)[1])


def loaded_of(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted({p for p in prefixes for m in modules if m == p or m.startswith(p + ".")})


def test_compact_loads_the_engine_and_the_formats_alone():
    request = {
        "messages": [
            {"role": "user", "content": "Where is DE-4471?"},
            {"role": "assistant", "content": "In Hamburg."},
        ],
        "budget_chars": 100,
    }
    done, modules = run_loading("compact", "-", stdin=json.dumps(request).encode())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["budget"]["budget_met"] is True
    assert "compactor.engine" in modules and "compactor.cli._compact" in modules
    assert loaded_of(modules, NOT_FOR_COMPACT) == []
    others = [c.module for c in COMMANDS if c.name != "compact"]
    assert [m for m in others if m in modules] == []


def test_help_loads_no_command_and_no_engine_and_lists_every_command(monkeypatch):
    done, modules = run_loading("--help")
    assert done.returncode == 0, done.stderr
    assert [c.module for c in COMMANDS if c.module in modules] == []
    assert loaded_of(modules, ("compactor.engine", "compactor.text", "numpy")) == []
    monkeypatch.setenv("COLUMNS", "100")  # the width the child had
    assert done.stdout.decode("utf-8") == build_parser().format_help()  # every command's help
    assert all(c.name in done.stdout.decode("utf-8") for c in COMMANDS)


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
def test_each_command_s_help_is_its_full_parser_s(command, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    (sub,) = [a for a in build_parser()._actions if a.dest == "command"]
    assert capsys.readouterr().out == sub.choices[command].format_help()


def test_an_unknown_command_is_refused_with_every_command_named(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["compress", "x.json"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "invalid choice: 'compress'" in error
    assert all(f"'{c.name}'" in error for c in COMMANDS)


def test_import_compactor_loads_nothing_but_its_face():
    code = "import json, sys, compactor; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    modules = json.loads(done.stdout)
    assert [m for m in modules if m.startswith("compactor.")] == []
    assert "numpy" not in modules
