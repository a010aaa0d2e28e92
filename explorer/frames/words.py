"""Frames about words and meaning beside the contract's: topic terms the import markup feeds, the
scores without it, and pairs close in meaning that word overlap misses."""

from __future__ import annotations

import pandas as pd

from compactor import CompactionResult
from compactor.analyses import term_sources, without_markup
from explorer.frames.views import preview


def markup_terms_frame(result: CompactionResult) -> pd.DataFrame:
    """The topic terms with how many of their occurrences are the importer's tool-call markup."""
    rows = [
        {
            "rank": rank,
            "term": t.term,
            "count": t.count,
            "in_markup": t.in_markup,
            "from_markup": t.from_markup,
        }
        for rank, t in enumerate(term_sources(result), start=1)
    ]
    return pd.DataFrame(rows, columns=["rank", "term", "count", "in_markup", "from_markup"])


def markup_scores_frame(result: CompactionResult) -> pd.DataFrame:
    """Every scored message's score and drop order with and without the markup's words."""
    rows = [
        {
            "message": f"#{s.index}",
            "score": s.score,
            "score_without": s.score_without,
            "drop_order": s.drop_order,
            "drop_order_without": s.drop_order_without,
            "moves": s.drop_order != s.drop_order_without,
        }
        for s in without_markup(result).scores
    ]
    columns = ["message", "score", "score_without", "drop_order", "drop_order_without", "moves"]
    return pd.DataFrame(rows, columns=columns)


def semantic_frame(result: CompactionResult, pairs) -> pd.DataFrame:
    """Pairs close in meaning that dedupe keeps: both messages, both similarities, both fates."""
    rows = [
        {
            "earlier": f"#{p.a}",
            "later": f"#{p.b}",
            "role": result.messages[p.b].message.role,
            "semantic": p.semantic,
            "word_overlap": p.word_overlap,
            "later_fate": result.messages[p.b].fate.value,
            "earlier_preview": preview(result.messages[p.a].message.content),
            "later_preview": preview(result.messages[p.b].message.content),
        }
        for p in pairs
    ]
    columns = ["earlier", "later", "role", "semantic", "word_overlap", "later_fate"]
    return pd.DataFrame(rows, columns=[*columns, "earlier_preview", "later_preview"])
