"""The request's size limits: the fixes a conversion still needs, and applying them on request.

A conversation over 200 messages keeps a :class:`Window` of them: the last 200 (the default),
the first N and the last M, or one range; what it leaves out is reported by message number and
characters."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from compactor.contract import LIMITS
from compactor.errors import FormatError, Problem
from compactor.formats._types import Change, Conversion
from compactor.text import grapheme_floor

MAX_MESSAGES = LIMITS["max_messages"]
MAX_CHARS = LIMITS["max_content_chars"]


@dataclass(frozen=True)
class Window:
    """Which messages of a conversation to keep: the first ``first`` and the last ``last``
    (``None``: as many as fit beside the first, ``200 - first``), or, when ``start`` is set,
    the range ``#start`` to ``#end`` (both kept; ``end`` None: to the last message).

    >>> Window(first=2).kept(704)[:3], len(Window(first=2).kept(704))
    ([0, 1, 506], 200)
    >>> Window(start=504).kept(704)[0], Window(start=10, end=12).kept(704)
    (504, [10, 11, 12])
    """

    first: int = 0
    last: int | None = None
    start: int | None = None
    end: int | None = None

    @property
    def is_range(self) -> bool:
        return self.start is not None

    def kept(self, n: int) -> list[int]:
        """The indices kept of ``n`` messages, in order."""
        if self.is_range:
            end = n - 1 if self.end is None else min(self.end, n - 1)
            return list(range(self.start or 0, end + 1))
        head = min(self.first, n)
        last = max(MAX_MESSAGES - self.first, 0) if self.last is None else self.last
        return list(range(head)) + list(range(max(n - last, head), n))

    def problems(self, n: int) -> list[Problem]:
        """Why this window cannot make a request of ``n`` messages (empty when it can)."""
        if self.is_range:
            end = n - 1 if self.end is None else self.end
            if not 0 <= (self.start or 0) <= end < n:
                return [
                    Problem(
                        f"the range #{self.start} to #{end} is not within the {n:,} messages "
                        f"(#0 to #{n - 1}); the first number must not be above the second",
                        path="window",
                    )
                ]
        elif self.first < 0 or (self.last is not None and self.last < 0):
            return [Problem("the first and last counts must not be negative", path="window")]
        kept = len(self.kept(n))
        if kept > MAX_MESSAGES:
            return [
                Problem(
                    f"the window keeps {kept:,} messages and a request holds at most "
                    f"{MAX_MESSAGES}: keep {kept - MAX_MESSAGES:,} fewer",
                    path="window",
                )
            ]
        if kept < LIMITS["min_messages"]:
            return [
                Problem(
                    f"the window keeps {kept} message{'s' if kept != 1 else ''} and a request "
                    f"needs at least {LIMITS['min_messages']}",
                    path="window",
                )
            ]
        return []


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
                f"{first:,} (#0 to #{first - 1}); or keep the first N and the last "
                f"{MAX_MESSAGES} - N, or any range of {MAX_MESSAGES}",
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


def spans(indices: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted ``indices``, as (first, last) pairs."""
    out: list[tuple[int, int]] = []
    for i in indices:
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def spans_text(indices: list[int]) -> str:
    """``#0 to #9 and #514 to #703`` (a single message: ``#5``)."""
    parts = [f"#{a}" if a == b else f"#{a} to #{b}" for a, b in spans(indices)]
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def _window_change(
    messages: list[dict[str, Any]], kept: list[int], window: Window | None
) -> Change:
    n = len(messages)
    kept_set = set(kept)
    removed = [i for i in range(n) if i not in kept_set]
    chars = sum(len(messages[i]["content"]) for i in removed)
    gone = (
        f"{spans_text(removed)} were removed ({len(removed):,} messages, {chars:,} characters)"
        if removed
        else "nothing was removed"
    )
    if window is None or (not window.is_range and window.first == 0):
        return Change(
            "kept-last",
            f"kept the last {len(kept):,} of {n:,} messages: {gone}",
            None,
            None,
            bool(removed),
        )
    return Change(
        "kept-window",
        f"kept {spans_text(kept)} ({len(kept):,} of {n:,} messages): {gone}",
        None,
        None,
        bool(removed),
    )


def apply_fixes(
    conversion: Conversion,
    *,
    keep_last: bool = True,
    cut_long: bool = True,
    window: Window | None = None,
) -> Conversion:
    """Make the lossy fixes the user chose; each one made is reported as a change.

    ``keep_last`` keeps the last 200 messages when there are more; ``window`` instead keeps the
    messages it names (whatever their number; :class:`FormatError` when it cannot make a
    request: over 200 messages, or outside the conversation); ``cut_long`` cuts every content
    over 8,000 characters to its first 8,000, moved back to a grapheme boundary so no character
    is split. With both (the default) the request is always within the limits. The change
    names the messages left out and their characters. Changes about messages that are no longer
    there keep their ``source`` but lose their ``index``; ``tool_links`` (a pair with a half
    left out is gone), ``sources``, ``removed_results`` and the recorded compactions' boundaries
    are re-indexed (a compaction with no kept message before it is left out).
    """
    messages = list(conversion.request["messages"])
    changes = list(conversion.changes)
    links = conversion.tool_links
    sources = conversion.sources
    removed = conversion.removed_results
    compactions = conversion.compactions
    orphans = conversion.window_orphans
    made: list[Change] = []
    if window is not None:
        problems = window.problems(len(messages))
        if problems:
            raise FormatError(problems)
    if window is not None or (keep_last and len(messages) > MAX_MESSAGES):
        kept = (window or Window()).kept(len(messages))
        made.append(_window_change(messages, kept, window))
        new = {old: i for i, old in enumerate(kept)}
        messages_before = messages
        messages = [messages[i] for i in kept]
        changes = [_moved(c, new) for c in changes if c.kind != "too-many-messages"]
        # a pending cut for a message that is gone is no longer needed
        changes = [c for c in changes if not (c.kind == "content-too-long" and c.index is None)]
        orphans = tuple(new[b] for b in _callers_left_out(messages_before, links, new))
        links = tuple((new[a], new[b]) for a, b in links if a in new and b in new)
        sources = tuple(sources[i] for i in kept if i < len(sources))
        removed = tuple((new[a], call) for a, call in removed if a in new)
        # a compaction whose history is gone entirely has nothing left before it
        compactions = tuple(
            replace(c, boundary=before)
            for c in compactions
            if (before := sum(1 for i in kept if i < c.boundary)) > 0
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
        window_orphans=orphans,
    )


def _callers_left_out(
    messages: list[dict[str, Any]], links: tuple[tuple[int, int], ...], kept: dict[int, int]
) -> list[int]:
    """The kept tool messages whose call is in a message the window left out: by the import's
    link, or, for a result without one, the assistant message just before its run of tool
    messages (the pairing check's adjacency).

    >>> roles = ["user", "assistant", "tool", "tool", "assistant", "tool"]
    >>> _callers_left_out([{"role": r} for r in roles], (), {3: 0, 4: 1, 5: 2})
    [3]
    >>> _callers_left_out([{"role": r} for r in roles], ((1, 5),), {5: 0})
    [5]
    """
    linked = {b: a for a, b in links}
    out = []
    for b in sorted(kept):
        if messages[b]["role"] != "tool":
            continue
        call = linked.get(b)
        if call is None:
            j = b - 1
            while j >= 0 and messages[j]["role"] == "tool":
                j -= 1
            call = j if j >= 0 and messages[j]["role"] == "assistant" else None
        if call is not None and call not in kept:
            out.append(b)
    return out


def _moved(change: Change, new: dict[int, int]) -> Change:
    if change.index is None:
        return change
    return replace(change, index=new.get(change.index))
