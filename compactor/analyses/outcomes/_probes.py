"""Probes (SPEC part D): labelled evidence, and how much of it a compaction returns.

A probe is ``{"id", "evidence": [REF, ...], "answer"?, "question"?}``, each REF a message
``id`` (a string) or a 0-based ``index`` (an integer); the question is the labeller's words,
shown beside a failure and never judged. Under a strategy's returned lengths: *strict* when every
evidence message is returned whole, *partial* when every one is returned (whole or cut),
*answer* when the answer text occurs (exactly) in the returned content of an evidence message;
answer recall counts only the probes whose answer occurs in the input content of an evidence
message. Recall is a share of probes; the baselines' are computed at the same budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from compactor.analyses.outcomes import _baselines as baselines
from compactor.analyses.outcomes._baselines import DEFAULT_DRAWS, Interval, interval, lift
from compactor.analyses.outcomes._continuation import CurveStep, curve_steps, survival_budgets
from compactor.analyses.outcomes._judge import NEVER
from compactor.engine import CompactionResult
from compactor.errors import Problem, ProblemError, format_path
from compactor.model import Message
from compactor.strategies import CUT, VERBATIM

if TYPE_CHECKING:
    from compactor.strategies import StrategyResult

#: The three recalls, in the order they are reported.
KINDS = ("strict", "partial", "answer")
#: The fields of a probe.
PROBE_FIELDS = frozenset({"id", "evidence", "answer", "question"})


class InvalidProbes(ProblemError):
    """A probes document that cannot be used; each problem has its JSON path
    (``$.probes[2].evidence[0]``)."""


@dataclass(frozen=True)
class Probe:
    id: str
    evidence: tuple[int, ...]  # message indices, in the order given
    answer: str | None = None
    question: str | None = None  # the labeller's words, shown beside a failure (never judged)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "evidence": list(self.evidence)}
        if self.answer is not None:
            out["answer"] = self.answer
        if self.question is not None:
            out["question"] = self.question
        return out


def parse_probes(data: Any, messages: Sequence[Message]) -> tuple[Probe, ...]:
    """The probes of ``{"probes": [...]}`` (or of the list itself), refs resolved against
    ``messages``; raises :class:`InvalidProbes` listing every problem with its path."""
    problems: list[Problem] = []
    if isinstance(data, dict):
        if set(data) - {"probes"}:
            for key in sorted(set(data) - {"probes"}, key=str):
                problems.append(Problem("is not a field of a probes file", _path(key)))
        items, root = data.get("probes"), ["probes"]
        if items is None:
            problems.append(Problem('is required: {"probes": [...]}', _path("probes")))
    else:
        items, root = data, []
    if items is not None and not isinstance(items, list):
        problems.append(Problem("should be a list of probes", _path(*root)))
        items = None
    by_id: dict[str, int] = {}
    for m in messages:
        if m.id is not None:
            by_id.setdefault(m.id, m.index)
    probes = []
    for k, item in enumerate(items or []):
        at = [*root, k]
        if not isinstance(item, dict):
            problems.append(
                Problem(
                    'should be an object {"id", "evidence", "answer"?, "question"?}', _path(*at)
                )
            )
            continue
        for key in sorted(set(item) - PROBE_FIELDS, key=str):
            problems.append(Problem("is not a field of a probe", _path(*at, key)))
        name = item.get("id", str(k))
        if isinstance(name, bool) or not isinstance(name, str | int):
            problems.append(Problem("should be a string", _path(*at, "id")))
        answer = item.get("answer")
        if answer is not None and not (isinstance(answer, str) and answer):
            problems.append(Problem("should be a non-empty string", _path(*at, "answer")))
        question = item.get("question")
        if question is not None and not isinstance(question, str):
            problems.append(Problem("should be a string", _path(*at, "question")))
            question = None
        evidence = item.get("evidence")
        if not isinstance(evidence, list) or not evidence:
            problems.append(
                Problem("should be a non-empty list of message refs", _path(*at, "evidence"))
            )
            continue
        found = []
        for r, ref in enumerate(evidence):
            index = _resolve(ref, by_id, len(messages))
            if index is None:
                problems.append(Problem(_why(ref, len(messages)), _path(*at, "evidence", r)))
            else:
                found.append(index)
        answer = answer if isinstance(answer, str) else None
        probes.append(Probe(str(name), tuple(found), answer, question))
    if problems:
        raise InvalidProbes(problems)
    return tuple(probes)


def _resolve(ref: Any, by_id: dict[str, int], n: int) -> int | None:
    if isinstance(ref, bool):
        return None
    if isinstance(ref, int):
        return ref if 0 <= ref < n else None
    if isinstance(ref, str):
        return by_id.get(ref)
    return None


def _why(ref: Any, n: int) -> str:
    if isinstance(ref, str):
        return f"names no message: no message has the id {ref!r}"
    if isinstance(ref, int) and not isinstance(ref, bool):
        return f"names no message: indices run from 0 to {n - 1}"
    return "should be a message id (a string) or a 0-based index (an integer)"


def _path(*parts: str | int) -> str:
    return "$." + format_path(parts) if parts else "$"


@dataclass(frozen=True)
class ProbeRecall:
    """Probe recall under one strategy: the share of probes kept strictly, partially, and
    with their answer (None when no probe qualifies)."""

    probes: int
    strict: float | None
    partial: float | None
    answer: float | None
    answer_probes: int  # probes whose answer occurs in an evidence message's input

    def to_dict(self) -> dict[str, Any]:
        return {
            "probes": self.probes,
            "strict": _round(self.strict),
            "partial": _round(self.partial),
            "answer": _round(self.answer),
            "answer_probes": self.answer_probes,
        }


def probe_recall(
    probes: Sequence[Probe], contents: Sequence[str], returned: Sequence[int | None]
) -> ProbeRecall:
    """Probe recall of a strategy that returned ``returned[i]`` characters of message ``i``
    (None when removed) of the conversation ``contents``."""
    return _recall(probes, contents, *_by_lengths(contents, returned))


def _by_lengths(contents: Sequence[str], returned: Sequence[int | None]) -> tuple[Callable, ...]:
    """Whether message ``i`` is returned whole, whether it is returned, and its returned text,
    for a strategy that returns prefixes (``returned[i]`` characters, None when removed)."""

    def text(i: int) -> str | None:
        k = returned[i]
        return None if k is None else contents[i][:k]

    return (
        lambda i: returned[i] is not None and returned[i] == len(contents[i]),
        lambda i: returned[i] is not None,
        text,
    )


def probe_recall_outcome(
    probes: Sequence[Probe], contents: Sequence[str], result: StrategyResult
) -> ProbeRecall:
    """Probe recall of a strategy of the lineup run on the conversation ``contents``, read from
    what its result says of each message: *strict* when returned verbatim, *partial* when some
    of its own text is returned (verbatim, cut, or a replaced message that keeps some input; a
    placeholder alone keeps none), *answer* when the answer occurs in the content it returns.
    For a strategy that returns prefixes this is :func:`probe_recall` of its lengths."""
    return _recall(probes, contents, *_by_outcome(result))


def _by_outcome(result: StrategyResult) -> tuple[Callable, ...]:
    """:func:`_by_lengths` for a strategy of the lineup, read from what its result says of
    each message."""
    if not result.available:
        raise ValueError(f"{result.key} did not run: {result.unavailable}")
    messages = result.messages
    return (
        lambda i: messages[i].kept == VERBATIM,
        lambda i: bool(messages[i].kept_spans) or messages[i].kept == CUT,
        lambda i: messages[i].content,
    )


def _recall(
    probes: Sequence[Probe],
    contents: Sequence[str],
    whole: Callable[[int], bool],
    returned: Callable[[int], bool],
    text: Callable[[int], str | None],
) -> ProbeRecall:
    """Probe recall given, per message index, whether it is returned whole, whether some of it
    is returned, and the text returned of it (None when removed)."""
    strict = partial = answered = answerable = 0
    for probe in probes:
        met = _met(probe, contents, whole, returned, text)
        strict += met["strict"]
        partial += met["partial"]
        if met["answer"] is not None:
            answerable += 1
            answered += met["answer"]
    count = len(probes)
    return ProbeRecall(
        count,
        strict / count if count else None,
        partial / count if count else None,
        answered / answerable if answerable else None,
        answerable,
    )


def _met(
    probe: Probe,
    contents: Sequence[str],
    whole: Callable[[int], bool],
    returned: Callable[[int], bool],
    text: Callable[[int], str | None],
) -> dict[str, bool | None]:
    """Whether one probe is met strictly, partially and by its answer (None: not answerable)."""
    answer = None
    if probe.answer is not None and any(probe.answer in contents[i] for i in probe.evidence):
        answer = any(probe.answer in (text(i) or "") for i in probe.evidence)
    return {
        "strict": all(whole(i) for i in probe.evidence),
        "partial": all(returned(i) for i in probe.evidence),
        "answer": answer,
    }


def failed_probes(
    probes: Sequence[Probe], contents: Sequence[str], returned: Sequence[int | None]
) -> dict[str, list[str]]:
    """The ids of the probes a strategy that returned ``returned[i]`` characters of message
    ``i`` (None when removed) fails, per recall (strict, partial, answer; the answer's only
    among the answerable), in the probes' order: what :func:`probe_recall` counts as unmet."""
    return _failed(probes, contents, *_by_lengths(contents, returned))


def failed_probes_outcome(
    probes: Sequence[Probe], contents: Sequence[str], result: StrategyResult
) -> dict[str, list[str]]:
    """:func:`failed_probes` of a strategy of the lineup, read as
    :func:`probe_recall_outcome` reads it."""
    return _failed(probes, contents, *_by_outcome(result))


def _failed(
    probes: Sequence[Probe],
    contents: Sequence[str],
    whole: Callable[[int], bool],
    returned: Callable[[int], bool],
    text: Callable[[int], str | None],
) -> dict[str, list[str]]:
    failed: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for probe in probes:
        met = _met(probe, contents, whole, returned, text)
        for kind in KINDS:
            if met[kind] is False:
                failed[kind].append(probe.id)
    return failed


@dataclass(frozen=True)
class ProbeOutcomes:
    """Probe recall under the setting and the baselines at its budget, and the lift."""

    budget_chars: int
    setting: ProbeRecall
    keep_last: ProbeRecall
    random: dict[str, Interval]  # per kind (strict, partial, answer)

    @property
    def lift(self) -> dict[str, float | None]:
        return {
            kind: lift(getattr(self.setting, kind), getattr(self.keep_last, kind)) for kind in KINDS
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget_chars": self.budget_chars,
            "setting": self.setting.to_dict(),
            "keep_last": self.keep_last.to_dict(),
            "random": {kind: value.to_dict() for kind, value in self.random.items()},
            "lift": {kind: _round(value) for kind, value in self.lift.items()},
        }


def probe_outcomes(
    probes: Sequence[Probe], result: CompactionResult, draws: int = DEFAULT_DRAWS
) -> ProbeOutcomes:
    """Probe recall under ``result`` and under keep-last and random at its budget."""
    contents = result.request.contents
    budget = result.request.params.budget_chars
    lengths = np.array([len(c) for c in contents], dtype=np.int64)
    setting = probe_recall(
        probes, contents, [t.chars if t.survived else None for t in result.messages]
    )
    keep_last = probe_recall(
        probes, contents, _lengths(baselines.keep_last_lengths(lengths, budget))
    )
    per_draw = [
        probe_recall(probes, contents, _lengths(row))
        for row in baselines.random_lengths(lengths, budget, draws)
    ]
    random = {
        kind: interval(
            None if getattr(setting, kind) is None else [getattr(r, kind) for r in per_draw],
            draws,
        )
        for kind in KINDS
    }
    return ProbeOutcomes(budget, setting, keep_last, random)


def probe_curve(
    probes: Sequence[Probe],
    result: CompactionResult,
    kind: str = "strict",
    draws: int = DEFAULT_DRAWS,
) -> tuple[CurveStep, ...]:
    """Probe recall of ``kind`` (strict, partial or answer) under ``result``'s setting and the
    baselines at every budget in range, as ascending steps, exact from the one run: a message's
    returned length does not depend on the budget, and the budget sweep says from which budget
    it is returned, so each probe is met from one budget on (the baselines' likewise)."""
    if kind not in KINDS:
        raise ValueError(f"the probe recall is one of {', '.join(KINDS)}, not {kind!r}")
    contents = result.request.contents
    lengths = np.array([len(c) for c in contents], dtype=np.int64)
    from_budget, chars = survival_budgets(result)
    setting = _probe_from(probes, contents, kind, from_budget[None, :], chars)[0]
    keep_last = baselines.keep_last_from_budgets(lengths)
    keep_last = _probe_from(probes, contents, kind, keep_last[None, :], lengths)[0]
    drawn = _probe_from(
        probes, contents, kind, baselines.random_from_budgets(lengths, draws), lengths
    )
    return curve_steps(setting, keep_last, drawn)


def _probe_from(
    probes: Sequence[Probe],
    contents: Sequence[str],
    kind: str,
    from_budget: np.ndarray,
    chars: np.ndarray,
) -> np.ndarray:
    """Per row of ``from_budget`` (the smallest budget from which each message is returned,
    at ``chars`` characters) and per probe that counts for ``kind``, the smallest budget at
    which the probe is met (NEVER when at none)."""
    columns = []
    for probe in probes:
        evidence = list(probe.evidence)
        if kind == "answer":
            if probe.answer is None or not any(probe.answer in contents[i] for i in evidence):
                continue  # not answerable: answer recall does not count it
            holding = [i for i in evidence if probe.answer in contents[i][: chars[i]]]
            found = from_budget[:, holding].min(axis=1) if holding else NEVER
        elif kind == "strict":
            whole = chars[evidence] == [len(contents[i]) for i in evidence]
            found = np.where(whole, from_budget[:, evidence], NEVER).max(axis=1)
        else:
            found = from_budget[:, evidence].max(axis=1)
        columns.append(np.broadcast_to(found, len(from_budget)))
    if not columns:
        return np.zeros((len(from_budget), 0), dtype=np.int64)
    return np.stack(columns, axis=1).astype(np.int64)


def _lengths(row: np.ndarray) -> list[int | None]:
    return [None if x < 0 else x for x in row.tolist()]


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
