"""The agent mode: the same four stages on whole sessions, with exactly three checks lifted."""

import json
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import compact, contract, validate
from compactor.analyses import budget_sweep
from compactor.contract import AGENT_INPUT_SCHEMA, INPUT_SCHEMA, REQUEST_EXAMPLE
from compactor.engine import run
from compactor.errors import InvalidRequest
from compactor.service import create_app
from tests.generate import requests

#: A session past every lifted limit: 240 messages, one content of 20,000 characters.
LONG = "The build failed at step four. " * 645
SESSION = {
    "messages": [
        {"role": "user" if i % 2 else "assistant", "content": f"Turn {i} of the session. " * 3}
        for i in range(239)
    ]
    + [{"role": "tool", "content": LONG}],
    "budget_chars": 1_500_000,
}


@settings(max_examples=60, deadline=None)
@given(requests(max_size=12))
def test_on_every_request_the_contract_accepts_both_modes_answer_the_same(request):
    assert compact(request, limits="agent") == compact(request)


@settings(max_examples=40, deadline=None)
@given(
    requests(max_size=6),
    st.sampled_from(["budget_chars", "keep_last_n", "max_message_chars", "duplicate_threshold"]),
    st.sampled_from([-1, 0, 10**7, 1.5, "x"]),
)
def test_a_value_the_contract_refuses_is_refused_by_both_unless_lifted(request, name, value):
    """Only the budget's maximum moves: every other range and type is the contract's."""
    request = {**request, name: value}
    lifted = name == "budget_chars" and value == 10**7  # over both maxima: still refused
    contract_errors = _problems(request, "contract")
    agent_errors = _problems(request, "agent")
    assert bool(contract_errors) == bool(agent_errors) or lifted


def _problems(request, limits):
    try:
        validate(request, limits=limits)
    except InvalidRequest as error:
        return [p.path for p in error.problems]
    return []


def test_exactly_the_three_lifted_checks_differ_between_the_schemas():
    def flat(schema, path=""):
        if isinstance(schema, dict):
            for key, value in schema.items():
                yield from flat(value, f"{path}/{key}")
        elif isinstance(schema, list):
            yield path, json.dumps(schema)
        else:
            yield path, schema

    contract_schema, agent_schema = dict(flat(INPUT_SCHEMA)), dict(flat(AGENT_INPUT_SCHEMA))
    changed = {
        k
        for k in contract_schema.keys() | agent_schema.keys()
        if contract_schema.get(k) != agent_schema.get(k)
    }
    assert changed == {
        "/properties/messages/maxItems",
        "/properties/messages/items/properties/content/maxLength",
        "/properties/budget_chars/maximum",
    }
    assert agent_schema["/properties/budget_chars/maximum"] == 2_000_000
    assert len(contract.AGENT_LIFTED) == 3


def test_a_whole_session_is_refused_by_the_contract_and_compacted_by_the_agent_mode():
    with pytest.raises(InvalidRequest) as refused:
        compact(SESSION)
    paths = {p.path for p in refused.value.problems}
    assert {"messages", "messages[239].content", "budget_chars"} <= paths
    out = compact(SESSION, limits="agent")
    assert len(out["messages"]) == 240
    assert out["budget"]["budget_chars"] == 1_500_000 and out["budget"]["budget_met"]
    # the 20,000-character tool result is trimmed like any other message
    assert out["messages"][-1]["original_chars"] == len(LONG)


def test_an_unknown_mode_is_a_clear_error():
    with pytest.raises(ValueError, match="limits must be one of contract, agent"):
        validate(REQUEST_EXAMPLE, limits="huge")


def test_sweeps_range_over_the_budgets_of_the_request_mode():
    small = budget_sweep(run(validate(REQUEST_EXAMPLE)))
    assert small.budget_range == (100, 400_000)
    whole = budget_sweep(run(validate(SESSION, limits="agent")))
    assert whole.budget_range == (100, 2_000_000)
    assert whole.steps[-1].to_budget == 2_000_000


def test_the_service_offers_the_mode_at_its_own_endpoint_with_its_own_limit():
    body = json.dumps(SESSION).encode()
    with TestClient(create_app(max_body_bytes=len(body) - 1)) as client:
        post = lambda path, data: client.post(  # noqa: E731
            path, content=data, headers={"content-type": "application/json"}
        )
        assert post("/v1/memory-compact", body).status_code == 413
        answer = post("/v1/memory-compact/agent", body)
        assert answer.status_code == 200
        assert answer.json() == compact(SESSION, limits="agent")
        small = json.dumps(REQUEST_EXAMPLE).encode()
        assert (
            post("/v1/memory-compact/agent", small).content
            == post("/v1/memory-compact", small).content
        )
        assert "/v1/memory-compact/agent" in client.get("/openapi.json").json()["paths"]
    with TestClient(create_app(max_agent_body_bytes=100)) as client:
        answer = client.post(
            "/v1/memory-compact/agent", content=body, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 413


def test_the_cli_compacts_a_whole_session_with_agent(tmp_path):
    path = tmp_path / "session.json"
    path.write_text(json.dumps(SESSION), "utf-8")
    refused = subprocess.run(
        [sys.executable, "-m", "compactor", "compact", str(path)], capture_output=True, text=True
    )
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    done = subprocess.run(
        [sys.executable, "-m", "compactor", "compact", str(path), "--agent"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == compact(SESSION, limits="agent")
