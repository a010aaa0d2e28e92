"""Keys out of everything a provider says: the key in every form a careless server may repeat it.

A provider's error message is quoted to the user (standard error, an HTTP 502 body, the page);
a server that echoes the key it was sent may write it as sent, URL-encoded (``%2F`` or every
byte as ``%xx``, in either case), JSON-escaped (``\\u002f``, ``\\/``) or any mix of those. Each
character of the key is matched in each of its forms, so every such copy is replaced by
``[redacted]``; then the text is decoded (URL, JSON and HTML escapes, one layer at a time, a
few times over) and if the key shows in any layer, nothing of the text is kept.

Parts of the key are redacted too: any run of 8 or more of its characters in a row, and a
masked copy, a part of 4 or more characters next to a mask (``*``, ``•``, ``…``, dots), as in
OpenAI's ``sk-proj-****...x9Zq``: the part, the mask and a part on its other side become one
``[redacted]``.

>>> redact = Redactor("sk-a/b+c")
>>> redact("bad key sk-a%2Fb%2bc and sk\\\\u002da\\\\/b+c")
'bad key [redacted] and [redacted]'
>>> redact("key=sk%252Da%252Fb%252Bc") == WITHHELD  # encoded twice: found once decoded
True
>>> Redactor("sk-SECRET-0123456789-x9Zq")("key sk-SECRE****...x9Zq, part SECRET-01.")
'key [redacted], part [redacted].'
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
#: The fewest characters of the key in a row that are redacted wherever they stand, and the
#: fewest next to a mask.
LONG_PART = 8
MASKED_PART = 4
#: A mask: a run of mask characters (``*``, ``•``, ``●``, ``·``, ``#``, ``…``) and runs of two
#: dots or more (a sentence's full stop after it is not part of it), not two dots alone.
_MASK = re.compile(r"(?!\.\.(?![*•●·#….]))(?:[*•●·#…]|\.{2,})+")


class Redactor:
    """Replaces every copy of ``secret`` in a text; a redactor of None changes nothing."""

    def __init__(self, secret: str | None):
        self.secret = secret or None
        self._pattern = _pattern(secret) if secret else None
        #: Every 4 characters in a row of the key: where a part of it may stand.
        self._grams = (
            {secret[i : i + MASKED_PART] for i in range(len(secret) - 3)} if secret else set()
        )

    def __call__(self, text: str) -> str:
        if self._pattern is None or self.secret is None:
            return text
        text = self._pattern.sub(REDACTED, text)
        if any(self._pattern.search(layer) for layer in _layers(text)):
            return WITHHELD
        text = self._masked_parts(text)
        text = _replace(text, self._long_parts(text))
        hidden = any(self._long_parts(layer) or self._masked(layer) for layer in _layers(text))
        return WITHHELD if hidden else text

    def _part_before(self, text: str, end: int) -> int:
        """Where the longest part of the key that ends at ``end`` starts (``end`` if none)."""
        start = end
        while start > 0 and text[start - 1 : end] in self.secret:  # type: ignore[operator]
            start -= 1
        return start

    def _part_after(self, text: str, start: int) -> int:
        """Where the longest part of the key that starts at ``start`` ends."""
        end = start
        while end < len(text) and text[start : end + 1] in self.secret:  # type: ignore[operator]
            end += 1
        return end

    def _masked(self, text: str) -> list[tuple[int, int]]:
        """The spans of masked copies: a mask with a part of the key of 4 or more characters
        right before or after it, taken with both parts."""
        spans: list[tuple[int, int]] = []
        for mask in _MASK.finditer(text):
            done = spans[-1][1] if spans else 0
            start = max(self._part_before(text, mask.start()), done)
            end = self._part_after(text, mask.end())
            before, after = mask.start() - start, end - mask.end()
            if max(before, after) >= MASKED_PART:
                spans.append((start if before >= MASKED_PART else max(mask.start(), done), end))
        return spans

    def _masked_parts(self, text: str) -> str:
        if not any(c in text for c in "*•●·#….") or not self._grams:
            return text
        return _replace(text, self._masked(text))

    def _long_parts(self, text: str) -> list[tuple[int, int]]:
        """The spans of 8 or more characters of the key in a row. Such a span holds 4 of the
        key's characters starting at a multiple of 4, so only those places are looked at."""
        spans: list[tuple[int, int]] = []
        if len(self.secret or "") < LONG_PART:
            return spans
        grams, step = self._grams, MASKED_PART
        done = 0
        for at in range(0, len(text) - step + 1, step):
            if at < done or text[at : at + step] not in grams:
                continue
            best = (at, at)
            for start in range(max(self._part_before(text, at + step), done), at + 1):
                end = self._part_after(text, start)
                if end - start > best[1] - best[0]:
                    best = (start, end)
            if best[1] - best[0] >= LONG_PART:
                spans.append(best)
                done = best[1]
        return spans


def _replace(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` (in order, apart) replaced by ``[redacted]``."""
    if not spans:
        return text
    out, last = [], 0
    for start, end in spans:
        out += [text[last:start], REDACTED]
        last = end
    out.append(text[last:])
    return "".join(out)


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
