"""The Conversation page's family (``pages/conversation.py``): its import panels. Its modules:
``importing`` (samples, paste, upload and the editor, and what an import does next), ``fixing``
(the choice of lossy fixes for a conversation over the request's limits) and ``frames`` (which
parameters a new conversation opens with, pure). What the Corpus page shares with it (reading a
file, the fixes' labels) stays in :mod:`explorer.frames.imports`."""
