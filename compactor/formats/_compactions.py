"""Compactions an agent log recorded: noted while the log is read, placed among the request's
messages when the conversion finishes (a message left empty is not a message, so a boundary is
counted in the messages that made it into the request)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compactor.formats._types import Change, RecordedCompaction


@dataclass
class _Pending:
    drafts_before: int  # how many drafts were made before it
    source: str
    trigger: str | None = None
    pre_tokens: int | None = None
    post_tokens: int | None = None
    summary: str | None = None
    summary_source: str | None = None
    #: The boundary's metadata that could not be read, each said in words (left out).
    unreadable: tuple[str, ...] = ()


#: Whose log, as the changes name it.
TOOLS = {"claude-code": "Claude Code", "codex": "Codex"}


class Recorder:
    """The compactions of one log, in order, each with where its summary was."""

    def __init__(self, format: str):
        self.what = TOOLS.get(format, "the log")
        self.pending: list[_Pending] = []

    def boundary(
        self,
        drafts: int,
        source: str,
        trigger: Any,
        pre_tokens: Any,
        post_tokens: Any,
        unreadable: tuple[str, ...] = (),
    ) -> None:
        """A compaction's boundary, after ``drafts`` drafts; its summary may follow. Metadata of
        the wrong kind is left out and said (``unreadable``: what the reader found already)."""
        found = list(unreadable)
        for name, value, read, kind in (
            ("trigger", trigger, _text, "a text"),
            ("preTokens", pre_tokens, _count, "a count of tokens"),
            ("postTokens", post_tokens, _count, "a count of tokens"),
        ):
            if value is not None and read(value) is None:
                found.append(f"{name} is not {kind} ({_excerpt(value)})")
        self.pending.append(
            _Pending(
                drafts,
                source,
                _text(trigger),
                _count(pre_tokens),
                _count(post_tokens),
                unreadable=tuple(found),
            )
        )

    def summary(self, drafts: int, text: str, source: str) -> None:
        """The summary the tool wrote: the open boundary's when no message came between them,
        else a compaction of its own (a log that holds the summary without its boundary)."""
        last = self.pending[-1] if self.pending else None
        if last is None or last.summary is not None or last.drafts_before != drafts:
            last = _Pending(drafts, source)
            self.pending.append(last)
        last.summary, last.summary_source = text, source

    def place(self, drafted: list[bool]) -> tuple[tuple[RecordedCompaction, ...], list[Change]]:
        """The compactions with their boundaries as request indices (``drafted[k]``: whether
        draft ``k`` became a message), and one change each saying where it is kept."""
        out, changes = [], []
        for p in self.pending:
            boundary = sum(drafted[: p.drafts_before])
            summary = p.summary or ""
            out.append(
                RecordedCompaction(
                    boundary, summary, p.trigger, p.pre_tokens, p.post_tokens, p.source
                )
            )
            changes.append(Change("compaction-kept", self._said(p, boundary), None, p.source))
            if p.unreadable:
                said = "; ".join(p.unreadable)
                changes.append(
                    Change(
                        "compaction-metadata-skipped",
                        f"{p.source}: the compaction's metadata could not be read and was left "
                        f"out: {said}",
                        None,
                        p.source,
                    )
                )
        return tuple(out), changes

    def _said(self, p: _Pending, boundary: int) -> str:
        facts = [f"trigger {p.trigger}"] if p.trigger else []
        if p.pre_tokens is not None:
            facts.append(f"{p.pre_tokens:,} tokens before")
        if p.post_tokens is not None:
            facts.append(f"{p.post_tokens:,} after")
        told = f" ({', '.join(facts)})" if facts else ""
        if p.summary is None:
            summary = "the log holds no summary for it"
        else:
            summary = (
                f"its summary ({p.summary_source}, {len(p.summary):,} characters) is kept with "
                "it, not as a message"
            )
        return (
            f"{p.source}: a compaction {self.what} recorded{told}, before message #{boundary}, "
            f"is kept in the conversion's compactions; {summary}"
        )


def _excerpt(value: Any) -> str:
    text = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _count(value: Any) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return value if ok else None
