"""The Output page's parts, top to bottom: the compacted messages, the downloads (request,
response, compacted messages), the export to each provider's format, the setting for an agent,
the request sent to the service, and the full response."""

from __future__ import annotations

from typing import Any

import streamlit as st

from compactor.contract import AGENT_LIMITS, budget_range
from compactor.formats import compacted_messages
from compactor.strategies import Setting
from explorer.frames import snippets
from explorer.output import frames
from explorer.session import cache, state
from explorer.session.cache import Compaction
from explorer.session.conversation import Conversation
from explorer.widgets import common
from explorer.widgets import setting as setting_widgets
from explorer.widgets import tokens as token_widgets

#: Characters of a wrapped line of the curl command at the page's width (about).
CURL_WRAP = 110


def messages(compaction: Compaction) -> None:
    """The compacted messages, one row each (their tokens too when the sidebar counts in an
    encoding)."""
    response = compaction.response
    st.subheader(f"Compacted messages: {len(response['messages']):,}")
    encoding = state.token_encoding()
    counted = {}
    tokens = None
    if encoding is not None:
        tokens = cache.tokens(state.conversation(), compaction.result, encoding)
        counted = token_widgets.columns(encoding)
    common.table(
        frames.messages_frame(response, tokens),
        column_config={
            **counted,
            "id": st.column_config.TextColumn("id", help="Empty when the input had no id"),
            "kept": st.column_config.TextColumn(
                "kept", help="verbatim: returned whole; trimmed: returned as a prefix"
            ),
            "protected": st.column_config.CheckboxColumn("protected"),
            "original_chars": st.column_config.NumberColumn("characters in", format="localized"),
            "chars": st.column_config.NumberColumn("characters out", format="localized"),
            "content": st.column_config.TextColumn("content", width="large"),
        },
    )


def downloads(conv: Conversation, request: dict[str, Any], response: dict[str, Any]) -> None:
    """The request, the response and the compacted messages as JSON files, side by side."""
    files = [
        ("Download request", lambda: snippets.request_json(request), "request"),
        ("Download response", lambda: snippets.request_json(response), "response"),
        (
            "Download compacted messages",
            lambda: snippets.request_json(compacted_messages(response)),
            "compacted",
        ),
    ]
    for column, (label, data, what) in zip(st.columns(3), files, strict=True):
        column.download_button(
            label,
            data,
            file_name=snippets.download_name(conv, what),
            mime="application/json",
            on_click="ignore",
            icon=":material/download:",
            width="stretch",
        )


def provider_exports(conv: Conversation, request: dict[str, Any], response: dict[str, Any]) -> None:
    """The compacted conversation in each provider's format, and what each export changed."""
    st.subheader("The compacted conversation in a provider's format")
    st.caption(
        "Tool calls become structured calls again, with their ids, and each result follows its "
        "call as the provider requires. Where compaction kept one half of a call and its result "
        "(or a trim cut a call), that half is left out of the export; each is listed below."
    )
    exports = {
        target: snippets.provider_export(conv, request, response, target)
        for target in snippets.PROVIDERS
    }
    columns = st.columns(len(exports))
    for column, (target, exported) in zip(columns, exports.items(), strict=True):
        column.download_button(
            snippets.PROVIDERS[target],
            snippets.request_json(exported.value),
            file_name=snippets.download_name(conv, target),
            mime="application/json",
            on_click="ignore",
            icon=":material/download:",
            key=f"export_{target}",
            width="stretch",
        )
    notes = {target: exported.notes for target, exported in exports.items() if exported.notes}
    for target, lines in notes.items():
        with st.expander(f"{snippets.PROVIDERS[target]}: {len(lines):,} changes to the export"):
            st.text("\n".join(lines))  # they quote call ids: plain text, never Markdown


def agent_setting(setting: Setting) -> None:
    """The setting as a file to download, and the code that reads it in an agent."""
    st.subheader("Use this setting in your agent")
    st.caption(
        "Download the setting as compaction.toml and keep it with your agent: compactor.shrink "
        "and the LangChain middleware read it, so do the command line (--setting FILE) and the "
        "regression gate in CI (evaluate --setting FILE --fail-under needed_later=0.6)."
    )
    setting_widgets.ship("output_download_setting")
    shrink_tab, langchain_tab, file_tab = st.tabs(
        ["Python (compactor.shrink)", "LangChain middleware", snippets.SETTING_FILE]
    )
    with shrink_tab:
        st.code(snippets.shrink_snippet(setting), language="python")
    with langchain_tab:
        st.code(snippets.langchain_snippet(setting), language="python")
    with file_tab:
        st.code(snippets.setting_file(setting), language="toml")


def service_request(conv: Conversation, request: dict[str, Any], setting: Setting | None) -> None:
    """The same request with ``setting`` (the request as it is without one), as curl and httpx
    send it to the service at the base URL the user gives: to the agent mode's endpoint for a
    whole session over the contract's limits."""
    st.subheader("Send the same request to the service")
    if setting is not None:
        request = snippets.setting_request(request, setting)
    agent = conv.limits == AGENT_LIMITS or request["budget_chars"] > budget_range()[1]
    if agent:
        st.caption(
            "Over the request contract's limits: it goes to the service's agent-mode endpoint "
            f"({snippets.AGENT_ENDPOINT}), which takes whole sessions."
        )
    base = st.text_input(
        "Service base URL",
        value=snippets.DEFAULT_BASE_URL,
        key="service_base_url",
        persist_state="session",
        help="Where `python -m compactor serve` listens.",
    )
    url = snippets.endpoint_url(base, agent=agent)
    if url is None:
        st.error(
            "The base URL must be an http:// or https:// address without spaces, query or "
            "fragment, such as http://127.0.0.1:8080.",
            icon=":material/error:",
        )
        return
    request_file = snippets.download_name(conv, "request")
    st.caption(frames.snippets_note(request, request_file))
    curl_tab, python_tab = st.tabs(["curl", "Python (httpx)"])
    curl = snippets.curl_command(url, request, request_file=request_file)
    python = snippets.python_snippet(url, request, request_file=request_file)
    with curl_tab:
        st.code(
            curl,
            language="bash",
            wrap_lines=True,
            height=snippets.snippet_height(curl, wrap_at=CURL_WRAP),
        )
    with python_tab:
        st.code(python, language="python", height=snippets.snippet_height(python))


def full_response(response: dict[str, Any]) -> None:
    """The engine's response whole, as JSON."""
    st.subheader("Full response")
    # as text that wraps at spaces (the JSON viewer wrapped the limits text inside words)
    st.code(snippets.request_json(response), language="json", wrap_lines=True, height=640)
