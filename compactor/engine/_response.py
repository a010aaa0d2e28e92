"""The contract response, built from a typed result: plain dicts only at the JSON boundary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compactor import contract

if TYPE_CHECKING:
    from compactor.engine._result import CompactionResult, MessageTrace


def build_response(result: CompactionResult) -> dict[str, Any]:
    """The memory-compact response for ``result``, keys in the contract's order."""
    return {
        "messages": [_message(t) for t in result.survivors],
        "stages": _stages(result),
        "loss": _loss(result),
        "budget": _budget(result),
        "scoring": _scoring(result),
        "limits": contract.LIMITS_TEXT,
    }


def _stages(result: CompactionResult) -> list[dict[str, Any]]:
    """What each stage did and by which rule, in the contract's order."""
    params = result.request.params
    return [
        {
            **_stage("pin"),
            "protected_messages": len(result.protection.indices),
            "protected_indices": list(result.protection.indices),
            "rule": {
                "keep_roles": list(params.keep_roles),
                "keep_last_n": params.keep_last_n,
                "explicit_pins": result.protection.explicit_pins,
            },
        },
        {
            **_stage("dedupe"),
            "removed_messages": len(result.deduplication.removed),
            "removed": [
                {
                    "index": r.index,
                    "duplicate_of": r.duplicate_of,
                    "similarity": round(r.similarity, contract.SIMILARITY_DECIMALS),
                    "chars": r.chars,
                }
                for r in result.deduplication.removed
            ],
            "rule": {
                "duplicate_threshold": params.duplicate_threshold,
                "method": contract.DEDUPE_METHOD,
            },
        },
        {
            **_stage("trim"),
            "trimmed_messages": len(result.trimming.cuts),
            "trimmed": [
                {
                    "index": c.index,
                    "original_chars": c.original_chars,
                    "chars": c.chars,
                    "cut": c.kind,
                }
                for c in result.trimming.cuts
            ],
            "rule": {
                "max_message_chars": params.max_message_chars,
                "cut_at": contract.TRIM_CUT_AT,
            },
        },
        {
            **_stage("drop"),
            "dropped_messages": len(result.dropping.dropped),
            "dropped": [
                {"index": d.index, "score": d.score, "chars": d.chars}
                for d in result.dropping.dropped
            ],
            "rule": {
                "weights": dict(contract.WEIGHTS),
                "order": contract.DROP_ORDER,
                "protected_never_dropped": True,
            },
        },
    ]


def _loss(result: CompactionResult) -> dict[str, Any]:
    """What the compaction lost, in messages and characters, dropped and trimmed."""
    survivors = result.survivors
    totals = result.totals
    trimmed = [t for t in survivors if t.cut is not None]
    lost = [t for t in result.messages if not t.survived]
    return {
        "input_messages": len(result.messages),
        "output_messages": len(survivors),
        "input_chars": totals.input,
        "output_chars": totals.output,
        "dropped_messages": len(lost),
        "dropped_chars": sum(t.original_chars for t in lost),
        "trimmed_messages": len(trimmed),
        "truncated_chars": sum(t.original_chars - t.chars for t in trimmed),
        "verbatim_messages": len(survivors) - len(trimmed),
        "retained_char_ratio": round(totals.output / totals.input, contract.RATIO_DECIMALS),
    }


def _budget(result: CompactionResult) -> dict[str, Any]:
    """The output against the budget, and whether the protected messages alone exceed it."""
    budget_chars = result.request.params.budget_chars
    output = result.totals.output
    protected_chars = result.protected_chars
    return {
        "budget_chars": budget_chars,
        "output_chars": output,
        "budget_met": result.budget_met,
        "shortfall_chars": max(0, output - budget_chars),
        "protected_chars": protected_chars,
        "protected_exceeds_budget": protected_chars > budget_chars,
    }


def _scoring(result: CompactionResult) -> dict[str, Any]:
    """How drop scored the messages: the weights and the topic terms it used."""
    return {
        "weights": dict(contract.WEIGHTS),
        "role_weights": dict(contract.ROLE_WEIGHTS),
        "topic_terms_used": [term for term, _ in result.analysis.topic_terms],
        "note": contract.SCORING_NOTE,
    }


def _stage(name: str) -> dict[str, Any]:
    stage = contract.STAGE[name]
    return {"stage": stage.name, "order": stage.order}


def _message(trace: MessageTrace) -> dict[str, Any]:
    m = trace.message
    out: dict[str, Any] = {"index": m.index}
    if m.id is not None:
        out["id"] = m.id
    out["role"] = m.role
    out["content"] = trace.output
    out["kept"] = "trimmed" if trace.cut is not None else "verbatim"
    out["protected"] = trace.protected
    if trace.protected:
        out["protected_because"] = list(trace.protected_because)
    else:
        out["score"] = trace.score.value
    out["original_chars"] = trace.original_chars
    out["chars"] = trace.chars
    return out
