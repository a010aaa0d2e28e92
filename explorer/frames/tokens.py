"""Frames of the token counts: what the characters of each message, stage and total are in the
chosen encoding, beside the characters / 4 estimate and its error. Every count comes from
:mod:`compactor.analyses.tokens` (bpe-openai, the ``tokens`` extra); nothing here counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
from pandas.io.formats.style import Styler

from compactor.analyses import TokenReport
from compactor.text import ENCODINGS, estimate_tokens, text_kind, tokens_available
from compactor.text import TOKENS_HINT as INSTALL_HINT
from compactor.wording import SETUP_EXPLORER, install_command

#: The sidebar's choices: count in characters, or in tokens of one encoding.
CHARACTERS = "characters"
CHOICES = (CHARACTERS, *ENCODINGS)
#: How many messages with the worst (too low) estimate a table highlights.
WORST = 5
#: A highlighted message's estimate is short by at least this much (of its real count).
WORST_ERROR = 0.15
#: The highlight of a message whose estimate is among the worst (readable in both themes).
WORST_STYLE = "background-color: rgba(230, 159, 0, 0.28)"
INSTALL_COMMAND = install_command("tokens")
#: The command that installs the tokens extra with everything else the explorer uses.
SETUP_COMMAND = SETUP_EXPLORER


def unavailable_note() -> str | None:
    """Why token counts cannot be shown, with how to install them; None when they can."""
    if not tokens_available():
        return INSTALL_HINT
    return None


def _error(estimate: int, tokens: int) -> float | None:
    return (estimate - tokens) / tokens if tokens else None


def estimate_note(estimate: int, tokens: int) -> str:
    """``estimate 31 (+7%)``: the characters / 4 estimate and how far off it is."""
    error = _error(estimate, tokens)
    return f"estimate {estimate:,}" + ("" if error is None else f" ({error:+.0%})")


def worst_indices(frame: pd.DataFrame, n: int = WORST) -> list[int]:
    """The messages of a token frame whose estimate falls furthest short of the real count,
    relatively (at most ``n``, each short by at least :data:`WORST_ERROR`), worst first.

    Too low is the error that overflows a model's context (code, JSON, non-Latin text); an
    estimate too high (English prose) only wastes some room.
    """
    short = (-frame["relative_error"]).astype("float64").fillna(0.0)
    ranked = frame.assign(short=short).sort_values(["short", "index"], ascending=[False, True])
    return [int(i) for i in ranked[ranked["short"] >= WORST_ERROR]["index"].head(n)]


_COLUMNS = ["index", "message", "role", "kind", "chars", "tokens", "estimate", "error"]


def _finish(rows: list[dict], extra: Sequence[str] = ()) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=[*_COLUMNS, "relative_error", *extra])
    frame = frame.astype({"relative_error": "Float64"})
    frame["worst"] = frame["index"].isin(worst_indices(frame))
    return frame


def message_frame(report: TokenReport) -> pd.DataFrame:
    """One row per input message: characters, tokens, the estimate, its error (estimate -
    tokens, and relative to the tokens), what it is, its tokens returned; ``worst`` marks the
    messages whose estimate falls furthest short (:func:`worst_indices`)."""
    rows = [
        {
            "index": m.index,
            "message": f"#{m.index}",
            "role": m.role,
            "kind": m.kind,
            "chars": m.chars,
            "tokens": m.tokens,
            "estimate": m.estimate,
            "error": m.error,
            "relative_error": _error(m.estimate, m.tokens),
            "returned_tokens": m.returned_tokens,
        }
        for m in report.messages
    ]
    return _finish(rows, ["returned_tokens"])


def content_frame(
    roles: Sequence[str], contents: Sequence[str], counts: Sequence[tuple[int, int, int]]
) -> pd.DataFrame:
    """:func:`message_frame`'s columns for contents without a result (the Conversation page);
    ``counts`` are their ``(chars, tokens, estimate)`` (:func:`~compactor.analyses.tokens.
    message_counts`)."""
    rows = [
        {
            "index": i,
            "message": f"#{i}",
            "role": role,
            "kind": text_kind(content),
            "chars": chars,
            "tokens": tokens,
            "estimate": estimate,
            "error": estimate - tokens,
            "relative_error": _error(estimate, tokens),
        }
        for i, (role, content, (chars, tokens, estimate)) in enumerate(
            zip(roles, contents, counts, strict=True)
        )
    ]
    return _finish(rows)


def highlighted(frame: pd.DataFrame, hide: Sequence[str] = ("index", "worst")) -> Styler:
    """``frame`` with its worst-estimate rows highlighted (a frame with a ``worst`` column),
    without the columns in ``hide`` (the values stay numbers)."""
    worst = frame["worst"].tolist()
    shown = frame.drop(columns=[c for c in hide if c in frame.columns]).reset_index(drop=True)
    return shown.style.apply(lambda row: [WORST_STYLE if worst[row.name] else ""] * len(row), 1)


def stage_frame(report: TokenReport) -> pd.DataFrame:
    """What is present before the stages and after each: characters, tokens, the estimate."""
    names = {"input": "input", "dedupe": "after dedupe", "trim": "after trim", "drop": "output"}
    rows = [
        {
            "present": names[s.stage],
            "chars": s.chars,
            "tokens": s.tokens,
            "estimate": s.estimate,
            "error": s.estimate - s.tokens,
            "relative_error": _error(s.estimate, s.tokens),
        }
        for s in report.stages
    ]
    columns = ["present", "chars", "tokens", "estimate", "error", "relative_error"]
    return pd.DataFrame(rows, columns=columns).astype({"relative_error": "Float64"})


def totals_sentence(report: TokenReport) -> str:
    """``4,210 characters in are 1,020 o200k_base tokens (estimate 1,053, +3%); ...``."""
    total, out = report.total, report.output
    parts = []
    for name, chars, tokens, estimate in (
        ("in", total.chars, total.tokens, total.estimate),
        ("out", out.chars, out.tokens, out.estimate),
    ):
        parts.append(
            f"{chars:,} characters {name} are {tokens:,} {report.encoding} tokens "
            f"({estimate_note(estimate, tokens)})"
        )
    return "; ".join(parts) + "."


def with_tokens(frame: pd.DataFrame, report: TokenReport, index: str = "index") -> pd.DataFrame:
    """``frame`` (one row per message, its number in column ``index``) plus each message's
    tokens in, tokens returned and the estimate of what is returned."""
    by_index = {m.index: m for m in report.messages}
    out = frame.copy()
    rows = [by_index[int(i)] for i in out[index]]
    out["tokens_in"] = [m.tokens for m in rows]
    out["tokens_out"] = [m.returned_tokens for m in rows]
    out["estimate_out"] = [estimate_tokens(m.returned_chars) for m in rows]
    return out
