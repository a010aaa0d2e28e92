"""Real token counts beside the characters / 4 estimate, with an offline tokenizer (optional).

The budget stays in characters; this says what the characters are in tokens. Counts come from
bpe-openai (the ``tokens`` extra), whose wheel ships the ``o200k_base`` (GPT-4o, GPT-4.1) and
``cl100k_base`` (GPT-4, GPT-3.5) vocabularies, so nothing is downloaded: plain tiktoken fetches
them at run time. A message's count is the tokens of its content alone, as ``encode_ordinary``
gives them (special-token text such as ``<|endoftext|>`` is counted as plain text); the chat
format adds a few tokens per message for the role and separators, which compaction does not
change and which are not counted here. The estimate is ``ceil(characters / 4)`` per message,
the seeds/003 trim's rule (:mod:`compactor.strategies.context_trim`).

Where the estimate is worst, by the content's :func:`text_kind`: JSON and code hold many
one-character tokens (estimate too low), text in non-Latin scripts takes more tokens per
character (CJK: about one per character), plain English prose fewer (estimate too high).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from compactor.result import CompactionResult, Fate
from compactor.strategies.context_trim import CHARS_PER_TOKEN, message_text

ENCODINGS = ("o200k_base", "cl100k_base")
DEFAULT_ENCODING = "o200k_base"
INSTALL_HINT = 'token counts need the tokens extra: pip install -e ".[tokens]"'
# What a message's content mostly is (``MessageTokens.kind``).
PROSE, JSON_TEXT, CODE, NON_LATIN = "prose", "json", "code", "non-latin"


class TokenizerUnavailable(RuntimeError):
    """bpe-openai is not installed; the message says how to install it."""


class Tokenizer(Protocol):
    def encode_ordinary(self, text: str) -> list[int]: ...


def tokens_available() -> bool:
    try:
        import bpe_openai  # noqa: F401
    except ImportError:
        return False
    return True


@functools.cache
def tokenizer(encoding: str = DEFAULT_ENCODING) -> Tokenizer:
    """The tokenizer for ``encoding`` (loaded once per process, from the wheel's own data)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    try:
        import bpe_openai
    except ImportError:
        raise TokenizerUnavailable(INSTALL_HINT) from None
    return bpe_openai.get_encoding(encoding)


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """The tokens of ``text`` in ``encoding``.

    >>> count_tokens("tiktoken is great!"), count_tokens("tiktoken is great!", "cl100k_base")
    (6, 6)
    """
    return len(tokenizer(encoding).encode_ordinary(text)) if text else 0


def estimate_tokens(chars: int) -> int:
    """The characters / 4 estimate of ``chars`` characters (one message)."""
    return math.ceil(chars / CHARS_PER_TOKEN)


def text_kind(text: str) -> str:
    """``json`` (the whole text, or every line, is JSON), ``non-latin`` (a third or more of its
    letters are outside the Latin script), ``code`` (a fenced block, or one character in eight
    that is not a space is one of ``{}[]()<>=;:_/\\|&*#$"'``), else ``prose``."""
    stripped = text.strip()
    if stripped[:1] in ("{", "[") and _is_json_text(stripped):
        return JSON_TEXT
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c > "\u024f" for c in letters) * 3 >= len(letters):
        return NON_LATIN
    visible = [c for c in text if not c.isspace()]
    symbols = sum(c in "{}[]()<>=;:_/\\|&*#$\"'" for c in visible)
    if "```" in text or (visible and symbols * 8 >= len(visible)):
        return CODE
    return PROSE


def _is_json_text(text: str) -> bool:
    try:
        json.loads(text)
        return True
    except ValueError:
        pass
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        return all(isinstance(json.loads(line), dict | list) for line in lines)
    except ValueError:
        return False


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


def trim_token_counter(encoding: str = DEFAULT_ENCODING) -> Callable[[dict[str, Any]], int]:
    """A ``count_tokens`` for :func:`compactor.strategies.context_trim.trim_context`: the real
    tokens of what the estimate counts (text, plus the compact JSON of tool parts)."""
    tokenizer(encoding)  # fail now, not on the first message, when the extra is missing
    return lambda message: count_tokens(message_text(message), encoding)


def history_tokens(
    histories: Sequence[Sequence[Any]],
    encoding: str = DEFAULT_ENCODING,
    counted: dict[str, int] | None = None,
) -> list[int]:
    """The tokens of each history's contents (a replay's ``histories``: what the model is sent
    at each turn), every distinct content counted once however many turns carry it.

    ``counted`` (content -> tokens in ``encoding``) is read and filled when given, so that a
    caller can keep the counts across calls.

    >>> history_tokens([["tiktoken is great!"], ["tiktoken is great!", "ok"]])
    [6, 7]
    """
    encode = tokenizer(encoding).encode_ordinary
    if counted is None:
        counted = {}

    def tokens_of(content: str) -> int:
        if content not in counted:
            counted[content] = len(encode(content)) if content else 0
        return counted[content]

    return [
        sum(tokens_of(m if isinstance(m, str) else m.content) for m in history)
        for history in histories
    ]
