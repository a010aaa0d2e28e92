"""The judge every strategy shares (SPEC part D): from what a strategy returned of the past,
which later needs are met.

A strategy is read only through the length it returned of each past message (None when it
removed it): memory-compact, keep-last, the seeds/003 trim, LangChain, an LLM compact or any
strategy to come is judged by the same figure. The past is the first ``p`` messages (``p`` the
number of lengths given); a need is judged when its user is after the past and its anchor has
an occurrence in the past; it is met when one of those past occurrences is kept (its message
returned at least ``end`` characters long). Every past occurrence of an anchor is a source of
each later need of it, so a need's fate is its anchor's: the judge works per anchor, with numpy,
for one strategy or for many draws at once. A strategy that keeps parts of a message other than
a prefix (anchor-keep) is judged by its kept spans instead (:func:`judge_spans`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from compactor.analyses.outcomes._needs import Needs
from compactor.contract import ROLES
from compactor.model import writer
from compactor.strategies import REMOVED as KEPT_REMOVED
from compactor.strategies import REPLACED as KEPT_REPLACED

if TYPE_CHECKING:
    from compactor.strategies import StrategyResult

#: Where a strategy other than memory-compact lost a source: it removed or cut its message.
REMOVED, CUT = "removed", "cut"
#: Where a strategy that substitutes content lost a source: its message became a placeholder
#: (or the source sat in the part of it that was cleared).
REPLACED = "replaced"
#: Where a written summary lost a source: the anchor's text does not occur in it.
NOT_WRITTEN = "not in the text"
#: A budget no budget reaches (a source never kept).
NEVER = np.iinfo(np.int64).max


#: The judge every needed-later figure is of, named wherever a strategy is judged by it.
JUDGE = "needed-later recall (anchors, the product's own notion of a fact)"
#: Strategies whose selection resembles the judge's notion of a fact, by registry key, with
#: the note shown beside their figure wherever they are judged by it (issue 36, item 4).
RESEMBLES_JUDGE = {
    "anchor-keep": "its selection resembles the judge's notion (salient terms ~ anchors), so "
    "the figure flatters it",
}


def judge_note(key: str) -> str | None:
    """The note beside strategy ``key``'s figure under :data:`JUDGE`, None when none."""
    return RESEMBLES_JUDGE.get(key)


@dataclass(frozen=True)
class SourceLoss:
    """A past source of an unmet need, and where it was lost."""

    index: int
    start: int
    end: int
    lost_at: str  # "dedupe", "trim" or "drop" for memory-compact; "removed" or "cut" else

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "start": self.start, "end": self.end, "lost_at": self.lost_at}


_source_loss = writer(SourceLoss)  # an unmet need lists every past source: thousands a check


@dataclass(frozen=True)
class UnmetNeed:
    """A need none of whose past sources was kept."""

    user: int
    anchor: str
    kind: str
    role: str
    sources: tuple[SourceLoss, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "anchor": self.anchor,
            "kind": self.kind,
            "role": self.role,
            "sources": [s.to_dict() for s in self.sources],
        }


@dataclass(frozen=True)
class RoleRecall:
    """Needed-later recall of the needs whose user message has ``role``."""

    role: str
    needs: int
    met: int

    @property
    def recall(self) -> float | None:
        return self.met / self.needs if self.needs else None

    def to_dict(self) -> dict[str, Any]:
        return {"needs": self.needs, "met": self.met, "recall": _round(self.recall)}


@dataclass(frozen=True)
class NeededRecall:
    """Needed-later recall under one strategy: met needs / needs (None when there are none)."""

    needs: int
    met: int
    by_role: tuple[RoleRecall, ...]  # the roles that have needs, in the schema's order
    unmet: tuple[UnmetNeed, ...]

    @property
    def recall(self) -> float | None:
        return self.met / self.needs if self.needs else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "needs": self.needs,
            "met": self.met,
            "recall": _round(self.recall),
            "by_role": {r.role: r.to_dict() for r in self.by_role},
            "unmet": [u.to_dict() for u in self.unmet],
        }


def judged_needs(needs: Needs, past: int) -> np.ndarray:
    """Indices of the needs a compaction of the first ``past`` messages is judged on: users
    after the past, anchors with an occurrence in it."""
    return needs.past_view(past).judged


def met_needs(needs: Needs, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(judged, met)`` for the past lengths ``lengths`` (``p`` values, or one row of ``p``
    per strategy or draw; -1 for a removed message): the judged needs' indices and, per row,
    whether each is met."""
    lengths = np.asarray(lengths, dtype=np.int64)
    view = needs.past_view(lengths.shape[-1])
    rows = lengths.reshape(-1, lengths.shape[-1])
    if not len(view.judged):
        return view.judged, np.zeros((*lengths.shape[:-1], 0), dtype=bool)
    kept = rows[:, view.message] >= view.end
    met = np.logical_or.reduceat(kept, view.heads, axis=1)[:, view.slot]
    return view.judged, met.reshape(*lengths.shape[:-1], len(view.judged))


def need_from_budgets(
    needs: Needs, from_budget: np.ndarray, returned_chars: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(judged, from)``: per judged need, the smallest budget at which it is met (NEVER when
    none), given per past message the smallest budget from which it is returned
    (``from_budget``, NEVER for never; one row, or one per draw) and the length it is then
    returned at (``returned_chars``; None: whole)."""
    from_budget = np.asarray(from_budget, dtype=np.int64)
    view = needs.past_view(from_budget.shape[-1])
    rows = from_budget.reshape(-1, from_budget.shape[-1])
    if not len(view.judged):
        return view.judged, np.zeros((*from_budget.shape[:-1], 0), dtype=np.int64)
    values = rows[:, view.message]
    if returned_chars is not None:
        fits = np.asarray(returned_chars, dtype=np.int64)[view.message] >= view.end
        values = np.where(fits, values, NEVER)
    found = np.minimum.reduceat(values, view.heads, axis=1)[:, view.slot]
    return view.judged, found.reshape(*from_budget.shape[:-1], len(view.judged))


def judge_lengths(
    needs: Needs,
    returned: Sequence[int | None],
    lost_at: Callable[[int, int], str] | None = None,
) -> NeededRecall:
    """Needed-later recall of a strategy that returned ``returned[i]`` characters of past
    message ``i`` (None when removed); ``lost_at(index, end)`` names where a source was lost
    (default: ``"removed"`` or ``"cut"``)."""
    lengths = np.array([-1 if r is None else r for r in returned], dtype=np.int64)
    judged, met = met_needs(needs, lengths)
    where = lost_at or (lambda i, end: REMOVED if returned[i] is None else CUT)
    past = len(returned)
    unmet = []
    for k in judged[~met].tolist():
        need = needs.need(k)
        sources = tuple(_source_loss(i, s, e, where(i, e)) for i, s, e in need.sources if i < past)
        unmet.append(UnmetNeed(need.user, need.anchor, need.kind, need.role, sources))
    return NeededRecall(len(judged), int(met.sum()), role_recalls(needs, judged, met), tuple(unmet))


def judge_spans(
    needs: Needs,
    kept_spans: Sequence[Sequence[tuple[int, int]] | None],
    lost_at: Callable[[int, int], str] | None = None,
) -> NeededRecall:
    """Needed-later recall of a strategy that keeps parts of messages: ``kept_spans[i]`` are
    the ``(start, end)`` spans of past message ``i`` it returned (None or empty when removed).
    A source ``(i, s, e)`` is kept when one span of message ``i`` holds it whole
    (``start <= s`` and ``e <= end``); adjacent spans should be given joined, as their
    concatenation returns them. An anchor's fate decides all its needs, as in
    :func:`judge_lengths`; ``lost_at(index, end)`` names where a source was lost (default:
    ``"cut"`` when its message kept some span, else ``"removed"``)."""
    past = len(kept_spans)
    view = needs.past_view(past)
    spans = [tuple(s or ()) for s in kept_spans]

    def holds(i: int, start: int, end: int) -> bool:
        return any(a <= start and end <= b for a, b in spans[i])

    kept_anchor = {}
    for a in view.anchors.tolist():
        occurrences = needs.anchors[a].occurrences
        kept_anchor[a] = any(holds(i, s, e) for i, s, e in occurrences if i < past)
    met = np.array([kept_anchor[int(needs.anchor[k])] for k in view.judged], dtype=bool)
    where = lost_at or (lambda i, end: CUT if spans[i] else REMOVED)
    unmet = []
    for k in view.judged[~met].tolist():
        need = needs.need(k)
        sources = tuple(_source_loss(i, s, e, where(i, e)) for i, s, e in need.sources if i < past)
        unmet.append(UnmetNeed(need.user, need.anchor, need.kind, need.role, sources))
    judged = view.judged
    return NeededRecall(len(judged), int(met.sum()), role_recalls(needs, judged, met), tuple(unmet))


def judge_text(needs: Needs, past: int, text: str) -> NeededRecall:
    """Needed-later recall of a text written in place of the first ``past`` messages (a
    summary): it holds no message of the past, so a need is met when its anchor's text occurs
    in ``text`` (exactly, case and all), whichever past message held it.

    Args:
        needs: the whole conversation's needs (:func:`find_needs`).
        past: how many messages the text replaces (the rest are the future).
        text: what was written in their place (a summary).

    Returns:
        The recall: needs met and judged, and each unmet need with where it came from.

    Example:
        >>> from compactor.analyses.outcomes import find_needs
        >>> from compactor import judge_text
        >>> needs = find_needs(["Ship DE-4471 to Lyon.", "Noted.", "Is DE-4471 there?"],
        ...     ["user", "assistant", "user"])
        >>> judge_text(needs, 2, "The user shipped DE-4471.").met
        1
    """
    view = needs.past_view(past)
    written = np.array([needs.anchors[a].text in text for a in view.anchors.tolist()], dtype=bool)
    met = written[view.slot] if len(view.judged) else np.zeros(0, dtype=bool)
    unmet = []
    for k in view.judged[~met].tolist():
        need = needs.need(k)
        sources = tuple(_source_loss(i, s, e, NOT_WRITTEN) for i, s, e in need.sources if i < past)
        unmet.append(UnmetNeed(need.user, need.anchor, need.kind, need.role, sources))
    return NeededRecall(
        len(view.judged), int(met.sum()), role_recalls(needs, view.judged, met), tuple(unmet)
    )


def judge_outcome(needs: Needs, result: StrategyResult) -> NeededRecall:
    """Needed-later recall of what a strategy of the registry returned for the past.

    Prefixes are judged by length (:func:`judge_lengths`); a strategy that keeps other spans
    (anchor-keep's cuts) or replaces content is judged by the spans it returned verbatim
    (:func:`judge_spans`): a placeholder holds no source, so a need whose sources were all
    replaced is lost there (``"replaced"``).

    Args:
        needs: the whole conversation's needs (:func:`find_needs`).
        result: what :func:`~compactor.apply_strategy` returned for the past messages.

    Returns:
        The recall: needs met and judged, and each unmet need with where it came from.

    Raises:
        ValueError: the strategy did not run (its extra is missing); the message says why.

    Example:
        >>> from compactor import apply_strategy, judge_outcome, validate
        >>> from compactor.analyses.outcomes import find_needs
        >>> turns = ["Ship DE-4471 to Lyon.", "Noted.", "Is DE-4471 there?"]
        >>> roles = ["user", "assistant", "user"]
        >>> needs = find_needs(turns, roles)
        >>> past = validate({"messages": [{"role": r, "content": c}
        ...     for r, c in zip(roles[:2], turns[:2])], "budget_chars": 100})
        >>> judge_outcome(needs, apply_strategy("keep-last", past, budget_chars=10)).met
        0
    """
    if not result.available:
        raise ValueError(f"{result.key} did not run: {result.unavailable}")
    messages = result.messages
    if all(m.spans is None and m.kept != KEPT_REPLACED for m in messages):
        lengths = [None if m.kept == KEPT_REMOVED else m.chars for m in messages]
        return judge_lengths(needs, lengths)

    def lost_at(i: int, end: int) -> str:
        return {KEPT_REMOVED: REMOVED, KEPT_REPLACED: REPLACED}.get(messages[i].kept, CUT)

    return judge_spans(needs, [m.kept_spans for m in messages], lost_at)


def role_recalls(needs: Needs, judged: np.ndarray, met: np.ndarray) -> tuple[RoleRecall, ...]:
    """Per role of the user message (the schema's order), needs and met needs."""
    roles = [needs.roles[u] for u in needs.user[judged].tolist()]
    out = []
    for role in ROLES:
        mine = np.array([r == role for r in roles], dtype=bool)
        if mine.any():
            out.append(RoleRecall(role, int(mine.sum()), int(met[mine].sum())))
    return tuple(out)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
