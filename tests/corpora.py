"""Corpora the tests build from the real fixtures (generated in the test, never committed)."""

import copy
import json

from compactor.evaluation import CorpusStream
from tests.paths import CORPUS, ROOT

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
#: The record of :func:`tau_bench_corpus` whose tool result is over the request's limit, and
#: where that content is in the file.
LONG_RECORD = 117
LONG_AT = f"[{LONG_RECORD}].traj[5]"


def tau_bench_corpus(count: int = 200, long_record: int | None = LONG_RECORD) -> bytes:
    """``count`` tau-bench airline trajectories (the three real ones in turn, each task told
    apart in its first user message), one of them (``long_record``) with a tool result of 10,000
    characters: over the 8,000 a request's content may hold."""
    real = json.loads(TAU.read_text())
    records = []
    for i in range(count):
        record = copy.deepcopy(real[i % len(real)])
        record["task_id"] = i
        record["traj"][1]["content"] += f" (task {i})"
        records.append(record)
    if long_record is not None:
        tool = records[long_record]["traj"][5]
        assert tool["role"] == "tool"
        tool["content"] = ("Flight HAT170 seat 14C confirmed. " * 300)[:10_000]
    return json.dumps(records).encode()


def shared_questions():
    """Questions over the shared corpus folder: per conversation, one on its first message,
    one on a pair in the middle, one on its last message, and two with an answer (the first
    and the last words of a middle message): labels chosen by position, not by any strategy."""
    items = []
    for conversation in CorpusStream(CORPUS):
        name, messages = conversation.conversation, conversation.request["messages"]
        n = len(messages)
        middle = n // 2
        text = messages[middle].get("content") or ""
        words = text.split()
        items += [
            {"record": name, "id": f"{name}:first", "evidence": [0], "question": "the opening?"},
            {"record": name, "id": f"{name}:pair", "evidence": [middle - 1, middle]},
            {"record": name, "id": f"{name}:last", "evidence": [n - 1]},
        ]
        if len(words) > 4:
            items += [
                {"record": name, "id": f"{name}:head", "evidence": [middle], "answer": words[0]},
                {"record": name, "id": f"{name}:tail", "evidence": [middle], "answer": words[-1]},
            ]
    return items
