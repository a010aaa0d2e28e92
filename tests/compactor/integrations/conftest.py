"""Every sample written in every format shrink reads, to hold shrink to the plain pipeline."""

from __future__ import annotations

from typing import Any

from compactor.formats import export
from compactor.samples import load_samples

SAMPLES = {s.slug: s.request for s in load_samples()}
#: Formats a conversation is written in for shrink (``anthropic-list``: the Messages API's
#: ``messages`` alone, for a conversation without a system message).
FORMATS = ("request", "messages", "openai", "anthropic", "vercel", "sharegpt")


def written_as(request: dict[str, Any], format: str) -> Any:
    """``request``'s whole conversation in ``format``, as export writes it."""
    everything = {
        "messages": [
            {"index": i, **{k: m[k] for k in ("role", "content", "id") if k in m}}
            for i, m in enumerate(request["messages"])
        ]
    }
    return export(everything, request, format).value
