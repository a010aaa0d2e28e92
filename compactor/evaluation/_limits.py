"""Conversations beyond the contract's limits in a corpus: what still makes one invalid after
the import, and which of the import's fixes (``keep_last``, ``cut_long``) would make it usable;
each edge names its own control for a fix (``--cut-long``, a box on the Corpus page)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from compactor.contract import LIMITS
from compactor.errors import Problem

#: The import's fixes for a conversation beyond the contract's limits, and what each does
#: (each edge names its own control beside it: ``--cut-long``, a box on the page).
FIXES = {
    "keep_last": f"keeps the last {LIMITS['max_messages']} messages",
    "cut_long": f"cuts each content to its first {LIMITS['max_content_chars']:,} characters",
}


def with_fixes(problem: Problem, fixes: Iterable[str]) -> Problem:
    """The problem with the keyword arguments that fix it, for the callers of
    :func:`~compactor.evaluation.load_corpus`."""
    said = ", ".join(f"{fix}=True {FIXES[fix]}" for fix in fixes)
    return replace(problem, message=f"{problem.message} ({said})") if said else problem
