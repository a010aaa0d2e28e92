"""`python -m compactor evaluate --model`: each row prices the call after its compaction."""

import json
import math
import subprocess
import sys

from tests.paths import ROOT

CORPUS = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"


def test_each_row_prices_the_kept_context_written_to_the_cache(tmp_path):
    out = tmp_path / "rows.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "compactor",
            "evaluate",
            str(CORPUS),
            "--budgets",
            "2000",
            "--no-outcomes",
            "--model",
            "claude-sonnet-5-5",
            "--out",
            str(out),
        ],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3
    for row in rows:
        # no --encoding: characters / 4, all written at Sonnet 5.5's 5-minute write, $2.50 / MTok
        assert row["cost_model"] == "claude-sonnet-5-5"
        assert row["cost_usd"] == math.ceil(row["output_chars"] / 4) * 2.5 / 1e6
