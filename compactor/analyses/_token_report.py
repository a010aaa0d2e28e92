"""Token reports: a compaction's characters beside real token counts and the estimate, per
message, per stage and in total (the tokenizer itself is :mod:`compactor.text._tokens`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from compactor.engine import CompactionResult, Fate
from compactor.text import (
    CHARS_PER_TOKEN,
    DEFAULT_ENCODING,
    count_tokens,
    estimate_tokens,
    text_kind,
)


@dataclass(frozen=True)
class MessageTokens:
    """One message's characters and tokens, in the input and as returned."""

    index: int
    role: str
    kind: str  # text_kind of its content
    chars: int
    tokens: int
    estimate: int
    returned_chars: int  # 0 when it is not returned
    returned_tokens: int

    @property
    def error(self) -> int:
        """How far the estimate is off: estimate - tokens (negative: too low)."""
        return self.estimate - self.tokens

    @property
    def relative_error(self) -> float:
        """``error / tokens`` (0.0 for a message without tokens)."""
        return self.error / self.tokens if self.tokens else 0.0


@dataclass(frozen=True)
class TokenTotals:
    chars: int
    tokens: int
    estimate: int

    @property
    def error(self) -> int:
        return self.estimate - self.tokens


@dataclass(frozen=True)
class StageTokens:
    """What is present after one stage (``input`` is before any)."""

    stage: str  # "input", "dedupe", "trim", "drop" (the output)
    chars: int
    tokens: int
    estimate: int


@dataclass(frozen=True)
class BudgetTokens:
    """The character budget in tokens, at the conversation's own characters per token."""

    budget_chars: int
    chars_per_token: float  # of the returned text, or the input when nothing is returned
    tokens: int  # about this many tokens: budget_chars / chars_per_token, rounded

    @property
    def sentence(self) -> str:
        return f"this budget of {self.budget_chars:,} characters is about {self.tokens:,} tokens"


@dataclass(frozen=True)
class TokenReport:
    encoding: str
    messages: tuple[MessageTokens, ...]
    total: TokenTotals  # the input
    stages: tuple[StageTokens, ...]  # input, dedupe, trim, drop
    budget: BudgetTokens

    @property
    def output(self) -> StageTokens:
        return self.stages[-1]

    def worst_estimates(self, n: int = 5) -> tuple[MessageTokens, ...]:
        """The ``n`` messages whose estimate is furthest off, relatively, worst first."""
        ranked = sorted(self.messages, key=lambda m: (-abs(m.relative_error), m.index))
        return tuple(ranked[:n])


def message_counts(
    contents: Sequence[str], encoding: str = DEFAULT_ENCODING
) -> tuple[tuple[int, int, int], ...]:
    """``(chars, tokens, estimate)`` of each content."""
    return tuple((len(c), count_tokens(c, encoding), estimate_tokens(len(c))) for c in contents)


def token_report(result: CompactionResult, encoding: str = DEFAULT_ENCODING) -> TokenReport:
    """Tokens per message, per stage and in total for one result, and its budget in tokens.

    Raises :class:`TokenizerUnavailable` without the ``tokens`` extra.
    """
    messages = []
    after_trim = []  # (chars, tokens) present after trim, per message not removed by dedupe
    for t in result.messages:
        content = t.message.content
        tokens = count_tokens(content, encoding)
        if t.cut is None:
            trimmed = (len(content), tokens)
        else:
            trimmed = (t.cut.chars, count_tokens(content[: t.cut.chars], encoding))
        if t.fate is not Fate.DUPLICATE:
            after_trim.append((t.index, *trimmed))
        returned = trimmed if t.survived else (0, 0)
        messages.append(
            MessageTokens(
                t.index,
                t.message.role,
                text_kind(content),
                len(content),
                tokens,
                estimate_tokens(len(content)),
                *returned,
            )
        )
    kept = {i for i, _, _ in after_trim}
    stages = (
        _stage("input", [(m.chars, m.tokens) for m in messages]),
        _stage("dedupe", [(m.chars, m.tokens) for m in messages if m.index in kept]),
        _stage("trim", [(c, k) for _, c, k in after_trim]),
        _stage(
            "drop", [(m.returned_chars, m.returned_tokens) for m in messages if m.returned_chars]
        ),
    )
    total = TokenTotals(stages[0].chars, stages[0].tokens, stages[0].estimate)
    basis = stages[-1] if stages[-1].tokens else stages[0]
    ratio = basis.chars / basis.tokens if basis.tokens else float(CHARS_PER_TOKEN)
    budget_chars = result.request.params.budget_chars
    budget = BudgetTokens(budget_chars, ratio, round(budget_chars / ratio))
    return TokenReport(encoding, tuple(messages), total, stages, budget)


def _stage(stage: str, sizes: Sequence[tuple[int, int]]) -> StageTokens:
    return StageTokens(
        stage,
        sum(c for c, _ in sizes),
        sum(k for _, k in sizes),
        sum(estimate_tokens(c) for c, _ in sizes),
    )
