"""Edits a user makes where they look: pin or unpin one message, pin the task (the first user
message a person wrote). Each gives a new conversation (its messages' ``pin`` changed), loaded
with the current parameters, so the request JSON, the link and every page follow."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from compactor import formats
from explorer.session import state
from explorer.session.conversation import Conversation


def with_pin(conv: Conversation, index: int, pinned: bool) -> Conversation:
    """``conv`` with message ``index`` pinned (``pin: true``) or not (``pin`` left out)."""
    messages: list[dict[str, Any]] = [dict(m) for m in conv.messages]
    if pinned:
        messages[index]["pin"] = True
    else:
        messages[index].pop("pin", None)
    label = conv.label if conv.label.endswith(" (pins edited)") else f"{conv.label} (pins edited)"
    return replace(conv, messages=tuple(messages), label=label, source="edited", sample=None)


def task_index(conv: Conversation) -> int | None:
    """The task: the first user message a person wrote (a host's preamble, such as Codex's
    environment context, passed over); None without a user message."""
    return formats.task_index(conv.messages)


def set_pin(index: int, pinned: bool) -> None:
    """A button's callback: pin or unpin ``index`` in the loaded conversation, keeping the
    parameters the sidebar holds."""
    state.load(with_pin(state.conversation(), index, pinned), state.params())


def apply_fix(pins: tuple[int, ...], params: Mapping[str, Any]) -> None:
    """A button's callback: pin ``pins`` and set ``params`` over the sidebar's (a checked fix of
    a split tool pair, one click away)."""
    conv = state.conversation()
    for index in pins:
        conv = with_pin(conv, index, True)
    state.load(conv, {**state.params(), **params})
