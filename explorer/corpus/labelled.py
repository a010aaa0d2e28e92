"""The Corpus page's labelled questions: a question set (a team's labelled evidence over the
corpus's conversations) given by upload or by path, asked of the loaded corpus; then, beside
needed-later recall, each setting's probe recall judged by those questions (the judge named),
the questions a chosen setting fails, and the questions set aside with their line or JSON path.

Question texts and ids are the labeller's, untrusted: they are shown only as table text, never
through Markdown or HTML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from compactor.errors import Problem, ProblemError
from compactor.evaluation import QuestionAside, read_questions, read_questions_text
from compactor.wording import plural
from explorer.corpus import frames
from explorer.corpus import store as corpus_store
from explorer.corpus.widgets import CORPUS_KEY, use_corpus
from explorer.session.conversation import safe_name
from explorer.widgets import common

UPLOAD_KEY = "corpus_questions_upload"
UPLOADED_KEY = "corpus_questions_uploaded"  # the file_id of the upload last read
PATH_KEY = "corpus_questions_path"
LOAD_KEY = "corpus_questions_load"
#: The question set last asked: a :class:`Asked`.
ASKED_KEY = "corpus_questions_asked"
SEPARATOR = " · questions "
TITLE = "This question set could not be read; no question was asked."


@dataclass(frozen=True)
class Asked:
    """A question set asked of a corpus: the corpus it made (its key), the file's name, the
    questions asked, and those set aside (the first 100; ``unusable`` counts them all)."""

    corpus: str
    name: str
    asked: int
    set_aside: tuple[QuestionAside, ...]
    unusable: int


def panel(corpus: corpus_store.Corpus) -> None:
    """Give a question set by upload or path; ask it of ``corpus``; list what was set aside."""
    with st.expander("Labelled questions: judge the settings by a question set", expanded=False):
        st.caption(
            'A JSON list, {"questions": [...]}, or JSON Lines: each question names its '
            "conversation by record (as the rows name it: 3, or PATH#i in a folder) or "
            "record_id (the record's own id), with id, evidence (message ids or 0-based "
            "indices), answer and question. The questions replace the records' own probes."
        )
        upload, path = st.tabs(["Upload a question set", "A path on this server"])
        with upload:
            file = st.file_uploader("A .json or .jsonl question set", type=["json", "jsonl"],
                                    key=UPLOAD_KEY)  # fmt: skip
            if file is not None and st.session_state.get(UPLOADED_KEY) != (
                file.file_id,
                corpus.key,
            ):
                name = safe_name(file.name) or "uploaded questions"
                made = _ask(corpus, name, lambda: read_questions_text(file.getvalue(), name))
                st.session_state[UPLOADED_KEY] = (file.file_id, made or corpus.key)
        with path:
            st.text_input("Question set file", key=PATH_KEY, persist_state="session",
                          placeholder="/data/labels/questions.jsonl")  # fmt: skip
            if st.button("Ask these questions", key=LOAD_KEY, icon=":material/quiz:"):
                given = (st.session_state.get(PATH_KEY) or "").strip()
                if not given:
                    common.show_problems(TITLE, [Problem("write the path of a file first")])
                else:
                    name = safe_name(given) or "questions"
                    _ask(corpus, name, lambda: read_questions(given))
    _show_set_aside()


def _ask(corpus: corpus_store.Corpus, name: str, read: Any) -> str | None:
    """Read the set, ask it of every conversation of ``corpus`` (its questions replace those
    asked before), and show the corpus with those questions; its key (None: unreadable)."""
    try:
        questions = read()
    except ProblemError as error:
        common.show_problems(TITLE, error.problems)
        return None
    asked = [questions.attach(item) for item in corpus.items]
    questions.finish()
    base = corpus.name.split(SEPARATOR)[0]
    made = corpus_store.save_corpus(f"{base}{SEPARATOR}{name}", corpus.format, asked)
    use_corpus(made)
    st.session_state[ASKED_KEY] = Asked(
        made.key, name, questions.asked, tuple(questions.set_aside), questions.unusable
    )
    return made.key


def asked_of(corpus: corpus_store.Corpus) -> Asked | None:
    found = st.session_state.get(ASKED_KEY)
    return found if isinstance(found, Asked) and found.corpus == corpus.key else None


def judge_label(corpus: corpus_store.Corpus) -> str:
    """The judge's name: ``judge: labelled questions (FILE, N questions)``."""
    count = sum(len(item.probes) for item in corpus.items)
    found = asked_of(corpus)
    name = found.name if found else corpus.name.partition(SEPARATOR)[2] or "the records' probes"
    return f"judge: labelled questions ({name}, {plural(count, 'question')})"


def _show_set_aside() -> None:
    corpus = st.session_state.get(CORPUS_KEY)
    found = asked_of(corpus) if corpus is not None else None
    if found is None or not found.unusable:
        return
    listed = (
        f" (the first {len(found.set_aside):,} listed)"
        if len(found.set_aside) < found.unusable
        else ""
    )
    st.warning(
        f"{plural(found.unusable, 'question')} of the set could not be used and "
        f"{'was' if found.unusable == 1 else 'were'} set aside{listed}; the other "
        f"{found.asked:,} are asked.",
        icon=":material/report:",
    )
    common.table(
        frames.question_aside_frame(found.set_aside),
        column_config={"reason": st.column_config.TextColumn("reason", width="large")},
    )


def results(
    corpus: corpus_store.Corpus, summaries: Sequence[Mapping[str, Any]], chosen: Mapping[str, Any]
) -> None:
    """Probe recall of every setting beside keep-last and random and needed-later recall, then
    the questions the chosen setting (its summary) fails."""
    if not any("probes_total" in s for s in summaries):
        return
    st.subheader("Labelled questions: probe recall per setting")
    st.caption(
        judge_label(corpus) + ". Strict: every evidence message returned whole; partial: every "
        "one returned (whole or cut); answer: the answer's text returned (of the questions whose "
        "answer is in their evidence). Pooled over the questions; keep-last and random (the "
        "mean of 20 draws) at the same budget."
    )
    common.table(
        frames.probe_frame(summaries),
        column_config={
            "setting": st.column_config.TextColumn("setting", width="medium"),
            **{name: common.share_column(name.replace("_", " ")) for name in frames.PROBE_SHARES},
        },
    )
    texts = {p.id: p.question for item in corpus.items for p in item.probes}
    failed = frames.failed_questions_frame(chosen.get("probes_failed") or [], texts)
    st.markdown("**The questions the chosen setting fails**")
    if failed.empty:
        st.success("Under this setting every question's evidence is returned whole.",
                   icon=":material/check_circle:")  # fmt: skip
        return
    st.caption(f"{plural(len(failed), 'question')} failed by {frames.setting_label(chosen)}.")
    common.table(
        failed,
        column_config={
            "question": st.column_config.TextColumn("question", width="large"),
            "conversation": st.column_config.TextColumn("conversation", width="small"),
        },
    )
