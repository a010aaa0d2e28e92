"""What a replay costs at one model's prices: every model call split into cache reads, cache
writes, uncached input and output tokens, priced by the table's entry.

A *call* is a turn whose next recorded message is the assistant's (the model was called with
the history sent at that turn, and answered with that message), and the last turn when its
message is not the assistant's (the call the log ends on; no output recorded). Its prompt is the
history sent at that turn (``Replay.histories[t]``), its output the recorded assistant message.

For a call with a prompt of ``P`` tokens:

- *reads*: the leading messages equal (in role and content) to the previous call's prompt, when
  that prompt was cached (at least the minimum cacheable prefix, when the table gives one) and
  the cache is still alive (the gap is within the lifetime; without timestamps, and the importer
  keeps none, every call is assumed within it); none when the model has no cache-read price;
- *writes*: the rest of the prompt, written to the cache, when the model has a cache-write
  price and the prompt reaches the minimum cacheable prefix;
- *uncached*: the rest of the prompt otherwise (no write price: the provider bills it as input);
- *output*: the tokens of the recorded assistant message.

Tokens are counted per message content: with the tokens extra in ``o200k_base`` (exact only for
a model whose entry names that tokenizer; approximate for every other, Anthropic's and Google's
among them, whose tokenizers are not available offline), else ``ceil(characters / 4)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from compactor.analyses._graded import RECORDED
from compactor.analyses._prefix import common_prefix
from compactor.analyses.pricing._table import ModelPrice
from compactor.text import DEFAULT_ENCODING, count_tokens, estimate_tokens, tokens_available

MILLION = 1_000_000
ESTIMATE = "characters / 4"


@dataclass(frozen=True)
class TokenCounter:
    """How tokens are counted: ``encoding`` (an offline tokenizer) or the characters / 4
    estimate (``encoding`` None); each distinct content counted once."""

    encoding: str | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "_seen", {})

    @classmethod
    def best(cls) -> TokenCounter:
        """``o200k_base`` when the tokens extra is installed, else the estimate."""
        return cls(DEFAULT_ENCODING if tokens_available() else None)

    @property
    def method(self) -> str:
        return self.encoding or ESTIMATE

    def __call__(self, content: str) -> int:
        seen: dict[str, int] = self._seen  # type: ignore[attr-defined]
        if content not in seen:
            seen[content] = (
                count_tokens(content, self.encoding)
                if self.encoding
                else estimate_tokens(len(content))
            )
        return seen[content]

    def exact_for(self, model: ModelPrice) -> bool:
        """Whether the counts are the model's own: its entry names this tokenizer."""
        return self.encoding is not None and model.tokenizer == self.encoding


@dataclass(frozen=True)
class Split:
    """Tokens of one call (or summed over calls), by how they are billed."""

    reads: int = 0
    writes: int = 0
    uncached: int = 0
    output: int = 0

    def __add__(self, other: Split) -> Split:
        return Split(
            self.reads + other.reads,
            self.writes + other.writes,
            self.uncached + other.uncached,
            self.output + other.output,
        )

    @property
    def input(self) -> int:
        return self.reads + self.writes + self.uncached

    def to_dict(self) -> dict[str, int]:
        return {
            "reads": self.reads,
            "writes": self.writes,
            "uncached": self.uncached,
            "output": self.output,
        }


@dataclass(frozen=True)
class Dollars:
    """The cost of a :class:`Split` in USD, part by part."""

    reads: float
    writes: float
    uncached: float
    output: float

    @property
    def total(self) -> float:
        return self.reads + self.writes + self.uncached + self.output

    def to_dict(self) -> dict[str, float]:
        return {
            "reads": self.reads,
            "writes": self.writes,
            "uncached": self.uncached,
            "output": self.output,
            "total": self.total,
        }


def dollars(split: Split, model: ModelPrice, lifetime_seconds: int | None = None) -> Dollars | None:
    """``split`` at ``model``'s prices; None when the model has no input or output price. A
    write is billed at the cache write of ``lifetime_seconds`` (None: the shortest)."""
    if not model.priced:
        return None
    assert model.input is not None and model.output is not None
    write = model.cache_write(lifetime_seconds)
    read = model.cache_read if model.cache_read is not None else model.input
    return Dollars(
        split.reads * read / MILLION,
        split.writes * (write.per_mtok if write else model.input) / MILLION,
        split.uncached * model.input / MILLION,
        split.output * model.output / MILLION,
    )


@dataclass(frozen=True)
class CallCost:
    """One turn of a replay: whether the model was called there, and what the call cost."""

    turn: int
    call: bool
    prompt_tokens: int
    split: Split
    cost: Dollars | None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "turn": self.turn,
            "call": self.call,
            "prompt_tokens": self.prompt_tokens,
        }
        out.update(self.split.to_dict())
        out["cost_usd"] = self.cost.total if self.cost is not None else None
        return out


@dataclass(frozen=True)
class ReplayCost:
    """A replay priced at one model: every turn, and the whole task."""

    model: str
    tokens: str  # how tokens were counted: an encoding, or "characters / 4"
    approximate: bool  # whether the counts are not the model's own tokenizer's
    lifetime_seconds: int | None  # the cache lifetime priced (None: the model has no write price)
    turns: tuple[CallCost, ...]

    @property
    def calls(self) -> int:
        return sum(t.call for t in self.turns)

    @property
    def split(self) -> Split:
        total = Split()
        for t in self.turns:
            total = total + t.split
        return total

    @property
    def cost(self) -> Dollars | None:
        """The whole task (every call), part by part; None when the model has no price."""
        parts = [t.cost for t in self.turns if t.call]
        if any(p is None for p in parts):
            return None
        return Dollars(
            *(sum(getattr(p, k) for p in parts) for k in ("reads", "writes", "uncached", "output"))
        )

    def to_dict(self) -> dict[str, Any]:
        cost = self.cost
        return {
            "model": self.model,
            "tokens": self.tokens,
            "approximate": self.approximate,
            "cache_lifetime_seconds": self.lifetime_seconds,
            "calls": self.calls,
            "split": self.split.to_dict(),
            "cost_usd": cost.to_dict() if cost is not None else None,
        }


def price_histories(
    histories: Sequence[Sequence[Any]],
    recorded: Sequence[Any],
    model: ModelPrice,
    *,
    counter: Callable[[str], int] | None = None,
    lifetime_seconds: int | None = None,
    times: Sequence[float | None] | None = None,
) -> ReplayCost:
    """Price a replay: ``histories[t]`` is what was sent at turn ``t`` (messages with ``role``
    and ``content``; ``histories[0]`` is ``[m_0]``), ``recorded`` the recorded messages (their
    roles say where the calls are, the assistant's contents are the outputs).

    ``times``, when given, is each recorded message's time in seconds (None where unknown):
    a call whose message came more than the lifetime after the previous call's reads nothing.
    Turn 0 is included (a call when ``m_1`` is the assistant's), so ``turns[t]`` is turn ``t``.
    """
    count = counter or TokenCounter.best()
    write = model.cache_write(lifetime_seconds)
    life = write.lifetime_seconds if write else lifetime_seconds
    minimum = model.min_cacheable_tokens or 0
    n = len(recorded)
    turns = []
    cached: Sequence[Any] = ()  # the prompt the cache holds (the last cached call's)
    last_time: float | None = None
    for t, sent in enumerate(histories):
        sizes = [count(m.content) for m in sent]
        prompt = sum(sizes)
        is_call = (t + 1 < n and recorded[t + 1].role == "assistant") or (
            t == n - 1 and recorded[t].role != "assistant" and t > 0
        )
        if not is_call:
            turns.append(CallCost(t, False, prompt, Split(), None))
            continue
        now = times[t] if times is not None and t < len(times) else None
        alive = not (
            life is not None
            and now is not None
            and last_time is not None
            and now - last_time > life
        )
        same = common_prefix(cached, sent) if alive and model.cache_read is not None else 0
        reads = sum(sizes[:same])
        rest = prompt - reads
        cacheable = prompt >= minimum
        writes = rest if write is not None and cacheable else 0
        output = count(recorded[t + 1].content) if t + 1 < n else 0
        split = Split(reads, writes, rest - writes, output)
        turns.append(CallCost(t, True, prompt, split, dollars(split, model, life)))
        if cacheable:
            cached, last_time = sent, now
        elif not alive:
            cached = ()
    encoding = getattr(count, "encoding", None)
    method = getattr(count, "method", "custom")
    exact = encoding is not None and model.tokenizer == encoding
    return ReplayCost(model.key, method, not exact, life if write else None, tuple(turns))


@dataclass(frozen=True)
class CompactionCost:
    """What replacing a history costs: the model call that writes the summary (none for a
    strategy, which runs no model) and the next call's write of the new context to the cache
    (the old prefix is gone)."""

    call: Split  # the summary call: the history read from the cache, the summary as output
    rewrite: Split  # the next call writes the kept context
    cost: Dollars | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "call": self.call.to_dict(),
            "rewrite": self.rewrite.to_dict(),
            "cost_usd": self.cost.total if self.cost is not None else None,
        }


def compaction_cost(
    history_tokens: int,
    kept_tokens: int,
    model: ModelPrice,
    *,
    summary_tokens: int | None = None,
    kept_prefix_tokens: int = 0,
    lifetime_seconds: int | None = None,
) -> CompactionCost:
    """The cost of one compaction at ``model``: with ``summary_tokens`` (a model wrote the
    summary), a call whose input is the history (read from the cache the agent's last call
    wrote, when the model has a cache-read price; else uncached) and whose output is the
    summary; then, for any compaction, the next call sends the ``kept_tokens`` of the new
    context: its first ``kept_prefix_tokens`` (leading messages the compaction left as they
    were) read from the cache, the rest written (uncached input when the model has no write
    price)."""
    if summary_tokens is not None:
        cached = model.cache_read is not None
        call = Split(
            history_tokens if cached else 0, 0, 0 if cached else history_tokens, summary_tokens
        )
    else:
        call = Split()
    has_write = model.cache_write(lifetime_seconds) is not None
    reads = kept_prefix_tokens if model.cache_read is not None else 0
    rest = kept_tokens - reads
    rewrite = Split(reads, rest if has_write else 0, 0 if has_write else rest, 0)
    total = dollars(call + rewrite, model, lifetime_seconds)
    return CompactionCost(call, rewrite, total)


def graded_costs(
    graded: Any,
    model: ModelPrice,
    *,
    counter: Callable[[str], int] | None = None,
    lifetime_seconds: int | None = None,
) -> dict[str, CompactionCost]:
    """What each row of a graded compaction (a
    :class:`~compactor.analyses._graded.GradedCompaction`) costs at ``model``, by row key: the
    recorded summary's call (the history in, the summary out) and its rewrite of the cache; a
    strategy's rewrite alone (it calls no model), where the leading messages it left as they
    were are read from the cache. Rows that could not run are left out."""
    count = counter or TokenCounter.best()
    history = sum(count(c) for c in graded.history)
    out = {}
    for row in graded.rows:
        if not row.available:
            continue
        kept = sum(count(c) for c in row.returned)
        recorded = row.key == RECORDED
        same = 0 if recorded else _common_contents(graded.history, row.returned)
        out[row.key] = compaction_cost(
            history,
            kept,
            model,
            summary_tokens=kept if recorded else None,
            kept_prefix_tokens=sum(count(c) for c in row.returned[:same]),
            lifetime_seconds=lifetime_seconds,
        )
    return out


def _common_contents(before: Sequence[str], after: Sequence[str]) -> int:
    same = 0
    for a, b in zip(before, after, strict=False):
        if a != b:
            break
        same += 1
    return same
