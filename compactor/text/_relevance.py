"""Relevance to a focus: BM25 over a history's texts (optional: the ``focus`` extra, bm25s).

Each text (a message, or a part of a long one) is a document. They are cut into terms by
bm25s's own tokenizer (lower case, runs of two or more word characters, its built-in English
stop words (NLTK's list) taken out; nothing is downloaded, no stemmer, no model), except that
a run of characters of a script written without spaces between words (Chinese and Japanese:
Han, Hiragana, Katakana) is read as its overlapping character pairs, the usual way to index
such text without a dictionary ("婚礼在波尔图" -> 婚礼, 礼在, 在波, 波尔, 尔图; a run of one
character is that character), so a question finds the sentence that answers it; words of
other scripts beside them are terms as before. It is indexed by
``bm25s.BM25`` (Lucene's BM25, k1 = 1.5, b = 0.75: Lù, *BM25S: Orders of magnitude faster
lexical search via eager sparse scoring*, 2024, https://github.com/xhluca/bm25s). A query is a
set of terms, each with a weight; a text's score is the weighted sum of the BM25 scores of the
query terms it holds, and :meth:`Relevance.matches` says which terms those were, with their
scores, so a strategy can say why it kept a text.

>>> found = relevance(["The parcel left Berlin.", "Lunch was fine.", "Berlin, then Oslo."],
...                   {"berlin": 1.0, "oslo": 0.5})
>>> [round(float(s), 2) for s in found.scores], [t for t, _ in found.matches(2)]
([0.17, 0.0, 0.41], ['oslo', 'berlin'])
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from compactor.wording import install_command

INSTALL_HINT = f"relevance to a focus needs the focus extra (bm25s): {install_command('focus')}"
#: Scripts written without spaces between words, read as character pairs: CJK ideographs
#: (with extension A and the compatibility block), Hiragana, Katakana (and its phonetic
#: extensions, half-width forms) and the prolonged sound mark.
UNSPACED = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f"
_UNSPACED_RUN = re.compile(f"[{UNSPACED}]+")
#: bm25s's own token pattern (a run of two or more word characters; here also one character
#: of an unspaced script, a run of one) and its larger built-in English stop word list
#: (NLTK's 179 words: "my", "does", "when" are not terms).
TOKEN_PATTERN = f"(?u)\\b\\w\\w+\\b|[{UNSPACED}]"
STOPWORDS = "en_plus"


class RelevanceUnavailable(RuntimeError):
    """bm25s is not installed; the message says how to install it."""


def relevance_available() -> bool:
    try:
        import bm25s  # noqa: F401
    except ImportError:
        return False
    return True


def _bm25s():
    try:
        import bm25s
    except ImportError:
        raise RelevanceUnavailable(INSTALL_HINT) from None
    return bm25s


def _pairs(run: re.Match[str]) -> str:
    chars = run.group()
    if len(chars) == 1:
        return f" {chars} "
    return " " + " ".join(chars[k : k + 2] for k in range(len(chars) - 1)) + " "


def spaced(text: str) -> str:
    """``text`` with each run of an unspaced script replaced by its overlapping character
    pairs, spaced apart (what the tokenizer reads; other text is unchanged).

    >>> spaced("会议在东京 at 9")
    ' 会议 议在 在东 东京  at 9'
    """
    return _UNSPACED_RUN.sub(_pairs, text) if _UNSPACED_RUN.search(text) else text


def query_terms(text: str) -> list[str]:
    """The distinct terms of ``text`` as BM25 reads them, in the order they first occur.

    >>> query_terms("Where is the parcel to Berlin? The PARCEL, I mean.")
    ['parcel', 'berlin', 'mean']
    """
    if not text:
        return []
    tokens = _bm25s().tokenize(
        [spaced(text)],
        token_pattern=TOKEN_PATTERN,
        stopwords=STOPWORDS,
        return_ids=False,
        show_progress=False,
    )[0]
    return list(dict.fromkeys(tokens))


@dataclass(frozen=True)
class Relevance:
    """Every text's score for one query, and what each matched."""

    #: Per text, the weighted sum of the BM25 scores of the query terms it holds (0: none).
    scores: np.ndarray
    #: Every (text, query term) that scored: parallel arrays of the text, the term's position
    #: in ``terms`` and its weighted score.
    _texts: np.ndarray = field(repr=False)
    _terms: np.ndarray = field(repr=False)
    _scores: np.ndarray = field(repr=False)
    terms: tuple[str, ...] = ()

    def matches(self, index: int) -> tuple[tuple[str, float], ...]:
        """The query terms text ``index`` holds, each with its weighted score, best first."""
        return self.matched([index]).get(index, ())

    def matched(self, indices: Sequence[int]) -> dict[int, tuple[tuple[str, float], ...]]:
        """:meth:`matches` of several texts at once (those that matched nothing left out)."""
        wanted = np.zeros(len(self.scores), dtype=bool)
        wanted[np.asarray(list(indices), dtype=np.int64)] = True
        hit = wanted[self._texts] if len(self._texts) else np.zeros(0, dtype=bool)
        out: dict[int, list[tuple[str, float]]] = {}
        for text, term, score in zip(
            self._texts[hit].tolist(),
            self._terms[hit].tolist(),
            self._scores[hit].tolist(),
            strict=True,
        ):
            out.setdefault(text, []).append((self.terms[term], score))
        return {k: tuple(sorted(v, key=lambda m: (-m[1], m[0]))) for k, v in out.items()}

    def grouped(
        self, groups: Sequence[int] | np.ndarray, top: int
    ) -> dict[int, tuple[tuple[tuple[str, float], ...], int]]:
        """Per group of texts (``groups[text]``; negative: left out), the query terms its texts
        matched with their summed scores, best first, at most ``top`` of them, and how many
        there were in all."""
        group = np.asarray(groups, dtype=np.int64)
        if not len(self._texts):
            return {}
        owner = group[self._texts]
        keep = owner >= 0
        owner, terms, scores = owner[keep], self._terms[keep], self._scores[keep]
        if not len(owner):
            return {}
        width = len(self.terms)
        pairs, inverse = np.unique(owner * width + terms, return_inverse=True)
        summed = np.bincount(inverse, weights=scores)
        pair_owner, pair_term = pairs // width, pairs % width
        order = np.lexsort((pair_term, -summed, pair_owner))  # by group, best first
        out: dict[int, tuple[tuple[tuple[str, float], ...], int]] = {}
        starts = np.flatnonzero(np.diff(pair_owner[order], prepend=-1))
        ends = np.append(starts[1:], len(order))
        for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
            chosen = order[start : min(end, start + top)]
            named = tuple(
                (self.terms[t], s)
                for t, s in zip(pair_term[chosen].tolist(), summed[chosen].tolist(), strict=True)
            )
            out[int(pair_owner[order[start]])] = (named, end - start)
        return out


def relevance(
    texts: Sequence[str],
    query: Mapping[str, float],
    unscored: tuple[Sequence[int], Collection[str]] = ((), ()),
) -> Relevance:
    """BM25 scores of ``texts`` for ``query`` (term -> weight; terms as :func:`query_terms`
    gives them). Texts without a term score 0; an empty query scores every text 0.
    ``unscored`` is ``(texts, terms)``: those terms count for nothing in those texts (a query
    drawn from some of the texts does not match them with their own words).

    Raises:
        RelevanceUnavailable: bm25s is not installed (the message says how to install it).
    """
    bm25s = _bm25s()
    n = len(texts)
    empty = np.zeros(0, dtype=np.int64)
    none = Relevance(np.zeros(n), empty, empty, np.zeros(0), ())
    if n == 0 or not query:
        return none
    tokenized = bm25s.tokenize(
        [spaced(t) for t in texts],
        token_pattern=TOKEN_PATTERN,
        stopwords=STOPWORDS,
        show_progress=False,
    )
    wanted = [(t, w) for t, w in query.items() if t in tokenized.vocab and w > 0]
    if not wanted:
        return none
    index = bm25s.BM25()  # Lucene's variant, k1 = 1.5, b = 0.75
    index.index(tokenized, show_progress=False)
    data, rows, starts = index.scores["data"], index.scores["indices"], index.scores["indptr"]
    ids = np.array([index.vocab_dict[t] for t, _ in wanted], dtype=np.int64)
    lengths = starts[ids + 1] - starts[ids]
    picks = np.concatenate([np.arange(starts[i], starts[i + 1]) for i in ids])
    weights = np.repeat(np.array([w for _, w in wanted], dtype=np.float64), lengths)
    hit_texts = rows[picks].astype(np.int64)
    hit_scores = data[picks].astype(np.float64) * weights
    hit_terms = np.repeat(np.arange(len(wanted)), lengths)
    if len(unscored[0]) and len(unscored[1]):
        own_text = np.zeros(n, dtype=bool)
        own_text[np.asarray(list(unscored[0]), dtype=np.int64)] = True
        own_term = np.array([t in set(unscored[1]) for t, _ in wanted], dtype=bool)
        counted = ~(own_text[hit_texts] & own_term[hit_terms])
        hit_texts, hit_terms, hit_scores = (
            hit_texts[counted],
            hit_terms[counted],
            hit_scores[counted],
        )
    scores = np.bincount(hit_texts, weights=hit_scores, minlength=n)
    return Relevance(scores, hit_texts, hit_terms, hit_scores, tuple(t for t, _ in wanted))


#: Words a pending turn says when it says nothing about what comes next ("ok", "go on",
#: "continue", "thanks"): a focus whose terms are all among these (or the stop words) is no
#: focus.
FILLER = frozenset(
    [
        "ok",
        "okay",
        "okey",
        "kk",
        "yes",
        "yeah",
        "yep",
        "yup",
        "sure",
        "fine",
        "good",
        "great",
        "cool",
        "nice",
        "perfect",
        "alright",
        "right",
        "continue",
        "continuing",
        "go",
        "going",
        "proceed",
        "carry",
        "keep",
        "next",
        "please",
        "pls",
        "thanks",
        "thank",
        "thx",
        "ty",
        "done",
        "lgtm",
        "ack",
        "got",
        "hmm",
        "hm",
        "mm",
        "sounds",
        "looks",
        "let",
        "lets",
        "us",
        "hi",
        "hello",
        "hey",
        "sir",
        "thats",
        "that's",
    ]
)


def says_nothing(text: str) -> bool:
    """Whether ``text`` holds no term but stop words and :data:`FILLER` ("ok", "continue",
    "go on", "thanks, carry on"; an empty or blank text too).

    >>> says_nothing("OK, go on please."), says_nothing("continue"), says_nothing("Oslo?")
    (True, True, False)
    """
    return not set(query_terms(text)) - FILLER


@dataclass(frozen=True)
class Cover:
    """The texts a greedy cover of the history's rare words picked, in the order it picked
    them, and the words each one was the first to hold."""

    picked: tuple[int, ...]
    words: tuple[tuple[str, ...], ...]


def rare_word_cover(texts: Sequence[str], room: int, skip: Collection[int] = ()) -> Cover:
    """Cover the rare content words of ``texts`` within ``room`` characters: greedily, the
    text whose words not yet covered weigh most per character (a word's weight is its inverse
    document frequency over ``texts``, BM25's ``ln(1 + (N - df + 0.5) / (df + 0.5))``; each
    word counts once, in the first text picked that holds it), while it fits (a text that does
    not fit is passed over); texts in ``skip`` are neither picked nor counted as covering.
    Ties go to the later text. Stop words are not content words; a word in every text weighs
    almost nothing.

    >>> cover = rare_word_cover(["tea and cake", "Oslo, Bergen", "tea, cake and tea"], 30)
    >>> cover.picked, cover.words
    ((1, 0), (('oslo', 'bergen'), ('tea', 'cake')))

    Raises:
        RelevanceUnavailable: bm25s is not installed (the message says how to install it).
    """
    import heapq

    bm25s = _bm25s()
    n = len(texts)
    if n == 0 or room <= 0:
        return Cover((), ())
    tokenized = bm25s.tokenize(
        [spaced(t) for t in texts],
        token_pattern=TOKEN_PATTERN,
        stopwords=STOPWORDS,
        show_progress=False,
    )
    # each text's distinct words in the order they first occur
    words = [np.asarray(list(dict.fromkeys(ids)), dtype=np.int64) for ids in tokenized.ids]
    vocab = {i: w for w, i in tokenized.vocab.items()}
    df = np.zeros(len(vocab) + 1, dtype=np.float64)
    for ids in words:
        df[ids] += 1
    idf = np.log1p((n - df + 0.5) / (df + 0.5))
    covered = np.zeros(len(df), dtype=bool)
    sizes = [max(1, len(t)) for t in texts]
    skipped = set(skip)

    def gain(k: int) -> float:
        ids = words[k]
        return float(idf[ids[~covered[ids]]].sum()) / sizes[k]

    heap = [(-gain(k), -k) for k in range(n) if k not in skipped and len(words[k])]
    heapq.heapify(heap)
    picked, held = [], []
    left = room
    while heap and left > 0:
        _, negative = heapq.heappop(heap)
        k = -negative
        now = gain(k)
        if now <= 0:
            continue
        if heap and now < -heap[0][0]:
            heapq.heappush(heap, (-now, negative))  # its words were covered since: re-rank
            continue
        if len(texts[k]) > left:
            continue
        fresh = words[k][~covered[words[k]]]
        covered[fresh] = True
        left -= len(texts[k])
        picked.append(k)
        held.append(tuple(vocab[int(i)] for i in fresh if int(i) in vocab))
    return Cover(tuple(picked), tuple(held))
