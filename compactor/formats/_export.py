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

Targets: ``response`` (the memory-compact response) and every format with a writer in the
format registry (:data:`compactor.formats.FORMATS`: the request, the survivors as messages,
OpenAI Chat Completions and Responses items, Anthropic, Vercel AI SDK, LangChain, ShareGPT). For
the provider formats the import's call lines become structured calls again and orphan halves of
call/result pairs are dropped, each drop in ``notes`` (:mod:`compactor.formats._structure`); the
format's own writer, in its module of :mod:`compactor.formats`, writes the turns.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from compactor.contract import PARAMETERS
from compactor.formats._calls import calls_in
from compactor.formats._registry import FORMATS, WRITABLE
from compactor.formats._structure import Turn, structure

#: What ``--emit`` can name, in its help's order; ``same`` is the input's own format.
TARGETS = ("response", *WRITABLE, "same")


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


@dataclass
class _Compacted:
    """The compacted conversation as a writer reads it (:class:`compactor.formats.Compacted`):
    the turns are structured only when a writer asks for them."""

    response: Mapping[str, Any]
    request: Mapping[str, Any]
    keep_orphans: bool
    empty_results: Collection[str]
    source: Any = None
    sources: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return compacted_messages(self.response)

    @property
    def params(self) -> dict[str, Any]:
        return {name: self.request[name] for name in PARAMETERS if name in self.request}

    @cached_property
    def turns(self) -> tuple[Turn, ...]:
        structured = structure(
            self.response,
            self.request,
            keep_orphans=self.keep_orphans,
            empty_results=self.empty_results,
        )
        self.notes[:0] = structured.notes  # the export's own notes come first
        return structured.turns

    @property
    def origins(self) -> tuple[int | None, ...]:
        if "turns" not in self.__dict__:
            return ()  # written from the survivors as they are
        return tuple(None if t.restored else t.index for t in self.turns)


def export(
    response: Mapping[str, Any],
    request: Mapping[str, Any],
    target: str,
    *,
    keep_orphans: bool = False,
    empty_results: Collection[str] = (),
    source: Any = None,
    sources: tuple[str, ...] = (),
) -> Exported:
    """``response`` (compacted from ``request``) written as ``target``, a format of the registry.

    Tool calls that the import wrote as call lines become structured calls again, and the orphan
    half of a call/result pair the compaction split is dropped (each drop is a note).

    Args:
        response: the memory-compact response (``compact(request)``).
        request: the request it answered (the messages it was compacted from).
        target: ``"response"`` or a format with a writer (:data:`TARGETS` but ``same``):
            ``openai``, ``responses``, ``anthropic``, ``vercel``, ``langchain``, ``sharegpt``,
            ``request``, ``messages``.
        keep_orphans: keep a call whose result was dropped (or a result whose call was) as
            plain text instead of dropping it.
        empty_results: ids of calls whose result was empty in the source.
        source: the input as given, when the conversation goes back to its own format (a
            writer may then give back the input's own messages, as LangChain's does).
        sources: where each request message came from in ``source``
            (:attr:`compactor.formats.Conversion.sources`).

    Returns:
        An :class:`Exported`: ``value`` (JSON-ready, in the target's shape), ``notes`` (what the
        export changed, such as dropped orphans) and ``origins``.

    Raises:
        ValueError: ``target`` is not a format with a writer.

    Example:
        >>> from compactor import compact, export
        >>> request = {"budget_chars": 200, "messages": [
        ...     {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}
        >>> export(compact(request), request, "openai").value
        [{'role': 'user', 'content': 'Hi'}, {'role': 'assistant', 'content': 'Hello'}]
    """
    if target == "response":
        return Exported(target, dict(response))
    entry = FORMATS.get(target)
    if entry is None or entry.write is None:
        raise ValueError(f"unknown export target {target!r}; the targets are {', '.join(TARGETS)}")
    compacted = _Compacted(response, request, keep_orphans, empty_results, source, sources)
    value = entry.write(compacted)
    return Exported(target, value, tuple(compacted.notes), compacted.origins)


__all__ = [
    "calls_in",
    "compacted_messages",
    "export",
    "Exported",
    "resolve",
    "TARGETS",
    "WRITABLE",
]
