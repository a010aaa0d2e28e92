"""The structured turns written in each provider's own shape, following its ordering rules.

- ``openai`` (Chat Completions ``messages``): an assistant message holds its calls in
  ``tool_calls`` (``{"id", "type": "function", "function": {"name", "arguments"}}``, the
  arguments a JSON string) with ``content`` null when it has no text; each result is a ``tool``
  message with ``tool_call_id``, right after the calling message.
- ``anthropic`` (a Messages request's ``system`` and ``messages``): system messages become the
  top-level ``system``; calls are ``tool_use`` blocks (``input`` an object); results are
  ``tool_result`` blocks at the start of the next user message; consecutive messages of one
  role are one message with several blocks, as the API itself would combine them.
- ``vercel`` (AI SDK ``ModelMessage[]``): ``tool-call`` parts in assistant content,
  ``tool-result`` parts (``output: {"type": "text", "value"}``) in ``tool`` messages.
- ``sharegpt``: ``{"conversations": [{"from", "value"}]}`` with ``function_call`` turns
  (``{"name", "arguments"}`` as JSON) and ``observation`` turns for results.
"""

from __future__ import annotations

import json
from typing import Any

from compactor.export.structure import Turn


def openai(turns: list[Turn], notes: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for turn in turns:
        if turn.role == "tool":
            out.append({"role": "tool", "tool_call_id": turn.answers, "content": turn.text})
        elif turn.role == "assistant" and turn.calls:
            out.append(
                {
                    "role": "assistant",
                    "content": turn.text or None,
                    "tool_calls": [
                        {
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": call.arguments_text},
                        }
                        for call in turn.calls
                    ],
                }
            )
        else:
            out.append({"role": turn.role, "content": turn.text})
    return out


def anthropic(turns: list[Turn], notes: list[str]) -> dict[str, Any]:
    system = [t for t in turns if t.role == "system"]
    late = [t.index for k, t in enumerate(turns) if t.role == "system" and k >= len(system)]
    if late:
        notes.append(
            "system messages "
            + ", ".join(f"#{i}" for i in late)
            + " moved into the top-level system prompt (the Messages API has no system role)"
        )
    messages: list[dict[str, Any]] = []
    for turn in turns:
        if turn.role == "system":
            continue
        role = "assistant" if turn.role == "assistant" else "user"
        blocks = _anthropic_blocks(turn, notes)
        if not blocks:
            continue
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": blocks})
    if messages and messages[0]["role"] == "assistant":
        first = next(t.index for t in turns if t.role != "system")
        notes.append(
            f"#{first}: the conversation starts with an assistant message: Anthropic's API "
            "accepts that, Amazon Bedrock's does not (it wants a user message first)"
        )
    out: dict[str, Any] = {}
    if system:
        out["system"] = "\n\n".join(t.text for t in system)
    out["messages"] = messages
    return out


def _anthropic_blocks(turn: Turn, notes: list[str]) -> list[dict[str, Any]]:
    if turn.role == "tool":
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": turn.answers}
        if turn.text:
            block["content"] = turn.text
        return [block]
    blocks: list[dict[str, Any]] = []
    text = turn.text
    if text:
        blocks.append({"type": "text", "text": text})
    for call in turn.calls:
        arguments: Any = call.arguments
        if arguments is None and call.raw is None:
            arguments = {}  # a call without arguments
        elif not isinstance(arguments, dict):
            notes.append(
                f"#{turn.index}: the arguments of the call to {call.name} are not a JSON object, "
                'so its tool_use input holds them as {"input": ...}'
            )
            arguments = {"input": call.raw if call.raw is not None else arguments}
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": arguments})
    return blocks


def vercel(turns: list[Turn], notes: list[str]) -> list[dict[str, Any]]:
    names = {call.id: call.name for turn in turns for call in turn.calls}
    out: list[dict[str, Any]] = []
    for turn in turns:
        if turn.role == "tool":
            out.append(
                {
                    "role": "tool",
                    "content": [
                        {
                            "type": "tool-result",
                            "toolCallId": turn.answers,
                            "toolName": names[turn.answers],
                            "output": {"type": "text", "value": turn.text},
                        }
                    ],
                }
            )
        elif turn.role == "assistant" and turn.calls:
            parts: list[dict[str, Any]] = []
            if turn.text:
                parts.append({"type": "text", "text": turn.text})
            parts += [
                {
                    "type": "tool-call",
                    "toolCallId": call.id,
                    "toolName": call.name,
                    "input": call.raw if call.raw is not None else call.arguments,
                }
                for call in turn.calls
            ]
            out.append({"role": "assistant", "content": parts})
        else:
            out.append({"role": turn.role, "content": turn.text})
    return out


SPEAKERS = {"system": "system", "user": "human", "assistant": "gpt", "tool": "observation"}


def sharegpt(turns: list[Turn], notes: list[str]) -> dict[str, Any]:
    conversations = []
    for turn in turns:
        if turn.role == "assistant" and turn.calls:
            if turn.text:
                conversations.append({"from": "gpt", "value": turn.text})
            for call in turn.calls:
                arguments = call.raw if call.raw is not None else call.arguments
                value = json.dumps({"name": call.name, "arguments": arguments}, ensure_ascii=False)
                conversations.append({"from": "function_call", "value": value})
        else:
            conversations.append({"from": SPEAKERS[turn.role], "value": turn.text})
    if any(t.calls for t in turns):
        notes.append("ShareGPT turns carry no call ids: an observation answers the call before it")
    return {"conversations": conversations}


WRITERS = {"openai": openai, "anthropic": anthropic, "vercel": vercel, "sharegpt": sharegpt}
