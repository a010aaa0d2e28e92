"""The layout's rules, checked on the source: layers import one way, no loops, no private
Streamlit, no oversized module, every package shipped, and the engine's public face."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

import compactor
from tests.paths import ROOT

SOURCES = sorted(
    p for folder in ("compactor", "explorer", "pages") for p in (ROOT / folder).rglob("*.py")
) + [ROOT / "app.py"]
TESTS = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py"))
#: The benchmarks and what they share with the tests (servers, drivers, cases), never from tests/.
TOOLS = sorted(p for folder in ("bench", "harness") for p in (ROOT / folder).rglob("*.py"))
MAX_LINES = 400
#: Lower layers first; a module may import its own layer and the layers before it.
LAYERS = (
    ("compactor",),
    ("explorer.theme", "explorer.navigation"),
    ("explorer.session",),
    ("explorer.frames",),
    ("explorer.charts",),
    ("explorer.widgets",),
    ("app", "pages"),
)
PUBLIC_STREAMLIT = {"streamlit", "streamlit.testing.v1", "streamlit.components.v1"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[str]:
    """Modules imported when ``path`` runs (``if TYPE_CHECKING:`` blocks are for types only)."""
    tree = ast.parse(path.read_text("utf-8"))
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            found += [f"{node.module}.{a.name}" for a in node.names]
    return found


def layer(name: str) -> int | None:
    for rank, prefixes in enumerate(LAYERS):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return rank
    return None


KNOWN = {module_name(p) for p in SOURCES}


def test_every_layer_imports_only_the_layers_below_it():
    wrong = []
    for path in SOURCES:
        here = layer(module_name(path))
        for name in imports(path):
            there = layer(name)
            ours = name.split(".")[0] in ("compactor", "explorer")
            if ours and there is not None and here is not None and there > here:
                wrong.append(f"{module_name(path)} imports {name}")
    assert wrong == []


def test_the_engine_imports_no_ui_library():
    ui = ("streamlit", "pandas", "altair")
    wrong = [
        f"{module_name(p)} imports {name}"
        for p in SOURCES
        if module_name(p).startswith("compactor")
        for name in imports(p)
        if name.split(".")[0] in ui
    ]
    assert wrong == []


def test_no_private_streamlit_module_is_imported_anywhere():
    wrong = [
        f"{p.relative_to(ROOT)} imports {name}"
        for p in SOURCES + TESTS
        for name in imports(p)
        if name.startswith("streamlit.")
        and not any(name == m or name.startswith(m + ".") for m in PUBLIC_STREAMLIT - {"streamlit"})
        and name.rsplit(".", 1)[0] not in PUBLIC_STREAMLIT  # from streamlit import x
    ]
    assert wrong == []


def test_there_are_no_import_loops():
    graph = {
        module_name(p): {n for n in imports(p) if n in KNOWN and n != module_name(p)}
        for p in SOURCES
    }
    loops = []

    def visit(node, trail, done):
        if node in trail:
            loops.append(" -> ".join([*trail[trail.index(node) :], node]))
            return
        if node in done:
            return
        for nxt in sorted(graph.get(node, ())):
            # a package's __init__ importing its own submodules is how a package face works
            if not nxt.startswith(node + "."):
                visit(nxt, [*trail, node], done)
        done.add(node)

    done: set[str] = set()
    for name in sorted(graph):
        visit(name, [], done)
    assert loops == []


@pytest.mark.parametrize("path", TOOLS, ids=lambda p: str(p.relative_to(ROOT)))
def test_benchmarks_and_the_harness_import_nothing_from_the_tests(path):
    assert [m for m in imports(path) if m == "tests" or m.startswith("tests.")] == []


@pytest.mark.parametrize("path", SOURCES + TOOLS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_400_lines(path):
    assert len(path.read_text("utf-8").splitlines()) <= MAX_LINES


def test_every_package_folder_ships():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    folders = {
        module_name(p)
        for folder in ("compactor", "explorer")
        for p in (ROOT / folder).rglob("__init__.py")
    }
    mapped = set(config["package-dir"])
    assert set(config["packages"]) == folders | mapped
    assert config["package-dir"]["compactor.sample_histories"] == "sample_histories"


def test_the_engine_exports_exactly_its_public_api():
    # As httpx's test_exported_members: the package face lists what it exports, and each
    # exported name is defined where the face says.
    exported = set(compactor.__all__)
    assert exported == {
        "CompactionResult",
        "Fate",
        "InvalidRequest",
        "Message",
        "MessageTrace",
        "Params",
        "Problem",
        "Request",
        "TextAnalysis",
        "analyse",
        "compact",
        "run",
        "validate",
    }
    for name in exported:
        member = getattr(compactor, name)
        assert getattr(member, "__module__", "").startswith("compactor"), name
    assert sorted(compactor.__all__) == list(compactor.__all__)
