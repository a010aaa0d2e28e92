"""Words the reports share: a count with its noun in the right number, and how to install an
optional extra.

>>> plural(1, "message"), plural(1200, "character"), plural(2, "query", "queries")
('1 message', '1,200 characters', '2 queries')
>>> install_command("tokens")
'.venv/bin/pip install -e ".[tokens]"'
"""

from __future__ import annotations


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
