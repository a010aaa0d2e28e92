"""The Conversation page's panels: samples, paste, upload (via compactor.formats), the editor.

Loading happens in widget callbacks, before the sidebar is drawn, so a load can set the
parameters. A failed load changes nothing: the conversation stays, the pasted text stays, and
the problems are kept to show with the text. The table editor is the exception: its edits are
only known in the page body, so applying them loads on the next run.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from compactor.contract import AGENT_LIMITS, LIMITS, ROLES, budget_range
from compactor.formats import Conversion
from explorer.conversation import fixing
from explorer.conversation import frames as opening
from explorer.frames import imports
from explorer.frames.imports import FIX_LABELS, Attempt
from explorer.frames.safe_text import markdown_literal
from explorer.session import state
from explorer.session.conversation import (
    PARAM_NAMES,
    Conversation,
    content_key,
    limits_of,
    safe_name,
)
from explorer.widgets import common

PASTE_KEY = "paste_text"
PASTE_FORMAT_KEY = "paste_format"
UPLOAD_KEY = "upload_file"
UPLOAD_FORMAT_KEY = "upload_format"
STEP_KEY = "import_step_{}"  # per source: the last attempt's outcome
COLLECTION_KEY = "import_collection_{}"  # per source: a file of many conversations, to pick from
RECORD_KEY = "import_record_{}"  # per source: the record picked
REPORT_KEY = "import_report"
FIX_KEY = "fix_{}_{}"  # per source and fix option: the user's choice

TITLES = {
    "syntax": "This is not valid JSON (or JSON Lines); nothing was loaded.",
    "format": "This JSON could not be read as a conversation; nothing was loaded.",
    "schema": "The conversation breaks the request schema; nothing was loaded.",
    "collection": "This file holds many conversations: pick the record to load below.",
    "fixes": "Nothing was loaded: the window chosen cannot make a conversation.",
    "size": "This input is too large for the explorer; nothing was read.",
}
AUTO = "detect"


@dataclass(frozen=True)
class Step:
    """Where an import stands: loaded (whole, or with the window or cut chosen), or refused with
    problems. ``read`` is the read as it was when it is over the contract's limits: the window
    and the cut stay on offer for it (options, never the price of loading)."""

    attempt: Attempt
    conversation: Conversation | None = None
    read: Conversion | None = None

    @property
    def can_fix(self) -> bool:
        """Over the contract's limits: a window or a cut may be chosen (loaded whole without)."""
        return self.read is not None


def label_for(
    source: str, conversion: Conversion, file_name: str | None = None, record: int | None = None
) -> str:
    """The explorer's label: what it is, the file's name made safe, the record, the format.

    A paste has no name: its label says when it was pasted and the start of its content's key
    (``Pasted conversation (request) at 14:03:22, id 3f9a2c``), so that two pastes, even in one
    second, are told apart in the workspace's picker.
    """
    noun = {"pasted": "Pasted conversation", "uploaded": "Uploaded file"}.get(
        source, "Conversation"
    )
    name = safe_name(file_name)
    named = f"{noun} {name}" if name else noun
    of = f", record {record}" if record is not None else ""
    label = f"{named}{of} ({conversion.format})"
    if source == "pasted" and not name:
        at = time.strftime("%H:%M:%S", time.localtime())
        label += f" at {at}, id {content_key(conversion.request['messages'])[:6]}"
    return label


def decide(
    attempt: Attempt,
    source: str,
    fallback: Mapping[str, Any],
    keep_last: bool = False,
    cut_long: bool = False,
    file_name: str | None = None,
    record: int | None = None,
    window: imports.Window | None = None,
) -> Step:
    """What to do with a read: stop at its problems, or validate (after the fixes chosen, if
    any) and load. A conversation over the contract's limits loads whole with no fix chosen (the
    engine's agent mode); the window and the cut stay on offer for it (``Step.read``)."""
    if not attempt.over_limits and not attempt.ok:
        return Step(attempt)
    conversion = attempt.conversion
    conv, checked = imports.finish(
        conversion,
        keep_last=keep_last,
        cut_long=cut_long,
        window=window,
        fallback=fallback,
        label=label_for(source, conversion, file_name, record),
        source=source,
        file_name=file_name,
        record=record,
    )
    return Step(checked, conv, conversion if conversion.needs_fixes else None)


def _format_choice(key: str) -> str | None:
    value = st.session_state.get(key, AUTO)
    return None if value in (None, AUTO) else value


def _conclude(source: str, step: Step) -> None:
    """Keep the outcome; load a conversation, with the file's parameters where it has them,
    and for the others the user's, or its own when the user tuned nothing (the sidebar still
    holds what the previous conversation came with).

    Only the current outcome is shown: a failed attempt takes away the last load's banner.
    """
    st.session_state[STEP_KEY.format(source)] = step
    if step.attempt.kind == "collection":
        st.session_state[COLLECTION_KEY.format(source)] = step.attempt
    if step.conversation is None:
        st.session_state.pop(REPORT_KEY, None)
        return
    conversion = step.attempt.conversion
    untouched = opening.same_params(state.params(), state.conversation().params)
    values, said = opening.choose_params(
        conversion, step.conversation.params, state.params(), untouched
    )
    # a conversation loaded whole: the window and cut it could have had are options, not changes
    changes = tuple(c for c in conversion.changes if c.kind not in imports.FIX_KINDS)
    if "budget_chars" not in conversion.params_given and not untouched:
        changes = tuple(c for c in changes if c.kind != "budget-chosen")  # the user's is kept
    opened_own = untouched and len(conversion.params_given) < len(PARAM_NAMES)
    st.session_state[REPORT_KEY] = (step.conversation, changes, said, opened_own)
    state.load(step.conversation, values)


def _name(source: str) -> str | None:
    if source != "uploaded":
        return None
    file = st.session_state.get(UPLOAD_KEY)
    return getattr(file, "name", None)


def _refuse(source: str, problem: Any) -> None:
    st.session_state.pop(COLLECTION_KEY.format(source), None)
    _conclude(source, Step(Attempt(problems=(problem,), kind="size")))


def _read(source: str, data: str | bytes, key: str) -> None:
    attempt = imports.read(data, _format_choice(key))
    if attempt.kind != "collection":
        st.session_state.pop(COLLECTION_KEY.format(source), None)
    _conclude(source, decide(attempt, source, state.params(), file_name=_name(source)))


def _read_paste() -> None:
    text = st.session_state.get(PASTE_KEY) or ""
    refused = None
    if len(text) > imports.MAX_INPUT_BYTES // 4:  # a character is 1 to 4 bytes in UTF-8
        size = len(text.encode("utf-8", "surrogatepass"))
        refused = imports.too_large(size, "The pasted text")
    if refused is not None:
        _refuse("pasted", refused)
        return
    _read("pasted", text, PASTE_FORMAT_KEY)


def _read_upload() -> None:
    file = st.session_state.get(UPLOAD_KEY)
    if file is None:
        st.session_state.pop(STEP_KEY.format("uploaded"), None)
        st.session_state.pop(COLLECTION_KEY.format("uploaded"), None)
        return
    refused = imports.too_large(int(getattr(file, "size", 0) or 0))
    if refused is not None:  # refused by its size, before its bytes are read
        _refuse("uploaded", refused)
        return
    _read("uploaded", file.getvalue(), UPLOAD_FORMAT_KEY)


def _load_record(source: str) -> None:
    collected = st.session_state.get(COLLECTION_KEY.format(source))
    if collected is None:
        return
    record = int(st.session_state.get(RECORD_KEY.format(source)) or 0)
    attempt = imports.read_record(collected, record)
    step = decide(attempt, source, state.params(), file_name=_name(source), record=record)
    _conclude(source, step)


def _apply_fixes(source: str) -> None:
    step = st.session_state.get(STEP_KEY.format(source))
    if step is None or not (step.can_fix or step.attempt.kind == "fixes"):
        return
    read = step.read or step.attempt.conversion
    choice = {name: bool(st.session_state.get(FIX_KEY.format(source, name))) for name in FIX_LABELS}
    window = None
    if choice["keep_last"]:
        window = fixing.window_choice(source, len(read.request["messages"]))
        choice["keep_last"] = window is None
    conv_record = None
    collected = st.session_state.get(COLLECTION_KEY.format(source))
    if collected is not None:
        conv_record = int(st.session_state.get(RECORD_KEY.format(source)) or 0)
    _conclude(
        source,
        decide(
            Attempt(read, format=step.attempt.format),
            source,
            state.params(),
            **choice,
            file_name=_name(source),
            record=conv_record,
            window=window,
        ),
    )


def _format_picker(key: str) -> None:
    options = [AUTO, *imports.FORMAT_CHOICES]
    st.selectbox(
        "Format",
        options,
        key=key,
        format_func=lambda f: (
            "Detect automatically" if f == AUTO else f"{f}: {imports.FORMAT_CHOICES[f]}"
        ),
        persist_state="session",
        help="Detected from the content; choose one when the detection guesses wrong.",
    )


def record_picker(source: str) -> None:
    """The records of a file of many conversations, to load one (0-based, as everywhere)."""
    collected: Attempt | None = st.session_state.get(COLLECTION_KEY.format(source))
    if collected is None or collected.collection is None:
        return
    options = imports.record_options(collected.collection)
    with st.container(border=True):
        st.text(f"The file holds {collected.collection.description}.")
        st.selectbox(
            "Record", list(options), format_func=options.get, key=RECORD_KEY.format(source)
        )
        st.button(
            "Load this record",
            key=f"load_record_{source}",
            on_click=_load_record,
            args=(source,),
            type="primary",
            icon=":material/input:",
        )


def show_step(source: str) -> None:
    """The last import's problems; for a conversation over the contract's limits (loaded whole),
    the optional window and cut (with the choice and a button)."""
    step: Step | None = st.session_state.get(STEP_KEY.format(source))
    record_picker(source)
    if step is None:
        return
    if step.conversation is not None:
        if step.can_fix and step.conversation is state.conversation():
            with st.expander("Optional: load a window of it, or cut its long contents"):
                fix_panel(source, step.read)
        return
    attempt = step.attempt
    if attempt.kind == "collection":
        st.info(TITLES["collection"], icon=":material/library_books:")
    elif attempt.kind == "fixes":
        fixing.not_enough(TITLES["fixes"], attempt.problems)
    elif attempt.problems:
        common.show_problems(TITLES[attempt.kind], attempt.problems)
    if attempt.conversion is not None and attempt.conversion.changes:
        st.caption(f"What the import of this {attempt.conversion.format} conversation changed")
        common.table(imports.change_rows(attempt.conversion.changes))
    if attempt.kind == "fixes" and attempt.conversion is not None:
        fix_panel(source, attempt.conversion)


def fix_panel(source: str, read: Conversion) -> None:
    """The window and the cut a conversation over the contract's limits may have: each loses
    content, so neither is made unless chosen (without them it loads whole)."""
    st.caption(
        "It loaded whole, over the request contract's limits: the explorer compacts it in the "
        f"agent mode (budgets up to {budget_range(AGENT_LIMITS)[1]:,}). A window or a cut is "
        "yours to choose; each one loses content."
    )
    for option, effects in imports.pending_fixes(read).items():
        st.checkbox(FIX_LABELS[option], key=FIX_KEY.format(source, option))
        st.text(imports.first_lines(effects))
        if option == "keep_last":
            fixing.window_panel(source, read)
    st.button("Load with these fixes", on_click=_apply_fixes, args=(source,), type="primary")


def report() -> None:
    """What the import of the loaded conversation changed (while it is the one loaded)."""
    found = st.session_state.get(REPORT_KEY)
    if not found or found[0] is not state.conversation():
        return  # nothing imported, or something else was loaded since
    conv, changes = found[0], found[1]
    said = found[2] if len(found) > 2 else ""
    own = len(found) > 3 and found[3]  # it opened with its own parameters, not the sidebar's
    lossy = sum(1 for c in changes if c.lossy)
    # the label is the explorer's own words and a file name made safe (letters, digits, . - ( ))
    st.success(
        f"Loaded: {conv.label}. The import made {len(changes):,} changes, {lossy:,} of them lossy."
        if changes
        else f"Loaded: {conv.label}, unchanged.",
        icon=":material/check_circle:",
    )
    if conv.limits == AGENT_LIMITS:
        st.info(
            f"Whole: {len(conv.messages):,} messages, {conv.contents_chars:,} characters, over "
            f"the request contract's limits ({LIMITS['max_messages']} messages, "
            f"{LIMITS['max_content_chars']:,} characters a content). Every page reads it whole, "
            f"in the engine's agent mode (budgets up to {conv.budget_high:,}); a window or a cut "
            "is an option below, never required.",
            icon=":material/all_inclusive:",
        )
    if said and own:
        st.info(said, icon=":material/tune:")
    elif said:
        st.caption(said)
    for change in changes:  # which messages a window left out, named before the table
        if change.kind in ("kept-last", "kept-window"):
            st.caption(markdown_literal(f"Left out: {change.message}"))
    for line in imports.removed_result_lines(conv):
        st.caption(markdown_literal(line))
    if changes:
        common.table(imports.change_rows(changes))


def samples_panel(
    samples: Mapping[str, Conversation], descriptions: Mapping[str, tuple[str, str]]
) -> None:
    current = state.conversation()
    for slug, conv in samples.items():
        name, description = descriptions[slug]
        with st.container(border=True):
            left, right = st.columns([5, 1], vertical_alignment="center")
            with left:
                st.markdown(f"**{name}**")
                st.caption(
                    f"{description} {len(conv.messages):,} messages, "
                    f"{conv.contents_chars:,} characters, budget {conv.params['budget_chars']:,}."
                )
            with right:
                loaded = current.sample == slug
                st.button(
                    "Loaded" if loaded else "Load",
                    key=f"load_sample_{slug}",
                    on_click=state.load,
                    args=(conv,),
                    disabled=loaded,
                    width="stretch",
                )


def paste_panel() -> None:
    st.text_area(
        "Paste a request object, a messages array, or another chat format (JSON or JSON Lines)",
        key=PASTE_KEY,
        height=280,
        persist_state="session",
        placeholder='{"messages": [{"role": "user", "content": "Hi"}, ...], "budget_chars": 400}',
    )
    _format_picker(PASTE_FORMAT_KEY)
    st.button(
        "Load pasted conversation", on_click=_read_paste, type="primary", icon=":material/input:"
    )
    show_step("pasted")


def upload_panel() -> None:
    _format_picker(UPLOAD_FORMAT_KEY)
    st.file_uploader(
        "Upload a .json or .jsonl file",
        type=["json", "jsonl"],
        key=UPLOAD_KEY,
        on_change=_read_upload,
        help="It loads once read, whole: a session over the request contract's limits too "
        f"(at most {imports.MAX_INPUT_BYTES // 2**20} MB).",
    )
    show_step("uploaded")


def editor_panel(conv: Conversation) -> None:
    st.caption(
        "Edit cells, add rows at the bottom, delete rows with the row menu. To move a message, "
        "change its position (2.5 puts it between 2 and 3). Apply to compact the edited messages."
    )
    edited = st.data_editor(
        imports.editor_frame(conv.messages),
        key=f"editor_{conv.key}",
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_config={
            "position": st.column_config.NumberColumn(
                "position", format="%g", help="Order of the message"
            ),
            "role": st.column_config.SelectboxColumn("role", options=list(ROLES), required=True),
            "content": st.column_config.TextColumn(
                "content",
                width="large",
                max_chars=LIMITS["max_content_chars"]
                if limits_of(conv.messages) != AGENT_LIMITS
                else None,
                required=True,
            ),
            "id": st.column_config.TextColumn("id", max_chars=LIMITS["max_id_chars"]),
            "pin": st.column_config.CheckboxColumn("pin", default=False),
        },
    )
    if st.button("Apply edits", type="primary", icon=":material/check:"):
        params = state.params()
        messages = imports.rows_to_messages(edited)
        problems = imports.schema_problems({"messages": messages, **params})
        if problems:
            common.show_problems(TITLES["schema"], problems)
        else:
            edited_conv = Conversation(
                messages=tuple(messages),
                params=params,
                label="Edited conversation",
                source="edited",
                tool_links=(),
            )
            st.session_state[REPORT_KEY] = (edited_conv, ())
            state.load_next_run(edited_conv, params)
