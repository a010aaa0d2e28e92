"""OpenAI-compatible endpoints (OpenAI, Ollama, vLLM, llama.cpp's server, LiteLLM) via ``openai``.

One Chat Completions call per summary: a system message, a user message, ``max_tokens`` and
``temperature`` 0, so that the same prompt tends to give the same summary. The answer is read
from its raw JSON, each field checked (``choices[0].message.content`` must be a string); usage
is ``usage.prompt_tokens`` and ``usage.completion_tokens`` when the server reports them.
"""

from __future__ import annotations

from typing import Any

from compactor.providers._answers import WrongShape, member
from compactor.providers._answers import reported_count as _count
from compactor.providers._base import Completion, Provider


class OpenAICompatibleProvider(Provider):
    library = "openai"
    client_class = "AsyncOpenAI"
    label = "a Chat Completions"

    async def _send(
        self, client: Any, *, model: str, system: str, user: str, max_tokens: int
    ) -> tuple[int, bytes]:
        raw = await client.chat.completions.with_raw_response.create(
            model=model,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            max_tokens=max_tokens,
            temperature=0,
        )
        return raw.http_response.status_code, raw.http_response.content

    def _parse(self, data: Any) -> Completion:
        choices = member(data, "choices", list)
        if not choices:
            raise WrongShape("choices is empty")
        message = member(choices[0], "message", dict, "choices[0]")
        text = message.get("content")
        if text is None:  # a refusal, or a tool call: an answer, but no summary in it
            raise self.error("answered without a message text (no choices[0].message.content)")
        member(message, "content", str, "choices[0].message")
        usage = data.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        return Completion(
            text,
            _count(usage.get("prompt_tokens"), "usage.prompt_tokens"),
            _count(usage.get("completion_tokens"), "usage.completion_tokens"),
        )
