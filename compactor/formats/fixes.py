"""The request's size limits: the fixes a conversion still needs, and applying them on request."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from compactor.contract import LIMITS
from compactor.formats.types import Change, Conversion
from compactor.text.words import grapheme_floor

MAX_MESSAGES = LIMITS["max_messages"]
MAX_CHARS = LIMITS["max_content_chars"]


def limit_changes(messages: list[dict[str, Any]], sources: list[str]) -> list[Change]:
    """The pending lossy fixes: too many messages, and each content over the length limit."""
    out = []
    n = len(messages)
    if n > MAX_MESSAGES:
        first = n - MAX_MESSAGES
        out.append(
            Change(
                "too-many-messages",
                f"the conversation has {n:,} messages and a request holds at most "
                f"{MAX_MESSAGES}: keeping the last {MAX_MESSAGES} would remove the first "
                f"{first:,} (#0 to #{first - 1})",
                None,
                None,
                True,
            )
        )
    for i, message in enumerate(messages):
        length = len(message["content"])
        if length > MAX_CHARS:
            out.append(
                Change(
                    "content-too-long",
                    f"{sources[i]}: the {message['role']} message has {length:,} characters and "
                    f"a request allows {MAX_CHARS:,}: cutting it would lose the last "
                    f"{length - MAX_CHARS:,}",
                    i,
                    sources[i],
                    True,
                )
            )
    return out


def apply_fixes(
    conversion: Conversion, *, keep_last: bool = True, cut_long: bool = True
) -> Conversion:
    """Make the lossy fixes the user chose; each one made is reported as a change.

    ``keep_last`` keeps the last 200 messages when there are more; ``cut_long`` cuts every
    content over 8,000 characters to its first 8,000, moved back to a grapheme boundary so no
    character is split. With both (the default) the request is always within the limits.
    Changes about messages that are no longer there keep their ``source`` but lose their
    ``index``; ``tool_links``, ``sources``, ``removed_results`` and the recorded compactions'
    boundaries are re-indexed (a compaction with no kept message before it is left out).
    """
    messages = list(conversion.request["messages"])
    changes = list(conversion.changes)
    links = conversion.tool_links
    sources = conversion.sources
    removed = conversion.removed_results
    compactions = conversion.compactions
    made: list[Change] = []
    if keep_last and len(messages) > MAX_MESSAGES:
        start = len(messages) - MAX_MESSAGES
        made.append(
            Change(
                "kept-last",
                f"kept the last {MAX_MESSAGES} of {len(messages):,} messages: the first "
                f"{start:,} were removed",
                None,
                None,
                True,
            )
        )
        messages = messages[start:]
        changes = [_shifted(c, start) for c in changes if c.kind != "too-many-messages"]
        # a pending cut for a message that is gone is no longer needed
        changes = [c for c in changes if not (c.kind == "content-too-long" and c.index is None)]
        links = tuple((a - start, b - start) for a, b in links if a >= start)
        sources = sources[start:]
        removed = tuple((a - start, call) for a, call in removed if a >= start)
        # a compaction whose history is gone entirely has nothing left before it
        compactions = tuple(
            replace(c, boundary=c.boundary - start) for c in compactions if c.boundary > start
        )
    if cut_long:
        source = {c.index: c.source for c in changes if c.kind == "content-too-long"}
        for i, message in enumerate(messages):
            content = message["content"]
            if len(content) <= MAX_CHARS:
                continue
            # a single grapheme cluster longer than the limit cannot be kept whole
            end = grapheme_floor(content, MAX_CHARS) or MAX_CHARS
            messages[i] = {**message, "content": content[:end]}
            made.append(
                Change(
                    "cut-content",
                    f"#{i} ({message['role']}) cut from {len(content):,} to {end:,} "
                    f"characters: the last {len(content) - end:,} are lost",
                    i,
                    source.get(i),
                    True,
                )
            )
        changes = [c for c in changes if c.kind != "content-too-long"]
    if not made:
        return conversion
    request = {**conversion.request, "messages": messages}
    return replace(
        conversion,
        request=request,
        changes=tuple(changes + made),
        tool_links=links,
        sources=sources,
        removed_results=removed,
        compactions=compactions,
    )


def _shifted(change: Change, start: int) -> Change:
    if change.index is None:
        return change
    index = change.index - start
    return replace(change, index=index if index >= 0 else None)
