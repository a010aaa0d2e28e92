"""``anchors``, ``tokens`` and ``similar`` on the command line: the same values as the engine,
any importable file, parameter overrides, and exit 2 with one line when something is missing."""

import builtins
import json
import subprocess
import sys

import pytest

from compactor import run, validate
from compactor.analyses.anchors._report import anchor_report
from compactor.cli._main import main
from compactor.formats import convert_text
from tests.paths import CORPUS, GOLDEN, ROOT

SUPPORT = CORPUS / "abcd_customer_support.json"  # a message list: imported, not a request


def cli(capsys, *argv):
    code = main([*argv, "--indent", "0"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def test_anchors_prints_the_report_with_overrides(capsys):
    code, rows, err = cli(
        capsys, "anchors", str(SUPPORT), "--budget-chars", "300", "--keep-roles", ""
    )
    request = {**convert_text(SUPPORT.read_bytes()).request, "budget_chars": 300, "keep_roles": []}
    expected = [a.to_dict() for a in anchor_report(run(validate(request))).anchors]
    assert code == 0  # the import's report on standard error, as compact writes it
    said = "read as messages (detected): 29 messages, 4 changes, none lossy; --verbose lists them\n"
    assert err == said  # one line: the notes are listed with --verbose
    assert rows == expected
    assert set(rows[0]) == {"text", "kind", "occurrences", "kept", "survives_from_budget"}


def test_anchors_watch_adds_watched_anchors(capsys):
    code, rows, _ = cli(capsys, "anchors", str(SUPPORT), "--watch", "Crystal Minh")
    assert code == 0 and any(r["kind"] == "watched" and r["text"] == "Crystal Minh" for r in rows)


def test_bad_input_is_one_line_per_problem_and_exit_2(capsys):
    code, rows, err = cli(
        capsys, "anchors", str(GOLDEN / "dispatcher.request.json"), "--budget-chars", "5"
    )
    assert (code, rows) == (2, None)
    assert err.splitlines() == ["budget_chars: must be at least 100; it is 5"]


def test_tokens_prints_counts_and_totals(capsys):
    pytest.importorskip("bpe_openai")
    from compactor.text._tokens import count_tokens

    code, out, _ = cli(
        capsys, "tokens", str(GOLDEN / "dispatcher.request.json"), "--encoding", "cl100k_base"
    )
    contents = [
        m["content"]
        for m in json.loads((GOLDEN / "dispatcher.request.json").read_text())["messages"]
    ]
    assert code == 0 and out["encoding"] == "cl100k_base"
    assert [m["tokens"] for m in out["messages"]] == [
        count_tokens(c, "cl100k_base") for c in contents
    ]
    assert out["total"] == {
        k: sum(m[k] for m in out["messages"]) for k in ("chars", "tokens", "estimate")
    }


def test_similar_prints_pairs(capsys):
    pytest.importorskip("wordllama")
    from compactor.analyses._semantic_pairs import semantic_pairs

    path = GOLDEN / "dispatcher.request.json"
    code, out, _ = cli(capsys, "similar", str(path), "--threshold", "0.3")
    result = run(validate(json.loads(path.read_text())))
    assert code == 0 and out == [p.to_dict() for p in semantic_pairs(result, 0.3)]


@pytest.mark.parametrize(
    ("command", "module"), [("tokens", "bpe_openai"), ("similar", "wordllama")]
)
def test_a_missing_extra_is_one_line_and_exit_2(command, module, capsys, monkeypatch):
    real_import = builtins.__import__

    def without(name, *args, **kwargs):
        if name.split(".")[0] == module:
            raise ImportError(f"No module named {module!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without)
    code, out, err = cli(capsys, command, str(GOLDEN / "dispatcher.request.json"))
    assert (code, out) == (2, None)
    assert len(err.strip().splitlines()) == 1 and "pip install -e" in err and "Traceback" not in err


def test_commands_run_as_a_module():
    done = subprocess.run(
        [sys.executable, "-m", "compactor", "anchors", str(GOLDEN / "dispatcher.request.json")],
        capture_output=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0 and isinstance(json.loads(done.stdout), list)
