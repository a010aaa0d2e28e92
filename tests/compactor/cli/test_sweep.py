"""`python -m compactor sweep` as a real process, checked against `compact` at each budget."""

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings

from compactor import compact
from compactor.analyses._sweeps import BUDGET_RANGE
from tests.generate import requests
from tests.paths import GOLDEN, ROOT


def cli(*args, stdin=b""):
    return subprocess.run(
        [sys.executable, "-m", "compactor", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


def sweep_of(request):
    done = cli("sweep", "-", stdin=json.dumps(request).encode())
    assert done.returncode == 0 and done.stderr == b""
    return json.loads(done.stdout)


def assert_matches_brute_force(request, rows):
    """Each message is in `compact`'s output exactly at the budgets from its survival budget."""
    assert [r["index"] for r in rows] == list(range(len(request["messages"])))
    assert all(set(r) == {"index", "survives_from_budget"} for r in rows)
    low, high = BUDGET_RANGE
    edges = {r["survives_from_budget"] for r in rows} - {None}
    budgets = {b + d for b in edges for d in (-1, 0, 1)} | {low, high, request["budget_chars"]}
    for budget in sorted(b for b in budgets if low <= b <= high):
        response = compact({**request, "budget_chars": budget})
        kept = {m["index"] for m in response["messages"]}
        expected = {
            r["index"]
            for r in rows
            if r["survives_from_budget"] is not None and r["survives_from_budget"] <= budget
        }
        assert kept == expected, budget


GOLDEN_CASES = sorted(p.name.removesuffix(".request.json") for p in GOLDEN.glob("*.request.json"))


@pytest.mark.parametrize("case", GOLDEN_CASES)
def test_sweep_of_each_golden_request_matches_brute_force(case):
    path = GOLDEN / f"{case}.request.json"
    done = cli("sweep", str(path))
    assert done.returncode == 0 and done.stderr == b""
    assert_matches_brute_force(json.loads(path.read_text("utf-8")), json.loads(done.stdout))


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_sweep_of_random_requests_matches_brute_force(request):
    assert_matches_brute_force(request, sweep_of(request))


def test_the_dispatcher_on_one_line():
    request = (GOLDEN / "dispatcher.request.json").read_bytes()
    done = cli("sweep", "-", "--indent", "0", stdin=request)
    assert done.returncode == 0
    assert done.stdout.decode() == (
        '[{"index": 0, "survives_from_budget": 100}, {"index": 1, "survives_from_budget": 264}, '
        '{"index": 2, "survives_from_budget": 371}, {"index": 3, "survives_from_budget": null}, '
        '{"index": 4, "survives_from_budget": 100}, {"index": 5, "survives_from_budget": 100}]\n'
    )


def test_an_invalid_request_prints_every_problem_and_nothing_else():
    request = {"messages": [{"role": "bot", "content": "x"}], "budget_chars": 50}
    done = cli("sweep", "-", stdin=json.dumps(request).encode())
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().splitlines() == [
        "budget_chars: must be at least 100; it is 50",
        "messages: must have at least 2 items; it has 1",
        'messages[0].role: must be one of "system", "user", "assistant", "tool", not "bot"',
    ]


def test_unreadable_input_says_where():
    done = cli("sweep", "-", stdin=b'{"messages": [\n  {"role": "user",, }]}')
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode().strip() == (
        "line 2, column 19: Expecting property name enclosed in double quotes"
    )


def test_a_missing_file():
    done = cli("sweep", "no/such/file.json")
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode().strip() == (
        "no/such/file.json: cannot read the file (No such file or directory)"
    )


def test_help_names_the_output():
    done = cli("sweep", "--help")
    assert done.returncode == 0
    assert b"survives_from_budget" in done.stdout and b"budget_chars" in done.stdout
    assert b"sweep" in cli("--help").stdout
