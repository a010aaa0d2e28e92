"""The walkthrough: pin, dedupe, trim and drop one step at a time, for teaching and demos.

Each step says what its stage protected, removed or cut and why, with the running character
total against the budget after every event and the state of every message after the step. It is
read from one :class:`CompactionResult`; nothing is recomputed.
"""

from __future__ import annotations

from dataclasses import dataclass

from compactor import contract
from compactor.engine.result import CompactionResult, Fate, MessageTrace
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
    params = result.request.params
    traces = result.messages
    budget = params.budget_chars
    status = ["present"] * len(traces)
    chars = [t.original_chars for t in traces]

    def snapshot() -> tuple[MessageAtStep, ...]:
        return tuple(
            MessageAtStep(t.index, t.message.role, status[t.index], chars[t.index]) for t in traces
        )

    def step(name: str, rule: str, summary: str, events: list, before: int) -> Step:
        stage = contract.STAGE[name]
        return Step(
            stage.name,
            stage.order,
            stage.title,
            rule,
            summary,
            tuple(events),
            before,
            sum(chars),
            budget,
            snapshot(),
        )

    steps = []
    # 1. pin
    total = sum(chars)
    events = []
    for t in traces:
        if t.protected:
            status[t.index] = PROTECTED
            reasons = "; ".join(
                contract.pin_reason(r, t.message.role, params.keep_last_n)
                for r in t.protected_because
            )
            events.append(_event(t, PROTECTED, reasons, chars[t.index], chars[t.index], total))
    protected_chars = result.protected_chars
    summary = (
        f"{len(events)} of {len(traces)} messages are protected ({protected_chars:,} characters)"
        ": no later stage removes or cuts them."
    )
    if protected_chars > budget:
        summary += f" They alone exceed the budget of {budget:,} characters."
    rule = (
        f"keep_roles = {', '.join(params.keep_roles) or 'none'}; keep_last_n = "
        f"{params.keep_last_n}; explicit pins = {result.protection.explicit_pins}"
    )
    steps.append(step("pin", rule, summary, events, total))

    # 2. dedupe
    before, threshold = total, params.duplicate_threshold
    removals = {r.index: r for r in result.deduplication.removed}
    events = []
    for t in traces:
        near = t.nearest
        if t.index in removals:
            r = removals[t.index]
            total -= r.chars
            status[t.index], chars[t.index] = DUPLICATE, 0
            reason = (
                f"word overlap {r.similarity:.3f} with earlier {t.message.role} message "
                f"{r.duplicate_of}, at least the threshold {threshold}"
            )
            events.append(_event(t, REMOVED, reason, r.chars, 0, total, other=r.duplicate_of))
        elif t.protected and near is not None and near.similarity >= threshold:
            reason = (
                f"word overlap {near.similarity:.3f} with message {near.index} reaches the "
                f"threshold {threshold}, but it is protected"
            )
            events.append(
                _event(t, SPARED, reason, chars[t.index], chars[t.index], total, other=near.index)
            )
    removed = plural(len(removals), "near-duplicate message")
    summary = f"{removed} removed, {before - total:,} characters."
    rule = f"duplicate_threshold = {threshold}; {contract.DEDUPE_METHOD}"
    steps.append(step("dedupe", rule, summary, events, before))

    # 3. trim
    before, limit = total, params.max_message_chars
    events = []
    for t in traces:
        if t.cut is not None:
            c = t.cut
            total -= c.original_chars - c.chars
            status[t.index], chars[t.index] = TRIMMED, c.chars
            if c.kind == "sentence":
                how = f"cut at the last sentence end within the limit, keeping {c.chars:,}"
            else:
                how = (
                    "no sentence end in the last 60 percent of the limit, so a hard cut "
                    f"(never inside a character cluster), keeping {c.chars:,}"
                )
            reason = f"{c.original_chars:,} characters, over the limit of {limit:,}: {how}"
            events.append(_event(t, CUT, reason, c.original_chars, c.chars, total))
        elif t.protected and t.original_chars > limit:
            reason = f"{t.original_chars:,} characters, over the limit of {limit:,}, but protected"
            events.append(_event(t, SPARED, reason, chars[t.index], chars[t.index], total))
    cuts = len(result.trimming.cuts)
    cut = plural(cuts, "message")
    summary = f"{cut} cut to at most {limit:,} characters, {before - total:,} removed."
    later = sum(1 for c in result.trimming.cuts if traces[c.index].fate is Fate.DROPPED)
    if later:
        summary += (
            f" Drop removes {later:,} of them later (step 4), so {cuts - later:,} stay trimmed."
        )
    rule = f"max_message_chars = {limit:,}; {contract.TRIM_CUT_AT}"
    steps.append(step("trim", rule, summary, events, before))

    # 4. drop
    before = total
    events = []
    dropped = {d.index: d for d in result.dropping.dropped}
    for i in result.dropping.order:
        t, score = traces[i], result.dropping.scores[i].value
        if i in dropped:
            d = dropped[i]
            total = d.total_after
            status[i], chars[i] = DROPPED, 0
            reason = (
                f"lowest score left ({score:.3f}) while {d.total_before:,} characters are "
                f"present, over the budget of {budget:,}"
            )
            events.append(_event(t, DROPPED, reason, d.chars, 0, total, score=score))
        else:
            reason = f"score {score:.3f}; kept, the budget was met before its turn"
            events.append(_event(t, KEPT, reason, chars[i], chars[i], total, score=score))
    if not dropped:
        summary = f"Nothing to drop: {total:,} characters already fit the budget of {budget:,}."
    elif total <= budget:
        summary = (
            f"{plural(len(dropped), 'message')} dropped, lowest score first: {total:,} characters "
            f"now fit the budget of {budget:,}."
        )
    else:
        summary = (
            f"Every unprotected message dropped ({len(dropped)}); the protected messages alone, "
            f"{total:,} characters, exceed the budget of {budget:,} by {total - budget:,}."
        )
    rule = f"budget_chars = {budget:,}; {contract.DROP_ORDER}"
    steps.append(step("drop", rule, summary, events, before))

    return Walkthrough(
        budget, result.totals.input, result.totals.output, result.budget_met, tuple(steps)
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
