"""Relevance to a focus: BM25 over a history's texts (optional: the ``focus`` extra, bm25s).

Each text (a message, or a part of a long one) is a document. They are cut into terms by
bm25s's own tokenizer (lower case, runs of two or more word characters, its built-in English
stop words (NLTK's list) taken out; nothing is downloaded, no stemmer, no model), except that
a run of characters of a script written without spaces between words (Chinese and Japanese:
Han, Hiragana, Katakana) is read as its overlapping character pairs, the usual way to index
such text without a dictionary ("婚礼在波尔图" -> 婚礼, 礼在, 在波, 波尔, 尔图; a run of one
character is that character), so a question finds the sentence that answers it; words of
other scripts beside them are terms as before. The scores are those of ``bm25s.BM25``
(Lucene's BM25, k1 = 1.5, b = 0.75: Lù, *BM25S: Orders of magnitude faster lexical search via
eager sparse scoring*, 2024, https://github.com/xhluca/bm25s) indexed on those terms, equal to
them bit for bit (a test compares them), but computed for the query's terms only: the texts'
lengths and the query's term counts are read in one pass over the history (vectorised for
ASCII text), and no index of the other terms is built. A query is a set of terms, each with a
weight; a text's score is the weighted sum of the BM25 scores of the
query terms it holds, and :meth:`Relevance.matches` says which terms those were, with their
scores, so a strategy can say why it kept a text.

>>> found = relevance(["The parcel left Berlin.", "Lunch was fine.", "Berlin, then Oslo."],
...                   {"berlin": 1.0, "oslo": 0.5})
>>> [round(float(s), 2) for s in found.scores], [t for t, _ in found.matches(2)]
([0.17, 0.0, 0.41], ['oslo', 'berlin'])
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

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
        # by group, best first; ties by term: the pairs are in (group, term) order already and
        # lexsort is stable, so the term need not be a key
        order = np.lexsort((-summed, pair_owner))
        out: dict[int, tuple[tuple[tuple[str, float], ...], int]] = {}
        starts = np.flatnonzero(np.diff(pair_owner[order], prepend=-1))
        ends = np.append(starts[1:], len(order))
        sizes = ends - starts
        # each group's best ``top`` read out at once, in order, then sliced group by group (not
        # a small array per group, nor every pair when groups hold many)
        rank = np.arange(len(order)) - np.repeat(starts, sizes)
        chosen = order[rank < top]
        names = [self.terms[t] for t in pair_term[chosen].tolist()]
        sums = summed[chosen].tolist()
        taken = np.minimum(sizes, top)
        for holder, first, count, total in zip(
            pair_owner[order[starts]].tolist(),
            (np.cumsum(taken) - taken).tolist(),
            taken.tolist(),
            sizes.tolist(),
            strict=True,
        ):
            stop = first + count
            out[holder] = (tuple(zip(names[first:stop], sums[first:stop], strict=True)), total)
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

    The scores are those of ``bm25s.BM25`` (Lucene's variant, k1 = 1.5, b = 0.75) indexed on the
    texts tokenized by ``bm25s.tokenize`` (a test checks they are equal, bit for bit), computed
    only for the query's terms: the texts' term counts are read once (an ASCII text through a
    byte table, as fast as a split; another by bm25s's own token pattern), and no index of the
    other terms is built.

    Raises:
        RelevanceUnavailable: bm25s is not installed (the message says how to install it).
    """
    _bm25s()
    n = len(texts)
    empty = np.zeros(0, dtype=np.int64)
    none = Relevance(np.zeros(n), empty, empty, np.zeros(0), ())
    if n == 0 or not query:
        return none
    wanted = [(t, w) for t, w in query.items() if w > 0]
    lengths, (texts_of, terms_of, counts_of) = _term_counts(texts, [t for t, _ in wanted])
    hit_terms = terms_of
    df = np.bincount(hit_terms, minlength=len(wanted))
    held = np.flatnonzero(df)  # the query's terms some text holds, in the query's order
    if not len(held):
        return none
    wanted_list = [wanted[k] for k in held.tolist()]
    renumber = np.cumsum(df > 0) - 1
    # term by term, each term's texts in order (as bm25s's index holds them)
    order = np.argsort(hit_terms, kind="stable")
    hit_terms = renumber[hit_terms[order]]
    hit_texts = texts_of[order]
    tf = counts_of[order].astype(np.float64)
    # bm25s: idf in float32; tfc = tf / (k1 * ((1 - b) + b * l_d / l_avg) + tf) in float64;
    # their product kept in float32
    idf = np.array(
        [math.log(1 + (n - d + 0.5) / (d + 0.5)) for d in df[held].tolist()], dtype=np.float32
    )
    average = np.array(lengths).mean()
    length = np.asarray(lengths, dtype=np.int64)[hit_texts]
    tfc = tf / (K1 * ((1 - B) + B * length / average) + tf)
    bm25 = (idf[hit_terms].astype(np.float64) * tfc).astype(np.float32)
    weights = np.array([w for _, w in wanted_list], dtype=np.float64)
    hit_scores = bm25.astype(np.float64) * weights[hit_terms]
    if len(unscored[0]) and len(unscored[1]):
        own_text = np.zeros(n, dtype=bool)
        own_text[np.asarray(list(unscored[0]), dtype=np.int64)] = True
        own_term = np.array([t in set(unscored[1]) for t, _ in wanted_list], dtype=bool)
        counted_hits = ~(own_text[hit_texts] & own_term[hit_terms])
        hit_texts, hit_terms, hit_scores = (
            hit_texts[counted_hits],
            hit_terms[counted_hits],
            hit_scores[counted_hits],
        )
    scores = np.bincount(hit_texts, weights=hit_scores, minlength=n)
    return Relevance(scores, hit_texts, hit_terms, hit_scores, tuple(t for t, _ in wanted_list))


#: bm25s.BM25's defaults (Lucene's variant).
K1, B = 1.5, 0.75
_TOKEN = re.compile(TOKEN_PATTERN)
#: An ASCII text's word characters (``\w``: letters, digits, ``_``) kept, every other byte a
#: space: the text's tokens are then its split's words of two or more characters.
_ASCII_WORDS = bytes(
    c if chr(c).isascii() and (chr(c).isalnum() or chr(c) == "_") else 32 for c in range(256)
)


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    """bm25s's stop words (``STOPWORDS``), as its tokenizer takes them out."""
    from bm25s.tokenization import _infer_stopwords

    return frozenset(_infer_stopwords(STOPWORDS))


def _term_counts(
    texts: Sequence[str], terms: Sequence[str]
) -> tuple[list[int], tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each text's length in terms (as bm25s counts it: tokens of two or more word characters,
    stop words out), and, for every ``terms[j]`` text ``k`` holds, ``k``, ``j`` and how many
    times (three parallel arrays, by text, then term)."""
    stop = _stop_words()
    as_text = {t: j for j, t in enumerate(terms) if t not in stop}
    lengths = [0] * len(texts)
    found: list[tuple[int, int, int]] = []
    if " ".join(texts).isascii():
        plain, lowered_plain = list(range(len(texts))), [t.lower() for t in texts]
    else:
        plain, lowered_plain = [], []
        for k, text in enumerate(texts):
            lowered = text.lower() if text.isascii() else spaced(text).lower()
            if lowered.isascii():
                plain.append(k)
                lowered_plain.append(lowered)
                continue
            counts = Counter(_TOKEN.findall(lowered))
            lengths[k] = sum(counts.values()) - sum([counts[w] for w in counts.keys() & stop])
            found += [(k, as_text[w], counts[w]) for w in counts.keys() & as_text.keys()]
    columns = [np.array(found, dtype=np.int64).reshape(-1, 3)]
    if plain:
        plain_lengths, (at, term, count) = _ascii_counts(lowered_plain, as_text)
        mapped = np.asarray(plain, dtype=np.int64)
        for k, length in zip(plain, plain_lengths.tolist(), strict=True):
            lengths[k] = length
        columns.append(np.stack([mapped[at], term, count], axis=1))
    table = np.concatenate(columns)
    order = np.lexsort((table[:, 1], table[:, 0]))
    return lengths, (table[order, 0], table[order, 1], table[order, 2])


#: The polynomial hash of the ASCII tokens (modulo 2**64).
_HASH = 0x9E3779B97F4A7C15


def _powers(n: int, block: int = 1024) -> np.ndarray:
    """``_HASH ** k`` modulo 2**64 for k < n: a block of powers times the powers of the block's
    step (one multiplication per element, not a chain of n)."""
    small = np.full(block, _HASH, dtype=np.uint64)
    small[0] = 1
    small = np.cumprod(small, dtype=np.uint64)  # wraps modulo 2**64
    steps = np.full(-(-n // block), pow(_HASH, block, 2**64), dtype=np.uint64)
    steps[0] = 1
    steps = np.cumprod(steps, dtype=np.uint64)
    return np.multiply.outer(steps, small).ravel()[:n]


def _hashes(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The 64-bit polynomial hash of each ``data[start:end]`` with its length mixed in (the
    same bytes, the same hash, wherever they lie in ``data``), from prefix sums, without a
    loop: ``sum(b[j] * P**(j - end + len(data)))`` over the token's bytes."""
    n = len(data)
    powers = _powers(n + 1)
    prefix = np.zeros(n + 1, dtype=np.uint64)
    np.cumsum(data * powers[:n], out=prefix[1:])
    hashed = (prefix[ends] - prefix[starts]) * powers[n - ends]
    return hashed ^ (ends - starts).astype(np.uint64)


def _lookup(hashed: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which of ``hashed`` are among ``keys``, and where in ``keys`` (by a binary search)."""
    if not len(keys):
        return np.zeros(len(hashed), dtype=bool), np.zeros(len(hashed), dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    ranked = keys[order]
    at = np.minimum(np.searchsorted(ranked, hashed), len(ranked) - 1)
    return ranked[at] == hashed, order[at]


def _one_word(word: str) -> bool:
    """Whether ``word`` is one ASCII token (a run of word characters), as a term must be."""
    return word.isascii() and b" " not in word.encode().translate(_ASCII_WORDS) and bool(word)


def _ascii_counts(
    texts: Sequence[str], terms: Mapping[str, int]
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """:func:`_term_counts` of lower-case ASCII texts, vectorised: the texts joined (a space
    between), every byte not a word character a space (``\\w`` in ASCII: letters, digits,
    ``_``), the tokens the runs of word bytes, each token hashed (a 64-bit polynomial hash and
    its length: a stop word or a term is recognised by its hash; two different words share one
    about once in 10**19 pairs, unless built to) and counted per text, with no loop over the
    tokens. The stop words and the terms are hashed with them, appended after the last text."""
    stop = _stop_words()
    stops = sorted(w for w in stop if _one_word(w))
    words = [(t, j) for t, j in terms.items() if _one_word(t) and len(t) >= 2]
    keys = [*stops, *(t for t, _ in words)]
    joined = " ".join([*texts, *keys]).encode().translate(_ASCII_WORDS)
    data = np.frombuffer(joined, dtype=np.uint8)
    word = np.zeros(len(data) + 2, dtype=np.int8)
    word[1:-1] = data != 32
    edges = np.diff(word)
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    hashed = _hashes(data, starts, ends)  # bytes times uint64 powers: uint64, no copy to widen
    # the keys are the last tokens (each is one token: a stop word or a term is a run of word
    # characters)
    hashed, key_hashes = hashed[: len(hashed) - len(keys)], hashed[len(hashed) - len(keys) :]
    starts, ends = starts[: len(hashed)], ends[: len(hashed)]
    sizes = np.array([len(t) + 1 for t in texts], dtype=np.int64)
    # each text's tokens are a run of them: where each run begins, then each token's text
    first = np.searchsorted(starts, np.cumsum(sizes) - sizes)
    owner = np.repeat(np.arange(len(texts)), np.diff(np.append(first, len(starts))))
    # one search for both: stop words first, then the terms (a term is no stop word)
    found, at = _lookup(hashed, key_hashes)
    counted = ((ends - starts) >= 2) & ~(found & (at < len(stops)))
    lengths = np.bincount(owner[counted], minlength=len(texts))
    empty = np.zeros(0, dtype=np.int64)
    if not words:
        return lengths, (empty, empty, empty)
    hit = found & (at >= len(stops)) & counted
    at = at - len(stops)
    pairs, counts = np.unique(owner[hit] * len(words) + at[hit], return_counts=True)
    term_ids = np.array([j for _, j in words], dtype=np.int64)
    return lengths, (pairs // len(words), term_ids[pairs % len(words)], counts)


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

    _bm25s()
    n = len(texts)
    if n == 0 or room <= 0:
        return Cover((), ())
    words, vocab, idf, first = _cover_words(tuple(texts))
    covered = np.zeros(len(idf), dtype=bool)
    sizes = [max(1, len(t)) for t in texts]
    skipped = set(skip)

    def gain(k: int) -> float:
        ids = words[k]
        return float(idf[ids[~covered[ids]]].sum()) / sizes[k]

    heap = [(-first[k], -k) for k in range(n) if k not in skipped and len(words[k])]
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


@lru_cache(maxsize=4)
def _cover_words(
    texts: tuple[str, ...],
) -> tuple[tuple[np.ndarray, ...], Mapping[int, str], np.ndarray, tuple[float, ...]]:
    """Each text's distinct words (ids, in the order they first occur), the words by id, each
    id's inverse document frequency, and each text's gain before any word is covered: what
    :func:`rare_word_cover` reads of ``texts`` whatever the room, kept for the last few (keyed
    on the texts themselves: a budget move over one history, the explorer's slider, covers the
    same texts again; about the size of the texts' distinct words, 1 MB per 1,000,000
    characters). Read-only for the callers: the arrays cannot be written, the words are a
    read-only mapping."""
    tokenized = _bm25s().tokenize(
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
    idf = np.log1p((len(texts) - df + 0.5) / (df + 0.5))
    for array in (*words, idf):
        array.flags.writeable = False
    none = np.zeros(len(df), dtype=bool)
    first = tuple(
        float(idf[ids[~none[ids]]].sum()) / max(1, len(text))  # as rare_word_cover's gain
        for ids, text in zip(words, texts, strict=True)
    )
    return tuple(words), MappingProxyType(vocab), idf, first
