"""Output: the compacted messages, the full response, downloads, and code that sends the request."""

import streamlit as st

from explorer.frames import snippets
from explorer.session.cache import Outcome
from explorer.widgets import common, page

#: Characters of a wrapped line of the curl command at the page's width (about).
CURL_WRAP = 110


def draw(outcome: Outcome) -> None:
    request, response = outcome.request, outcome.response
    common.pairing_warning(outcome.result)
    st.subheader(f"Compacted messages: {len(response['messages']):,}")
    common.table(
        snippets.output_rows(response),
        column_config={
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
    downloads = [
        ("Download request", lambda: snippets.request_json(request), "request.json"),
        ("Download response", lambda: snippets.request_json(response), "response.json"),
        (
            "Download compacted messages",
            lambda: snippets.request_json(snippets.compacted_messages(response)),
            "compacted-messages.json",
        ),
    ]
    for column, (label, data, file_name) in zip(st.columns(3), downloads, strict=True):
        column.download_button(
            label,
            data,
            file_name=file_name,
            mime="application/json",
            on_click="ignore",
            icon=":material/download:",
            width="stretch",
        )

    st.subheader("Send the same request to the service")
    base = st.text_input(
        "Service base URL",
        value=snippets.DEFAULT_BASE_URL,
        key="service_base_url",
        persist_state="session",
        help="Where `python -m compactor serve` listens.",
    )
    url = snippets.endpoint_url(base)
    if url is None:
        st.error(
            "The base URL must be an http:// or https:// address without spaces, query or "
            "fragment, such as http://127.0.0.1:8080.",
            icon=":material/error:",
        )
    else:
        if len(snippets.request_json(request, None)) > snippets.INLINE_LIMIT:
            st.caption(
                "The request is large, so both snippets read it from request.json: "
                "download the request above into the folder you run them in."
            )
        else:
            st.caption(
                "Each snippet holds the whole request; scroll inside it, or copy it whole "
                "with the copy button at its top right."
            )
        curl_tab, python_tab = st.tabs(["curl", "Python (httpx)"])
        curl, python = (
            snippets.curl_command(url, request),
            snippets.python_snippet(url, request),
        )
        with curl_tab:
            st.code(
                curl,
                language="bash",
                wrap_lines=True,
                height=snippets.snippet_height(curl, wrap_at=CURL_WRAP),
            )
        with python_tab:
            st.code(python, language="python", height=snippets.snippet_height(python))

    st.subheader("Full response")
    st.json(response, expanded=1)


page.run("Output", draw)
