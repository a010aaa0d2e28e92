"""Anthropic's Messages API via the official ``anthropic`` client library.

One Messages call per summary: ``system``, one user message and ``max_tokens`` (no sampling
parameters: current Claude models and client versions take none). The summary is the text of
the answer's text blocks; usage is ``usage.input_tokens`` (plus any cache creation and cache
read input tokens) and ``usage.output_tokens``.
"""

from __future__ import annotations

from typing import Any

from compactor.providers.base import Completion, Provider
from compactor.providers.base import reported_count as _count


class AnthropicProvider(Provider):
    library = "anthropic"
    client_class = "Anthropic"
    label = "an Anthropic Messages"

    def _call(
        self, client: Any, *, model: str, system: str, user: str, max_tokens: int
    ) -> Completion:
        response = client.messages.create(
            model=model,
            system=system,
            messages=[{"role": "user", "content": user}],
            max_tokens=max_tokens,
        )
        blocks = getattr(response, "content", None)
        if not isinstance(blocks, list):
            raise self.error("answered without content blocks")
        text = "".join(
            b.text for b in blocks if getattr(b, "type", None) == "text" and isinstance(b.text, str)
        )
        usage = getattr(response, "usage", None)
        prompt = _count(getattr(usage, "input_tokens", None))
        if prompt is not None:
            for extra in ("cache_creation_input_tokens", "cache_read_input_tokens"):
                prompt += _count(getattr(usage, extra, None)) or 0
        return Completion(text, prompt, _count(getattr(usage, "output_tokens", None)))
