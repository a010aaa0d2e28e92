"""Lines an agent log holds that are not messages: counted by kind and reported once per kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compactor.formats._builder import Builder
from compactor.wording import plural


@dataclass
class Skips:
    """What a reader skipped: each kind once, with its count and where it first appeared."""

    what: str  # whose records they are, for the report: "Claude Code's own records"
    found: dict[str, list[str]] = field(default_factory=dict)
    lossy: set[str] = field(default_factory=set)
    fields: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, source: str, lossy: bool = False) -> None:
        self.found.setdefault(kind, []).append(source)
        if lossy:
            self.lossy.add(kind)

    def envelope(self, names: list[Any]) -> None:
        """Fields of a line around its message (uuid, timestamp, ...), reported in one change."""
        for name in names:
            name = name if isinstance(name, str) else repr(name)  # a key from Python: 1, (1, 2)
            self.fields[name] = self.fields.get(name, 0) + 1

    def report(self, b: Builder) -> None:
        for kind, sources in self.found.items():
            count = len(sources)
            noun = plural(count, "line")
            first = sources[0] if count > 1 else None
            reason = (
                "content the model produced that a request cannot hold"
                if kind in self.lossy
                else self.what
            )
            b.note(
                "line-skipped",
                f"{noun} of {kind} skipped ({reason})"
                + (f"; the first at {first}" if first else f", at {sources[0]}"),
                sources[0],
                lossy=kind in self.lossy,
            )
        if self.fields:
            names = ", ".join(sorted(self.fields))
            b.note(
                "fields-ignored",
                f"the log's own fields around each message have no place in a request and were "
                f"left out: {names}",
                None,
            )
