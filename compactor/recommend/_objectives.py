"""What a recommendation maximises (or, for cost, minimises): a small registry of objectives,
each a judge that reads a corpus row (one conversation at one setting) as a (met, judged) pair:
needs met out of needs judged, probes, re-reads held out of re-reads after recorded
compactions, or for ``cost`` the row's cost in USD out of one conversation (so the pooled figure
is the mean cost of a conversation), under a floor on needed-later recall.

The cost of a row is what :func:`price_rows` adds: the context the setting kept, sent on the
next call and written to the cache at a model's prices (tokens as characters / 4), as
``evaluate --model`` prices a row (docs/cost.md): an upper bound, the same for every method.

Another objective plugs in with :func:`register_objective`: its name, the judge's name as
reports print it, and how a row gives its (met, judged) pair.

>>> row = {"needs": 4, "needs_met": 3}
>>> OBJECTIVES["needed"].parts(row)
(3.0, 4.0)
>>> pooled([(3.0, 4.0), (1.0, 1.0)])
0.8
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.analyses.pricing import ModelPrice, compaction_cost
from compactor.text import estimate_tokens

#: A row's (met, judged) under an objective, or None when the row judges nothing.
Parts = Callable[[Mapping[str, Any]], "tuple[float, float] | None"]


@dataclass(frozen=True)
class Objective:
    """A recall to maximise: ``name`` (``--objective``), ``judge`` (said beside every figure)
    and ``parts`` (a row's met and judged counts)."""

    name: str
    label: str
    judge: str
    parts: Parts
    #: Whether the corpus must carry labelled evidence (probes) for it.
    needs_probes: bool = False
    #: Whether the corpus must carry recorded compactions (Claude Code or Codex logs) for it.
    needs_rereads: bool = False
    #: Whether lower is better (cost); a recall is maximised.
    minimise: bool = False
    #: What a conversation lacks when this judge judges nothing in it.
    nothing: str = "a need in its future whose source is earlier"


def _needed(row: Mapping[str, Any]) -> tuple[float, float] | None:
    if not row.get("needs"):
        return None
    return float(row["needs_met"] or 0), float(row["needs"])


def _probes(row: Mapping[str, Any]) -> tuple[float, float] | None:
    count, partial = row.get("probes"), row.get("probes_partial")
    if not count or partial is None:
        return None
    return float(partial) * count, float(count)


def _rereads(row: Mapping[str, Any]) -> tuple[float, float] | None:
    count, held = row.get("rereads"), row.get("rereads_held")
    if not count or held is None:
        return None
    return float(held), float(count)


def _cost(row: Mapping[str, Any]) -> tuple[float, float] | None:
    cost = row.get("cost_usd")
    return None if cost is None else (float(cost), 1.0)


def price_rows(rows: Iterable[dict[str, Any]], model: ModelPrice) -> None:
    """Add ``cost_usd`` to each row: its kept context (``output_chars`` / 4 tokens) written to
    the cache on the next call at ``model``'s prices (None when the row has no output)."""
    for row in rows:
        chars = row.get("output_chars")
        cost = None
        if chars is not None:
            cost = compaction_cost(0, estimate_tokens(chars), model).cost
        row["cost_usd"] = None if cost is None else cost.total


_OBJECTIVES: dict[str, Objective] = {}
#: Every objective by name (read-only); the first is the default.
OBJECTIVES: Mapping[str, Objective] = MappingProxyType(_OBJECTIVES)


def register_objective(objective: Objective) -> Objective:
    """Add ``objective`` under its name; a name is registered once."""
    if objective.name in _OBJECTIVES:
        raise ValueError(f"an objective named {objective.name!r} is already registered")
    _OBJECTIVES[objective.name] = objective
    return objective


register_objective(
    Objective(
        "needed",
        "needed-later recall",
        f"needed-later recall (SPEC part D: the continuation check, the last {DEFAULT_FUTURE} "
        "messages the future, a need met when a source of it is kept)",
        _needed,
    )
)
register_objective(
    Objective(
        "probes",
        "probe recall",
        "probe recall (SPEC part D: labelled evidence, a probe met when every evidence message "
        "keeps some of its own text)",
        _probes,
        needs_probes=True,
        nothing="a probe",
    )
)
register_objective(
    Objective(
        "reread",
        "re-read recall",
        "re-read recall (SPEC part D, Re-reads: after each recorded compaction, the files the "
        "agent read again; one held when the setting, compacting the history that compaction "
        "replaced at the budget, returns at least half of the earlier result's characters)",
        _rereads,
        needs_rereads=True,
        nothing="a re-read after a recorded compaction",
    )
)
register_objective(
    Objective(
        "cost",
        "cost at a recall floor",
        "cost in USD per conversation (the context kept, sent on the next call and written to "
        "the cache at the model's prices, tokens as characters / 4: an upper bound, "
        "docs/cost.md)",
        _cost,
        minimise=True,
    )
)


def pooled(parts: Iterable[tuple[float, float] | None]) -> float | None:
    """Met over judged, summed over conversations (None when nothing is judged)."""
    met = judged = 0.0
    for part in parts:
        if part is not None:
            met += part[0]
            judged += part[1]
    return met / judged if judged else None
