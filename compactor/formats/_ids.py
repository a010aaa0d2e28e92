"""Tool-call ids settled before a conversation is sent: every call has one, and no two calls share
one.

Providers pair a result with its call by id and refuse what they cannot pair: Anthropic rejects a
request in which two ``tool_use`` blocks share an id, and OpenAI's Chat Completions and Responses
APIs need every call's id. An input may still hold a call without an id (the import writes it
as ``[tool call NAME]``) or reuse one (a log stitched from two sessions, a hand-written test). So,
walking the conversation in order:

- a call without an id gets ``call_<message>_<k>`` (its message's index, its place among the
  message's calls), the id the export has always given it;
- a call whose id an earlier call already has gets a fresh one, ``<id>_2`` (``_3``, ...: the
  first that no call or result of the conversation has), and so do the results right after its
  message that answered it by the old id, in order (the first result answering ``c1`` pairs with
  the first call ``c1`` of the message, the second with the second);
- each new id for a repeated one is said in a note.

:func:`settle_ids` does it on a request's messages (their call lines rewritten), before
compaction, so that the characters counted are the characters sent; :class:`IdPlan` is the walk
itself, which the export also follows on the turns it structures (for a conversation compacted
as it was given, as ``compact --emit`` does).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from compactor.formats._calls import calls_in
from compactor.text import call_head

#: The formats whose writer sends each call's id (ShareGPT has none; a request and a message
#: list keep the call lines as text, so what is counted is what is written).
WRITES_IDS = frozenset({"openai", "responses", "anthropic", "vercel", "langchain"})


@dataclass
class IdPlan:
    """The walk over a conversation's messages, in order, that settles the ids of its calls.

    ``taken`` holds every id the conversation has (calls and results), so no fresh id repeats
    one. Call :meth:`calls` for each message that makes calls, :meth:`result` for each tool
    message, :meth:`other` for any other message.
    """

    taken: set[str]
    notes: list[str] = field(default_factory=list)
    _used: set[str] = field(default_factory=set)
    _open: dict[str | None, deque[str]] = field(default_factory=dict)

    def calls(self, index: int, calls: Sequence[tuple[str, str | None]]) -> list[str]:
        """The settled ids of the message ``index``'s calls, given as ``(name, id)`` in order;
        its results, the tool messages right after it, follow them (:meth:`result`)."""
        self._open = {}
        settled = []
        for k, (name, call_id) in enumerate(calls):
            if call_id is None:
                new = self._fresh(f"call_{index}_{k}")
            elif call_id in self._used:
                new = self._fresh(call_id)
                self.notes.append(
                    f"#{index}: the call to {name} repeats the id {call_id} of an earlier call "
                    f"(providers refuse two calls of one id); sent as id={new}, and so is its "
                    "result"
                )
            else:
                new = call_id
            self._used.add(new)
            self._open.setdefault(call_id, deque()).append(new)
            settled.append(new)
        return settled

    def result(self, answers: str | None) -> str | None:
        """The id a tool message that answers ``answers`` (its call's id as given) is sent with:
        that of the next call of the message before it given that id, else ``answers``."""
        waiting = self._open.get(answers) if answers is not None else None
        return waiting.popleft() if waiting else answers

    def other(self) -> None:
        """A message that is neither a call's nor a result: the calls before it are closed."""
        self._open = {}

    def _fresh(self, base: str) -> str:
        new, n = base, 1
        while new in self.taken or new in self._used:
            n += 1
            new = f"{base}_{n}"
        self.taken.add(new)
        return new


@dataclass(frozen=True)
class Settled:
    """A request's messages with their calls' ids settled, and what changed: ``renamed`` maps
    ``(message index, id as given)`` to the id of the first call of that message given it."""

    messages: list[dict[str, Any]]
    notes: tuple[str, ...]
    renamed: Mapping[tuple[int, str], str]
    changed: bool


def settle_ids(messages: Sequence[Mapping[str, Any]]) -> Settled:
    """``messages`` (a request's) with every call line given an id, no two calls sharing one,
    each result right after its call's message given its call's id (see the module's doc).

    >>> settled = settle_ids([
    ...     {"role": "assistant", "content": "[tool call f id=c1] {}"},
    ...     {"role": "tool", "id": "c1", "content": "one"},
    ...     {"role": "assistant", "content": "[tool call f id=c1] {}\\n[tool call g] {}"},
    ...     {"role": "tool", "id": "c1", "content": "two"},
    ... ])
    >>> for m in settled.messages:
    ...     print(m.get("id") or m["content"])
    [tool call f id=c1] {}
    c1
    [tool call f id=c1_2] {}
    [tool call g id=call_2_1] {}
    c1_2
    """
    plan = IdPlan(taken=set(ids_in(messages)))
    out: list[dict[str, Any]] = []
    renamed: dict[tuple[int, str], str] = {}
    changed = False
    for index, message in enumerate(messages):
        role, content = message.get("role"), message.get("content")
        if role == "tool":
            new = plan.result(message.get("id"))
            if new != message.get("id"):
                message, changed = {**message, "id": new}, True
        elif role == "assistant" and isinstance(content, str) and (found := calls_in(content)):
            ids = plan.calls(index, [(c.name, c.id) for c in found])
            text = content
            for call, new in reversed(list(zip(found, ids, strict=True))):
                if new == call.id:
                    continue
                end = call.start + len(call_head(call.name, call.id))
                text = text[: call.start] + call_head(call.name, new) + text[end:]
                if call.id is not None:
                    renamed.setdefault((index, call.id), new)
            if text != content:
                message, changed = {**message, "content": text}, True
        else:
            plan.other()
        out.append(dict(message))
    return Settled(out, tuple(plan.notes), renamed, changed)


def ids_in(messages: Iterable[Mapping[str, Any]]) -> Iterable[str]:
    """Every id the messages give a call or a result."""
    for message in messages:
        if message.get("role") == "tool" and isinstance(message.get("id"), str):
            yield message["id"]
        elif message.get("role") == "assistant" and isinstance(message.get("content"), str):
            yield from (c.id for c in calls_in(message["content"]) if c.id is not None)
