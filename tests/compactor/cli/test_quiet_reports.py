"""The CLI says what an import changed in one line, and lists it only with --verbose (issue 40:
`outcomes` on a real Claude Code session printed 217 lines of notes before its answer)."""

import json
from collections import Counter

from tests.compactor.cli.test_compact import cli
from tests.paths import ROOT

SESSION = ROOT.parent / "shared" / "real-compactions" / "63-bd3f9b02f2-0-full.jsonl"


def test_a_real_session_is_summed_up_in_one_line_and_listed_with_verbose():
    loud = cli("outcomes", str(SESSION), "--budget-chars", "50000", "--verbose")
    assert loud.returncode == 0, loud.stderr.decode()[-2000:]
    head, *listed = loud.stderr.decode().splitlines()
    assert len(listed) > 20  # a real session: many notes to sum up
    lossy = Counter(line.split(":")[0].split()[1] for line in listed if line.startswith("lossy "))
    quiet = cli("outcomes", str(SESSION), "--budget-chars", "50000")
    lines = quiet.stderr.decode().splitlines()
    assert lines == [head]  # one line, the same as --verbose's first
    assert f"{len(listed):,} changes, {lossy.total():,} of them lossy" in head
    kind, count = lossy.most_common(1)[0]
    assert f"({kind} {count:,}" in head  # the commonest lossy kind first, with its count
    assert head.endswith("; --verbose lists them")
    assert quiet.stdout == loud.stdout and json.loads(quiet.stdout)  # the answer is whole
