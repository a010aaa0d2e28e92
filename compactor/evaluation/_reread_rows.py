"""The re-read columns of a conversation that recorded compactions (SPEC part D, "Re-reads").

For each recorded compaction, the files the agent read again after it
(:func:`~compactor.analyses.find_rereads`) are judged against the history it replaced
(:func:`~compactor.analyses.compaction_history`) compacted by the row's setting at the row's
budget: a re-read is held when at least half of the earlier result's characters are returned.
``rereads`` counts the re-reads after every compaction of the conversation, ``rereads_held``
those held (for random the mean over its draws), ``reread_chars`` their earlier results'
characters. As with the needs, each setting compacts each history once: the history's budget
sweep gives the budget from which each re-read is held, so no run per budget; keep-last and
random keep whole messages, so their figures follow from their from-budgets. Any other
registry strategy (a strategy row's columns, :meth:`ConversationRereads.strategy_columns`) runs
once per history at the row's budget, a re-read held when the spans it returns of the earlier
result's message (a placeholder holds none) are at least half its characters. A conversation
without recorded compactions has no re-read columns; one whose compactions were followed by no
re-read has ``rereads`` 0 (and no recall).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from compactor.analyses import budget_sweep, compaction_history, find_rereads
from compactor.analyses.outcomes import (
    DEFAULT_DRAWS,
    KEEP_LAST,
    RANDOM,
    keep_last_from_budgets,
    random_from_budgets,
)
from compactor.contract import budget_range
from compactor.engine import run
from compactor.formats import RecordedCompaction
from compactor.model import Params, Request
from compactor.strategies import RegisteredStrategy

#: The re-read keys of the rows of a conversation with recorded compactions.
REREAD_KEYS: tuple[str, ...] = ("rereads", "rereads_held", "reread_chars")
_NEVER = np.iinfo(np.int64).max


@dataclass(frozen=True, eq=False)
class _Judged:
    """One compaction's history with re-reads: the history, and per re-read the history
    message holding its earlier result and that result's characters."""

    history: Request
    messages: np.ndarray
    chars: np.ndarray


@dataclass(frozen=True, eq=False)
class ConversationRereads:
    """What every setting of one conversation shares for the re-read columns."""

    rereads: int  # every re-read after every compaction (those without a history included)
    chars: int
    judged: tuple[_Judged, ...]

    @classmethod
    def of(
        cls, base: Request, compactions: Sequence[RecordedCompaction]
    ) -> ConversationRereads | None:
        """None when the conversation recorded no compaction."""
        if not compactions:
            return None
        found = find_rereads(base, compactions)
        judged = []
        for k, c in enumerate(found):
            if not c.rereads:
                continue
            history, offset = compaction_history(base, compactions, k)
            if history is None:  # not a request: its re-reads are held by nothing
                continue
            judged.append(
                _Judged(
                    history,
                    np.array([r.earlier.result - c.start + offset for r in c.rereads]),
                    np.array([r.chars for r in c.rereads], dtype=np.int64),
                )
            )
        return cls(sum(len(c.rereads) for c in found), sum(c.chars for c in found), tuple(judged))

    def held_from(self, params: Params) -> np.ndarray:
        """Per re-read judged, ascending, the smallest budget at which the setting ``params``
        (whatever its budget) holds it, NEVER when at none: one run of each history."""
        out = []
        for j in self.judged:
            limits = j.history.limits
            setting = Params(
                budget_chars=budget_range(limits)[1],
                keep_last_n=params.keep_last_n,
                keep_roles=params.keep_roles,
                duplicate_threshold=params.duplicate_threshold,
                max_message_chars=params.max_message_chars,
            )
            sweep = budget_sweep(run(Request(j.history.messages, setting, limits)))
            for i, chars in zip(j.messages.tolist(), j.chars.tolist(), strict=True):
                s = sweep.survival[i]
                held = s.survives_from_budget is not None and 2 * s.chars >= chars > 0
                out.append(s.survives_from_budget if held else _NEVER)
        return np.sort(np.array(out, dtype=np.int64))

    def columns(self, held_from: np.ndarray, budget: int) -> dict[str, Any]:
        """A setting row's re-read columns at ``budget``."""
        held = int(np.searchsorted(held_from, budget, side="right"))
        return {"rereads": self.rereads, "rereads_held": held, "reread_chars": self.chars}

    def strategy_columns(
        self, strategy: RegisteredStrategy, setting: Any, budget: int
    ) -> dict[str, Any]:
        """A strategy row's re-read columns: each history compacted by ``strategy`` with
        ``setting`` at ``budget`` (``rereads_held`` None when the strategy could not run)."""
        held = 0
        for j in self.judged:
            result = strategy.apply(j.history, budget_chars=budget, params=setting)
            if not result.available:
                return {"rereads": self.rereads, "rereads_held": None, "reread_chars": self.chars}
            for i, chars in zip(j.messages.tolist(), j.chars.tolist(), strict=True):
                kept = sum(end - start for start, end in result.messages[i].kept_spans)
                held += 2 * kept >= chars > 0
        return {"rereads": self.rereads, "rereads_held": held, "reread_chars": self.chars}

    def baseline_columns(
        self, strategy: str, budget: int, draws: int = DEFAULT_DRAWS
    ) -> dict[str, Any]:
        """A baseline row's re-read columns at ``budget`` (whole messages; random's held is
        the mean over its draws)."""
        held = 0.0
        for j in self.judged:
            lengths = np.array([len(c) for c in j.history.contents], dtype=np.int64)
            if strategy == KEEP_LAST:
                from_budget = keep_last_from_budgets(lengths)[None, :]
            elif strategy == RANDOM:
                from_budget = random_from_budgets(lengths, draws)
            else:
                raise ValueError(f"no re-read figure for the baseline {strategy!r}")
            alive = from_budget[:, j.messages] <= budget
            held += float((alive & (j.chars > 0)).sum(axis=1).mean())
        shown: int | float = int(held) if strategy == KEEP_LAST else round(held, 6)
        return {"rereads": self.rereads, "rereads_held": shown, "reread_chars": self.chars}
