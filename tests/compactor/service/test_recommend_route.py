"""POST /v1/recommend on the real server (loopback): the same JSON as the engine's
recommendation (the command's --json) with the compaction.toml text, and every bad body a 4xx
naming its JSON path, never a traceback."""

from __future__ import annotations

import httpx
import pytest

from compactor.recommend import Goal, Options, recommend
from compactor.service._recommend_route import MAX_TRIALS
from compactor.strategies import load_setting
from harness.service import serving
from tests.compactor.recommend.test_recommend import CORPUS

BODY = {
    "conversations": [{"messages": item.request["messages"]} for item in CORPUS],
    "goal": {"budget_chars": 900},
    "trials": 6,
    "seed": 3,
    "strategies": ["keep-last", "anchor-keep"],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("recommend") / "server.log"
    with serving("--processes", "1", log=log) as service:
        yield service


def post(server, body, **kwargs):
    return httpx.post(f"{server.url}/v1/recommend", timeout=60, **kwargs, json=body)


def test_the_service_answers_the_engines_recommendation_with_its_toml(server, tmp_path):
    answer = post(server, BODY)
    assert answer.status_code == 200, answer.text
    got = answer.json()
    items = [type(i)(k, {**i.request, "budget_chars": 900}) for k, i in enumerate(CORPUS)]
    options = Options(trials=6, seed=3, workers=1, strategies=("keep-last", "anchor-keep"))
    expected = recommend(items, Goal(budget_chars=900), options).to_dict()
    for data in (got, expected):
        data.pop("seconds")
    assert got == expected
    path = tmp_path / "compaction.toml"
    path.write_text(got["toml"], "utf-8")
    assert load_setting(path).strategy == got["setting"]["strategy"]
    assert "needed-later recall" in got["check"]["judge"]
    assert [f["method"] for f in got["check"]["figures"]][2:] == ["keep-last", "random"]


@pytest.mark.parametrize(
    "change, path, says",
    [
        ({"trials": MAX_TRIALS + 1}, "trials", "the server's limit"),
        ({"timeout_seconds": 3600}, "timeout_seconds", "the server's limit"),
        ({"goal": {"budget_chars": 900, "floor": 2}}, "goal.floor", "share from 0 to 1"),
        ({"goal": {"budget_chars": 900, "objective": "cost", "floor": 0.5}}, "goal.model", "model"),
        ({"goal": {"budget_chars": 900, "objective": "fastest"}}, "goal.objective", "objectives"),
        ({"goal": {"budget": 900}}, "goal.budget", "not a goal key"),
        ({"strategies": ["keep-last", "llm-compact"]}, "strategies[1]", "no search space"),
        (
            {"conversations": [{"messages": [{"role": "robot", "content": "x"}]}]},
            "conversations[0].messages[0].role",
            "",
        ),
        ({"conversations": []}, "conversations", "at least one conversation"),
        (
            {"conversation": {"messages": BODY["conversations"][0]["messages"][:4]}},
            "conversation",
            "a check at cut points needs at least",
        ),
        (
            {"conversation": {"messages": []}, "conversations": BODY["conversations"]},
            "$",
            "either conversations",
        ),
        ({"extra": 1}, "extra", "not a key of the body"),
    ],
)
def test_a_bad_body_is_a_422_naming_its_json_path(server, change, path, says):
    body = {**BODY, **change}
    if "conversation" in change and "conversations" not in change:
        body.pop("conversations")
    answer = post(server, body)
    assert answer.status_code == 422, answer.text
    problems = answer.json()["error"]["problems"]
    assert any(p["path"] == path and says in p["message"] for p in problems), problems


def test_not_json_is_a_400_with_line_and_column_and_the_log_has_no_traceback(server):
    answer = httpx.post(
        f"{server.url}/v1/recommend",
        content=b'{"goal": }',
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert answer.status_code == 400
    (problem,) = answer.json()["error"]["problems"]
    assert problem["line"] == 1 and problem["column"] >= 1
    assert "Traceback" not in server.log_text()
