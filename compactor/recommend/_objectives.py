"""What a recommendation maximises: a small registry of objectives, each a judge that reads a
corpus row (one conversation at one setting) as needs met out of needs judged.

Another objective plugs in with :func:`register_objective` (re-read recall, say): its name, the
judge's name as reports print it, and how a row gives its (met, judged) pair.

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


def _needed(row: Mapping[str, Any]) -> tuple[float, float] | None:
    if not row.get("needs"):
        return None
    return float(row["needs_met"] or 0), float(row["needs"])


def _probes(row: Mapping[str, Any]) -> tuple[float, float] | None:
    count, partial = row.get("probes"), row.get("probes_partial")
    if not count or partial is None:
        return None
    return float(partial) * count, float(count)


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
