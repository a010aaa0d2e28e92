"""The Corpus page's panels: load a corpus, pick the grid, run it with a progress bar (the
results are :mod:`explorer.corpus.results`).

Loading and running happen in the page body (inside the page's guard), so a failure is a message,
never a traceback; a failed load changes nothing: the corpus, its results, the uploaded file and
the typed path all stay. A conversation that cannot be used is set aside and listed (its record,
where, why, and the box that would fix it) while the others load; the file last given is kept, so
ticking a fix reads it again at once.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from compactor.errors import Problem, ProblemError
from compactor.evaluation import (
    CorpusStream,
    RunOptions,
    default_workers,
    evaluate,
    grid_points,
    parse_grid_option,
    read_corpus_text,
)
from compactor.wording import plural
from explorer.corpus import frames
from explorer.corpus import store as corpus_store
from explorer.frames.imports import CORPUS_FIX_LABELS, FORMAT_CHOICES, problem_row_height
from explorer.session import state
from explorer.session.conversation import safe_name
from explorer.widgets import common

CORPUS_KEY = "corpus_loaded"  # the corpus_store.Corpus on the page
RUN_KEY = "corpus_run"  # the corpus_store.Run shown (of the loaded corpus)
PROBLEMS_KEY = "corpus_problems"  # (title, problems) of the last failed load or run
UPLOAD_KEY = "corpus_upload"
UPLOADED_KEY = "corpus_uploaded"  # the file_id of the upload last read
PATH_KEY = "corpus_path"
FORMAT_KEY = "corpus_format"
STORED_KEY = "corpus_stored"
LOAD_PATH_KEY = "corpus_load_path"
OPEN_STORED_KEY = "corpus_open_stored"
RUN_BUTTON = "Run"
GRID_KEYS: Mapping[str, str] = {
    name: f"corpus_grid_{name}"
    for name in ("keep_last_n", "keep_roles", "duplicate_threshold", "max_message_chars")
}
BUDGET_MODE_KEY = "corpus_budget_mode"
BUDGETS_KEY = "corpus_budgets"
WORKERS_KEY = "corpus_workers"
SETTING_KEY = "corpus_setting"
#: What was given last, to read again when a fix is ticked: ("upload", name, bytes) or
#: ("path", name, path).
SOURCE_KEY = "corpus_source"
#: The conversations the last load set aside: (the key of the corpus loaded, or None when none
#: was, the SetAside list (at most the first 100 of a path), how many conversations the file
#: holds, and how many were loaded).
SET_ASIDE_KEY = "corpus_set_aside"
#: The fixes a conversation over the request's limits needs (as the Conversation page's).
FIX_KEYS: Mapping[str, str] = {"keep_last": "corpus_keep_last", "cut_long": "corpus_cut_long"}

AUTO = "detect"
SWEEP = "Every budget of each conversation's sweep"
LISTED = "These budgets"

TITLES = {
    "load": "This could not be read as a corpus; nothing was loaded.",
    "empty": "This holds no conversation; nothing was loaded.",
    "unusable": "None of its conversations can be used as it is; nothing was loaded.",
    "grid": "The grid has values the request schema does not allow; nothing was run.",
    "run": "A conversation of the corpus could not be evaluated; nothing was kept.",
}


def _format() -> str | None:
    value = st.session_state.get(FORMAT_KEY, AUTO)
    return None if value == AUTO else value


def _failed(kind: str, problems: Sequence[Problem]) -> None:
    st.session_state[PROBLEMS_KEY] = (TITLES[kind], tuple(problems))
    st.session_state.pop(SET_ASIDE_KEY, None)


def _use(corpus: corpus_store.Corpus) -> None:
    """Show ``corpus`` with its newest kept run (none: nothing to show until a run)."""
    st.session_state.pop(PROBLEMS_KEY, None)
    st.session_state[CORPUS_KEY] = corpus
    kept = corpus_store.run_entries(corpus.key)
    newest = corpus_store.get_run(corpus.key, kept[0].grid) if kept else None
    if newest is not None:
        st.session_state[RUN_KEY] = newest
    else:
        st.session_state.pop(RUN_KEY, None)
    st.session_state.pop(SETTING_KEY, None)


def use_corpus(corpus: corpus_store.Corpus) -> None:
    """Show ``corpus`` (another page part made it: the loaded one with labelled questions)."""
    _use(corpus)


def _fixes() -> dict[str, bool]:
    return {name: bool(st.session_state.get(key)) for name, key in FIX_KEYS.items()}


def _read(source: tuple[str, str, Any]) -> None:
    """Read ``source`` with the fixes ticked: load its usable conversations and list those set
    aside; when it cannot be read, or none is usable, say why and change nothing shown."""
    st.session_state[SOURCE_KEY] = source
    kind, name, value = source
    try:
        if kind == "upload":
            read = read_corpus_text(value, name, _format(), **_fixes())
            items, aside, total = read.items, read.set_aside, len(read.items) + len(read.set_aside)
        else:
            stream = CorpusStream(value, _format(), **_fixes())
            items, aside, total = list(stream), stream.set_aside, len(stream)
    except ProblemError as error:
        _failed("load", error.problems)
        return
    if not items:
        if aside:
            st.session_state.pop(PROBLEMS_KEY, None)
            st.session_state[SET_ASIDE_KEY] = (None, tuple(aside), total, 0)
        else:
            _failed("empty", [Problem(f"{name}: no conversation found")])
        return
    corpus = corpus_store.save_corpus(name, _format(), items)
    _use(corpus)
    st.session_state[SET_ASIDE_KEY] = (corpus.key, tuple(aside), total, len(items))


def _read_again() -> None:
    """A fix was ticked or cleared: read what was given last again with it (a callback)."""
    source = st.session_state.get(SOURCE_KEY)
    if source is not None:
        _read(source)


def _read_path(path: str) -> None:
    if not path:
        _failed("load", [Problem("write the path of a file or folder on this server first")])
        return
    _read(("path", safe_name(path) or "corpus", path))


def _show_set_aside() -> None:
    """The conversations the last load set aside, when they belong to the corpus shown (or
    none was loaded): how many, and each with its record, where, and why in the page's words."""
    found = st.session_state.get(SET_ASIDE_KEY)
    if not found or not found[1]:
        return
    key, aside, total, used = found
    loaded = current()
    listed = f" (the first {len(aside):,} listed)" if len(aside) < total - used else ""
    if key is None:
        st.error(TITLES["unusable"], icon=":material/error:")  # each with its fix, below
    elif loaded is not None and loaded.key == key:
        fixes = dict.fromkeys(f for found in aside for f in found.fixes)
        boxes = " and ".join(f"“{CORPUS_FIX_LABELS[f]}”" for f in fixes)
        st.warning(
            f"{total - used:,} of the {total:,} conversations could not be used as they are and "
            f"were set aside{listed}; the other {used:,} are loaded and run without them."
            + (f" To load them with a fix, tick {boxes} above." if fixes else ""),
            icon=":material/report:",
        )
    else:
        return
    common.table(
        frames.set_aside_frame(aside, CORPUS_FIX_LABELS),
        row_height=problem_row_height([p for found in aside for p in found.problems], 60),
        column_config={
            "record": st.column_config.TextColumn("record", width="small"),
            "reason": st.column_config.TextColumn("reason", width="large"),
            "fix": st.column_config.TextColumn("fix", width="medium"),
        },
    )


def loader() -> None:
    """Upload a file, name a file or folder on the server, or reopen a kept corpus."""
    st.selectbox(
        "Format",
        [AUTO, *FORMAT_CHOICES],
        key=FORMAT_KEY,
        persist_state="session",
        format_func=lambda f: "Detect automatically" if f == AUTO else f"{f}: {FORMAT_CHOICES[f]}",
        help="Detected from each file's content; choose one when the detection guesses wrong.",
    )
    for name, key in FIX_KEYS.items():
        st.checkbox(
            CORPUS_FIX_LABELS[name],
            key=key,
            persist_state="session",
            on_change=_read_again,
            help="For conversations over the request's limits (set aside otherwise); each fix "
            "loses content. Ticking it reads the file or path given last again.",
        )
    upload, path, stored = st.tabs(["Upload a file", "A path on this server", "Kept corpora"])
    with upload:
        file = st.file_uploader(
            "A .json or .jsonl file of many conversations (records, JSON Lines, or the lines "
            "`import --all` prints)",
            type=["json", "jsonl"],
            key=UPLOAD_KEY,
        )
        if file is not None and st.session_state.get(UPLOADED_KEY) != file.file_id:
            st.session_state[UPLOADED_KEY] = file.file_id
            _read(("upload", safe_name(file.name) or "uploaded file", file.getvalue()))
    with path:
        st.text_input(
            "File or folder",
            key=PATH_KEY,
            persist_state="session",
            placeholder="/data/traffic/sessions.jsonl",
        )
        if st.button("Load from this path", key=LOAD_PATH_KEY, icon=":material/folder_open:"):
            _read_path((st.session_state.get(PATH_KEY) or "").strip())
    with stored:
        said: list[str] = []
        entries = corpus_store.corpora(notices=said)
        if not entries:
            st.caption("No corpus is kept in this server's workspace yet.")
        else:
            labels = {
                e.key: f"{e.name} ({plural(e.conversations, 'conversation')}, "
                f"{plural(e.runs, 'run')} kept)"
                for e in entries
            }
            st.selectbox("Corpus", list(labels), key=STORED_KEY, format_func=labels.get)
            if st.button("Open this corpus", key=OPEN_STORED_KEY, icon=":material/history:"):
                corpus = corpus_store.get_corpus(st.session_state[STORED_KEY], said)
                if corpus is not None:
                    _use(corpus)
                    st.session_state.pop(SOURCE_KEY, None)  # a fix no longer reads a file
                    st.session_state.pop(SET_ASIDE_KEY, None)
        for notice in said:  # what the workspace could not do, as the sidebar says it
            st.warning(notice, icon=":material/database:")
    found = st.session_state.get(PROBLEMS_KEY)
    if found:
        common.show_problems(*found)
    _show_set_aside()


def current() -> corpus_store.Corpus | None:
    return st.session_state.get(CORPUS_KEY)


# --- the grid and the run ------------------------------------------------------------------


def _default_text(name: str, value: Any) -> str:
    if name == "keep_roles":
        return frames.roles_label(value)
    if name == "duplicate_threshold":
        return frames.format_threshold(value)
    return str(int(value))


def grid_form() -> tuple[list[dict[str, Any]], tuple[int, ...] | None] | None:
    """The grid the user asks for, once they press Run: (settings, budgets), budgets None for
    every budget of the sweep; None until then, or when a value is not allowed (said)."""
    params = state.params()
    for name, key in GRID_KEYS.items():
        st.session_state.setdefault(key, _default_text(name, params[name]))
    st.session_state.setdefault(BUDGETS_KEY, str(int(params["budget_chars"])))
    with st.form("corpus_grid"):
        st.caption(
            "Values separated by commas; every combination is a setting. keep_roles: roles "
            "joined by +, none for no role (system, system+tool, none)."
        )
        cols = st.columns(4)
        for col, (name, key) in zip(cols, GRID_KEYS.items(), strict=True):
            col.text_input(name, key=key, persist_state="session")
        st.radio(
            "Budgets",
            [SWEEP, LISTED],
            key=BUDGET_MODE_KEY,
            horizontal=True,
            persist_state="session",
        )
        left, right = st.columns([3, 1])
        left.text_input("budget_chars (when listed)", key=BUDGETS_KEY, persist_state="session")
        right.number_input(
            "Workers",
            1,
            default_workers(),
            key=WORKERS_KEY,
            persist_state="session",
            help="Processes that evaluate conversations side by side; 1 runs in the app itself.",
        )
        pressed = st.form_submit_button(RUN_BUTTON, type="primary", icon=":material/play_arrow:")
    if not pressed:
        return None
    grid: dict[str, list[Any]] = {}
    problems: list[Problem] = []
    for name, key in GRID_KEYS.items():
        try:
            grid[name] = parse_grid_option(f"{name}={st.session_state[key]}")[1]
        except ProblemError as error:
            problems += error.problems
    budgets: tuple[int, ...] | None = None
    if st.session_state.get(BUDGET_MODE_KEY) == LISTED:
        try:
            listed = parse_grid_option(f"budget_chars={st.session_state[BUDGETS_KEY]}")[1]
            grid_points({}, {"budget_chars": listed})  # each budget checked by the schema
            budgets = tuple(sorted(listed))
        except ProblemError as error:
            problems += error.problems
    settings: list[dict[str, Any]] = []
    if not problems:
        try:
            settings = grid_points({}, grid)
        except ProblemError as error:
            problems += error.problems
    if problems:
        common.show_problems(TITLES["grid"], problems)
        return None
    return settings, budgets


def run(
    corpus: corpus_store.Corpus, settings: list[dict[str, Any]], budgets: tuple[int, ...] | None
) -> None:
    """Evaluate the grid over the corpus with a progress bar; keep the rows and show them."""
    total = len(corpus.items)
    bar = st.progress(0.0, text=f"Evaluating 0 of {total:,} conversations")
    start = time.monotonic()

    def advance(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=f"Evaluating {done:,} of {total:,} conversations")

    try:
        rows = list(
            evaluate(
                corpus.items,
                settings,
                None if budgets is None else list(budgets),
                RunOptions(workers=int(st.session_state.get(WORKERS_KEY) or 1)),
                progress=advance,
            )
        )
    except ProblemError as error:
        bar.empty()
        common.show_problems(TITLES["run"], error.problems)
        return
    bar.progress(1.0, text=f"{total:,} conversations in {time.monotonic() - start:.1f} s")
    result = corpus_store.Run(tuple(settings), budgets, tuple(rows), time.time())
    said: list[str] = []
    if not corpus_store.save_run(corpus, result, said):
        st.caption("The workspace could not be written: these results last for this session.")
        for notice in said:
            st.warning(notice, icon=":material/database:")
    st.session_state[RUN_KEY] = result
    st.session_state.pop(SETTING_KEY, None)
