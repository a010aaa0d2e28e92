"""Anthropic's Messages API via the official ``anthropic`` client library.

One Messages call per summary: ``system``, one user message and ``max_tokens`` (no sampling
parameters: current Claude models and client versions take none). The answer is read from its
raw JSON, each field checked: the summary is the text of its ``content`` blocks of type
``text``; usage is ``usage.input_tokens`` (plus any cache creation and cache read input tokens)
and ``usage.output_tokens``.
"""

from __future__ import annotations

from typing import Any

from compactor.providers._answers import member
from compactor.providers._answers import reported_count as _count
from compactor.providers._base import Completion, Provider


class AnthropicProvider(Provider):
    library = "anthropic"
    client_class = "AsyncAnthropic"
    label = "an Anthropic Messages"

    async def _send(
        self, client: Any, *, model: str, system: str, user: str, max_tokens: int
    ) -> tuple[int, bytes]:
        raw = await client.messages.with_raw_response.create(
            model=model,
            system=system,
            messages=[{"role": "user", "content": user}],
            max_tokens=max_tokens,
        )
        return raw.http_response.status_code, raw.http_response.content

    def _parse(self, data: Any) -> Completion:
        blocks = member(data, "content", list)
        texts = []
        for i, block in enumerate(blocks):
            if member(block, "type", str, f"content[{i}]") == "text":
                texts.append(member(block, "text", str, f"content[{i}]"))
        usage = data.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        prompt = _count(usage.get("input_tokens"), "usage.input_tokens")
        if prompt is not None:
            for extra in ("cache_creation_input_tokens", "cache_read_input_tokens"):
                prompt += _count(usage.get(extra), f"usage.{extra}") or 0
        output = _count(usage.get("output_tokens"), "usage.output_tokens")
        return Completion("".join(texts), prompt, output)
