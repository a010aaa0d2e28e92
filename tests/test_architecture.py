"""The layout's rules, checked on the source: layers import one way (the explorer's and, inside
the engine, the engine's), no loops (type-only imports count), a page family never importing
another, frames and charts free of Streamlit (the shared ones and each family's), the explorer
reading the engine through its faces, no family of name prefixes, no private Streamlit, no long
function in a page (pages only compose), every package shipped, the engine's public face, and
no two modules sharing a name outside the conventions docs/glossary.md lists."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

import pytest

import compactor
from compactor.cli._commands import COMMANDS
from tests.paths import ROOT

SOURCES = sorted(
    p for folder in ("compactor", "explorer", "pages") for p in (ROOT / folder).rglob("*.py")
) + [ROOT / "app.py"]
TESTS = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py"))
#: The benchmarks and what they share with the tests (servers, drivers, cases), never from tests/.
TOOLS = sorted(p for folder in ("bench", "harness") for p in (ROOT / folder).rglob("*.py"))
#: The explorer's shared folders: what several pages use. Every other package of the explorer is
#: a page family (``explorer/corpus/``: what one page, or one page family, alone uses).
SHARED = ("session", "frames", "charts", "report", "widgets")
FAMILIES = tuple(
    sorted(
        f"explorer.{p.parent.name}"
        for p in (ROOT / "explorer").glob("*/__init__.py")
        if p.parent.name not in SHARED
    )
)
#: Lower layers first; a module may import its own layer and the layers before it. The page
#: families sit above the shared widgets and below the pages: a shared folder never imports a
#: family, and a family imports no other family (its own test below).
LAYERS = (
    ("compactor",),
    ("explorer.theme", "explorer.navigation"),
    ("explorer.session",),
    ("explorer.frames",),
    ("explorer.charts",),
    ("explorer.report",),
    ("explorer.widgets",),
    FAMILIES,
    ("app", "pages"),
)
PUBLIC_STREAMLIT = {"streamlit", "streamlit.testing.v1", "streamlit.components.v1"}
#: Pages only compose: a function of a page script longer than this draws several concerns
#: inline that belong in its family's helpers. A bound on one function, not on a module.
PAGE_FUNCTION_LINES = 100
#: The engine's foundation: what every layer of it may import.
FOUNDATION = (
    "compactor.collector",
    "compactor.contract",
    "compactor.errors",
    "compactor.model",
    "compactor.wording",
    "compactor.samples",
    "compactor.data",
)
#: The engine's own layers, lower first; the root face ``compactor`` sits above the engine and
#: below the plug-in families (``integrations`` keeps its rank before it exists).
ENGINE_LAYERS = (
    FOUNDATION,
    ("compactor.text",),
    ("compactor.input",),
    ("compactor.engine",),
    ("compactor",),
    ("compactor.formats",),
    ("compactor.formats",),
    ("compactor.providers",),
    ("compactor.strategies",),
    ("compactor.analyses",),
    ("compactor.evaluation",),
    ("compactor.integrations",),
    ("compactor.recommend",),
    ("compactor.service",),
    ("compactor.cli", "compactor.__main__"),
)
#: Modules whose contents run inside the frames' and charts' pure functions: no Streamlit. The
#: shared folders, and in each page family its ``frames`` and ``charts`` (``explorer.corpus.frames``
#: is pure as ``explorer.frames.views`` is).
PURE = ("explorer.frames", "explorer.charts", "explorer.report")
PURE_IN_FAMILY = ("frames", "charts")


def pure(name: str) -> bool:
    parts = name.split(".")
    in_family = len(parts) > 2 and ".".join(parts[:2]) in FAMILIES
    return name.startswith(PURE) or (in_family and parts[2] in PURE_IN_FAMILY)


def family(name: str) -> str | None:
    """The page family a module belongs to (``explorer.corpus`` for ``explorer.corpus.store``)."""
    return next((f for f in FAMILIES if name == f or name.startswith(f + ".")), None)


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
#: The package faces: modules that are a package's ``__init__``.
FACES = {module_name(p) for p in SOURCES if p.name == "__init__.py"}


def bound_names(path: Path) -> set[str]:
    """The names a module's own top level binds (imports, definitions, assignments)."""
    names = set()
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


#: What each face binds itself: ``from compactor.analyses import token_report`` is the face's
#: function of that name, not the submodule it comes from.
FACE_NAMES = {module_name(p): bound_names(p) for p in SOURCES if p.name == "__init__.py"}


def lazy_nodes(tree: ast.Module) -> set[int]:
    """The nodes of a module-level ``__getattr__`` (PEP 562): what it imports is imported on
    first use of a name, after every layer has loaded (the root face's ``shrink``)."""
    return {
        id(n)
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
        for n in ast.walk(node)
    }


def resolved_imports(path: Path, type_checking: bool = True, lazy: bool = True) -> set[str]:
    """The modules ``path`` imports, each named once: ``from compactor import contract`` is
    ``compactor.contract`` (a module), ``from compactor import run`` is ``compactor`` (the face).
    With ``type_checking``, the imports under ``if TYPE_CHECKING:`` count too; with ``lazy``,
    those in a module-level ``__getattr__``."""
    tree = ast.parse(path.read_text("utf-8"))
    skip = set() if lazy else lazy_nodes(tree)
    if not type_checking:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skip.update(id(n) for n in ast.walk(node))
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                face_binds = a.name in FACE_NAMES.get(node.module, ())
                found.add(sub if sub in KNOWN and not face_binds else node.module)
    return found


def engine_layer(name: str) -> int | None:
    """The rank of an engine module: the longest prefix of ``ENGINE_LAYERS`` that names it."""
    best, rank = -1, None
    for k, prefixes in enumerate(ENGINE_LAYERS):
        for p in prefixes:
            if (name == p or name.startswith(p + ".")) and len(p) > best:
                best, rank = len(p), k
    return rank


def ancestors(name: str) -> list[str]:
    """The packages Python runs before ``name``: ``a.b.c`` runs ``a`` and ``a.b`` first."""
    parts = name.split(".")
    return [".".join(parts[:k]) for k in range(1, len(parts))]


#: The one import that runs upwards: the ``report`` command reads the explorer's report layer
#: (pure: Jinja2, Altair, no Streamlit) inside its ``run``, so only that command loads it, and
#: the engine itself never imports Altair (the next tests hold both).
UPWARD = {("compactor.cli._report", "explorer.report")}


def test_every_layer_imports_only_the_layers_below_it():
    wrong = []
    for path in SOURCES:
        here = layer(module_name(path))
        for name in imports(path):
            there = layer(name)
            ours = name.split(".")[0] in ("compactor", "explorer")
            upward = (module_name(path), name) in UPWARD
            if ours and there is not None and here is not None and there > here and not upward:
                wrong.append(f"{module_name(path)} imports {name}")
    assert wrong == []


def test_the_report_command_imports_the_report_layer_only_when_it_runs():
    top_level = {
        (module_name(p), name)
        for p in SOURCES
        for node in ast.parse(p.read_text("utf-8")).body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in imports_of(node)
    }
    assert UPWARD.isdisjoint(top_level)
    code = (
        "import sys, compactor.cli._report; "
        "print(sorted(m for m in ('explorer', 'altair', 'jinja2') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]"]


def imports_of(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    return [node.module] if node.module and node.level == 0 else []


def test_the_engines_layers_import_only_downwards_or_within():
    # A face's __getattr__ may name a higher layer's function (``compactor.shrink``): it is
    # imported on first use, never while the layers load (the next test holds that).
    wrong = []
    for path in SOURCES:
        here = module_name(path)
        if not here.startswith("compactor"):
            continue
        for name in resolved_imports(path, lazy=False):
            if name.split(".")[0] != "compactor" or name not in KNOWN:
                continue
            if engine_layer(name) > engine_layer(here):
                wrong.append(f"{here} imports {name}")
    assert wrong == []


def test_the_root_face_loads_its_lazy_names_only_on_first_use():
    code = (
        "import sys, compactor; loaded = 'compactor.integrations' in sys.modules; "
        "from compactor import shrink; "
        "print(loaded, shrink.__module__, 'compactor.integrations' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "compactor.integrations._shrink", "True"]


def test_every_engine_module_has_a_layer():
    assert [m for m in sorted(KNOWN) if m.startswith("compactor") and engine_layer(m) is None] == []


def test_frames_and_charts_import_no_streamlit_even_through_the_modules_they_import():
    runtime = {module_name(p): resolved_imports(p, type_checking=False) for p in SOURCES}
    wrong = []
    starts = sorted(m for m in runtime if pure(m))
    assert "explorer.corpus.frames" in starts and "explorer.replay.charts" in starts
    for start in starts:
        seen, todo, trail = set(), [start], {start: [start]}
        while todo:
            here = todo.pop()
            if here in seen:
                continue
            seen.add(here)
            for name in sorted(runtime.get(here, ())):
                if name == "streamlit" or name.startswith("streamlit."):
                    wrong.append(" -> ".join([*trail[here], name]))
                for nxt in (*ancestors(name), name):
                    if nxt.startswith("explorer") and nxt in runtime and nxt not in trail:
                        trail[nxt] = [*trail[here], nxt]
                        todo.append(nxt)
    assert wrong == []


def test_a_page_family_imports_no_other_family():
    # type-only imports count: two families tied by a type are one family in two folders
    assert {"explorer.corpus", "explorer.replay"} <= set(FAMILIES)
    wrong = [
        f"{module_name(p)} imports {name}"
        for p in SOURCES
        if family(module_name(p))
        for name in sorted(resolved_imports(p))
        if family(name) not in (None, family(module_name(p)))
    ]
    assert wrong == []


def test_every_explorer_module_has_a_layer():
    # a new module at the top of explorer/ (beside theme.py and navigation.py) would escape
    # the layer rule
    assert [m for m in sorted(KNOWN) if m.startswith("explorer.") and layer(m) is None] == []


def test_the_explorer_reads_the_engine_only_through_its_faces_and_foundation():
    wrong = [
        f"{module_name(p)} imports {name}"
        for p in SOURCES
        if not module_name(p).startswith("compactor")
        for name in sorted(resolved_imports(p))
        if name.split(".")[0] == "compactor" and name not in FACES and name not in FOUNDATION
    ]
    assert wrong == []


def test_no_folder_holds_a_family_of_name_prefixes():
    """Three modules ``anchor_scan``, ``anchor_words``, ``anchor_text`` in one folder are a
    family that wants to be a package (``anchors/``) with a face."""
    families: dict[tuple[Path, str], list[str]] = {}
    for path in SOURCES + TOOLS:
        stem = path.stem.strip("_")
        if "_" in stem:
            families.setdefault((path.parent, stem.split("_")[0]), []).append(path.stem)
    wrong = [
        f"{folder.relative_to(ROOT)}/{prefix}_*: {', '.join(sorted(stems))}"
        for (folder, prefix), stems in sorted(families.items())
        if len(stems) >= 3
    ]
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


def test_a_page_only_composes_so_none_of_its_functions_is_long():
    long = [
        f"{p.relative_to(ROOT)}: {node.name} is {node.end_lineno - node.lineno + 1} lines"
        for p in sorted((ROOT / "pages").glob("*.py")) + [ROOT / "app.py"]
        for node in ast.walk(ast.parse(p.read_text("utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > PAGE_FUNCTION_LINES
    ]
    assert long == []


def test_there_are_no_import_loops():
    # type-only imports count: a loop hidden under TYPE_CHECKING is still a loop in the design
    graph = {
        module_name(p): {n for n in resolved_imports(p) if n in KNOWN and n != module_name(p)}
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
    # ... but a submodule importing its own package's face closes a loop through that face
    loops += [
        f"{name} -> {face} -> {name}"
        for name, imported in sorted(graph.items())
        for face in sorted(imported)
        if face in ancestors(name) and face in FACES
    ]
    assert loops == []


@pytest.mark.parametrize("path", TOOLS, ids=lambda p: str(p.relative_to(ROOT)))
def test_benchmarks_and_the_harness_import_nothing_from_the_tests(path):
    assert [m for m in imports(path) if m == "tests" or m.startswith("tests.")] == []


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


#: The engine's face (issue 33): the engine's calls and types, shrink and its setting, export,
#: the strategy registry, the outcome judges, the errors and the version. A name added to or
#: taken from ``compactor.__all__`` must be added or taken here too, on purpose.
FACE = {
    "CompactionResult",
    "Exported",
    "export",
    "Fate",
    "FormatError",
    "IntegrationUnavailable",
    "InvalidRequest",
    "Message",
    "MessageTrace",
    "Params",
    "Problem",
    "ProblemError",
    "Request",
    "STRATEGIES",
    "Setting",
    "SettingError",
    "ShrinkError",
    "ShrinkReport",
    "Shrunk",
    "StrategyParameterError",
    "StrategyUnavailable",
    "TextAnalysis",
    "UnreadableJSON",
    "__version__",
    "analyse",
    "apply_strategy",
    "compact",
    "continuation_check",
    "get_strategy",
    "judge_outcome",
    "judge_text",
    "load_setting",
    "run",
    "shrink",
    "shrink_with_report",
    "strategy_names",
    "validate",
}
#: The layers above the engine, which ``import compactor`` must not load.
HIGHER = ("analyses", "strategies", "integrations", "formats", "export", "evaluation", "providers")


def test_the_engine_exports_exactly_its_public_api():
    # As httpx's test_exported_members: the package face lists what it exports, and each
    # exported name is defined where the face says.
    assert set(compactor.__all__) == FACE
    for name in FACE - {"__version__", "STRATEGIES"}:
        member = getattr(compactor, name)
        assert getattr(member, "__module__", "").startswith("compactor"), name
    assert isinstance(compactor.__version__, str) and compactor.__version__
    assert sorted(compactor.__all__) == list(compactor.__all__)
    assert set(dir(compactor)) >= FACE


def test_import_compactor_loads_the_engine_alone():
    """The higher layers' names load on first use, so the CLI starts fast."""
    code = (
        "import sys, compactor; "
        "print(sorted({m.split('.')[1] for m in sys.modules if m.count('.') and "
        "m.startswith('compactor.')}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = eval(out.stdout)  # a list of names the child printed
    assert [layer for layer in HIGHER if layer in loaded] == []


#: The engine's foundation (one concept each, read by every layer: each is its own face) and the
#: entry ``python -m compactor``. Every other module of the engine is private (``_name.py``)
#: behind its package's face, as httpx's are (issue 33).
PUBLIC_MODULES = {*FOUNDATION, "compactor.processes", "compactor.__main__"}


def owning_layer(name: str) -> str:
    """``compactor.analyses`` for ``compactor.analyses.outcomes._judge``; the foundation's modules
    and the root face are ``compactor``; the explorer's modules are their first part."""
    parts = name.split(".")
    if parts[0] != "compactor":
        return parts[0]
    if len(parts) > 1 and (ROOT / "compactor" / parts[1] / "__init__.py").exists():
        return ".".join(parts[:2])
    return "compactor"


def private_crossings(pairs: list[tuple[str, str]]) -> list[str]:
    """The imports (importer, imported) of a private engine module from another layer."""
    return sorted(
        f"{importer} imports {name}"
        for importer, name in pairs
        if name.startswith("compactor.")
        and any(part.startswith("_") for part in name.split(".")[1:])
        and not name.split(".")[-1].startswith("__")
        and owning_layer(name) != owning_layer(importer)
    )


def test_every_implementation_module_of_the_engine_is_private():
    public = [
        name
        for path in SOURCES
        if (name := module_name(path)).startswith("compactor.")
        and path.name != "__init__.py"
        and not path.name.startswith("_")
        and name not in PUBLIC_MODULES
    ]
    assert public == []


def test_no_layer_imports_the_private_modules_of_another():
    pairs = [
        (module_name(path), name) for path in SOURCES for name in imports(path) if name in KNOWN
    ]
    assert private_crossings(pairs) == []


def test_a_planted_private_import_across_layers_is_found():
    pairs = [
        ("compactor.cli._replay", "compactor.strategies._registry"),  # another layer: wrong
        ("explorer.session.cache", "compactor.analyses._walkthrough"),  # the explorer: wrong
        ("compactor.analyses.outcomes._judge", "compactor.analyses._pairing"),  # its own layer
        ("compactor.cli._replay", "compactor.strategies"),  # a face
    ]
    assert private_crossings(pairs) == [
        "compactor.cli._replay imports compactor.strategies._registry",
        "explorer.session.cache imports compactor.analyses._walkthrough",
    ]


def test_an_unknown_name_of_the_face_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'shrinkk'"):
        compactor.shrinkk  # noqa: B018


#: The modules whose names must say one thing (docs/glossary.md): pages are scripts named by
#: their address and tests are named after what they test, so neither is looked at.
NAMED = sorted(
    p for folder in ("compactor", "explorer", "harness") for p in (ROOT / folder).rglob("*.py")
)
GLOSSARY = ROOT / "docs" / "glossary.md"
_ROW = re.compile(r"^\|\s*(`[^|]*`)\s*\|\s*([^|]+?)\s*\|\s*$")


def repeat_conventions(text: str) -> dict[str, str]:
    """The glossary's table of module names that repeat on purpose: each path pattern it lists
    (``compactor/cli/<command>.py`` is one per command of the CLI), with the row's reason."""
    section = text.split("## Module names that repeat on purpose", 1)[1]
    commands = [command.module.rsplit(".", 1)[1] for command in COMMANDS]
    patterns = {}
    for line in section.splitlines():
        row = _ROW.match(line)
        if row is None:
            continue
        for pattern in re.findall(r"`([^`]+)`", row[1]):
            for each in (
                [pattern.replace("<command>", c) for c in commands]
                if "<command>" in pattern
                else [pattern]
            ):
                patterns[each] = row[2]
    return patterns


def _matches(path: str, pattern: str) -> bool:
    """``explorer/*/frames.py`` matches ``explorer/corpus/frames.py``: one folder per ``*``."""
    parts, wanted = PurePosixPath(path).parts, PurePosixPath(pattern).parts
    return len(parts) == len(wanted) and all(map(fnmatch, parts, wanted))


def unexplained_repeats(paths: list[str], patterns: dict[str, str]) -> list[str]:
    """The names two modules carry that no convention explains: a name belongs to one module,
    and every other module of that name must match one of ``patterns``."""
    by_name: dict[str, list[str]] = {}
    for path in paths:
        if not path.endswith("/__init__.py"):
            # a private module (``_shrink.py``) carries the name of its concept (``shrink.py``)
            by_name.setdefault(PurePosixPath(path).name.lstrip("_"), []).append(path)
    wrong = []
    for name, holders in sorted(by_name.items()):
        own = [p for p in holders if not any(_matches(p, pattern) for pattern in patterns)]
        if len(holders) > 1 and len(own) > 1:
            wrong.append(f"{name}: {', '.join(sorted(own))}")
    return wrong


def _relative(paths: list[Path]) -> list[str]:
    return [p.relative_to(ROOT).as_posix() for p in paths]


def test_no_two_modules_share_a_name():
    patterns = repeat_conventions(GLOSSARY.read_text("utf-8"))
    assert unexplained_repeats(_relative(NAMED), patterns) == []


def test_every_convention_of_the_glossary_explains_a_name_that_repeats():
    patterns = repeat_conventions(GLOSSARY.read_text("utf-8"))
    assert "explorer/*/frames.py" in patterns and "compactor/cli/_shrink.py" in patterns
    paths = _relative(NAMED)
    names = [PurePosixPath(p).name.lstrip("_") for p in paths]
    repeating = [p for p, n in zip(paths, names, strict=True) if names.count(n) > 1]
    used = {
        why for pattern, why in patterns.items() if any(_matches(p, pattern) for p in repeating)
    }
    assert used == set(patterns.values())


def test_a_planted_duplicate_fails_with_its_name():
    patterns = repeat_conventions(GLOSSARY.read_text("utf-8"))
    paths = _relative(NAMED)
    planted = [*paths, "compactor/evaluation/sweeps.py", "explorer/session/registry.py"]
    assert unexplained_repeats(planted, patterns) == [
        "sweeps.py: compactor/analyses/_sweeps.py, compactor/evaluation/sweeps.py",
    ]
    # the only registry outside a convention is the session's: it may be the one of its name,
    # but a second one outside a convention is not
    planted.append("harness/registry.py")
    assert unexplained_repeats(planted, patterns) == [
        "registry.py: explorer/session/registry.py, harness/registry.py",
        "sweeps.py: compactor/analyses/_sweeps.py, compactor/evaluation/sweeps.py",
    ]


#: The face's calls that raise a project error on bad input: their docstrings say which.
RAISING = {
    "compact",
    "validate",
    "shrink",
    "shrink_with_report",
    "load_setting",
    "get_strategy",
    "apply_strategy",
}


def test_every_call_of_the_face_documents_its_arguments_result_and_an_example():
    """The docstring standard of langchain-core's trim_messages on every function of the face:
    Args (when it takes any), Returns, Raises (when bad input raises) and a runnable Example
    (the doctests run with the suite)."""
    import inspect

    missing = []
    for name in sorted(FACE):
        member = getattr(compactor, name)
        if not inspect.isfunction(member):
            continue
        doc = inspect.getdoc(member) or ""
        wanted = ["Returns:", ">>> "]
        if inspect.signature(member).parameters:
            wanted.append("Args:")
        if name in RAISING:
            wanted.append("Raises:")
        missing += [f"{name}: {section}" for section in wanted if section not in doc]
    assert missing == []
