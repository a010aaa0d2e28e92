"""The compacted conversation written back in a provider's format, ready to send.

>>> from compactor import compact
>>> request = {"budget_chars": 400, "keep_last_n": 3, "messages": [
...     {"role": "user", "content": "Weather in Porto?"},
...     {"role": "assistant", "content": '[tool call get_weather id=call_1] {"city": "Porto"}'},
...     {"role": "tool", "id": "call_1", "content": "18 °C, light rain"},
... ]}
>>> exported = export(compact(request), request, "openai")
>>> exported.value[1]["tool_calls"][0]["function"]
{'name': 'get_weather', 'arguments': '{"city": "Porto"}'}
>>> exported.value[2]
{'role': 'tool', 'tool_call_id': 'call_1', 'content': '18 °C, light rain'}

Targets: ``response`` (the memory-compact response), ``request`` (the survivors as a request
with the same parameters), ``messages`` (the survivors as ``{role, content, id}``), and the
provider formats ``openai``, ``anthropic``, ``vercel`` and ``sharegpt``
(:mod:`compactor.export.writers`), where the import's call lines become structured calls
again and orphan halves of call/result pairs are dropped, each drop in ``notes``
(:mod:`compactor.export.structure`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from compactor.contract import PARAMETERS
from compactor.export.structure import structure
from compactor.export.writers import WRITERS

#: What ``--emit`` can name, in its help's order; ``same`` is the input's own format.
TARGETS = ("response", "request", "openai", "anthropic", "vercel", "sharegpt", "messages", "same")
#: The input formats that ``same`` can write back.
WRITABLE = ("request", "messages", "openai", "anthropic", "vercel", "sharegpt")


@dataclass(frozen=True)
class Exported:
    target: str
    value: Any  # JSON-ready
    notes: tuple[str, ...] = ()  # each orphan dropped (or kept as text), each result restored
    #: For a provider target, each written turn's message index in the request, in order (None
    #: for an empty result given back): one for one with the ``openai`` and ``vercel`` messages.
    origins: tuple[int | None, ...] = ()


def resolve(target: str, source_format: str | None) -> str:
    """The concrete target: ``same`` becomes the input's format; ValueError when it cannot."""
    if target != "same":
        return target
    if source_format in WRITABLE:
        return source_format
    raise ValueError(
        f"--emit same: the input is {source_format or 'of no known format'}, which is not a "
        f"format this tool writes; choose one of {', '.join(t for t in TARGETS if t != 'same')}"
    )


def compacted_messages(response: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The survivors as a conversation: role, content, and id when the input had one."""
    out = []
    for m in response["messages"]:
        message = {"role": m["role"], "content": m["content"]}
        if "id" in m:
            message["id"] = m["id"]
        out.append(message)
    return out


def export(
    response: Mapping[str, Any],
    request: Mapping[str, Any],
    target: str,
    *,
    keep_orphans: bool = False,
    empty_results: Collection[str] = (),
) -> Exported:
    """``response`` (compacted from ``request``) as ``target`` (one of :data:`TARGETS` but same)."""
    if target == "response":
        return Exported(target, dict(response))
    if target == "messages":
        return Exported(target, compacted_messages(response))
    if target == "request":
        params = {name: request[name] for name in PARAMETERS if name in request}
        return Exported(target, {"messages": compacted_messages(response), **params})
    if target not in WRITERS:
        raise ValueError(f"unknown export target {target!r}; the targets are {', '.join(TARGETS)}")
    structured = structure(
        response, request, keep_orphans=keep_orphans, empty_results=empty_results
    )
    notes = list(structured.notes)
    value = WRITERS[target](list(structured.turns), notes)
    origins = tuple(None if t.restored else t.index for t in structured.turns)
    return Exported(target, value, tuple(notes), origins)


__all__ = ["TARGETS", "WRITABLE", "Exported", "compacted_messages", "export", "resolve"]
