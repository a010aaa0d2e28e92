"""The formats people keep conversations in: each read into a request (every change the import
made reported) and, where it has a writer, written back. :data:`FORMATS` is the one registry:
each entry's name, label, detection, reader, writer (None: read-only), and whether it holds many
conversations (:mod:`compactor.formats._registry`).

>>> conversion = convert([
...     {"role": "user", "content": "Weather in Porto?"},
...     {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function",
...         "function": {"name": "get_weather", "arguments": '{"city":"Porto"}'}}]},
...     {"role": "tool", "tool_call_id": "call_1", "content": "18 °C, light rain"},
... ])
>>> conversion.format, conversion.request["messages"][1]["content"]
('openai', '[tool call get_weather id=call_1] {"city": "Porto"}')
>>> conversion.request["messages"][2]["id"], conversion.tool_links
('call_1', ((1, 2),))

How things are converted (every format):

- A tool call becomes one line of text in the calling assistant message,
  ``[tool call NAME id=ID] ARGUMENTS``: the arguments as one line of JSON (``ensure_ascii``
  off; a string that is not JSON is kept as it is), ``id=ID`` only when the call has an id.
  Several calls are one per line; the message's own text comes first, then a blank line.
- A tool result becomes a ``tool`` message whose content is the result (text as it is, any other
  JSON value as one line of JSON) and whose ``id`` is the call's id (``tool_call_id``,
  ``tool_use_id``, ``toolCallId``); ``tool_links`` pairs the call's message with it.
- Text parts of one message are joined with a blank line.
- ``id`` keeps the message's original id when it is at most 128 characters (else it is left out,
  reported). ``pin`` is kept from the request and message-list formats.
- Images, audio, files, reasoning and other parts that are not text are removed, each with a
  lossy change; a message left without text is removed with a change.
- Fields with no place in a request (``model``, ``name``, ``timestamp``, ...) are left out and
  reported once per field name. Roles of other vocabularies (``developer``, ``function``,
  ShareGPT's ``human`` and ``gpt``) are mapped and reported.
- Parameters (``budget_chars`` and the others) are kept when the input has them; without a
  ``budget_chars`` it is set to half the conversation's characters in whole hundreds (within
  100..400,000), reported as ``budget-chosen``.
- More than 200 messages, or a content over 8,000 characters, are not fixed silently: the
  request comes back as it is (invalid), ``needs_fixes`` is true and the pending fixes are in
  ``changes`` (``too-many-messages``, ``content-too-long``) until :func:`apply_fixes` makes them
  (keeping the last 200 messages, or a :class:`Window`: the first N and the last M, or a range).
"""

from __future__ import annotations

from compactor.errors import FormatError
from compactor.formats._collections import (
    Collection,
    ManyConversations,
    Record,
    is_record,
    place_in_record,
)
from compactor.formats._export import (
    TARGETS,
    Exported,
    calls_in,
    compacted_messages,
    export,
    resolve,
)
from compactor.formats._fixes import Window, apply_fixes, spans_text
from compactor.formats._folders import Files, files_of
from compactor.formats._ids import WRITES_IDS, Settled, settle_ids
from compactor.formats._reading import (
    Document,
    convert_document,
    convert_text,
    line_texts,
    looks_like_lines,
    read_document,
)
from compactor.formats._registry import (
    FORMATS,
    LINE_FORMATS,
    WRITABLE,
    Format,
    convert,
    convert_record,
    detect_format,
)
from compactor.formats._responses import NAME as RESPONSES_FORMAT
from compactor.formats._task import PREAMBLES, preamble_of, task_index
from compactor.formats._types import PENDING, Change, Conversion, RecordedCompaction
from compactor.formats._writing import Compacted

__all__ = [
    "resolve",
    "export",
    "compacted_messages",
    "calls_in",
    "Exported",
    "TARGETS",
    "RESPONSES_FORMAT",
    "apply_fixes",
    "Change",
    "Collection",
    "Compacted",
    "Conversion",
    "convert",
    "convert_document",
    "convert_record",
    "convert_text",
    "detect_format",
    "Document",
    "Files",
    "files_of",
    "Format",
    "FormatError",
    "FORMATS",
    "is_record",
    "LINE_FORMATS",
    "line_texts",
    "looks_like_lines",
    "ManyConversations",
    "PENDING",
    "PREAMBLES",
    "preamble_of",
    "place_in_record",
    "read_document",
    "Record",
    "RecordedCompaction",
    "Settled",
    "settle_ids",
    "spans_text",
    "task_index",
    "Window",
    "WRITABLE",
    "WRITES_IDS",
]
