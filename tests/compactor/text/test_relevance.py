"""Relevance for text written without spaces between words (Chinese, Japanese): a question
finds the sentence that answers it among others of the same script, on small examples labelled
by hand (issue 38, item 8)."""

from __future__ import annotations

from compactor.text import query_terms, relevance
from compactor.text._relevance import spaced

#: (question, the sentence that answers it, other sentences), labelled by hand.
LABELLED = (
    (
        "我妹妹的婚礼在哪个城市举行？",
        "我妹妹的婚礼下个月在波尔图举行。",
        (
            "今天花园里的玫瑰开得很好。",
            "我们讨论了预算和会议的安排。",
            "昨天的火车晚点了两个小时。",
        ),
    ),
    (
        "会議の資料はどこに保存しましたか？",
        "会議の資料は共有フォルダに保存しました。",
        (
            "今日は天気がとても良いです。",
            "昼ご飯にラーメンを食べました。",
            "電車が少し遅れました。",
        ),
    ),
    (
        "パスポートの番号は何でしたか？",
        "パスポートの番号はTK4471です。",
        ("駅までバスで行きました。", "新しい本を三冊買いました。", "猫が窓の外を見ています。"),
    ),
)


def test_a_question_without_spaces_finds_its_evidence_first():
    for question, evidence, others in LABELLED:
        texts = [*others[:2], evidence, *others[2:]]
        found = relevance(texts, dict.fromkeys(query_terms(question), 1.0))
        best = max(range(len(texts)), key=lambda k: found.scores[k])
        assert best == 2, (question, [round(float(s), 2) for s in found.scores])
        assert found.scores[2] > 0


def test_unspaced_runs_are_read_as_character_pairs_beside_the_words_of_other_scripts():
    assert query_terms("婚礼在波尔图 Porto wedding") == [
        "婚礼",
        "礼在",
        "在波",
        "波尔",
        "尔图",
        "porto",
        "wedding",
    ]
    assert query_terms("猫。") == ["猫"]  # a run of one character is that character
    assert spaced("plain text, nothing to do") == "plain text, nothing to do"
    # every term is a piece of the text as written, so it can be shown where it occurs
    text = "パスポートの番号はTK4471です。"
    assert all(term in text.lower() for term in query_terms(text))


def _bm25s_own(texts, query):
    """The scores bm25s's own index gives (Lucene's BM25, its tokenizer and stop words): the
    reference the fast path must equal, bit for bit."""
    import bm25s
    import numpy as np

    from compactor.text._relevance import STOPWORDS, TOKEN_PATTERN

    tokenized = bm25s.tokenize(
        [spaced(t) for t in texts],
        token_pattern=TOKEN_PATTERN,
        stopwords=STOPWORDS,
        show_progress=False,
    )
    out = np.zeros(len(texts))
    if not any(t in tokenized.vocab and w > 0 for t, w in query.items()):
        return out  # nothing to index for (bm25s refuses a corpus without a term)
    index = bm25s.BM25()
    index.index(tokenized, show_progress=False)
    for term, weight in query.items():
        if term in tokenized.vocab and weight > 0:
            column = index.vocab_dict[term]
            a, b = index.scores["indptr"][column], index.scores["indptr"][column + 1]
            rows = index.scores["indices"][a:b]
            out[rows] += index.scores["data"][a:b].astype(np.float64) * weight
    return out


def test_the_scores_are_bm25s_own_bit_for_bit():
    import random

    rng = random.Random(38)
    words = [
        "the",
        "parcel",
        "Berlin",
        "oslo",
        "a",
        "I",
        "x",
        "42",
        "of",
        "is",
        "don't",
        "ab_c",
        "Über",
        "naïve",
        "会议在东京",
        "ア・イ",
        "café",
        "İstanbul",
        "K",
        "résumé",
        "e-mail",
        "foo.bar",
        "PARCEL",
        "parcel's",
    ]
    terms = ["parcel", "berlin", "oslo", "42", "ab_c", "über", "会议", "東", "café", "stanbul"]
    terms += ["the", "x", "don't", "zzz", "e-mail", "mail"]
    for _ in range(150):
        texts = [
            " ".join(rng.choice(words) for _ in range(rng.randint(0, 14)))
            + rng.choice(["", "\n", ".", "\n\n"])
            for _ in range(rng.randint(1, 10))
        ]
        if rng.random() < 0.5:  # an all-ASCII history (the vectorised path alone)
            texts = [t.encode("ascii", "ignore").decode() for t in texts]
        query = {t: rng.choice([1.0, 0.3, 0.0]) for t in rng.sample(terms, 7)}
        assert relevance(texts, query).scores.tolist() == _bm25s_own(texts, query).tolist()
