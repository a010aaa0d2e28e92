"""OpenAI-compatible endpoints (OpenAI, Ollama, vLLM, llama.cpp's server, LiteLLM) via ``openai``.

One Chat Completions call per summary: a system message, a user message, ``max_tokens`` and
``temperature`` 0, so that the same prompt tends to give the same summary. Usage is the
response's ``usage.prompt_tokens`` and ``usage.completion_tokens`` when the server reports them.
"""

from __future__ import annotations

from typing import Any

from compactor.providers.base import Completion, Provider
from compactor.providers.base import reported_count as _count


class OpenAICompatibleProvider(Provider):
    library = "openai"
    client_class = "OpenAI"
    label = "a Chat Completions"

    def _call(
        self, client: Any, *, model: str, system: str, user: str, max_tokens: int
    ) -> Completion:
        response = client.chat.completions.create(
            model=model,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            max_tokens=max_tokens,
            temperature=0,
        )
        choices = getattr(response, "choices", None) or []
        message = getattr(choices[0], "message", None) if choices else None
        text = getattr(message, "content", None)
        if not isinstance(text, str):
            raise self.error("answered without a message text (no choices[0].message.content)")
        usage = getattr(response, "usage", None)
        return Completion(
            text,
            _count(getattr(usage, "prompt_tokens", None)),
            _count(getattr(usage, "completion_tokens", None)),
        )
