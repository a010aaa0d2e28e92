"""The benchmarks run as modules (``python -m bench.NAME`` from the project root): no script edits
sys.path, and each imports cleanly without running its measurements."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if p.stem != "__init__")


def sys_path_edits(path: Path) -> list[int]:
    """Line numbers where ``path`` touches ``sys.path`` (insert, append, assignment, ...)."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    ]


@pytest.mark.parametrize(
    "path",
    sorted([*(ROOT / "bench").glob("*.py"), *(ROOT / "harness").glob("*.py")]),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_no_sys_path_edits(path: Path) -> None:
    assert sys_path_edits(path) == [], f"{path.name} edits sys.path; run it with python -m"


def test_every_benchmark_is_found() -> None:
    # The globs above would pass vacuously on an empty or moved folder.
    assert {"engine", "sweep", "anchors", "replay", "explorer", "browser"} <= set(BENCH)
    assert {"service", "hostile", "corpus", "make_largest_sample", "prose"} <= set(BENCH)


def test_the_check_sees_an_edit(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import sys\nsys.path.insert(0, '..')\nprint(sys.argv)\n", "utf-8")
    assert sys_path_edits(probe) == [2]


def runs_main_only_as_script(tree: ast.Module) -> bool:
    """Whether ``main()`` is called only under ``if __name__ == "__main__":`` at the top level."""
    guarded = [
        node
        for node in tree.body
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
        and any(
            isinstance(c, ast.Constant) and c.value == "__main__" for c in node.test.comparators
        )
    ]
    unguarded_calls = [
        node
        for stmt in tree.body
        if stmt not in guarded and not isinstance(stmt, ast.FunctionDef | ast.ClassDef)
        for node in ast.walk(stmt)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "main"
    ]
    return bool(guarded) and not unguarded_calls


@pytest.mark.parametrize("name", BENCH)
def test_imports_without_running(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = importlib.import_module(f"bench.{name}")
    assert capsys.readouterr().out == "", f"bench.{name} printed on import: is main() guarded?"
    if hasattr(module, "main"):
        tree = ast.parse(Path(module.__file__).read_text("utf-8"))
        assert runs_main_only_as_script(tree), f"bench.{name} must guard main() with __main__"


def test_the_guard_check_sees_an_unguarded_main() -> None:
    guarded = "def main():\n    pass\n\n\nif __name__ == '__main__':\n    main()\n"
    assert runs_main_only_as_script(ast.parse(guarded))
    assert not runs_main_only_as_script(ast.parse("def main():\n    pass\n\n\nmain()\n"))
    assert not runs_main_only_as_script(ast.parse("def main():\n    pass\n"))
