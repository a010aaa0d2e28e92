"""Every install hint names a command that works from the project folder: the project's own
``.venv/bin/pip`` (which scripts/setup.sh and scripts/run.sh make; a bare ``pip`` may be another
Python's) with an extra pyproject.toml defines, or ``bash scripts/setup.sh explorer``; and the
explorer extra that scripts/run.sh installs holds everything the explorer uses offline.

The hints are found, not listed: every string constant in the explorer, its pages and the engine
is read (from the source), and every module-level string a module binds is read (imported), so
a new hint written as a literal or built from a constant is checked too."""

from __future__ import annotations

import ast
import importlib
import re
import tomllib

from compactor.wording import SETUP_EXPLORER, install_command
from tests.paths import ROOT

EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
    "optional-dependencies"
]
APP = sorted([*(ROOT / "explorer").rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"])
ENGINE = sorted((ROOT / "compactor").rglob("*.py"))
#: Where the commands are written, once.
WORDING = ROOT / "compactor" / "wording.py"
#: How a hint says ``pip install`` (or ``pip3``, ``python -m pip``) ...
PIP = re.compile(r"\bpip3?\s+install\b")
#: ... and the only forms it may take.
WORKS = re.compile(r'\.venv/bin/pip install -e "\.\[(?P<extra>[a-z]+)\]"')
SETUP = re.compile(r"bash scripts/setup\.sh (?P<extra>[a-z]+)")


def string_constants(path):
    """Every string constant in a module's source, f-string pieces included, with its line."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def module_of(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def bound_strings(path):
    """The module-level strings a module binds once imported (``X_HINT = f"... {cmd('x')}"``)."""
    module = importlib.import_module(module_of(path))
    for name, value in vars(module).items():
        if isinstance(value, str) and not name.startswith("__"):
            yield name, value


def wrong_hints(text):
    """What is wrong with the install commands ``text`` names (empty when each one works)."""
    wrong = []
    for match in PIP.finditer(text):
        whole = WORKS.match(text, max(0, match.start() - len(".venv/bin/")))
        if whole is None:
            wrong.append(f"{text[match.start() : match.end() + 30]!r} is not {WORKS.pattern}")
        elif whole["extra"] not in EXTRAS:
            wrong.append(f"no extra {whole['extra']!r} in pyproject.toml")
    for match in SETUP.finditer(text):
        if match["extra"] not in EXTRAS:
            wrong.append(f"setup.sh {match['extra']}: no such extra in pyproject.toml")
    return wrong


def test_every_hint_literal_names_a_command_that_works():
    wrong = [
        f"{path.relative_to(ROOT)}, line {line}: {problem}"
        for path in APP + ENGINE
        if path != WORDING  # the template itself: install_command("x") is checked below
        for line, text in string_constants(path)
        for problem in wrong_hints(text)
    ]
    assert wrong == []


def test_every_hint_a_module_holds_names_a_command_that_works():
    importable = [p for p in APP + ENGINE if p.parent.name != "pages" and p.name != "app.py"]
    wrong = [
        f"{module_of(path)}.{name}: {problem}"
        for path in importable
        if path.name != "__main__.py"  # importing it runs the command line
        for name, text in bound_strings(path)
        for problem in wrong_hints(text)
    ]
    assert wrong == []


def test_the_hints_are_found_where_the_explorer_shows_them():
    # the scan above must see the hints the explorer shows, or it proves nothing
    from compactor.cli._report import INSTALL_HINT as REPORT
    from compactor.providers import INSTALL_HINT as LLM
    from compactor.strategies import LANGCHAIN_HINT
    from compactor.text import SEMANTIC_HINT, TOKENS_HINT
    from explorer.frames import tokens as token_frames
    from explorer.widgets.report import INSTALL_HINT as REPORT_SHOWN

    shown = {
        "tokens": TOKENS_HINT,
        "semantic": SEMANTIC_HINT,
        "llm": LLM,
        "langchain": LANGCHAIN_HINT,
        "report": REPORT,
    }
    assert install_command("report") in REPORT_SHOWN
    for extra, hint in shown.items():
        assert install_command(extra) in hint and PIP.search(hint), extra
        assert wrong_hints(hint) == []
    assert token_frames.INSTALL_COMMAND == '.venv/bin/pip install -e ".[tokens]"'
    assert token_frames.SETUP_COMMAND == SETUP_EXPLORER == "bash scripts/setup.sh explorer"
    assert wrong_hints('pip install -e ".[tokens]"') != []  # the old hint fails the check
    assert wrong_hints('.venv/bin/pip install -e ".[nope]"') != []


def test_the_explorer_extra_holds_everything_the_explorer_uses_offline_and_run_sh_installs_it():
    (own,) = EXTRAS["explorer"]
    assert own == "compaction-explorer[app,report,tokens,semantic,focus,llm,recommend]"
    assert {"app", "report", "tokens", "semantic", "focus", "llm", "recommend"} <= set(EXTRAS)
    assert "focus" in EXTRAS["test"][0]  # the tests run the focus strategy
    run = (ROOT / "scripts" / "run.sh").read_text("utf-8")
    assert re.search(r"^bash scripts/setup\.sh explorer$", run, re.MULTILINE)
    readme = (ROOT / "README.md").read_text("utf-8")
    first = readme.split("```bash\n", 1)[1].splitlines()[0]
    assert first.startswith("bash scripts/run.sh")
