"""What the explorer's import must show for each hostile body, from its own pure layer.

The Conversation page's paste box and upload run ``explorer.frames.imports.read`` and
``explorer.conversation.importing.decide`` on what they are given; the page tests (AppTest and the
browser) check that the page shows exactly that, and what holds whatever the layer says: every
refusal is a problem table whose every row says where, the whole-input shapes at ``$``, at most
100 rows and then the count of the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from compactor.errors import MAX_PROBLEMS
from compactor.samples import DEFAULT_SAMPLE, load_sample
from explorer.conversation import importing
from explorer.frames import imports
from explorer.session.conversation import params_from
from harness.hostile_cases import CASES, Case

#: Bodies that are one wrong shape as a whole: their one problem is at ``$``.
WHOLE_INPUT = (
    "no-messages",
    "a-number",
    "a-string",
    "null",
    "true",
    "an-empty-array",
    "codex-log-without-messages",
)
#: What a textarea fill can take quickly; larger bodies are uploaded (tests/hostile/
#: test_explorer_upload.py) rather than pasted (tests/browser/test_hostile_paste.py).
PASTE_CHARS = 100_000


def first_params() -> dict[str, Any]:
    """The sidebar's parameters when the explorer opens: the default sample's."""
    return params_from(load_sample(DEFAULT_SAMPLE).request, {})


@dataclass(frozen=True)
class Answer:
    """A loaded conversation, or a refusal: the error box's title and the problem table."""

    loaded: bool
    title: str = ""
    rows: tuple[tuple[str, str], ...] = ()  # (where, problem), as the table lists them


def answer(data: str | bytes, source: str, fallback: Mapping[str, Any]) -> Answer:
    """What the page shows after reading ``data`` from ``source`` ("pasted" or "uploaded")."""
    step = importing.decide(imports.read(data), source, fallback)
    if step.conversation is not None:
        return Answer(loaded=True)
    attempt = step.attempt
    assert attempt.problems and not step.can_fix, attempt
    frame = imports.problem_rows(attempt.problems)
    rows = tuple(zip(frame["where"], frame["problem"], strict=True))
    return Answer(False, importing.TITLES[attempt.kind], rows)


def check_refusal(case: Case, shown: Answer) -> None:
    """What every refusal of the explorer holds, whatever the import layer decided."""
    assert not shown.loaded and shown.title, case.name
    assert all(where for where, _ in shown.rows), case.name  # every row says where
    assert 1 <= len(shown.rows) <= MAX_PROBLEMS + 1, case.name
    if case.name in WHOLE_INPUT:
        assert [where for where, _ in shown.rows] == ["$"], case.name
    if len(shown.rows) == MAX_PROBLEMS + 1:
        where, problem = shown.rows[-1]
        assert where == "$" and problem.startswith("and "), case.name


def pasteable() -> list[Case]:
    """The cases a person could paste: text, and at most :data:`PASTE_CHARS` of it."""
    return [c for c in CASES if (t := c.text()) is not None and len(t) <= PASTE_CHARS]


def uploaded_only() -> list[Case]:
    """The rest: too large to paste quickly, or not UTF-8 text at all."""
    pasted = {c.name for c in pasteable()}
    return [c for c in CASES if c.name not in pasted]
