"""The four stages' decisions for one turn of a replay, on content numbers: what
:func:`compactor.engine._pipeline.outputs` returns for the turn's history, without its explanations.

A replay compacts about 200 histories of about 25 messages that share nearly all their contents.
:func:`~.pipeline.outputs` would build the request, a full analysis (similarity matrix,
every topic overlap) and every stage's report for each; here the stages decide on plain lists,
from what :class:`IncrementalAnalysis` computed once per content or pair:
similarities are read only for unprotected messages, trims are cut once per content, and the
topic terms are counted only on the turns where the drop stage has to drop. The rules themselves
are :mod:`~compactor.engine._stages`' (who is protected, which duplicates go, which message is cut
and where, which go and in what order) and :mod:`~compactor.engine._score`'s: the dedupe walk is
the stage's, given pairs on content numbers, with a size bound that skips the pairs too unequal to
reach the threshold; ``tests/compactor/engine/test_turn_stages.py`` checks it against ``outputs``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from compactor import contract
from compactor.engine._score import drop_order, value_at
from compactor.engine._stages import cuts, drops, duplicates, pin_rules
from compactor.model import Params
from compactor.text import IncrementalAnalysis, cut


class TurnStages:
    """Pin, dedupe, trim and drop with fixed parameters, over histories analysed by one
    :class:`IncrementalAnalysis`."""

    def __init__(self, params: Params, analysis: IncrementalAnalysis | None = None) -> None:
        self.params = params
        self.analysis = analysis or IncrementalAnalysis()
        self._keep_roles = frozenset(params.keep_roles)
        self._cuts: dict[str, tuple[int, str]] = {}  # content -> its trim: length, kind

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
        # stage 1, pin: the free messages are those no pin rule protects
        keep_roles, keep_last_n = self._keep_roles, params.keep_last_n
        free = [
            i
            for i in range(n)
            if not any(pin_rules(i, n, roles[i], pins[i], keep_roles, keep_last_n))
        ]
        chars = [len(c) for c in contents]
        if not free:
            return list(contents)
        # stage 2, dedupe: a free message goes when an earlier present one of its role is as
        # similar as the threshold (protected messages stay and are compared with)
        threshold = params.duplicate_threshold
        sizes = self.analysis.sizes(numbers)
        similarity = self.analysis.similarity
        number = numbers.tolist()
        present = [1] * n
        of_role: dict[str, list[int]] = {}  # each role's messages, in order
        for i, role in enumerate(roles):
            of_role.setdefault(role, []).append(i)

        def candidates(i: int) -> Iterator[tuple[int, bool]]:
            a, size = number[i], sizes[i]
            for j in of_role[roles[i]]:
                if j >= i:
                    return
                if not present[j]:
                    continue
                # |A & B| / |A | B| <= min / max: most pairs are too unequal to be duplicates
                small, large = (size, sizes[j]) if size <= sizes[j] else (sizes[j], size)
                if large and small / large < threshold:
                    continue
                yield j, similarity(a, number[j]) >= threshold

        duplicates(free, candidates, present)
        # stage 3, trim: a present free message longer than the limit is cut
        candidates = [i for i in free if present[i]]
        for i, length, _ in cuts(chars, candidates, contents, params.max_message_chars, self._cut):
            chars[i] = length
        # stage 4, drop: the lowest scores go while the present messages exceed the budget
        total = sum(c for c, here in zip(chars, present, strict=True) if here)
        if total > params.budget_chars:
            overlap = self.analysis.overlaps(numbers, candidates)
            role_weights = contract.ROLE_WEIGHTS
            score = {
                i: value_at(i, n, role_weights[roles[i]], share)
                for i, share in zip(candidates, overlap, strict=True)
            }
            for i in drops(drop_order(score), chars, total, params.budget_chars):
                present[i] = False
        return [
            c[:k] if here else None for c, k, here in zip(contents, chars, present, strict=True)
        ]

    def _cut(self, content: str, limit: int) -> tuple[int, str]:
        found = self._cuts.get(content)
        if found is None:
            found = self._cuts[content] = cut(content, limit)
        return found
