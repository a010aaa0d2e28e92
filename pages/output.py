"""Output: the compacted messages, the full response, downloads, and code that sends the request."""

import pandas as pd
import streamlit as st

from explorer import router, snippets, tuning_ui, ui

router.ensure()
st.title("Output")
with ui.guarded():
    outcome = ui.require_result()
    if outcome is not None:
        request, response = outcome.request, outcome.response
        tuning_ui.pairing_warning(outcome.result)
        st.subheader(f"Compacted messages: {len(response['messages']):,}")
        columns = ["index", "id", "role", "kept", "protected", "original_chars", "chars", "content"]
        table = pd.DataFrame(response["messages"]).reindex(columns=columns)
        st.dataframe(
            table,
            hide_index=True,
            width="stretch",
            column_config={
                "original_chars": st.column_config.NumberColumn(
                    "characters in", format="localized"
                ),
                "chars": st.column_config.NumberColumn("characters out", format="localized"),
                "content": st.column_config.TextColumn("content", width="large"),
            },
        )
        cols = st.columns(3)
        cols[0].download_button(
            "Download request",
            lambda: snippets.request_json(request),
            file_name="request.json",
            mime="application/json",
            on_click="ignore",
            icon=":material/download:",
            width="stretch",
        )
        cols[1].download_button(
            "Download response",
            lambda: snippets.request_json(response),
            file_name="response.json",
            mime="application/json",
            on_click="ignore",
            icon=":material/download:",
            width="stretch",
        )
        cols[2].download_button(
            "Download compacted messages",
            lambda: snippets.request_json(snippets.compacted_messages(response)),
            file_name="compacted-messages.json",
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
            left, right = st.columns(2, gap="large")
            with left:
                st.caption("curl")
                st.code(snippets.curl_command(url, request), language="bash", wrap_lines=True)
            with right:
                st.caption("Python (httpx)")
                st.code(snippets.python_snippet(url, request), language="python", wrap_lines=True)

        st.subheader("Full response")
        st.json(response, expanded=1)
