"""Corpus: a question set given by path is asked of the loaded corpus; the page shows each
setting's probe recall (pooled over the questions, with counts) beside keep-last, random and
needed-later recall as the engine gives it, the judge named, the questions the chosen setting
fails (their labeller's text as plain table text), and the questions set aside with their
line."""

import json

from compactor.evaluation import (
    CorpusStream,
    RunOptions,
    evaluate,
    read_questions,
    summarise,
)
from explorer.corpus import labelled as corpus_questions
from explorer.corpus import widgets
from harness.apptest import assert_clean, goto, start, table
from tests.paths import CORPUS

HOSTILE = (
    "What did [the agent](http://evil.example) say? <b>bold</b> ![x](http://evil.example/i.png)"
)


def question_set(path):
    """Questions on each shared conversation's first and last messages, one on a message far
    back with hostile text, and one line naming no conversation."""
    lines = []
    for item in CorpusStream(CORPUS):
        n = len(item.request["messages"])
        name = item.conversation
        lines += [
            {"record": name, "id": f"{name}:first", "evidence": [0]},
            {"record": name, "id": f"{name}:last", "evidence": [n - 1]},
            {"record": name, "id": f"{name}:early", "evidence": [1], "question": HOSTILE},
        ]
    lines.append({"record": "missing.json", "id": "nowhere", "evidence": [0]})
    path.write_text("\n".join(json.dumps(q) for q in lines) + "\n")
    return path


def test_the_page_shows_probe_recall_failures_and_set_aside_questions_as_the_engine(tmp_path):
    path = question_set(tmp_path / "labels.jsonl")
    at = goto(start(), "pages/corpus.py")
    at.text_input(key=widgets.PATH_KEY).set_value(str(CORPUS))
    at = at.button(key=widgets.LOAD_PATH_KEY).click().run()
    at.text_input(key=corpus_questions.PATH_KEY).set_value(str(path))
    at = at.button(key=corpus_questions.LOAD_KEY).click().run()
    assert_clean(at)
    aside = table(at, "reason")
    assert list(aside["question"]) == ["nowhere"] and aside["where"].iloc[0] == "line 13, column 1"
    at.radio(key=widgets.BUDGET_MODE_KEY).set_value(widgets.LISTED)
    at.text_input(key=widgets.BUDGETS_KEY).set_value("3000")
    at = next(b for b in at.button if b.label == widgets.RUN_BUTTON).click().run()
    assert_clean(at)

    questions = read_questions(path)
    items = list(CorpusStream(CORPUS, questions=questions))
    settings = at.session_state[widgets.RUN_KEY].settings  # the sidebar's setting, as the grid
    rows = list(evaluate(items, settings, [3000], RunOptions(workers=1)))
    (setting,) = [s for s in summarise(rows) if s["strategy"] == "memory-compact"]
    shown = table(at, "strict_met").iloc[0]
    assert shown["questions"] == 12 == setting["probes_total"]
    for kind in ("strict", "partial"):
        assert shown[f"{kind}_met"] == setting[f"probes_met_{kind}"]
        assert shown[kind] == setting[f"probe_recall_{kind}"]
        assert shown[f"{kind}_keep_last"] == setting[f"probe_recall_{kind}_keep_last"]
        assert shown[f"{kind}_random"] == setting[f"probe_recall_{kind}_random"]
    assert shown["needed_recall"] == setting["needed_recall"]
    captions = [c.value for c in at.caption]
    assert any("judge: labelled questions (labels.jsonl, 12 questions)" in c for c in captions)

    failed = table(at, "lost")
    expected = [(f["id"], f["conversation"]) for f in setting["probes_failed"]]
    assert expected and list(zip(failed["id"], failed["conversation"], strict=True)) == expected
    early = failed[failed["id"].str.endswith(":early")]
    assert not early.empty and set(early["question"]) == {HOSTILE}  # text, as given
    markdown = " ".join(m.value for m in at.markdown)
    assert "evil.example" not in markdown
