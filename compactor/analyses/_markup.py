"""Topic terms the importer wrote: how much of each comes from ``[tool call NAME id=ID]`` markup,
and what the drop scores would be without it.

The importer renders a tool call as text (:mod:`compactor.text._call_line`), so the words
``tool`` and ``call`` of that markup count towards the contract's topic terms like any other
word. The contract's terms and scores stay what the contract says; this analysis only explains
them: which terms the markup feeds, and the scores the same formula gives when the markup's own
words (``tool``, ``call``, ``id``) are left out. The tool's name and the call's id
are the conversation's and stay in.

>>> text = "[tool call get_weather id=call_1] {}"
>>> strip_markup(text)
' get_weather call_1 {}'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from compactor import contract
from compactor.engine import CompactionResult, drop_order, value
from compactor.text import CALL_HEAD as MARKUP  # a call's head, as the import writes it
from compactor.text import words

#: The markup's own words, which no message of the conversation wrote.
MARKUP_WORDS = ("tool", "call", "id")


def strip_markup(content: str) -> str:
    """``content`` with each markup head replaced by its name and id (the markup's words gone)."""
    return MARKUP.sub(lambda m: " " + " ".join(p for p in (m["name"], m["id"]) if p), content)


def markup_counts(contents: list[str] | tuple[str, ...]) -> Counter[str]:
    """How often each of the markup's own words occurs as markup, over all contents."""
    found: Counter[str] = Counter()
    for content in contents:
        for head in MARKUP.finditer(content):
            found.update(("tool", "call"))
            if head["id"] is not None:
                found["id"] += 1
    return found


@dataclass(frozen=True)
class TermSource:
    """A contract topic term and how many of its occurrences are import markup."""

    term: str
    count: int  # occurrences over the whole history (the contract's count)
    in_markup: int  # of them, written by the importer's tool-call markup

    @property
    def from_markup(self) -> bool:
        """Most of the term's weight comes from the importer, not from the conversation."""
        return 2 * self.in_markup > self.count


def term_sources(result: CompactionResult) -> tuple[TermSource, ...]:
    """Every contract topic term, in the contract's order, with its markup occurrences."""
    markup = markup_counts(result.request.contents)
    return tuple(
        TermSource(term, count, markup.get(term, 0)) for term, count in result.analysis.topic_terms
    )


def topic_terms(contents: list[str] | tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """The contract's topic-term rule, written plainly: the most frequent words longer than three
    characters, most frequent first, ties in alphabetical order."""
    counts: Counter[str] = Counter()
    for content in contents:
        counts.update(words(content))
    eligible = [(w, n) for w, n in counts.items() if len(w) >= contract.TOPIC_TERM_MIN_CHARS]
    eligible.sort(key=lambda pair: (-pair[1], pair[0]))
    return tuple(eligible[: contract.TOPIC_TERM_COUNT])


@dataclass(frozen=True)
class MarkupFreeScore:
    """A scored message's score as the contract computes it, and without the markup's words."""

    index: int
    score: float
    score_without: float
    topic_overlap: float
    topic_overlap_without: float
    drop_order: int  # 1 goes first
    drop_order_without: int


@dataclass(frozen=True)
class WithoutMarkup:
    terms: tuple[tuple[str, int], ...]  # the topic terms without the markup's words
    scores: tuple[MarkupFreeScore, ...]  # every scored message, by index

    @property
    def changed(self) -> tuple[MarkupFreeScore, ...]:
        return tuple(s for s in self.scores if s.drop_order != s.drop_order_without)


def without_markup(result: CompactionResult) -> WithoutMarkup:
    """The drop scores of ``result`` recomputed with the markup's own words left out.

    Recency and role weight do not depend on the text, so only topic overlap changes. Without
    markup in the history this gives exactly the contract's scores (a test checks it).
    """
    stripped = [strip_markup(c) for c in result.request.contents]
    terms = topic_terms(stripped)
    chosen = {term for term, _ in terms}
    rows = []
    for index, score in sorted(result.dropping.scores.items()):
        distinct = set(words(stripped[index]))
        overlap = len(distinct & chosen) / len(distinct) if distinct else 0.0
        without = value(score.recency, score.role_weight, overlap)
        rows.append((index, score.value, without, score.topic_overlap, overlap))
    before = _ranks(drop_order({i: s for i, s, *_rest in rows}))
    after = _ranks(drop_order({i: s2 for i, _s, s2, *_rest in rows}))
    scores = tuple(
        MarkupFreeScore(i, s, s2, o, o2, before[i] + 1, after[i] + 1) for i, s, s2, o, o2 in rows
    )
    return WithoutMarkup(terms, scores)


def _ranks(order: tuple[int, ...]) -> dict[int, int]:
    return {i: rank for rank, i in enumerate(order)}
