"""The four stages' decisions for one turn of a replay, on content numbers: what
:func:`compactor.engine.pipeline.outputs` returns for the turn's history, without its explanations.

A replay compacts about 200 histories of about 25 messages that share nearly all their contents.
:func:`~.pipeline.outputs` would build the request, a full analysis (similarity matrix,
every topic overlap) and every stage's report for each; here the stages decide on plain lists,
from what :class:`IncrementalAnalysis` computed once per content or pair:
similarities are read only for unprotected messages, trims are cut once per content, and the
topic terms are counted only on the turns where the drop stage has to drop. SPEC part A, stage by
stage; ``tests/compactor/engine/test_turn_stages.py`` checks it against ``outputs``.
"""

from __future__ import annotations

from collections.abc import Sequence

from compactor import contract
from compactor.model import Params
from compactor.text.incremental import IncrementalAnalysis
from compactor.text.words import cut


class TurnStages:
    """Pin, dedupe, trim and drop with fixed parameters, over histories analysed by one
    :class:`IncrementalAnalysis`."""

    def __init__(self, params: Params, analysis: IncrementalAnalysis | None = None) -> None:
        self.params = params
        self.analysis = analysis or IncrementalAnalysis()
        self._keep_roles = frozenset(params.keep_roles)
        self._cuts: dict[str, int] = {}  # content -> its length after the trim stage

    def outputs(
        self,
        contents: Sequence[str],
        roles: Sequence[str],
        pins: Sequence[bool],
        sources: Sequence[str | None] | None = None,
    ) -> list[str | None]:
        """Per message, the content compaction returns for it (None when it is removed);
        ``sources`` as :meth:`IncrementalAnalysis.analyse` takes them."""
        params = self.params
        n = len(contents)
        numbers = self.analysis.numbers(contents, sources)
        # stage 1, pin: a kept role, an explicit pin, or among the last keep_last_n
        recent = n - params.keep_last_n
        free = [
            i
            for i in range(min(n, max(recent, 0)))
            if not pins[i] and roles[i] not in self._keep_roles
        ]
        present = [True] * n
        chars = [len(c) for c in contents]
        if not free:
            return list(contents)
        # stage 2, dedupe: a free message goes when an earlier present one of its role is as
        # similar as the threshold (protected messages stay and are compared with)
        threshold = params.duplicate_threshold
        sizes = self.analysis.sizes(numbers)
        similarity = self.analysis.similarity
        number = numbers.tolist()
        for i in free:
            role, a, size = roles[i], number[i], sizes[i]
            for j in range(i):
                if not present[j] or roles[j] != role:
                    continue
                # |A & B| / |A | B| <= min / max: most pairs are too unequal to be duplicates
                small, large = (size, sizes[j]) if size <= sizes[j] else (sizes[j], size)
                if large and small / large < threshold:
                    continue
                if similarity(a, number[j]) >= threshold:
                    present[i] = False
                    break
        # stage 3, trim: a present free message longer than the limit is cut
        limit = params.max_message_chars
        for i in free:
            if present[i] and chars[i] > limit:
                chars[i] = self._cut(contents[i], limit)
        # stage 4, drop: the lowest scores go while the present messages exceed the budget
        total = sum(c for c, here in zip(chars, present, strict=True) if here)
        if total > params.budget_chars:
            candidates = [i for i in free if present[i]]
            _, overlap = self.analysis.topics(numbers, candidates)
            w, role_weights = contract.WEIGHTS, contract.ROLE_WEIGHTS
            score = {
                i: round(
                    w["recency"] * (i / (n - 1))
                    + w["role"] * role_weights[roles[i]]
                    + w["topic_overlap"] * share,
                    contract.SCORE_DECIMALS,
                )
                for i, share in zip(candidates, overlap, strict=True)
            }
            for i in sorted(candidates, key=lambda i: (score[i], i)):
                if total <= params.budget_chars:
                    break
                present[i] = False
                total -= chars[i]
        return [
            c[:k] if here else None for c, k, here in zip(contents, chars, present, strict=True)
        ]

    def _cut(self, content: str, limit: int) -> int:
        length = self._cuts.get(content)
        if length is None:
            length = self._cuts[content] = cut(content, limit)[0]
        return length
