"""The Output page's family (``pages/output.py``): what the compaction returns and how to take it
away. Its modules: ``widgets`` (the compacted messages, the downloads, the provider exports, the
setting for an agent, the request for the service, the full response) and ``frames`` (the
messages' table and the snippets' note; pure pandas and text, no Streamlit)."""
