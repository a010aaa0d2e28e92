"""The anchor patterns: exact strings a later turn may need verbatim, as documented regexes.

An anchor (SPEC part C) is one of these kinds; each is a regular expression below, tried in
this order at every position where an anchor may start (``ANCHOR_PATTERN``):

- ``url``: ``http(s)://``, ``ftp://``, ``sftp://``, ``ws(s)://``, ``file://``, ``s3://``,
  ``git://``, ``ssh://`` or ``www.`` and what follows up to whitespace, quotes or ``<>{}[]|\\^``;
  balanced parentheses are kept (``wiki/Foo_(bar)``), a trailing ``.,;:!?*`` is not.
- ``email``: ``local@domain.tld`` (ASCII letters, digits and ``._%+-``).
- ``date``: ISO dates with an optional time (``2024-05-17``, ``2024-05-01T08:38:39Z``),
  ``2024/05/17``, ``17/05/2024``, ``17.05.2024``; a month name or abbreviation with a day or a
  year (``May 17``, ``17 May 2024``, ``Sept. 3rd, 2024``, ``November 2023``); a full month name
  alone except ``May`` (a verb too); a weekday (``Monday`` .. ``Sunday``). Names are English and
  capitalised.
- ``time``: ``14:00``, ``03:10:59``, ``9:30 pm``, ``10am``, ``5 p.m.`` (hours 0-23 with minutes).
- ``path``: Windows (``C:\\data\\x.csv``, ``\\\\server\\share``), absolute (``/usr/lib/x.so``,
  needs a letter), home or relative to here (``~/x``, ``./x``, ``../x``), and relative paths of
  three or more segments or whose last segment has an extension (``src/app/main.py``); not
  ``and/or`` or ``km/h``.
- ``quantity``: a number (``1,250.00``, ``1.250,00``, ``3.5``, sign allowed) with a currency
  before it (``$``, ``€``, ``£``, ``¥``, ``₹``, ``₩``, ``₽``, ``US$``, ``USD`` ...) or a unit after
  it (currency codes and names, data sizes and rates, durations, lengths, weights, volumes,
  ``%``, ``°C``; single-letter units only attached: ``5s``, ``10m``, not ``1990s``),
  optionally scaled (``5k``, ``2 million``).
- ``identifier``: a token of ASCII letters and digits joined by ``-``, ``_`` or ``.`` that holds
  at least one letter and one digit (``DE-4471``, ``call_9f2a``, ``4OG6T3``, ``v1.2.3``);
  ordinals and decades (``21st``, ``1990s``) are not identifiers.
- ``code``: a token without digits that is ``snake_case`` (an underscore next to a letter,
  ``__init__``), ``camelCase``/``PascalCase`` (a lower-case letter followed by a capital) or a
  ``dotted.name`` (not single letters: ``e.g`` and ``U.S.A`` are not code).

Boundaries: an anchor starts after whitespace, the start of a message, or one of
``( [ { < > " ' ` , ; : = * | ! ? # / \\ + &``, Unicode punctuation, or a CJK character (CJK text
puts no space around ``DE-4471``); it ends before anything but a letter, digit or underscore of a
script other than CJK. An escape sequence is a boundary as a whole, never the start of a word:
``\\n``, ``\\t``, ``\\r``, ``\\"``, ``\\uXXXX`` and ``\\xXX`` after one backslash or more (JSON
inside JSON doubles them), so ``\\nThe`` in JSON-encoded tool arguments gives no ``nThe``; a run
of backslashes before anything else is a boundary as one backslash is. (A relative Windows path
written with single backslashes, ``src\\new_x.py``, reads as an escape there; a drive or UNC
path is one ``path`` anchor, read before its backslashes.) Digits are ASCII digits. Scanning
runs left to right: at each start the first kind in the order above that matches takes its text,
and the scan goes on after it.
Anchors are keyed by their exact text; the kind is that of the text's first match.

An occurrence is every match of the anchor's text, and also every place the text is found, with
the same boundaries, inside a url, email or path anchor (``cminh730`` inside
``cminh730@email.com``, ``main.py`` inside ``src/app/main.py``), where a reader still sees it.

The scan that finds every match of ``ANCHOR_PATTERN`` quickly is
:mod:`compactor.analyses.anchors._finder`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from compactor.analyses.anchors._word_lists import CURRENCY_CODES, MONTHS, UNIT_WORDS, WEEKDAYS

URL, EMAIL, DATE, TIME, PATH, QUANTITY, IDENTIFIER, CODE = (
    "url",
    "email",
    "date",
    "time",
    "path",
    "quantity",
    "identifier",
    "code",
)
#: The kinds, in the order they are tried at one position (the group order of ANCHOR_PATTERN).
KINDS: tuple[str, ...] = (URL, EMAIL, DATE, TIME, PATH, QUANTITY, IDENTIFIER, CODE)
#: Kinds whose text may hold other anchors (nested occurrences are looked for inside them).
CONTAINERS = frozenset({URL, EMAIL, PATH})

_CJK = r"\u2e80-\u9fff\u3040-\u30ff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
#: A character an anchor cannot touch: a letter, digit or underscore, except CJK ones.
_W = rf"[^\W{_CJK}]"
#: What an escape sequence has after its backslashes: ``\n``, ``\t``, ``\r``, ``\"``,
#: ``\uXXXX``, ``\xXX`` (``\\`` is a run of backslashes).
_ESCAPED = r'(?:[ntr"]|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2})'
#: What comes before an anchor (consumed, so the scan can skip everything else quickly): one
#: boundary character, or, from its first backslash, a run of backslashes and escape sequences
#: (atomic: ``\nThe`` never gives way to a boundary at ``\`` before ``nThe``).
_BEFORE = (
    rf"(?:[\s(\[{{<>\"'`,;:=*|!?#/+&\u00a1\u00ab\u00bb\u00bf\u2000-\u206f\u3000-\u303f{_CJK}]"
    rf"|\\(?<!\\\\)(?>\\*{_ESCAPED}?(?:\\+{_ESCAPED}?)*))"
)
# ``May`` is a verb too: it is a month only with a day or a year, and has no abbreviation.
_NOT_MAY = [m for m in MONTHS if m != "May"]
_MONTH_ABBR = "(?:" + "|".join("Sept?" if m == "September" else m[:3] for m in _NOT_MAY) + r")\.?"
_MONTH_FULL = "(?:" + "|".join(_NOT_MAY) + ")"
_MONTH = rf"(?:{_MONTH_FULL}|May|{_MONTH_ABBR})"
_WEEKDAY = "(?:" + "|".join(WEEKDAYS) + ")"
_DAY = r"(?:0?[1-9]|[12][0-9]|3[01])"
_ORDINAL = r"(?:st|nd|rd|th)?"
_HOUR24 = r"(?:[01]?[0-9]|2[0-3])"
_CLOCK = rf"{_HOUR24}:[0-5][0-9](?::[0-5][0-9](?:\.[0-9]+)?)?"
_ISO = (
    r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
    r"(?:T(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]+)?)?"
    r"(?:Z|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9])?)?"
)
_NUMBER = (  # atomic, and never stopping before a digit: no retrying shorter numbers
    r"(?>[-+\u2212\u00b1]?(?:[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?(?![0-9])"
    r"|[0-9]{1,3}(?:\.[0-9]{3})+,[0-9]+(?![0-9])|[0-9]+(?:[.,][0-9]+)?(?![0-9])))"
)
_SCALE = r"(?:(?:k|K|M|bn|mn)(?![\w])|\ (?:thousand|million|billion|trillion))?"


def _trie(words: Sequence[str]) -> str:
    """One alternation for ``words``, factored by common prefixes (re tries no tries itself)."""
    heads: dict[str, list[str]] = {}
    for word in words:
        heads.setdefault(word[:1], []).append(word[1:])
    parts = []
    for head, tails in sorted(heads.items()):
        if head == "":
            continue
        rest = [t for t in tails if t]
        inner = _trie(rest) if rest else ""
        if not rest:
            parts.append(re.escape(head))
        elif "" in tails:
            parts.append(f"{re.escape(head)}(?:{inner})?")
        else:
            parts.append(
                f"{re.escape(head)}{inner}" if len(rest) == 1 else f"{re.escape(head)}(?:{inner})"
            )
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


_CURRENCY_CODES = _trie(CURRENCY_CODES)
_CURRENCY_SIGN = r"(?:US|A|C|NZ|HK|S|R)?[$€£¥₹₩₽]"
_WORD_UNITS = rf"(?i:{_trie(UNIT_WORDS)}|per\ cent)"
# Only right after the number: 5s, 10m, 3x; a year's decade (1990s) is not seconds.
_ATTACHED_UNITS = r"(?:(?<![12][0-9]{2}0)s|h|m|g|l|L|B|W|V|x)"
_SIGN_UNITS = r"(?:%|‰|°[CF]?)"
_QUANTITY = (
    rf"(?:{_CURRENCY_SIGN}\ ?[0-9][0-9.,]*[0-9]{_SCALE}|{_CURRENCY_SIGN}\ ?[0-9]{_SCALE}"
    rf"|(?:{_CURRENCY_CODES})\ ?{_NUMBER}{_SCALE}"
    rf"|{_NUMBER}{_SCALE}(?:\ ?(?:{_CURRENCY_CODES}|{_WORD_UNITS})(?:/[a-z]{{1,5}})?"
    rf"|{_ATTACHED_UNITS}(?:/[a-z]{{1,5}})?|\ ?{_SIGN_UNITS}))(?!{_W})"
)
_URL = (
    r"(?:(?:https?|s?ftp|wss?|file|s3|git|ssh)://|www\.)"
    r"(?:[^\s()<>\"'`{}|\\^\[\]]|\([^\s()<>\"'`]*\))+(?<![.,;:!?*])"
)
_EMAIL = (
    r"(?=[A-Za-z0-9._%+-]*+@)[A-Za-z0-9](?:[A-Za-z0-9._%+-]*[A-Za-z0-9_%+-])?"
    r"@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+"
    rf"(?!{_W})"
)
_DATE = (
    rf"(?:{_ISO}|[0-9]{{4}}/(?:0[1-9]|1[0-2])/(?:0[1-9]|[12][0-9]|3[01])"
    rf"|{_DAY}/{_DAY}/[0-9]{{4}}|{_DAY}\.{_DAY}\.[0-9]{{4}}"
    rf"|{_MONTH}\ {_DAY}{_ORDINAL}(?:,?\ [0-9]{{4}})?|{_DAY}{_ORDINAL}\ {_MONTH}(?:\ [0-9]{{4}})?"
    rf"|{_MONTH}\ [0-9]{{4}}|{_MONTH_FULL}|{_WEEKDAY})(?!{_W})"
)
_TIME = (
    rf"(?:{_CLOCK}(?:\ ?(?:[AaPp]\.[Mm]\.|[AaPp][Mm](?![\w])))?"
    r"|(?:1[0-2]|0?[1-9])\ ?(?:[AaPp]\.[Mm]\.|[AaPp][Mm](?![\w])))(?![\w:])"
)
_SEGMENT = r"\.?[\w+-]+(?:\.[\w+-]+)*"
_FILE_NAME = r"\.?[\w+-]+(?:\.[\w+-]+)*\.[A-Za-z0-9]+"
_PATH = (
    r"(?:[A-Za-z]:\\(?:[^\\\s<>:\"|?*]+\\)*[^\\\s<>:\"|?*]*(?<![.,;:!?)])"
    r"|\\\\[\w.-]+\\[^\s<>:\"|?*]+(?<![.,;:!?)])"
    rf"|(?:~|\.\.?)/{_SEGMENT}(?:/{_SEGMENT})*/?"
    rf"|(?=/[\w.+-]*[^\W\d_])(?:/{_SEGMENT})+/?"
    rf"|(?=[\w.+-]*+/)(?=[\w./+-]*[^\W\d_])(?:{_SEGMENT}(?:/{_SEGMENT}){{2,}}/?|{_SEGMENT}(?:/{_SEGMENT})*/{_FILE_NAME}))"
    r"(?![\w/])"
)
_TOKEN_CHAR = r"[A-Za-z0-9_.-]"
_TOKEN = rf"_*+[A-Za-z0-9]++(?:(?:_++|[-.])[A-Za-z0-9]++)*+_*+(?!{_W})"
_IDENTIFIER = (
    r"(?=[A-Za-z_.-]*+[0-9])(?=[0-9_.-]*+[A-Za-z])"
    rf"(?![0-9]++(?:st|nd|rd|th|s)(?![\w.-]))(?:{_TOKEN})"
)
_CODE = (
    rf"(?={_TOKEN_CHAR}*?(?:[A-Za-z0-9]_|_[A-Za-z0-9]|[a-z][A-Z]|[A-Za-z0-9_]\.[A-Za-z_]))"
    rf"(?!(?:[A-Za-z]\.)+[A-Za-z](?![\w-]|\.[A-Za-z0-9]))(?:{_TOKEN})"
)
_KIND_PATTERNS = {
    URL: _URL,
    EMAIL: _EMAIL,
    DATE: _DATE,
    TIME: _TIME,
    PATH: _PATH,
    QUANTITY: _QUANTITY,
    IDENTIFIER: _IDENTIFIER,
    CODE: _CODE,
}


def _compile(kinds: Sequence[str]) -> re.Pattern[str]:
    groups = "|".join(f"({_KIND_PATTERNS[kind]})" for kind in kinds)
    return re.compile(f"{_BEFORE}(?:{groups})")


#: The characters an anchor may start after, one at a time.
BEFORE = re.compile(_BEFORE)
#: One group per kind, in KINDS order; a match's ``lastindex`` names its kind.
ANCHOR_PATTERN = _compile(KINDS)
#: The kinds looked for inside a container (a url, email or path).
_INNER_KINDS = tuple(k for k in KINDS if k not in CONTAINERS)
INNER_PATTERN = _compile(_INNER_KINDS)
