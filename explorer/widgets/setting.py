"""The chosen setting leaving the explorer, and coming back: "Download setting" (a
``compaction.toml`` of the sidebar's parameters, or of a Corpus setting), "Use this setting"
(into the sidebar), and the upload of a setting file that applies it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from compactor.errors import Problem, ProblemError
from compactor.integrations import IntegrationUnavailable, shrink_with_report
from compactor.strategies import Setting, SettingError, setting_from_toml
from explorer.frames import snippets
from explorer.session import state
from explorer.session.conversation import safe_name
from explorer.widgets import common

NAME_KEY = "setting_name"
NOTE_KEY = "setting_note"
UPLOAD_KEY = "setting_upload"
#: The name and note as last typed (not a widget's key, so they outlive a page switch).
KEPT_KEY = "setting_name_note"
#: What the last upload or "Use this setting" did: ("ok", text) or ("problems", [Problem]).
LAST_USE_KEY = "setting_last_use"
HELP = (
    "This setting as a compaction.toml: give it to compactor.shrink or the LangChain "
    "middleware in your agent, to the CLI (--setting FILE) and to the CI gate "
    "(evaluate --setting FILE --fail-under ...)."
)


def sidebar_setting() -> Setting | None:
    """The sidebar's parameters as a setting, with the name and note typed beside the button;
    None (and why, said on the page) when a setting file cannot hold them: a budget of the agent
    mode over the setting's range."""
    kept = _keep_name_and_note()
    try:
        return snippets.sidebar_setting(state.params(), kept.get(NAME_KEY), kept.get(NOTE_KEY))
    except SettingError as error:
        said = "; ".join(p.message for p in error.problems)
        st.info(
            f"No setting file for this budget: a setting holds {said.split(': ', 1)[-1]}. "
            "Set a budget within that range to download one.",
            icon=":material/tune:",
        )
        return None


def _keep_name_and_note() -> dict[str, str]:
    """The name and note, carried from page to page as the sidebar's values are (a widget's
    state ends with the page that drew it); call before their fields are drawn."""
    kept = st.session_state.setdefault(KEPT_KEY, {})
    for key in (NAME_KEY, NOTE_KEY):
        if key in st.session_state:
            kept[key] = st.session_state[key]
        elif key in kept:
            st.session_state[key] = kept[key]
    return kept


def download(setting: Setting, key: str, label: str = "Download setting") -> None:
    """The button that saves ``setting`` as ``compaction.toml``."""
    st.download_button(
        label,
        snippets.setting_file(setting),
        file_name=snippets.SETTING_FILE,
        mime=snippets.SETTING_MIME,
        on_click="ignore",
        icon=":material/tune:",
        key=key,
        help=HELP,
        width="stretch",
    )


def ship(key: str) -> None:
    """The sidebar's setting as a file: an optional name and note, and the download."""
    setting = sidebar_setting()
    if setting is None:
        return
    name, note, button = st.columns([2, 3, 1.4], vertical_alignment="bottom")
    name.text_input("Setting name", key=NAME_KEY, placeholder="optional", max_chars=80)
    note.text_input("Note", key=NOTE_KEY, placeholder="optional", max_chars=400)
    with button:
        download(setting, key)


def use(values: Mapping[str, Any], key: str, label: str = "Use this setting") -> None:
    """A button that puts ``values`` (a setting's parameters) into the sidebar."""
    st.button(
        label,
        key=key,
        on_click=_use,
        args=(dict(values),),
        icon=":material/input:",
        help="Put these parameters into the sidebar, for the conversation loaded there.",
        width="stretch",
    )


def _use(values: dict[str, Any]) -> None:
    state.set_params({**state.params(), **values})
    st.session_state[LAST_USE_KEY] = ("ok", "The sidebar now holds this setting.")


def show_last_use() -> None:
    """What the last "Use this setting" or upload did (shown once)."""
    found = st.session_state.pop(LAST_USE_KEY, None)
    if found is None:
        return
    kind, said = found
    if kind == "ok":
        st.success(said, icon=":material/check_circle:")
    else:
        common.show_problems("The setting file cannot be used; the sidebar is unchanged.", said)


def upload() -> None:
    """Apply a ``compaction.toml`` to the sidebar (its budget in tokens is turned into the
    largest character budget that fits the loaded conversation)."""
    st.file_uploader(
        "Apply a setting file (compaction.toml)",
        type=["toml"],
        key=UPLOAD_KEY,
        on_change=_apply_upload,
        help="A memory-compact setting, as 'Download setting' writes it: its parameters and "
        "budget go into the sidebar; the conversation stays.",
    )
    show_last_use()


def _apply_upload() -> None:
    file = st.session_state.get(UPLOAD_KEY)
    if file is None:
        return
    name = safe_name(file.name) or snippets.SETTING_FILE
    try:
        values = upload_values(file.getvalue(), name)
    except ProblemError as error:
        st.session_state[LAST_USE_KEY] = ("problems", list(error.problems))
        return
    state.set_params({**state.params(), **values})
    words = ", ".join(f"{k} {v}" for k, v in values.items())
    st.session_state[LAST_USE_KEY] = ("ok", f"Applied {name} to the sidebar: {words}.")


def upload_values(data: bytes, name: str) -> dict[str, Any]:
    """The sidebar's values a setting file gives; ProblemError naming the file, key and line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ProblemError([Problem("is not UTF-8 text", path=name)]) from None
    setting = setting_from_toml(text, name)
    try:
        budget = None
        if setting.budget_tokens is not None and setting.strategy == snippets.MEMORY_COMPACT:
            request = state.conversation().request(state.params())
            budget = shrink_with_report(request, setting).report.budget_chars
        return snippets.sidebar_values(setting, budget)
    except IntegrationUnavailable as missing:
        raise ProblemError([Problem(str(missing), path=f"{name}: budget_tokens")]) from None
    except ProblemError as error:
        raise ProblemError(
            [Problem(p.message, path=f"{name}: {p.where}") for p in error.problems]
        ) from None


def download_pair(a: Mapping[str, Any], b: Mapping[str, Any], key: str) -> None:
    """ "Download setting" for A and for B (memory-compact with each side's parameters); a side
    a file cannot hold (a budget of the agent mode) says why instead."""
    for column, side, params in zip(st.columns(2), ("A", "B"), (a, b), strict=True):
        with column:
            try:
                chosen = snippets.sidebar_setting(params, note=f"side {side} of the A/B page")
            except SettingError as error:
                st.caption(f"No setting file for {side}: {error.problems[0].message}")
                continue
            download(chosen, f"{key}_{side}", label=f"Download setting {side}")
