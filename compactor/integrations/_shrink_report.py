"""What ``shrink`` removed, beside the messages it returns: the messages removed, cut and
replaced (by their place in the imported conversation, with where each came from in the input),
the orphan halves the export dropped, what the import changed, the budget used and, for a token
budget, the output's tokens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from compactor.formats import Change, Conversion, Exported
from compactor.integrations._budget import TokenFit
from compactor.strategies import CUT, REMOVED, REPLACED, Setting, StrategyResult
from compactor.wording import plural


@dataclass(frozen=True)
class ShrinkReport:
    """One ``shrink``: its setting, what it did to each message, and its totals.

    Message numbers are indices in the imported conversation (``#3``); ``sources`` says where
    each came from in the input (``[3]``, ``messages[3]``, ``system``).
    """

    format: str
    setting: Setting
    budget_chars: int  # the character budget used (chosen from budget_tokens when that is set)
    input_messages: int
    output_messages: int
    input_chars: int
    output_chars: int
    budget_met: bool  # output_chars <= budget_chars (and the token budget, when there is one)
    removed: tuple[int, ...]
    cut: tuple[int, ...]
    replaced: tuple[int, ...]
    sources: tuple[str, ...]
    #: The orphan halves of call/result pairs the export dropped (and any result restored).
    export_notes: tuple[str, ...]
    #: What the import changed (a role mapped, an image removed, a fix made), as reported.
    import_changes: tuple[Change, ...]
    output_tokens: int | None = None  # with budget_tokens: the output's tokens
    #: memory-compact's full response (stages, loss, budget); None for another strategy.
    response: Mapping[str, Any] | None = None

    def summary(self) -> str:
        """One line: ``memory-compact at 4,000 characters: 45 -> 12 messages, ...``."""
        budget = f"{self.budget_chars:,} characters"
        if self.setting.budget_tokens is not None:
            budget += (
                f" (the largest within {self.setting.budget_tokens:,} {self.setting.encoding} "
                f"tokens; the output has {self.output_tokens:,})"
            )
        parts = [
            f"{self.setting.strategy} at {budget}: {self.input_messages} -> "
            f"{plural(self.output_messages, 'message')}, {self.input_chars:,} -> "
            f"{self.output_chars:,} characters",
        ]
        for label, indices in (
            ("removed", self.removed),
            ("cut", self.cut),
            ("replaced", self.replaced),
        ):
            if indices:
                parts.append(f"{label} {', '.join(f'#{i}' for i in indices)}")
        if self.export_notes:
            parts.append(plural(len(self.export_notes), "export note"))
        if not self.budget_met:
            parts.append("budget not met")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "format": self.format,
            "setting": self.setting.to_dict(),
            "budget_chars": self.budget_chars,
            "output_tokens": self.output_tokens,
            "input_messages": self.input_messages,
            "output_messages": self.output_messages,
            "input_chars": self.input_chars,
            "output_chars": self.output_chars,
            "budget_met": self.budget_met,
            "removed": list(self.removed),
            "cut": list(self.cut),
            "replaced": list(self.replaced),
            "sources": list(self.sources),
            "export_notes": list(self.export_notes),
            "import_changes": [
                {"kind": c.kind, "message": c.message, "lossy": c.lossy}
                for c in self.import_changes
            ],
        }


def report_of(
    setting: Setting,
    conversion: Conversion,
    request: Mapping[str, Any],
    response: Mapping[str, Any],
    result: StrategyResult | None,
    exported: Exported,
    fit: TokenFit | None,
) -> ShrinkReport:
    """The report of one shrink, from memory-compact's response or another strategy's
    result."""
    messages: Sequence[Mapping[str, Any]] = request["messages"]
    budget = request["budget_chars"]
    if result is None:
        returned = {m["index"]: m for m in response["messages"]}
        cut = tuple(i for i, m in returned.items() if m["kept"] != "verbatim")
        replaced: tuple[int, ...] = ()
        output_chars = response["loss"]["output_chars"]
    else:
        returned = {m.index: m for m in result.messages if m.kept != REMOVED}
        cut = tuple(m.index for m in result.messages if m.kept == CUT)
        replaced = tuple(m.index for m in result.messages if m.kept == REPLACED)
        output_chars = result.output_chars or 0
    met = output_chars <= budget and (fit is None or fit.fits)
    changes = tuple(c for c in conversion.changes if c.kind != "budget-chosen")
    return ShrinkReport(
        format=conversion.format,
        setting=setting,
        budget_chars=budget,
        input_messages=len(messages),
        output_messages=len(returned),
        input_chars=sum(len(m["content"]) for m in messages),
        output_chars=output_chars,
        budget_met=met,
        removed=tuple(i for i in range(len(messages)) if i not in returned),
        cut=cut,
        replaced=replaced,
        sources=conversion.sources,
        export_notes=exported.notes,
        import_changes=changes,
        output_tokens=None if fit is None else fit.output_tokens,
        response=response if result is None else None,
    )


def unchanged_report(setting: Setting, messages: Sequence[Any]) -> ShrinkReport:
    """The report of a conversation too short to compact (fewer messages than a request
    needs): returned as it is."""
    chars = sum(_text_chars(m) for m in messages)
    budget = setting.budget_chars or 0
    return ShrinkReport(
        format="unread",
        setting=setting,
        budget_chars=budget,
        input_messages=len(messages),
        output_messages=len(messages),
        input_chars=chars,
        output_chars=chars,
        budget_met=setting.budget_tokens is not None or chars <= budget,
        removed=(),
        cut=(),
        replaced=(),
        sources=(),
        export_notes=(),
        import_changes=(),
    )


def _text_chars(message: Any) -> int:
    """The characters of a message's text, whatever its format (best effort, for a report)."""
    content = message.get("content") if isinstance(message, Mapping) else None
    if content is None and not isinstance(message, Mapping):
        content = getattr(message, "text", None)
    if isinstance(content, str):
        return len(content)
    if isinstance(content, list):
        return sum(len(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return 0
