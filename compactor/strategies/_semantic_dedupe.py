"""memory-compact with semantic dedupe: an alternative strategy, to compare with the contract's.

The four stages run as the contract says, except that dedupe also removes an unprotected
message when an earlier message of its role that is still present says the same in other
words: their embeddings' cosine reaches ``threshold``
(:mod:`compactor.analyses._semantic_pairs`), whatever their word overlap. A message with a word
duplicate (Jaccard ``>= duplicate_threshold``) is removed as a duplicate of the most similar
such message, as in the contract; otherwise one with meaning duplicates is removed as a
duplicate of the closest in meaning (the earliest on a tie). The contract engine is not
changed: the dedupe stage is given a similarity that ranks word duplicates above meaning
duplicates above the rest, and the result it returns is given back the real word similarities.
Its response is therefore not the contract's response; use it to see what meaning-level dedupe
would change, message by message.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from compactor.engine import CompactionResult, Deduplication, Removal, run
from compactor.engine import nearest as nearest_by_overlap
from compactor.model import Request
from compactor.text import SEMANTIC_THRESHOLD as DEFAULT_THRESHOLD
from compactor.text import PairSimilarity, TextAnalysis, analyse, semantic_similarity

KEY = "semantic-dedupe"
BY_WORDS, BY_MEANING = "words", "meaning"


@dataclass(frozen=True)
class SemanticRemoval:
    """A message dedupe removed, and whether its word overlap or its meaning made it go."""

    index: int
    duplicate_of: int
    semantic: float  # cosine with duplicate_of, 6 decimals
    word_overlap: float  # Jaccard with duplicate_of, 6 decimals
    by: str  # "words" or "meaning"


@dataclass(frozen=True)
class SemanticDedupeResult:
    threshold: float
    #: The run, with the real word similarities in its dedupe report and analysis.
    result: CompactionResult
    removals: tuple[SemanticRemoval, ...]  # every dedupe removal, in index order

    @property
    def by_meaning(self) -> tuple[SemanticRemoval, ...]:
        """The removals the contract's dedupe would not have made."""
        return tuple(r for r in self.removals if r.by == BY_MEANING)


def semantic_dedupe(
    request: Request,
    threshold: float = DEFAULT_THRESHOLD,
    *,
    analysis: TextAnalysis | None = None,
    semantic: np.ndarray | None = None,
) -> SemanticDedupeResult:
    """Run memory-compact with semantic dedupe on ``request``.

    ``analysis`` and ``semantic`` (:func:`compactor.text._semantic.semantic_similarity`) are
    computed when omitted. Raises :class:`SemanticUnavailable` without the ``semantic`` extra.
    """
    if analysis is None:
        analysis = analyse(request.contents, request.roles)
    if semantic is None:
        semantic = semantic_similarity(request.contents, request.roles)
    words = analysis.similarity
    cutoff = request.params.duplicate_threshold
    with np.errstate(invalid="ignore"):
        ranked = np.where(
            words >= cutoff, 2.0 + words, np.where(semantic >= threshold, 1.0 + semantic, words)
        )
    ranked.flags.writeable = False
    raw = run(request, analysis=replace(analysis, pairs=PairSimilarity.given(ranked)))

    removals = []
    real = []
    for r in raw.deduplication.removed:
        i, j = r.index, r.duplicate_of
        by = BY_WORDS if words[i, j] >= cutoff else BY_MEANING
        removals.append(
            SemanticRemoval(i, j, round(float(semantic[i, j]), 6), round(float(words[i, j]), 6), by)
        )
        real.append(Removal(i, j, float(words[i, j]), r.chars))
    present = np.ones(len(words), dtype=bool)
    present[[r.index for r in raw.deduplication.removed]] = False
    nearest = nearest_by_overlap(words, present)  # by word overlap, as the contract reports it
    traces = tuple(replace(t, nearby=nearest) for t in raw.messages)
    result = replace(
        raw,
        analysis=analysis,
        deduplication=Deduplication(tuple(real), nearest),
        messages=traces,
    )
    return SemanticDedupeResult(threshold, result, tuple(removals))
