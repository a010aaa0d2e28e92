"""Where the messages are: a bare list, or an object's ``messages`` beside other fields."""

from __future__ import annotations

from typing import Any

from compactor.errors import FormatError, Problem
from compactor.formats._builder import Builder, at, describe


def message_list(
    b: Builder, data: Any, skip: tuple[str, ...] = ()
) -> tuple[list[tuple[str, Any]], dict[str, Any]]:
    """``(source, message)`` pairs and the request parameters found beside them.

    Fields beside ``messages`` other than the parameters and ``skip`` are reported as left out.
    """
    if isinstance(data, list):
        return [(at("", i), m) for i, m in enumerate(data)], {}
    if not isinstance(data, dict):
        raise FormatError(
            [
                Problem(
                    f"expected a list of messages or an object with messages, not {describe(data)}",
                    path="$",
                )
            ]
        )
    messages = data.get("messages")
    if not isinstance(messages, list):
        found = "is missing" if messages is None else f"must be a list, not {describe(messages)}"
        raise FormatError([Problem(f"the list of messages {found}", path="messages")])
    params = b.parameters(data, "", ("messages", *skip))
    return [(at("messages", i), m) for i, m in enumerate(messages)], params
