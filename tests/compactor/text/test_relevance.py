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
