"""The walkthrough: pin, dedupe, trim and drop one step at a time, for teaching and demos.

Each step says what its stage protected, removed or cut and why, with the running character
total against the budget after every event and the state of every message after the step. It is
read from one :class:`CompactionResult`; nothing is recomputed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compactor import contract
from compactor.engine import CompactionResult, Fate, MessageTrace
from compactor.wording import plural

# What an event did (``StepEvent.action``).
PROTECTED = "protected"  # pin: the message is protected from every later stage
SPARED = "spared"  # dedupe or trim would have acted, but the message is protected
REMOVED = "removed"  # dedupe: removed as a near-duplicate
CUT = "cut"  # trim: cut to a prefix
DROPPED = "dropped"  # drop: removed for the budget
KEPT = "kept"  # drop: a candidate left in place because the budget was met

# Where a message stands after a step (``MessageAtStep.status``).
PRESENT = "present"
TRIMMED = "trimmed"
DUPLICATE = "duplicate"


@dataclass(frozen=True)
class StepEvent:
    """One thing a stage did, or chose not to do, to one message."""

    index: int
    role: str
    action: str  # "protected", "spared", "removed", "cut", "dropped" or "kept"
    reason: str
    chars_before: int  # the message's characters before the event
    chars_after: int  # and after it (0 when removed)
    total_after: int  # characters present in the whole history after the event
    other: int | None = None  # dedupe: the earlier message it duplicates
    score: float | None = None  # drop: the message's score


@dataclass(frozen=True)
class MessageAtStep:
    index: int
    role: str
    status: str  # "protected", "present", "trimmed", "duplicate" or "dropped"
    chars: int  # characters present after the step (0 when removed)


@dataclass(frozen=True)
class Step:
    stage: str  # "pin", "dedupe", "trim" or "drop"
    order: int  # 1 to 4
    title: str
    rule: str  # the parameters the stage uses, in words
    summary: str
    events: tuple[StepEvent, ...]  # in the order the stage met them
    chars_before: int
    chars_after: int
    budget: int
    messages: tuple[MessageAtStep, ...]  # every message after the step, in index order

    @property
    def over_budget(self) -> bool:
        return self.chars_after > self.budget


@dataclass(frozen=True)
class Walkthrough:
    budget: int
    input_chars: int
    output_chars: int
    budget_met: bool
    steps: tuple[Step, ...]


def walkthrough(result: CompactionResult) -> Walkthrough:
    """The four stages of ``result`` as steps with events and running totals."""
    ledger = _Ledger.start(result)
    pin = _pin(result, ledger)
    dedupe = _dedupe(result, ledger)
    trim = _trim(result, ledger)
    drop = _drop(result, ledger)
    steps = (pin, dedupe, trim, drop)
    return Walkthrough(
        ledger.budget, result.totals.input, result.totals.output, result.budget_met, steps
    )


@dataclass
class _Ledger:
    """Where every message stands as the steps go, handed from one step to the next: its status
    and characters, and the running total the events report (at drop, the engine's own)."""

    traces: tuple[MessageTrace, ...]
    budget: int
    status: list[str]
    chars: list[int]
    total: int

    @classmethod
    def start(cls, result: CompactionResult) -> _Ledger:
        traces = tuple(result.messages)
        chars = [t.original_chars for t in traces]
        budget = result.request.params.budget_chars
        return cls(traces, budget, [PRESENT] * len(traces), chars, sum(chars))

    def set(self, index: int, status: str, chars: int, total: int) -> None:
        self.status[index], self.chars[index], self.total = status, chars, total

    def untouched(self, trace: MessageTrace, action: str, reason: str, **more: Any) -> StepEvent:
        """An event that leaves the message's characters as they are."""
        chars = self.chars[trace.index]
        return _event(trace, action, reason, chars, chars, self.total, **more)

    def step(self, name: str, rule: str, summary: str, events: list, before: int) -> Step:
        """The step, with every message as it stands after it."""
        stage = contract.STAGE[name]
        messages = tuple(
            MessageAtStep(t.index, t.message.role, self.status[t.index], self.chars[t.index])
            for t in self.traces
        )
        return Step(
            stage.name,
            stage.order,
            stage.title,
            rule,
            summary,
            tuple(events),
            before,
            sum(self.chars),
            self.budget,
            messages,
        )


def _pin(result: CompactionResult, ledger: _Ledger) -> Step:
    params = result.request.params
    events = []
    for t in ledger.traces:
        if t.protected:
            ledger.status[t.index] = PROTECTED
            reasons = "; ".join(
                contract.pin_reason(r, t.message.role, params.keep_last_n)
                for r in t.protected_because
            )
            events.append(ledger.untouched(t, PROTECTED, reasons))
    summary = _pin_summary(len(events), len(ledger.traces), result.protected_chars, ledger.budget)
    rule = (
        f"keep_roles = {', '.join(params.keep_roles) or 'none'}; keep_last_n = "
        f"{params.keep_last_n}; explicit pins = {result.protection.explicit_pins}"
    )
    return ledger.step("pin", rule, summary, events, ledger.total)


def _pin_summary(protected: int, messages: int, protected_chars: int, budget: int) -> str:
    summary = (
        f"{protected} of {messages} messages are protected ({protected_chars:,} characters)"
        ": no later stage removes or cuts them."
    )
    if protected_chars > budget:
        summary += f" They alone exceed the budget of {budget:,} characters."
    return summary


def _dedupe(result: CompactionResult, ledger: _Ledger) -> Step:
    before, threshold = ledger.total, result.request.params.duplicate_threshold
    removals = {r.index: r for r in result.deduplication.removed}
    events = []
    for t in ledger.traces:
        near = t.nearest
        if t.index in removals:
            r = removals[t.index]
            ledger.set(t.index, DUPLICATE, 0, ledger.total - r.chars)
            reason = (
                f"word overlap {r.similarity:.3f} with earlier {t.message.role} message "
                f"{r.duplicate_of}, at least the threshold {threshold}"
            )
            other = r.duplicate_of
            events.append(_event(t, REMOVED, reason, r.chars, 0, ledger.total, other=other))
        elif t.protected and near is not None and near.similarity >= threshold:
            reason = (
                f"word overlap {near.similarity:.3f} with message {near.index} reaches the "
                f"threshold {threshold}, but it is protected"
            )
            events.append(ledger.untouched(t, SPARED, reason, other=near.index))
    removed = plural(len(removals), "near-duplicate message")
    summary = f"{removed} removed, {before - ledger.total:,} characters."
    spared = sum(e.action == SPARED for e in events)
    if spared:  # the step's table lists both: one count for each, so they add up to its rows
        summary += (
            f" {plural(spared, 'more message')} reached the threshold but "
            f"{'is' if spared == 1 else 'are'} protected (spared)."
        )
    rule = f"duplicate_threshold = {threshold}; {contract.DEDUPE_METHOD}"
    return ledger.step("dedupe", rule, summary, events, before)


def _trim(result: CompactionResult, ledger: _Ledger) -> Step:
    before, limit = ledger.total, result.request.params.max_message_chars
    events = []
    for t in ledger.traces:
        if t.cut is not None:
            c = t.cut
            ledger.set(t.index, TRIMMED, c.chars, ledger.total - (c.original_chars - c.chars))
            how = _trim_how(c.kind, c.chars)
            reason = f"{c.original_chars:,} characters, over the limit of {limit:,}: {how}"
            events.append(_event(t, CUT, reason, c.original_chars, c.chars, ledger.total))
        elif t.protected and t.original_chars > limit:
            reason = f"{t.original_chars:,} characters, over the limit of {limit:,}, but protected"
            events.append(ledger.untouched(t, SPARED, reason))
    cuts = len(result.trimming.cuts)
    later = sum(1 for c in result.trimming.cuts if ledger.traces[c.index].fate is Fate.DROPPED)
    spared = sum(e.action == SPARED for e in events)
    summary = _trim_summary(cuts, later, limit, before - ledger.total, spared)
    rule = f"max_message_chars = {limit:,}; {contract.TRIM_CUT_AT}"
    return ledger.step("trim", rule, summary, events, before)


def _trim_how(kind: str, kept: int) -> str:
    if kind == "sentence":
        return f"cut at the last sentence end within the limit, keeping {kept:,}"
    return (
        "no sentence end in the last 60 percent of the limit, so a hard cut "
        f"(never inside a character cluster), keeping {kept:,}"
    )


def _trim_summary(cuts: int, dropped_later: int, limit: int, removed: int, spared: int = 0) -> str:
    summary = f"{plural(cuts, 'message')} cut to at most {limit:,} characters, {removed:,} removed."
    if dropped_later:
        summary += (
            f" Drop removes {dropped_later:,} of them later (step 4), so "
            f"{cuts - dropped_later:,} stay trimmed."
        )
    if spared:
        summary += (
            f" {plural(spared, 'more message')} over the limit "
            f"{'is' if spared == 1 else 'are'} protected (spared)."
        )
    return summary


def _drop(result: CompactionResult, ledger: _Ledger) -> Step:
    before, budget = ledger.total, ledger.budget
    dropped = {d.index: d for d in result.dropping.dropped}
    events = []
    for i in result.dropping.order:
        t, score = ledger.traces[i], result.dropping.scores[i].value
        if i in dropped:
            d = dropped[i]
            ledger.set(i, DROPPED, 0, d.total_after)
            reason = (
                f"lowest score left ({score:.3f}) while {d.total_before:,} characters are "
                f"present, over the budget of {budget:,}"
            )
            events.append(_event(t, DROPPED, reason, d.chars, 0, ledger.total, score=score))
        else:
            reason = f"score {score:.3f}; kept, the budget was met before its turn"
            events.append(ledger.untouched(t, KEPT, reason, score=score))
    summary = _drop_summary(len(dropped), ledger.total, budget)
    rule = f"budget_chars = {budget:,}; {contract.DROP_ORDER}"
    return ledger.step("drop", rule, summary, events, before)


def _drop_summary(dropped: int, total: int, budget: int) -> str:
    if not dropped:
        return f"Nothing to drop: {total:,} characters already fit the budget of {budget:,}."
    if total <= budget:
        return (
            f"{plural(dropped, 'message')} dropped, lowest score first: {total:,} characters "
            f"now fit the budget of {budget:,}."
        )
    return (
        f"Every unprotected message dropped ({dropped}); the protected messages alone, "
        f"{total:,} characters, exceed the budget of {budget:,} by {total - budget:,}."
    )


def _event(
    trace: MessageTrace,
    action: str,
    reason: str,
    before: int,
    after: int,
    total: int,
    other: int | None = None,
    score: float | None = None,
) -> StepEvent:
    return StepEvent(
        trace.index, trace.message.role, action, reason, before, after, total, other, score
    )
