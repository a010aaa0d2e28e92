"""LangChain's own ``trim_messages`` (langchain-core), run on a history with a character counter.

An optional extra: langchain-core is imported only when this strategy runs, and when it is not
installed :class:`LangChainUnavailable` says how to install it. The call is::

    trim_messages(messages, max_tokens=budget_chars, token_counter=<characters of the contents>,
                  strategy="last", include_system=True)

so "tokens" are characters and the budget is the same number as memory-compact's. With
``strategy="last"`` LangChain keeps the longest run of most recent messages that fits;
``include_system=True`` keeps the first message when it is a system message (even when it alone
exceeds the budget) and fits the rest into what is left. ``allow_partial`` stays False, so no
message is cut. Roles map to ``SystemMessage``, ``HumanMessage`` (user), ``AIMessage``
(assistant) and ``ToolMessage`` (tool; its ``tool_call_id`` is a placeholder, which
``trim_messages`` does not read). Each message carries its index as its ``id``, which is how the
kept messages are mapped back.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import import_module
from importlib.util import find_spec
from typing import Any

from compactor.wording import install_command

INSTALL_HINT = install_command("langchain")
#: How the strategy is called, for display.
CALL = (
    'trim_messages(max_tokens=budget_chars, token_counter=characters, strategy="last", '
    "include_system=True)"
)


class LangChainUnavailable(RuntimeError):
    """langchain-core is not installed; the message says how to install it."""

    def __init__(self) -> None:
        super().__init__(
            "LangChain's trim_messages needs the optional langchain-core package; install it "
            f"with: {INSTALL_HINT}"
        )


def langchain_available() -> bool:
    """Whether langchain-core can be imported (without importing it)."""
    try:
        return find_spec("langchain_core") is not None
    except (ImportError, ValueError):
        return False


def langchain_version() -> str | None:
    """The installed langchain-core version, or None when it is not installed."""
    try:
        return import_module("langchain_core").__version__
    except ImportError:
        return None


def langchain_trim(
    roles: Sequence[str], contents: Sequence[str], budget_chars: int
) -> dict[int, str]:
    """Run LangChain's ``trim_messages`` at ``budget_chars`` characters.

    Returns the kept messages as ``{index: returned content}``, oldest first. Raises
    :class:`LangChainUnavailable` when langchain-core is not installed.
    """
    try:
        messages_module = import_module("langchain_core.messages")
    except ImportError:
        raise LangChainUnavailable() from None
    kept = messages_module.trim_messages(
        list(_messages(tuple(roles), tuple(contents))),
        max_tokens=budget_chars,
        token_counter=_characters,
        strategy="last",
        include_system=True,
    )
    return {int(m.id): m.content for m in kept}


@lru_cache(maxsize=2)
def _messages(roles: tuple[str, ...], contents: tuple[str, ...]) -> tuple[Any, ...]:
    """The history as LangChain messages, kept for the last two histories (keyed on the texts
    themselves; about 1 KB per message besides the texts): building them (pydantic models) is
    most of a run, and a budget move over one history (the explorer's slider) needs the same
    ones. Never handed out: ``trim_messages`` reads them and, without ``allow_partial``, copies
    and changes none (it returns some of the same objects, whose ids and contents are read)."""
    messages_module = import_module("langchain_core.messages")
    kinds = {
        "system": messages_module.SystemMessage,
        "user": messages_module.HumanMessage,
        "assistant": messages_module.AIMessage,
    }
    messages = []
    for i, (role, content) in enumerate(zip(roles, contents, strict=True)):
        if role == "tool":
            message = messages_module.ToolMessage(content, tool_call_id=f"call-{i}", id=str(i))
        else:
            message = kinds[role](content, id=str(i))
        messages.append(message)
    return tuple(messages)


def _characters(messages: list[Any]) -> int:
    """The token counter: characters of the messages' contents (all plain strings here)."""
    return sum(len(m.content) for m in messages)
