"""Random tool-using histories whose calls lack ids or share them (issue 34, items 12 and 13), and
what to check of what ``shrink`` sends for them.

A plain module (no test framework needed), so that the property test (hypothesis hands in its
``random.Random``) and ``python -m bench.call_ids`` (thousands of seeded histories) run the same
cases::

    from harness.call_id_cases import case, check
    history, setting = case(random.Random(7), "anthropic")
    shrunk = shrink_with_report(history, setting)
    found = check(shrunk.messages, "anthropic", shrunk.report)

``check`` measures what is sent as the budget counts it (the export read back by the import: each
call a line ``[tool call NAME id=ID] ARGUMENTS``, each result a message) and says whether the
report claimed a budget the export does not meet, and which ids two calls share.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from compactor.formats import convert

#: The formats generated: both send every call's id.
FORMATS = ("openai", "anthropic")
#: The ids a call draws from: None (no id) and a small pool, so that ids repeat often.
IDS = (None, None, "c1", "c2", "c3", "call_3_0", "toolu_1")
NAMES = ("lookup", "track", "refund", "search")
WORDS = ("order", "DE-4471", "ships", "from", "Hamburg", "on", "2024-05-03", "by", "truck;",
         "the", "customer", "asked", "about", "the", "refund", "of", "42.50", "EUR,", "and",
         "ticket", "T-88", "stays", "open", "until", "the", "warehouse", "answers")  # fmt: skip


@dataclass(frozen=True)
class Found:
    """What one shrink sent: its characters as the budget counts them, whether the report said
    the budget was met while the export is over it, and the ids two calls sent share."""

    sent_chars: int
    over_while_met: bool
    shared_ids: tuple[str, ...]
    missing_ids: int  # calls sent without an id


def _text(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def history(rng: random.Random) -> list[dict[str, Any]]:
    """A neutral history: ``{"role", "text", "calls": [(name, id, arguments)], "answers"}``."""
    turns: list[dict[str, Any]] = [{"role": "user", "text": _text(rng, 3, 12)}]
    for _ in range(rng.randint(1, 6)):
        calls = [
            (rng.choice(NAMES), rng.choice(IDS), {"order": f"DE-{rng.randint(1, 9999)}"})
            for _ in range(rng.choice((0, 1, 1, 2, 3)))
        ]
        text = _text(rng, 0, 25) if rng.random() < 0.6 or not calls else ""
        turns.append({"role": "assistant", "text": text, "calls": calls})
        for name, call_id, _ in calls:
            if rng.random() < 0.9:  # now and then a call without its result
                turns.append(
                    {"role": "tool", "answers": call_id, "text": f"{name}: " + _text(rng, 1, 30)}
                )
        if rng.random() < 0.7:
            turns.append({"role": "user", "text": _text(rng, 2, 15)})
    turns.append({"role": "assistant", "text": _text(rng, 2, 10), "calls": []})
    return turns


def render(turns: list[dict[str, Any]], format: str) -> Any:
    """The neutral history in ``format`` (``openai`` or ``anthropic``)."""
    if format == "openai":
        return [_openai(t) for t in turns]
    messages: list[dict[str, Any]] = []
    for t in turns:
        if t["role"] == "tool":
            block = {"type": "tool_result", "content": t["text"]}
            if t["answers"] is not None:
                block["tool_use_id"] = t["answers"]
            if (
                messages
                and messages[-1]["role"] == "user"
                and isinstance(messages[-1]["content"], list)
            ):
                messages[-1]["content"].append(block)
            else:
                messages.append({"role": "user", "content": [block]})
            continue
        blocks = [{"type": "text", "text": t["text"]}] if t["text"] else []
        for name, call_id, arguments in t.get("calls", []):
            use = {"type": "tool_use", "name": name, "input": arguments}
            if call_id is not None:
                use["id"] = call_id
            blocks.append(use)
        messages.append({"role": t["role"], "content": blocks})
    return {"messages": messages}


def _openai(turn: dict[str, Any]) -> dict[str, Any]:
    if turn["role"] == "tool":
        message = {"role": "tool", "content": turn["text"]}
        if turn["answers"] is not None:
            message["tool_call_id"] = turn["answers"]
        return message
    message = {"role": turn["role"], "content": turn["text"] or None}
    calls = []
    for name, call_id, arguments in turn.get("calls", []):
        call = {"type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
        if call_id is not None:
            call["id"] = call_id
        calls.append(call)
    if calls:
        message["tool_calls"] = calls
    return message


def case(rng: random.Random, format: str) -> tuple[Any, dict[str, Any]]:
    """A random history in ``format`` and a setting whose budget is some share of it."""
    data = render(history(rng), format)
    chars = sum(len(m["content"]) for m in convert(data, format).request["messages"])
    budget = max(100, int(chars * rng.uniform(0.2, 1.3)))
    params = {"keep_last_n": rng.randint(0, 6), "max_message_chars": rng.choice((80, 200, 2000))}
    return data, {"budget_chars": budget, "params": params}


def call_ids(sent: Any, format: str) -> list[str | None]:
    """The id of every call sent, in order."""
    if format == "openai":
        return [c.get("id") for m in sent for c in m.get("tool_calls") or []]
    messages = sent["messages"] if isinstance(sent, dict) else sent
    return [
        b.get("id")
        for m in messages
        if isinstance(m.get("content"), list)
        for b in m["content"]
        if b.get("type") == "tool_use"
    ]


#: Two one-character messages added to what is measured, so that it reads as a request however
#: few messages were sent (their two characters are taken off).
PAD = [{"role": "user", "content": "."}, {"role": "assistant", "content": "."}]


def sent_chars(sent: Any, format: str) -> int:
    """The characters of ``sent`` as the budget counts them: the import's reading of it."""
    padded = sent + PAD if isinstance(sent, list) else {**sent, "messages": sent["messages"] + PAD}
    messages = convert(padded, format).request["messages"]
    return sum(len(m["content"]) for m in messages) - len(PAD)


def check(sent: Any, format: str, report: Any) -> Found:
    """What ``sent`` (``shrink``'s output for ``report``) holds, as :class:`Found`."""
    chars = sent_chars(sent, format)
    ids = call_ids(sent, format)
    counts = Counter(i for i in ids if i is not None)
    return Found(
        sent_chars=chars,
        over_while_met=report.budget_met and chars > report.budget_chars,
        shared_ids=tuple(sorted(i for i, n in counts.items() if n > 1)),
        missing_ids=sum(i is None for i in ids),
    )
