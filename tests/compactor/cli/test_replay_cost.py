"""`python -m compactor replay --model/--prices`: every turn priced, as the engine prices it."""

import json
import subprocess
import sys

from compactor.analyses.pricing import TokenCounter, load_prices, price_histories
from compactor.analyses.replay import replay_request
from compactor.cli import main
from compactor.input import validate
from tests.paths import ROOT

REQUEST = {
    "messages": [
        {"role": "user", "content": "Deploy build 4411 to staging, then run the smoke tests."},
        {"role": "assistant", "content": "Deploying build 4411 to staging now."},
        {"role": "user", "content": "It failed on host db-07 with error E1203. Retry once."},
        {"role": "assistant", "content": "Retried on db-07; E1203 again. The disk is full."},
        {"role": "user", "content": "Clear /var/log on db-07 and retry."},
    ],
    "budget_chars": 160,
}
PRICES = """\
[models.mine]
provider = "test"
name = "Mine"
source = "https://example.test/prices"
read = "2026-12-06"
input = 2.0
output = 10.0
cache_read = 0.2
cache_writes = [{ lifetime_seconds = 300, per_mtok = 2.5 }]
"""


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "compactor", "replay", "-", "--indent", "0", *args],
        input=json.dumps(REQUEST).encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


def test_replay_prices_every_turn_as_the_engine_does(tmp_path):
    path = tmp_path / "prices.toml"
    path.write_text(PRICES)
    done = cli("--strategy", "keep-last", "--prices", str(path))
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    model = load_prices(path).get("mine")
    engine = price_histories(
        replay_request(validate(REQUEST), "keep-last").histories,
        validate(REQUEST).messages,
        model,
        counter=TokenCounter.best(),
    )
    assert printed["cost"] == json.loads(json.dumps(engine.to_dict()))
    assert [t["cost"]["reads"] for t in printed["turns"]] == [
        t.split.reads for t in engine.turns[1:]
    ]
    split = printed["cost"]["split"]
    usd = printed["cost"]["cost_usd"]
    # the total is the split at the file's prices
    expected = (
        split["reads"] * 0.2 + split["writes"] * 2.5 + split["uncached"] * 2 + split["output"] * 10
    ) / 1e6
    assert abs(usd["total"] - expected) < 1e-12
    # keep-last at 160 characters drops the oldest messages: some call rewrites the prefix
    assert split["writes"] > 0 and printed["cost"]["approximate"] is True


def test_a_bad_price_file_exits_2_naming_its_line(tmp_path, capsys):
    path = tmp_path / "prices.toml"
    path.write_text(PRICES.replace("output = 10.0", "output = -10"))
    conversation = tmp_path / "chat.json"
    conversation.write_text(json.dumps(REQUEST))
    assert main(["replay", str(conversation), "--prices", str(path), "--model", "mine"]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert f"{path}:7: models.mine.output: must be a number at least 0, not -10" in said.err
    assert main(["replay", str(conversation), "--model", "no-such-model"]) == 2
    assert "no model 'no-such-model'" in capsys.readouterr().err
