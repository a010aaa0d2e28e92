"""Words the reports share: a count with its noun in the right number, how to install an
optional extra, and the one convention for numbers (issue 36): a share is a percentage with one
decimal, a difference of shares is in percentage points, and a share that is a promise (budget
met) is rounded down and given with its counts, so that a miss never reads as 100%.

>>> percent(2 / 3), percent(None), points(0.031), points(-0.0286), points(0.0)
('66.7%', '—', '+3.1 pp', '-2.9 pp', '±0.0 pp')
>>> met_share(509, 511), met_share(9_999, 10_000), met_share(3, 3)
('509 of 511, 99.6%', '9,999 of 10,000, 99.9%', '3 of 3, 100.0%')
>>> floor_share(0.999999), floor_share(1.0)
(0.999, 1.0)

>>> plural(1, "message"), plural(1200, "character"), plural(2, "query", "queries")
('1 message', '1,200 characters', '2 queries')
>>> install_command("tokens")
'.venv/bin/pip install -e ".[tokens]"'
"""

from __future__ import annotations

import math

#: What a missing figure reads as.
NONE = "—"
#: The same conventions as printf formats, for table columns that hold the figures times 100
#: (the explorer's tables; JSON keeps shares 0..1).
PERCENT_FORMAT = "%.1f%%"
POINTS_FORMAT = "%+.1f pp"


def _missing(value: float | None) -> bool:
    return value is None or value != value  # None or NaN


def percent(share: float | None) -> str:
    """A share 0..1 as a percentage with one decimal (``66.7%``); ``—`` when there is none."""
    return NONE if _missing(share) else f"{100 * share:.1f}%"


def points(difference: float | None) -> str:
    """A difference of two shares in percentage points with its sign (``+3.1 pp``)."""
    if _missing(difference):
        return NONE
    text = f"{100 * difference:+.1f}"
    return f"±{text[1:]} pp" if float(text) == 0 else f"{text} pp"


def floor_share(share: float) -> float:
    """``share`` rounded DOWN to a tenth of a percent (0.999999 is 0.999, never 1.0)."""
    return math.floor(round(share * 1000, 6)) / 1000


def floor_percent(share: float | None) -> str:
    """A share that is a promise, as a percentage rounded down (``99.6%``; 0.9999 is 99.9%)."""
    return NONE if _missing(share) else f"{100 * floor_share(share):.1f}%"


def met_share(met: int, total: int) -> str:
    """A promise kept ``met`` times of ``total``: the counts, then the share rounded down
    (``509 of 511, 99.6%``); 100.0% only when every one was met."""
    if not total:
        return f"0 of 0, {NONE}"
    return f"{met:,} of {total:,}, {met * 1000 // total / 10:.1f}%"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` with thousands separators and ``noun`` (or ``nouns``, default noun + s)."""
    return f"{count:,} {noun if count == 1 else (nouns or noun + 's')}"


#: The one command that sets up everything the explorer uses offline (the explorer extra:
#: the app, token counts, semantic near-duplicates, BM25 relevance, the LLM providers' clients).
SETUP_EXPLORER = "bash scripts/setup.sh explorer"


def install_command(extra: str) -> str:
    """The command that installs ``extra`` where the project runs: the project's own .venv, which
    scripts/setup.sh and scripts/run.sh make (a bare ``pip`` may be another Python's), run from
    the project folder."""
    return f'.venv/bin/pip install -e ".[{extra}]"'
