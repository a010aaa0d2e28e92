"""Every part D figure of one request at once: what the ``outcomes`` command prints and the
explorer shows (the continuation check with its baselines and lift, the role balance of the
whole conversation's compaction, and the probes when there are some)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from compactor.analyses.outcomes._balance import RoleBalance, role_balance
from compactor.analyses.outcomes._baselines import DEFAULT_DRAWS, PROTECTED
from compactor.analyses.outcomes._continuation import (
    DEFAULT_FUTURE,
    ContinuationCheck,
    continuation_check,
)
from compactor.analyses.outcomes._probes import Probe, ProbeOutcomes, probe_outcomes
from compactor.engine import CompactionResult, run
from compactor.model import Request
from compactor.text import TextAnalysis


@dataclass(frozen=True, eq=False)
class Outcomes:
    """The part D figures of one request."""

    continuation: ContinuationCheck
    role_balance: RoleBalance
    probes: ProbeOutcomes | None
    result: CompactionResult = field(repr=False)  # the whole conversation compacted

    def in_form(self, form: str) -> Outcomes:
        """The same figures with the baselines in ``form`` (protected or bare)."""
        probes = None if self.probes is None else self.probes.in_form(form)
        return Outcomes(self.continuation.in_form(form), self.role_balance, probes, self.result)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "parameters": self.result.request.params.to_dict(),
            "continuation": self.continuation.to_dict(),
            "role_balance": self.role_balance.to_dict(),
        }
        if self.probes is not None:
            out["probes"] = self.probes.to_dict()
        return out


def outcomes(
    request: Request,
    future: int = DEFAULT_FUTURE,
    *,
    draws: int = DEFAULT_DRAWS,
    probes: Sequence[Probe] | None = None,
    watched: Iterable[str] = (),
    result: CompactionResult | None = None,
    analysis: TextAnalysis | None = None,
    form: str = PROTECTED,
) -> Outcomes:
    """The continuation check of ``request`` (its last ``future`` messages), the role balance
    of its compaction, and the ``probes`` under it (each beside the baselines).

    ``result`` is ``run(request)`` when the caller has it; ``analysis`` the text analysis of
    the whole conversation (to reuse across parameter changes). The baselines are in
    ``form`` (protected by default: they keep first what the setting protects); every figure
    holds the other form too (:meth:`Outcomes.in_form`).
    """
    watched = tuple(watched)
    if result is None:
        result = run(request, analysis=analysis)
    check = continuation_check(request, future=future, draws=draws, watched=watched, form=form)
    found = None if probes is None else probe_outcomes(probes, result, draws, form)
    return Outcomes(check, role_balance(result), found, result)
