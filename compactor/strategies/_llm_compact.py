"""The compact strategy of seeds/003: a language model summarises the older messages.

Every message except the last ``keepLastMessages`` (default 4) is summarised into one user
message, followed by the kept messages unchanged. Request: ``providerID`` and ``model``
(required; the provider is configured on our side, see :mod:`compactor.providers`),
``messages`` (as the trim takes them), ``keepLastMessages``, ``instructions`` (up to 2,000
characters of guidance, added to the default prompt of :mod:`~compactor.strategies._summary_prompt`)
and ``targetTokensEstimate`` (from 64: the summary's desired size, asked of the model, best
effort; each call may then write up to twice that; without it, up to the provider's
``max_output_tokens``).

Response: ``messages``, ``stats`` (as the trim's, same token estimate) and ``compaction``:
``compacted``, ``chunksProcessed`` (the chunks the older messages were split into to fit the
model's context window), ``passes`` (summary rounds: 1, plus one per merge of chunk summaries),
``summarizerPromptTokens`` and ``summarizerCompletionTokens`` (the provider's reported usage
summed over every summary call; null when a call reported none), and ``targetTokensEstimate``
(as requested, or null). When nothing is older than the kept messages, or nothing older has text,
the messages pass through unchanged with ``compacted: false``, no call is made, the counts are 0
and the usage null. Chunking: :mod:`compactor.strategies._chunked_summary`.

Python API: :func:`llm_compact` (request and provider in, response out; :func:`allm_compact` is
its coroutine, which the HTTP service awaits and cancels), :class:`LLMCompact`
(``strategy(history) -> messages``, for a loop that compacts every turn), :func:`cache_key`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from compactor.errors import InvalidRequest, Problem
from compactor.input import Schema, schema_problems
from compactor.providers import Provider, ProviderConfig, run_sync
from compactor.strategies._chunked_summary import CannotSummarize, Summary, summarise
from compactor.strategies._context_trim import (
    TRIM_REQUEST_SCHEMA,
    estimate_message_tokens,
    trim_context,
)
from compactor.strategies._summary_prompt import (
    PROMPT_FINGERPRINT,
    Piece,
    message_piece,
    system_prompt,
)

DEFAULT_KEEP_LAST = 4
MIN_TARGET_TOKENS = 64
MAX_INSTRUCTIONS_CHARS = 2000

COMPACT_REQUEST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["providerID", "model", "messages"],
    "additionalProperties": False,
    "properties": {
        "providerID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "description": "The name of a provider configured on the service's side (no key).",
        },
        "model": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "description": "A model the provider serves; a small one is enough.",
        },
        "messages": TRIM_REQUEST_SCHEMA["properties"]["messages"],
        "keepLastMessages": {
            "type": "integer",
            "minimum": 0,
            "default": DEFAULT_KEEP_LAST,
            "description": "Trailing messages kept verbatim after the summary.",
        },
        "instructions": {
            "type": "string",
            "maxLength": MAX_INSTRUCTIONS_CHARS,
            "description": "Guidance for the summary, added to the default prompt.",
        },
        "targetTokensEstimate": {
            "type": "integer",
            "minimum": MIN_TARGET_TOKENS,
            "description": "Desired summary size in tokens; best effort, not a hard cap.",
        },
    },
}
# The messages are checked by the trim's own validation (same schema, readable reasons).
_SCHEMA = Schema(
    {
        **COMPACT_REQUEST_SCHEMA,
        "properties": {**COMPACT_REQUEST_SCHEMA["properties"], "messages": {"type": "array"}},
    }
)

__all__ = [
    "COMPACT_REQUEST_SCHEMA",
    "DEFAULT_KEEP_LAST",
    "CannotSummarize",
    "CompactRequest",
    "LLMCompact",
    "allm_compact",
    "cache_key",
    "llm_compact",
    "needs_summary",
    "validate_compact_request",
]


@dataclass(frozen=True)
class CompactRequest:
    """A valid compact request, defaults applied."""

    provider_id: str
    model: str
    messages: tuple[dict[str, Any], ...]
    keep_last: int = DEFAULT_KEEP_LAST
    instructions: str | None = None
    target_tokens: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The request as JSON, every field present (null where unset)."""
        return {
            "providerID": self.provider_id,
            "model": self.model,
            "messages": list(self.messages),
            "keepLastMessages": self.keep_last,
            "instructions": self.instructions,
            "targetTokensEstimate": self.target_tokens,
        }


def validate_compact_request(request: Any) -> CompactRequest:
    """The typed request; raises :class:`compactor.InvalidRequest` with every violation."""
    problems = schema_problems(_SCHEMA, request)
    messages = request.get("messages") if isinstance(request, dict) else None
    if isinstance(messages, list):
        try:
            trim_context({"messages": messages})
        except InvalidRequest as error:
            problems += error.problems
    if problems:
        raise InvalidRequest(sorted(problems, key=lambda p: p.path or ""))
    target = request.get("targetTokensEstimate")
    return CompactRequest(
        request["providerID"],
        request["model"],
        tuple(messages),
        int(request.get("keepLastMessages", DEFAULT_KEEP_LAST)),
        request.get("instructions"),
        None if target is None else int(target),
    )


def llm_compact(request: dict[str, Any] | CompactRequest, provider: Provider) -> dict[str, Any]:
    """Compact ``request`` with ``provider`` (the one its ``providerID`` names).

    The synchronous face of :func:`allm_compact` (for the CLI, the explorer, a replay loop).

    Args:
        request: the compact request of seeds/003 (``providerID``, ``model``, ``messages``, ...),
            or one :func:`validate_compact_request` already checked.
        provider: a configured provider, e.g. ``ProviderRegistry.from_file(path).resolve(id)``.

    Returns:
        ``{"messages", "stats", "compaction"}``, JSON-ready.

    Raises:
        compactor.InvalidRequest: the request breaks the schema, or names another provider.
        CannotSummarize: the conversation cannot be summarised in the model's context window.
        compactor.providers.ProviderError: the provider failed (timeout, refusal, outage).
    """
    return run_sync(allm_compact(request, provider))


async def allm_compact(
    request: dict[str, Any] | CompactRequest, provider: Provider
) -> dict[str, Any]:
    """:func:`llm_compact` as a coroutine: each provider call ends within the provider's
    deadline, and cancelling this cancels the call in flight (the HTTP service does, when its
    client goes away)."""
    compact_request = (
        request if isinstance(request, CompactRequest) else validate_compact_request(request)
    )
    if compact_request.provider_id != provider.name:
        given = f"names another provider than the one given ({provider.name!r})"
        raise InvalidRequest([Problem(given, path="providerID")])
    return await _compact(compact_request, provider)


def needs_summary(request: CompactRequest) -> bool:
    """Whether compacting ``request`` calls the provider: something older than the kept
    messages has text (otherwise the messages pass through)."""
    return bool(_older_pieces(request))


def cache_key(request: dict[str, Any], provider: Provider | ProviderConfig) -> str:
    """A key for caching :func:`llm_compact`'s answer to ``request`` from ``provider``.

    It changes with everything that shapes the answer (the request with defaults applied, the
    provider's kind, base URL, context window and output limit, the prompt's wording) and not
    with what does not (timeouts, retries). It holds no secret: a configuration holds none.
    """
    normalised = validate_compact_request(request).to_dict()
    config = provider.config if isinstance(provider, Provider) else provider
    material = {
        "strategy": "llm-compact",
        "prompt": PROMPT_FINGERPRINT,
        "request": normalised,
        "provider": {
            name: config.public()[name]
            for name in ("name", "kind", "base_url", "context_window_tokens", "max_output_tokens")
        },
    }
    text = json.dumps(material, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return "llm-compact-" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class LLMCompact:
    """The compact strategy as a callable: ``LLMCompact(provider, model)(history) -> messages``.

    For a loop that compacts the history on every turn (the seeds/003 loop, replayed): each call
    sends one request with these parameters, and returns the messages to carry on with.
    """

    provider: Provider
    model: str
    keep_last_messages: int = DEFAULT_KEEP_LAST
    instructions: str | None = None
    target_tokens_estimate: int | None = None

    def request(self, messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
        request: dict[str, Any] = {
            "providerID": self.provider.name,
            "model": self.model,
            "messages": list(messages),
            "keepLastMessages": self.keep_last_messages,
        }
        if self.instructions is not None:
            request["instructions"] = self.instructions
        if self.target_tokens_estimate is not None:
            request["targetTokensEstimate"] = self.target_tokens_estimate
        return request

    def compact(self, messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The whole response (messages, stats, compaction) for ``messages``."""
        return llm_compact(self.request(messages), self.provider)

    def __call__(self, messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        return self.compact(messages)["messages"]

    def cache_key(self, messages: Sequence[dict[str, Any]]) -> str:
        return cache_key(self.request(messages), self.provider)


def _older_pieces(request: CompactRequest) -> list[Piece]:
    split = max(0, len(request.messages) - request.keep_last)
    pieces = [message_piece(i, m) for i, m in enumerate(request.messages[:split])]
    return [p for p in pieces if p.text.strip()]


async def _compact(request: CompactRequest, provider: Provider) -> dict[str, Any]:
    messages = request.messages
    split = max(0, len(messages) - request.keep_last)
    pieces = _older_pieces(request)
    if not pieces:
        return _response(request, list(messages), None)
    target = request.target_tokens
    summary = await summarise(
        pieces,
        provider,
        request.model,
        system_prompt(request.instructions, target),
        2 * target if target is not None else provider.config.max_output_tokens,
    )
    out = [_summary_message(summary.text, messages), *messages[split:]]
    return _response(request, out, summary)


def _summary_message(text: str, messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One user message in the request's own format: AI SDK v5 ``parts`` when it uses them."""
    if any("parts" in m and "content" not in m for m in messages):
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        return {
            "id": f"summary-{digest}",
            "role": "user",
            "parts": [{"type": "text", "text": text}],
        }
    return {"role": "user", "content": text}


def _response(
    request: CompactRequest, out: list[dict[str, Any]], summary: Summary | None
) -> dict[str, Any]:
    before = len(request.messages)
    return {
        "messages": out,
        "stats": {
            "messagesBefore": before,
            "messagesAfter": len(out),
            "messagesDropped": before - len(out),
            "tokensBeforeEstimate": sum(map(estimate_message_tokens, request.messages)),
            "tokensAfterEstimate": sum(map(estimate_message_tokens, out)),
        },
        "compaction": {
            "compacted": summary is not None,
            "chunksProcessed": summary.chunks if summary else 0,
            "passes": summary.passes if summary else 0,
            "summarizerPromptTokens": summary.prompt_tokens if summary else None,
            "summarizerCompletionTokens": summary.completion_tokens if summary else None,
            "targetTokensEstimate": request.target_tokens,
        },
    }
