"""The Output page's data: the compacted messages as a table (with their tokens when the sidebar
counts in an encoding) and what the service snippets say about where the request comes from."""

from __future__ import annotations

from typing import Any

import pandas as pd

from compactor.analyses import TokenReport
from explorer.frames import snippets
from explorer.frames import tokens as token_frames


def messages_frame(response: dict[str, Any], tokens: TokenReport | None = None) -> pd.DataFrame:
    """One row per returned message; with ``tokens``, each message's token columns too, the
    content kept last (the widest column)."""
    rows = snippets.output_rows(response)
    if tokens is None:
        return rows
    rows = token_frames.with_tokens(rows, tokens)
    return rows[[c for c in rows.columns if c != "content"] + ["content"]]


def snippets_note(request: dict[str, Any], request_file: str) -> str:
    """Where the service snippets take the request from: inline, or from ``request_file`` once
    the request is too large to read inline (:data:`~explorer.frames.snippets.INLINE_LIMIT`)."""
    if len(snippets.request_json(request, None)) > snippets.INLINE_LIMIT:
        return (
            f"The request is large, so both snippets read it from {request_file}: "
            "download the request above into the folder you run them in."
        )
    return (
        "Each snippet holds the whole request; scroll inside it, or copy it whole "
        "with the copy button at its top right."
    )
