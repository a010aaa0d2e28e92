"""Keys out of everything a provider says: the key in every form a careless server may repeat it.

A provider's error message is quoted to the user (standard error, an HTTP 502 body, the page);
a server that echoes the key it was sent may write it as sent, URL-encoded (``%2F`` or every
byte as ``%xx``, in either case), JSON-escaped (``\\u002f``, ``\\/``) or any mix of those. Each
character of the key is matched in each of its forms, so every such copy is replaced by
``[redacted]``; then the text is decoded (URL, JSON and HTML escapes, one layer at a time, a
few times over) and if the key shows in any layer, nothing of the text is kept.

>>> redact = Redactor("sk-a/b+c")
>>> redact("bad key sk-a%2Fb%2bc and sk\\\\u002da\\\\/b+c")
'bad key [redacted] and [redacted]'
>>> redact("key=sk%252Da%252Fb%252Bc") == WITHHELD  # encoded twice: found once decoded
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from urllib.parse import unquote

REDACTED = "[redacted]"
WITHHELD = "[the provider's message held the key, so it is not shown]"
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\(/)")
#: Rounds of decoding when looking for a key hidden under several layers of escapes.
_DECODE_ROUNDS = 3


class Redactor:
    """Replaces every copy of ``secret`` in a text; a redactor of None changes nothing."""

    def __init__(self, secret: str | None):
        self.secret = secret or None
        self._pattern = _pattern(secret) if secret else None

    def __call__(self, text: str) -> str:
        if self._pattern is None or self.secret is None:
            return text
        text = self._pattern.sub(REDACTED, text)
        hidden = any(self._pattern.search(layer) for layer in _layers(text))
        return WITHHELD if hidden else text


def _pattern(secret: str) -> re.Pattern[str]:
    return re.compile("".join(_forms(c) for c in secret))


def _forms(char: str) -> str:
    """A regular expression for ``char`` as sent, URL-encoded or JSON- or Python-escaped."""
    forms = [re.escape(char)]
    forms.append("".join(f"%{b:02x}" for b in char.encode("utf-8")))
    forms.append(f"\\\\u{ord(char):04x}" if ord(char) <= 0xFFFF else "(?!)")
    if ord(char) < 0x100:
        forms.append(f"\\\\x{ord(char):02x}")
    if char == "/":
        forms.append(r"\\/")
    if char == " ":
        forms.append(r"\+")
    # hex digits of an escape in either case: %2f and %2F, \u002f and \u002F
    return "(?:" + "|".join(f"(?i:{f})" if f.startswith(("%", "\\\\")) else f for f in forms) + ")"


def _layers(text: str) -> Iterator[str]:
    """``text`` with one more layer of URL, JSON and HTML escapes undone each time."""
    for _ in range(_DECODE_ROUNDS):
        before = text
        text = html.unescape(unquote(text))
        text = _ESCAPE.sub(lambda m: chr(int(m[1] or m[2], 16)) if m[3] is None else "/", text)
        if text == before:
            return
        yield text
