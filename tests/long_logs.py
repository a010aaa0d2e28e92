"""A real-sized Codex rollout from real turns: the recorded ``codex exec`` session's head (the
session instructions, the developer message, the task), then the tool-call turns of
``codex_tool_calls.jsonl`` repeated (call ids made unique) until there are more than 200
messages, as the 704-message rollout of issue 26; and, on request, tool outputs over 8,000
characters made of that fixture's own output text repeated."""

from __future__ import annotations

import json

from compactor.formats import convert_text
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"


def _lines(name: str) -> list[dict]:
    text = (REAL / name).read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def long_codex_rollout(rounds: int = 54, long_outputs: tuple[int, ...] = ()) -> bytes:
    """JSONL bytes: the head of the real session, then ``rounds`` copies of the tool-call turns
    (13 messages each); the output of each round in ``long_outputs`` is over 8,000 characters."""
    head = _lines("codex_exec_session.jsonl")
    turns = [
        line
        for line in _lines("codex_tool_calls.jsonl")
        if line["type"] == "response_item" and line["payload"]["type"] != "reasoning"
    ]
    out = list(head)
    for r in range(rounds):
        for line in turns:
            payload = dict(line["payload"])
            if "call_id" in payload:
                payload["call_id"] = f"{payload['call_id']}_{r}"
            is_output = payload["type"] == "function_call_output" and payload["output"]
            if is_output and r in long_outputs:
                payload["output"] = (payload["output"] + "\n") * 800
            out.append({**line, "payload": payload})
    return "".join(json.dumps(line) + "\n" for line in out).encode("utf-8")


def message_count(data: bytes) -> int:
    return len(convert_text(data).request["messages"])
