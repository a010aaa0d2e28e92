"""Drawing the token counts the sidebar's "Count in" asks for: the column headers, the table of
messages with the worst estimates highlighted, and the stage table in tokens."""

from __future__ import annotations

import streamlit as st

from compactor.analyses import TokenReport
from explorer.frames import tokens as token_frames
from explorer.widgets import common

ESTIMATE_HELP = "ceil(characters / 4) per message, the recency trim's rule of thumb"
ERROR_HELP = "estimate - tokens: negative when the estimate is too low"


def columns(encoding: str) -> dict:
    """Headers of the token columns (the names :mod:`explorer.frames.tokens` gives them)."""
    number = st.column_config.NumberColumn
    return {
        "chars": number("characters", format="localized"),
        "tokens": number(f"{encoding} tokens", format="localized"),
        "tokens_in": number(f"{encoding} tokens in", format="localized"),
        "tokens_out": number(f"{encoding} tokens out", format="localized"),
        "returned_tokens": number(f"{encoding} tokens out", format="localized"),
        "estimate": number("estimate (chars / 4)", format="localized", help=ESTIMATE_HELP),
        "estimate_out": number("estimate out", format="localized", help=ESTIMATE_HELP),
        "error": number("estimate error", format="localized", help=ERROR_HELP),
        "relative_error": number(
            "error (% of tokens)", format="percent", help="The error relative to the real count"
        ),
    }


def message_table(frame, encoding: str) -> None:
    """Each message's characters, tokens and estimate; the worst estimates highlighted."""
    worst = frame[frame["worst"]]
    if len(worst):
        kinds = ", ".join(sorted(set(worst["kind"])))
        st.caption(
            f"Highlighted: the {len(worst):,} messages whose characters / 4 estimate falls "
            f"furthest short of the real count (here: {kinds}). The estimate undercounts code, "
            "JSON and non-Latin text most, and overcounts plain English prose."
        )
    common.table(token_frames.highlighted(frame), column_config=columns(encoding))


def stage_table(report: TokenReport) -> None:
    """What is present before the stages and after each, in characters and in tokens."""
    st.caption(
        f"In {report.encoding} tokens (each message's content; the chat format's few tokens "
        "per message are not counted). " + token_frames.totals_sentence(report)
    )
    frame = token_frames.stage_frame(report)
    frame["worst"] = False
    common.table(
        token_frames.highlighted(frame),
        column_config={"present": "present", **columns(report.encoding)},
    )
