"""Things are named by what they do, never by a file of ours (issue 40 item 5: "trim
(seeds/003)", "The seed-003 trim's stats block"): what a user reads in the registry, the CLI's
help and the service's API documentation names no seed file."""

import ast
import re
import subprocess
import sys

from compactor.service import create_app
from compactor.strategies import STRATEGIES
from tests.paths import ROOT

OURS = re.compile(r"seeds?[/-]0\d\d|\bthe seed's\b", re.IGNORECASE)


def test_no_strategy_is_titled_by_a_seed_file():
    titled = {s.name: s.title for s in STRATEGIES.values()}
    assert {name: t for name, t in titled.items() if OURS.search(t)} == {}
    assert titled["drop-oldest"] == "drop-oldest (recency trim, token estimate)"


def test_no_help_of_the_cli_names_a_seed_file():
    script = (
        "import argparse, contextlib, io\n"
        "from compactor.cli import build_parser, main\n"
        "sub = next(a for a in build_parser()._actions\n"
        "           if isinstance(a, argparse._SubParsersAction))\n"
        "for name in ['', *sub.choices]:\n"
        "    out = io.StringIO()\n"
        "    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        "        main([name, '--help'] if name else ['--help'])\n"
        "    print(out.getvalue())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout and len(done.stdout) > 2000
    assert OURS.findall(done.stdout) == []


def test_no_summary_of_the_services_api_names_a_seed_file():
    spec = create_app().openapi()
    said = [op.get("summary", "") for path in spec["paths"].values() for op in path.values()]
    assert said and [s for s in said if OURS.search(s)] == []


def _said(path):
    """The string literals of a module that a user may read: every one but its docstrings."""
    tree = ast.parse(path.read_text("utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_no_words_of_the_explorer_name_a_seed_file():
    modules = [*(ROOT / "pages").glob("*.py"), *(ROOT / "explorer").rglob("*.py")]
    found = {
        str(p.relative_to(ROOT)): hits
        for p in modules
        if (hits := [s for s in _said(p) if OURS.search(s)])
    }
    assert len(modules) > 50 and found == {}
