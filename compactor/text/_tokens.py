"""Real token counts beside the characters / 4 estimate, with an offline tokenizer (optional).

The budget stays in characters; this says what the characters are in tokens. Counts come from
bpe-openai (the ``tokens`` extra), whose wheel ships the ``o200k_base`` (GPT-4o, GPT-4.1) and
``cl100k_base`` (GPT-4, GPT-3.5) vocabularies, so nothing is downloaded: plain tiktoken fetches
them at run time. A message's count is the tokens of its content alone, as ``encode_ordinary``
gives them (special-token text such as ``<|endoftext|>`` is counted as plain text); the chat
format adds a few tokens per message for the role and separators, which compaction does not
change and which are not counted here. The estimate is ``ceil(characters / 4)`` per message,
the seeds/003 trim's rule.

Where the estimate is worst, by the content's :func:`text_kind`: JSON and code hold many
one-character tokens (estimate too low), text in non-Latin scripts takes more tokens per
character (CJK: about one per character), plain English prose fewer (estimate too high).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from typing import Any, Protocol

from compactor.wording import install_command

ENCODINGS = ("o200k_base", "cl100k_base")
DEFAULT_ENCODING = "o200k_base"
#: The estimate's characters per token: the seeds/003 trim's rule (``ceil(characters / 4)``).
CHARS_PER_TOKEN = 4
INSTALL_HINT = f"token counts need the tokens extra: {install_command('tokens')}"
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
