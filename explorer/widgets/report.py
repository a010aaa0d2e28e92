""" "Download report" (issue 40): the report a customer keeps, one self-contained HTML file of
the decision on the page (or of a corpus's summary), with the choice of the redacted variant
(every message's content replaced by its length and fate). The file is written only when the
button is pressed (Streamlit runs the callable then), from the values the page had."""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import streamlit as st

from compactor import CompactionResult
from compactor.strategies import Setting, SettingError, StrategyComparison
from compactor.wording import install_command
from explorer.frames import snippets
from explorer.session import state

MIME = "text/html"
#: What the report needs beyond the explorer's own (the ``report`` extra).
NEEDS = ("jinja2", "vl_convert")
INSTALL_HINT = (
    f"The report needs Jinja2 and vl-convert-python (the report extra): {install_command('report')}"
)
HELP = (
    "One HTML file with everything inside (styles, charts, data): it opens offline, from disk "
    "or an e-mail attachment. The conversation before and after with each message's reason, "
    "what each stage removed, the outcome figures beside keep-last and random, the strategies "
    "at the same budget, the cost per turn, the setting, the version and the date."
)
REDACTED_HELP = (
    "Replace every message's content by its length and fate (ids and the file's name left "
    "out), for a reader who may not see the traffic."
)


def available() -> bool:
    """Whether the report's libraries are installed; when not, say how to install them."""
    if all(importlib.util.find_spec(name) is not None for name in NEEDS):
        return True
    st.info(INSTALL_HINT, icon=":material/description:")
    return False


def _setting(params: Mapping[str, Any]) -> Setting | None:
    try:
        return snippets.sidebar_setting(params)
    except SettingError:  # a budget beyond a setting's range: the report says so
        return None


def decision(
    result: CompactionResult, key: str, comparison: StrategyComparison | None = None
) -> None:
    """The report of the page's decision: the redacted choice, then the button."""
    if not available():
        return
    choice, button = st.columns([1, 1], vertical_alignment="center")
    redacted = choice.toggle("Redacted", key=f"{key}_redacted", help=REDACTED_HELP)
    conv = state.conversation()
    name = None if redacted else (conv.file_name or conv.sample)
    setting = _setting(result.request.params.to_dict())

    def page() -> bytes:
        from explorer.report import decision_report, render

        made = decision_report(
            result.request,
            setting=setting,
            result=result,
            comparison=comparison,
            redacted=redacted,
            name=name,
        )
        return render(made).encode("utf-8")

    with button:
        _button(page, key)


def corpus(
    summaries: Sequence[Mapping[str, Any]],
    conversations: int,
    name: str | None,
    key: str,
    setting: Setting | None = None,
) -> None:
    """The report of a corpus run's summary (each setting beside keep-last and random), and
    the ``setting`` chosen as its compaction.toml."""
    if not summaries or not available():
        return

    def page() -> bytes:
        from explorer.report import corpus_report, render

        made = corpus_report(summaries, conversations=conversations, setting=setting, name=name)
        return render(made).encode("utf-8")

    _button(page, key)


def _button(page: Any, key: str) -> None:
    from explorer.report import file_name

    st.download_button(
        "Download report",
        page,
        file_name=file_name(datetime.now(UTC)),
        mime=MIME,
        on_click="ignore",
        icon=":material/description:",
        key=key,
        help=HELP,
    )
