"""The Conversation page's panels: samples, paste, upload (via compactor.formats), the editor.

Loading happens in widget callbacks, before the sidebar is drawn, so a load can set the
parameters. A failed load changes nothing: the conversation stays, the pasted text stays, and
the problems are kept to show with the text. The table editor is the exception: its edits are
only known in the page body, so applying them loads on the next run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from compactor.contract import LIMITS, ROLES
from compactor.formats import Conversion
from explorer.frames import imports
from explorer.frames.imports import Attempt
from explorer.session import state
from explorer.session.conversation import Conversation
from explorer.widgets import common

PASTE_KEY = "paste_text"
PASTE_FORMAT_KEY = "paste_format"
UPLOAD_KEY = "upload_file"
UPLOAD_FORMAT_KEY = "upload_format"
STEP_KEY = "import_step_{}"  # per source: the last attempt's outcome
REPORT_KEY = "import_report"
FIX_KEY = "fix_{}_{}"  # per source and fix option: the user's choice

TITLES = {
    "syntax": "This is not valid JSON (or JSON Lines); nothing was loaded.",
    "format": "This JSON could not be read as a conversation; nothing was loaded.",
    "schema": "The conversation breaks the request schema; nothing was loaded.",
}
FIX_LABELS = {
    "keep_last": f"Keep only the last {LIMITS['max_messages']} messages",
    "cut_long": f"Cut every content to its first {LIMITS['max_content_chars']:,} characters",
}
AUTO = "detect"


@dataclass(frozen=True)
class Step:
    """Where an import stands: loaded, waiting for the user's fixes, or refused with problems."""

    attempt: Attempt
    conversation: Conversation | None = None

    @property
    def needs_fixes(self) -> bool:
        return self.conversation is None and self.attempt.ok and self.attempt.conversion.needs_fixes


def label_for(source: str, conversion: Conversion) -> str:
    noun = {"pasted": "Pasted conversation", "uploaded": "Uploaded file"}.get(
        source, "Conversation"
    )
    return f"{noun} ({conversion.format})"


def decide(
    attempt: Attempt,
    source: str,
    fallback: Mapping[str, Any],
    keep_last: bool = False,
    cut_long: bool = False,
) -> Step:
    """What to do with a read: stop at its problems, wait for fixes the user has not chosen, or
    validate (after the chosen fixes) and load."""
    if not attempt.ok:
        return Step(attempt)
    conversion = attempt.conversion
    if conversion.needs_fixes and not (keep_last or cut_long):
        return Step(attempt)
    conv, checked = imports.finish(
        conversion,
        keep_last=keep_last,
        cut_long=cut_long,
        fallback=fallback,
        label=label_for(source, conversion),
        source=source,
    )
    return Step(checked, conv)


def _format_choice(key: str) -> str | None:
    value = st.session_state.get(key, AUTO)
    return None if value in (None, AUTO) else value


def _conclude(source: str, step: Step) -> None:
    st.session_state[STEP_KEY.format(source)] = step
    if step.conversation is not None:
        conversion = step.attempt.conversion
        st.session_state[REPORT_KEY] = (step.conversation, conversion.changes)
        state.load(step.conversation)


def _read_paste() -> None:
    text = st.session_state.get(PASTE_KEY) or ""
    attempt = imports.read(text, _format_choice(PASTE_FORMAT_KEY))
    _conclude("pasted", decide(attempt, "pasted", state.params()))


def _read_upload() -> None:
    file = st.session_state.get(UPLOAD_KEY)
    if file is None:
        st.session_state.pop(STEP_KEY.format("uploaded"), None)
        return
    attempt = imports.read(file.getvalue(), _format_choice(UPLOAD_FORMAT_KEY))
    _conclude("uploaded", decide(attempt, "uploaded", state.params()))


def _apply_fixes(source: str) -> None:
    step = st.session_state.get(STEP_KEY.format(source))
    if step is None or not step.needs_fixes:
        return
    choice = {name: bool(st.session_state.get(FIX_KEY.format(source, name))) for name in FIX_LABELS}
    _conclude(source, decide(step.attempt, source, state.params(), **choice))


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


def show_step(source: str) -> None:
    """The last import's problems, or the fixes it waits for (with the choice and a button)."""
    step: Step | None = st.session_state.get(STEP_KEY.format(source))
    if step is None or step.conversation is not None:
        return
    attempt = step.attempt
    if attempt.problems:
        common.show_problems(TITLES[attempt.kind], attempt.problems)
    if attempt.conversion is not None and attempt.conversion.changes:
        st.caption(f"What the import of this {attempt.conversion.format} conversation changed")
        common.table(imports.change_rows(attempt.conversion.changes))
    if step.needs_fixes:
        st.warning(
            "This conversation is over the request's limits. Choose the fixes to make; each "
            "one loses content, so nothing is loaded until you choose.",
            icon=":material/content_cut:",
        )
        for option, effects in imports.pending_fixes(attempt.conversion).items():
            st.checkbox(FIX_LABELS[option], key=FIX_KEY.format(source, option))
            st.text(imports.first_lines(effects))
        st.button("Load with these fixes", on_click=_apply_fixes, args=(source,), type="primary")


def report() -> None:
    """What the import of the loaded conversation changed (while it is the one loaded)."""
    found = st.session_state.get(REPORT_KEY)
    if not found or found[0] is not state.conversation():
        return  # nothing imported, or something else was loaded since
    label, changes = found[0].label, found[1]
    lossy = sum(1 for c in changes if c.lossy)
    st.success(
        f"Loaded: {label}. The import made {len(changes):,} changes, {lossy:,} of them lossy."
        if changes
        else f"Loaded: {label}, unchanged.",
        icon=":material/check_circle:",
    )
    if changes:
        common.table(imports.change_rows(changes))


# --- panels --------------------------------------------------------------------------------


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
        help="It loads once read; a file over the request's limits waits for your fixes.",
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
                "content", width="large", max_chars=LIMITS["max_content_chars"], required=True
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
