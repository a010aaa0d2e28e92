"""The Transcript page's family (``pages/transcript.py``): the conversation as a chat, each
message kept, cut or removed. Its module: ``frames`` (one row per input message, its content
split into what is sent, what the trim cut off and what was removed; pure pandas)."""
