"""The contract response, built from a typed result: plain dicts only at the JSON boundary."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from compactor import contract
from compactor.engine._result import Records
from compactor.engine._score import Scores

if TYPE_CHECKING:
    from compactor.engine._result import (
        CharTotals,
        CompactionResult,
        Deduplication,
        Dropping,
        Protection,
        Trimming,
    )
    from compactor.model import Params, Request
    from compactor.text import TextAnalysis


def build_response(result: CompactionResult) -> dict[str, Any]:
    """The memory-compact response for ``result``, keys in the contract's order."""
    outputs = [t.output for t in result.messages]
    return respond(
        result.request,
        result.analysis,
        result.protection,
        result.deduplication,
        result.trimming,
        result.dropping,
        result.totals,
        [output is not None for output in outputs],
        [0 if output is None else len(output) for output in outputs],
    )


def respond(
    request: Request,
    analysis: TextAnalysis,
    protection: Protection,
    deduplication: Deduplication,
    trimming: Trimming,
    dropping: Dropping,
    totals: CharTotals,
    present: Sequence[bool],
    chars: Sequence[int],
) -> dict[str, Any]:
    """The memory-compact response from the stages' reports and the final state (``present``
    and ``chars`` per message), keys in the contract's order: what :func:`build_response`
    answers for the result of the same run, without a trace per message (``compact`` on a
    whole session of tiny messages spends most of its time per message)."""
    # the request's columns, not its messages (made when read: a whole session has thousands)
    contents = request.contents
    because = protection.because
    scores = dropping.scores
    if isinstance(scores, Scores):
        scores_of = scores.values_of
    else:
        scores_of = lambda indices: [scores[i].value for i in indices]  # noqa: E731
    trimmed = {c.index for c in trimming.cuts}
    rows, kept_chars = _rows(request, because, scores_of, trimmed, present, chars)
    cut_rows = truncated = 0
    for i in trimmed:
        if present[i]:
            cut_rows += 1
            truncated += len(contents[i]) - chars[i]
    loss = {
        "input_messages": len(contents),
        "output_messages": len(rows),
        "input_chars": totals.input,
        "output_chars": totals.output,
        "dropped_messages": len(contents) - len(rows),
        "dropped_chars": totals.input - kept_chars,  # input: every content's length
        "trimmed_messages": cut_rows,
        "truncated_chars": truncated,
        "verbatim_messages": len(rows) - cut_rows,
        "retained_char_ratio": round(totals.output / totals.input, contract.RATIO_DECIMALS),
    }
    protected_chars = sum(map(len, compress(contents, because)))
    budget_chars = request.params.budget_chars
    output = totals.output
    budget = {
        "budget_chars": budget_chars,
        "output_chars": output,
        "budget_met": output <= budget_chars,
        "shortfall_chars": max(0, output - budget_chars),
        "protected_chars": protected_chars,
        "protected_exceeds_budget": protected_chars > budget_chars,
    }
    return {
        "messages": rows,
        "stages": _stages(request.params, protection, deduplication, trimming, dropping),
        "loss": loss,
        "budget": budget,
        "scoring": _scoring(analysis),
        "limits": contract.LIMITS_TEXT,
    }


def _rows(
    request: Request,
    because: Sequence[tuple[str, ...]],
    scores_of: Callable[[list[int]], list[float]],
    trimmed: set[int],
    present: Sequence[bool],
    chars: Sequence[int],
) -> tuple[list[dict[str, Any]], int]:
    """The response's row of each message still present, in index order, and their original
    characters. Each column is read for the present messages at once, and the usual row (no
    id, not protected, not trimmed, kept whole) is one dict display; any other row is made by
    :func:`_row` (a whole session keeps thousands of rows, most of them usual)."""
    at = list(compress(range(len(request.contents)), present))
    if not at:
        return [], 0
    take = itemgetter(*at) if len(at) > 1 else (lambda column: (column[at[0]],))
    texts = take(request.contents)
    originals = list(map(len, texts))
    reasons = take(because)
    found = iter(scores_of(list(compress(at, map(operator.not_, reasons)))))
    scored = [None if why else next(found) for why in reasons]
    rows = [
        {
            "index": i,
            "role": role,
            "content": text,
            "kept": "verbatim",
            "protected": False,
            "score": score,
            "original_chars": original,
            "chars": length,
        }
        if length == original and ref is None and not why and i not in trimmed
        else _row(i, ref, role, text, original, length, why, score, i in trimmed)
        for i, ref, role, text, original, length, why, score in zip(
            at,
            take(request.ids),
            take(request.roles),
            texts,
            originals,
            take(chars),
            reasons,
            scored,
            strict=True,
        )
    ]
    return rows, sum(originals)


def _row(
    i: int,
    ref: str | None,
    role: str,
    content: str,
    original: int,
    length: int,
    reasons: tuple[str, ...],
    score: float | None,
    cut: bool,
) -> dict[str, Any]:
    """One message's row, keys in the contract's order (``cut``: trim cut it)."""
    out: dict[str, Any] = {"index": i}
    if ref is not None:
        out["id"] = ref
    out["role"] = role
    if cut:
        out["content"] = content[:length]
        out["kept"] = "trimmed"
    else:
        out["content"] = content if length == original else content[:length]
        out["kept"] = "verbatim"
    if reasons:
        out["protected"] = True
        out["protected_because"] = list(reasons)
    else:
        out["protected"] = False
        out["score"] = score
    out["original_chars"] = original
    out["chars"] = length
    return out


def _stages(
    params: Params,
    protection: Protection,
    deduplication: Deduplication,
    trimming: Trimming,
    dropping: Dropping,
) -> list[dict[str, Any]]:
    """What each stage did and by which rule, in the contract's order."""
    indices = protection.indices
    return [
        {
            **_stage("pin"),
            "protected_messages": len(indices),
            "protected_indices": list(indices),
            "rule": {
                "keep_roles": list(params.keep_roles),
                "keep_last_n": params.keep_last_n,
                "explicit_pins": protection.explicit_pins,
            },
        },
        {
            **_stage("dedupe"),
            "removed_messages": len(deduplication.removed),
            "removed": _removed(deduplication),
            "rule": {
                "duplicate_threshold": params.duplicate_threshold,
                "method": contract.DEDUPE_METHOD,
            },
        },
        {
            **_stage("trim"),
            "trimmed_messages": len(trimming.cuts),
            "trimmed": [
                {
                    "index": c.index,
                    "original_chars": c.original_chars,
                    "chars": c.chars,
                    "cut": c.kind,
                }
                for c in trimming.cuts
            ],
            "rule": {
                "max_message_chars": params.max_message_chars,
                "cut_at": contract.TRIM_CUT_AT,
            },
        },
        {
            **_stage("drop"),
            "dropped_messages": len(dropping.dropped),
            "dropped": _dropped(dropping),
            "rule": {
                "weights": dict(contract.WEIGHTS),
                "order": contract.DROP_ORDER,
                "protected_never_dropped": True,
            },
        },
    ]


def _removed(deduplication: Deduplication) -> list[dict[str, Any]]:
    """Dedupe's removals as rows, read from its columns (a whole session removes thousands,
    most of them at similarity 1, which rounds to itself)."""
    places = contract.SIMILARITY_DECIMALS
    columns = Records.columns_of(deduplication.removed, _REMOVAL)
    return [
        {
            "index": i,
            "duplicate_of": j,
            "similarity": s if s == 1.0 and type(s) is float else round(s, places),
            "chars": chars,
        }
        for i, j, s, chars in zip(*columns, strict=True)
    ]


def _dropped(dropping: Dropping) -> list[dict[str, Any]]:
    """Drop's removals as rows, read from its columns."""
    columns = Records.columns_of(dropping.dropped, _DROP)
    return [
        {"index": i, "score": score, "chars": chars}
        for i, score, chars in zip(*columns[:3], strict=True)
    ]


_REMOVAL = ("index", "duplicate_of", "similarity", "chars")
_DROP = ("index", "score", "chars")


def _scoring(analysis: TextAnalysis) -> dict[str, Any]:
    """How drop scored the messages: the weights and the topic terms it used."""
    return {
        "weights": dict(contract.WEIGHTS),
        "role_weights": dict(contract.ROLE_WEIGHTS),
        "topic_terms_used": [term for term, _ in analysis.topic_terms],
        "note": contract.SCORING_NOTE,
    }


def _stage(name: str) -> dict[str, Any]:
    stage = contract.STAGE[name]
    return {"stage": stage.name, "order": stage.order}
