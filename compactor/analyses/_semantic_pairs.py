"""Semantic pairs: same-role messages close in meaning while their word overlap stays under the
request's ``duplicate_threshold`` (so dedupe keeps both). The embeddings are
:mod:`compactor.text._semantic`; a pair is a hint to look, not proof."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from compactor.engine import CompactionResult
from compactor.text import SEMANTIC_THRESHOLD as DEFAULT_THRESHOLD
from compactor.text import semantic_similarity


@dataclass(frozen=True)
class SemanticPair:
    """Message ``b`` says what earlier message ``a`` (same role) said, in other words."""

    a: int
    b: int
    semantic: float  # cosine of the embeddings, 6 decimals
    word_overlap: float  # Jaccard of the word sets, as dedupe computes it, 6 decimals

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "semantic": self.semantic,
            "word_overlap": self.word_overlap,
        }


def semantic_pairs(
    result: CompactionResult,
    threshold: float = DEFAULT_THRESHOLD,
    *,
    semantic: np.ndarray | None = None,
) -> tuple[SemanticPair, ...]:
    """Same-role pairs with cosine ``>= threshold`` and word overlap under the request's
    ``duplicate_threshold``, most similar first (then by ``b``, ``a``).

    ``semantic`` is :func:`semantic_similarity` of the same messages, computed when omitted.
    Raises :class:`SemanticUnavailable` without the ``semantic`` extra.
    """
    request = result.request
    if semantic is None:
        semantic = semantic_similarity(request.contents, request.roles)
    words = result.analysis.similarity
    with np.errstate(invalid="ignore"):
        close = (semantic >= threshold) & (words < request.params.duplicate_threshold)
    pairs = [
        SemanticPair(int(j), int(i), round(float(semantic[i, j]), 6), round(float(words[i, j]), 6))
        for i, j in zip(*np.nonzero(close), strict=True)
    ]
    return tuple(sorted(pairs, key=lambda p: (-p.semantic, p.b, p.a)))
