"""Each rule written once (issue 33): the dedupe walk, keep-last, the tool-call line and the name
memory-compact each have one home, and a second copy anywhere in the sources fails here.

Copies used to appear because a lower layer needed a rule a higher one owned; tests kept them
equal, but a change had to be made in every copy. Each rule is recognised by what any
implementation of it must contain (its signature in the syntax tree, not its names), every
module but the rule's home is scanned for it, and each signature is shown to catch the copies
the project once had (the ``FORMER`` excerpts below), so that a scan that finds nothing means
something. Docstrings are prose and are not scanned.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable, Iterator

import pytest

from tests.paths import ROOT

SOURCES = sorted(
    p for folder in ("compactor", "explorer", "pages") for p in (ROOT / folder).rglob("*.py")
) + [ROOT / "app.py"]

#: Each rule's one home.
WALK_HOME = "compactor/engine/_stages.py"  # duplicates(), nearest(): stage 2's walk
KEEP_LAST_HOME = "compactor/strategies/_keep_last.py"  # keep_last_from_budgets()
CALL_LINE_HOME = "compactor/text/_call_line.py"  # CALL_LINE, CALL_HEAD, call_line()
NAME_HOME = "compactor/contract.py"  # MEMORY_COMPACT
HOMES = (WALK_HOME, KEEP_LAST_HOME, CALL_LINE_HOME, NAME_HOME)

# --- what each rule looks like ------------------------------------------------------------------


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _strings(tree: ast.AST) -> Iterator[ast.Constant]:
    """Every string constant of the code (f-string parts included), docstrings left out."""
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node


def _names(node: ast.AST) -> set[str]:
    """The identifiers a piece of code mentions (names and attributes), lower-cased."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id.lower())
        elif isinstance(n, ast.Attribute):
            out.add(n.attr.lower())
    return out


def _mentions(node: ast.AST, *words: str) -> bool:
    return any(w in name for name in _names(node) for w in words)


#: What a walk calls the messages still there, or those gone.
PRESENCE = ("present", "removed", "gone")


def _presence_writes(node: ast.AST) -> Iterator[ast.AST]:
    """Writes to a presence: ``present[i] = ...``, ``present[i] &= ...``, ``gone.add(i)``."""
    for n in ast.walk(node):
        targets = n.targets if isinstance(n, ast.Assign) else []
        if isinstance(n, ast.AugAssign):
            targets = [n.target]
        for t in targets:
            if isinstance(t, ast.Subscript) and _mentions(t.value, *PRESENCE):
                yield t
        method = n.func if isinstance(n, ast.Call) else None
        changes = isinstance(method, ast.Attribute) and method.attr in ("add", "discard", "remove")
        if changes and _mentions(method.value, *PRESENCE):
            yield n


def dedupe_walks(tree: ast.AST) -> list[int]:
    """Lines of loops that walk dedupe: a loop that writes a message's presence and reads
    similarities (or the threshold), or whose inner loop reads the presence of the others; or a
    loop that takes the nearest still-present message per row with ``argmax``. Stage 4 writes
    presence in a loop too, but reads no similarity and no other message's presence."""
    found = []
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.For | ast.While):
            continue
        inner = [n for n in ast.walk(loop) if isinstance(n, ast.For | ast.While) and n is not loop]
        walk = any(_presence_writes(loop)) and (
            _mentions(loop, "similar", "threshold", "jaccard")
            or any(_mentions(n, *PRESENCE) for n in inner)
        )
        argmax = any(isinstance(n, ast.Call) and _call_name(n) == "argmax" for n in ast.walk(loop))
        if walk or (argmax and _mentions(loop, *PRESENCE)):
            found.append(loop.lineno)
    return found


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _reversed(node: ast.AST) -> bool:
    """``x[::-1]`` or ``reversed(x)``."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        step = node.slice.step
        return isinstance(step, ast.UnaryOp) and ast.unparse(step) == "-1"
    return isinstance(node, ast.Call) and _call_name(node) == "reversed"


def keep_last_rules(tree: ast.AST) -> list[int]:
    """Lines that sum lengths from the newest message back: a cumulative sum of a reversed
    sequence (``cumsum(x[::-1])``, ``accumulate(reversed(x))``), or a loop over a reversed
    sequence that adds up a total and compares it with a budget."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) in ("cumsum", "accumulate"):
            if node.args and _reversed(node.args[0]):
                found.append(node.lineno)
        elif isinstance(node, ast.For) and _reversed(_enumerated(node.iter)):
            adds = any(
                isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) for n in ast.walk(node)
            )
            if adds and _mentions(node, "budget"):
                found.append(node.lineno)
    return found


def _enumerated(node: ast.AST) -> ast.AST:
    """The sequence under ``enumerate(...)``, else the node itself."""
    if isinstance(node, ast.Call) and _call_name(node) == "enumerate" and node.args:
        return node.args[0]
    return node


def call_lines(tree: ast.AST) -> list[int]:
    """Lines of strings that parse the call line (``\\[tool call`` in a pattern) or write it
    (a string ending in ``[tool call `` that a name is put after)."""
    return [
        s.lineno
        for s in _strings(tree)
        if r"\[tool call" in s.value or s.value.rstrip(" ").endswith("[tool call")
    ]


def _labels(tree: ast.AST) -> set[int]:
    """Strings that are the service's OpenAPI title and tags: words for readers of the
    document, not the name code compares with."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in ("title", "tags"):
            out.update(id(n) for n in ast.walk(node.value))
    return out


def memory_compact_names(tree: ast.AST) -> list[int]:
    """Lines where the name ``"memory-compact"`` is written out (not the service's labels)."""
    labels = _labels(tree)
    return [s.lineno for s in _strings(tree) if s.value == "memory-compact" and id(s) not in labels]


def _scan(signature: Callable[[ast.AST], list[int]], home: str) -> list[str]:
    """Where ``signature`` matches in the sources outside ``home``."""
    out = []
    for path in SOURCES:
        where = path.relative_to(ROOT).as_posix()
        if where != home:
            tree = ast.parse(path.read_text("utf-8"))
            out += [f"{where}:{line}" for line in signature(tree)]
    return out


# --- one home each -------------------------------------------------------------------------------


def test_the_dedupe_walk_is_written_only_in_the_stage():
    assert _scan(dedupe_walks, WALK_HOME) == []


def test_keep_last_is_written_only_beside_the_strategy():
    assert _scan(keep_last_rules, KEEP_LAST_HOME) == []


def test_the_call_line_is_parsed_and_written_only_in_its_module():
    assert _scan(call_lines, CALL_LINE_HOME) == []


def test_the_name_memory_compact_is_written_out_only_in_the_contract():
    assert _scan(memory_compact_names, NAME_HOME) == []


def test_each_home_holds_its_rule():
    """The scans find the rules where they live, so a scan that finds nothing elsewhere is not
    a scan that finds nothing at all."""
    read = {home: ast.parse((ROOT / home).read_text("utf-8")) for home in HOMES}
    assert dedupe_walks(read[WALK_HOME])
    assert keep_last_rules(read[KEEP_LAST_HOME])
    assert call_lines(read[CALL_LINE_HOME])
    assert memory_compact_names(read[NAME_HOME])


#: Where each rule used to be copied, and the one function each former site now calls.
CALLERS = {
    "compactor/engine/_turn_stages.py": ("compactor.engine._stages", "duplicates"),
    "compactor/analyses/_sweeps.py": ("compactor.engine._stages", "duplicates"),
    "compactor/strategies/_semantic_dedupe.py": ("compactor.engine._stages", "nearest"),
    "compactor/analyses/outcomes/_baselines.py": (
        "compactor.strategies._keep_last",
        "keep_last_from_budgets",
    ),
    "compactor/analyses/replay/_strategies.py": ("compactor.strategies._keep_last", "keep_last"),
    "compactor/formats/_calls.py": ("compactor.text._call_line", "CALL_LINE"),
    "compactor/strategies/_tool_uses.py": ("compactor.text._call_line", "CALL_LINE"),
    "compactor/analyses/_markup.py": ("compactor.text._call_line", "CALL_HEAD"),
    "compactor/formats/_builder.py": ("compactor.text._call_line", "call_line"),
}


@pytest.mark.parametrize("where", sorted(CALLERS))
def test_each_former_copy_site_uses_the_home(where):
    module, name = CALLERS[where]
    tree = ast.parse((ROOT / where).read_text("utf-8"))
    imported = {
        (node.module, a.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for a in node.names
    }
    package, leaf = module.rsplit(".", 1)
    # ``from compactor.engine._stages import duplicates``, the package face's same object
    # (``from compactor.engine import duplicates``), or the module and ``_stages.duplicates``
    home = getattr(importlib.import_module(module), name)
    through_face = (package, name) in imported and getattr(
        importlib.import_module(package), name, None
    ) is home
    assert (
        (module, name) in imported
        or through_face
        or ((package, leaf) in imported and name.lower() in _names(tree))
    )


# --- the signatures catch the copies the project had ---------------------------------------------

#: Excerpts of the copies issue 33 removed, as they were written.
FORMER = {
    "the stage's argmax walk (engine/_stages.py)": (
        dedupe_walks,
        """
def dedupe(state, messages, protected, similarity, threshold):
    for i in range(n):
        j = int(best[i])
        similar = Similar(j, float(similarity[i, j]))
        if not protected[i] and similar.similarity >= threshold:
            present[i] = False
            scores[i + 1 :, i] = -np.inf
            stale = i + 1 + np.flatnonzero(best[i + 1 :] == i)
            best[stale] = np.argmax(scores[stale], axis=1)
""",
    ),
    "the replay's walk on content numbers (engine/_turn_stages.py)": (
        dedupe_walks,
        """
def outputs(self, contents, roles, pins):
    for i in free:
        role, a, size = roles[i], number[i], sizes[i]
        for j in range(i):
            if not present[j] or roles[j] != role:
                continue
            if similarity(a, number[j]) >= threshold:
                present[i] = False
                break
""",
    ),
    "the threshold sweep's bit words (analyses/_sweeps.py)": (
        dedupe_walks,
        """
def _removed_at(similarity, edges, points):
    for i in np.flatnonzero(edges.any(axis=1)):
        columns = np.flatnonzero(edges[i])
        reach = np.searchsorted(points, similarity[i, columns], side="right")[:, None]
        present[i] &= ~np.bitwise_or.reduce(prefix.astype(np.uint64) & present[columns], axis=0)
""",
    ),
    "a walk over a set of the messages gone (planted)": (
        dedupe_walks,
        """
def removed_by_words(sim, protected, threshold):
    gone = set()
    for i in range(len(sim)):
        for j in range(i):
            if not protected[i] and j not in gone and sim[i, j] >= threshold:
                gone.add(i)
                break
""",
    ),
    "semantic dedupe's nearest (strategies/_semantic_dedupe.py)": (
        dedupe_walks,
        """
def _nearest(words, removed):
    for i in range(len(words)):
        candidates = np.flatnonzero(same_role[i, :i] & present[:i])
        best = int(candidates[np.argmax(words[i, candidates])])
""",
    ),
    "the strategy's loop (strategies/_keep_last.py)": (
        keep_last_rules,
        """
def keep_last_count(lengths, budget_chars):
    total = 0
    for n, length in enumerate(reversed(lengths)):
        total += length
        if total > budget_chars:
            return n
    return len(lengths)
""",
    ),
    "the outcome baseline's suffix sums (analyses/outcomes/_baselines.py)": (
        keep_last_rules,
        """
def keep_last_from_budgets(lengths):
    sizes = np.asarray(lengths, dtype=np.int64)
    return np.cumsum(sizes[::-1])[::-1].copy()
""",
    ),
    "the export's pattern (export/_calls.py)": (
        call_lines,
        r"""
CALL_LINE = re.compile(
    r"^\[tool call (?P<name>[^\s\]]+)(?: id=(?P<id>[^\]\s]+))?\](?: (?P<args>[^\n]*))?$",
    re.MULTILINE,
)
""",
    ),
    "the markup's head (analyses/_markup.py)": (
        call_lines,
        r"""MARKUP = re.compile(r"\[tool call (?P<name>[^\s\]]+)(?: id=(?P<id>[^\s\]]+))?\]")""",
    ),
    "the import's writer (formats/_builder.py)": (
        call_lines,
        '''head = f"[tool call {name}" + (f" id={call_id}" if call_id else "") + "]"''',
    ),
    "the cleared input's writer (strategies/_tool_uses.py)": (
        call_lines,
        '''line = f"[tool call {match['name']} id={call_id}] {CLEARED_INPUT}"''',
    ),
    "a second definition of the name (evaluation/_grid.py)": (
        memory_compact_names,
        '''MEMORY_COMPACT = "memory-compact"''',
    ),
    "the name as a default (cli/_replay.py)": (
        memory_compact_names,
        """name = args.strategy or (setting.strategy if setting else "memory-compact")""",
    ),
}


@pytest.mark.parametrize("copy", sorted(FORMER))
def test_the_scan_finds_each_copy_the_project_had(copy):
    signature, source = FORMER[copy]
    assert signature(ast.parse(source))


def test_the_scans_pass_over_what_only_looks_alike():
    """Stage 4 writes presence in a loop but reads no similarity; a seeded shuffle's sums run
    forwards; prose may name the call line and the service may title itself."""
    assert dedupe_walks(ast.parse("for i in drops(order):\n    present[i] = False\n")) == []
    assert keep_last_rules(ast.parse("present = total - np.cumsum(in_order, axis=1)")) == []
    prose = 'help = f"each call is written `[tool call NAME id=ID]`, {how}"'
    assert call_lines(ast.parse(prose)) == []
    service = 'FastAPI(title="memory-compact", openapi_tags=[], tags=["memory-compact"])'
    assert memory_compact_names(ast.parse(service)) == []


def test_every_home_is_among_the_sources_scanned():
    assert {ROOT / home for home in HOMES} <= set(SOURCES)
