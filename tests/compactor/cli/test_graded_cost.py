"""`python -m compactor graded --model`: each row's cost, as the engine prices the grading."""

import json

from compactor.analyses import grade
from compactor.analyses.pricing import TokenCounter, graded_costs, load_prices
from compactor.cli import main
from compactor.contract import AUTO_LIMITS
from compactor.formats import apply_fixes, convert_text
from compactor.input import validate
from tests.paths import ROOT

CLAUDE = ROOT / "tests" / "fixtures" / "compactions" / "claude_code_two_compactions.jsonl"


def test_every_row_carries_its_cost_at_the_model(capsys):
    assert main(["graded", str(CLAUDE), "--model", "claude-opus-5-5", "--indent", "0"]) == 0
    printed = json.loads(capsys.readouterr().out)
    conversion = apply_fixes(convert_text(CLAUDE.read_bytes()))
    graded = grade(validate(conversion.request, limits=AUTO_LIMITS), conversion.compactions)
    model = load_prices().get("claude-opus-5-5")
    counter = TokenCounter.best()
    assert printed["cost"] == {
        "model": "claude-opus-5-5",
        "tokens": counter.method,
        "approximate": True,
    }
    for said, g in zip(printed["compactions"], graded.compactions, strict=True):
        costs = graded_costs(g, model, counter=counter)
        assert {r["key"]: r["cost"] for r in said["rows"]} == {
            k: json.loads(json.dumps(c.to_dict())) for k, c in costs.items()
        }
        recorded = said["rows"][0]["cost"]
        assert recorded["call"]["output"] == recorded["rewrite"]["writes"] > 0
