"""Evaluate a grid of settings over a corpus: rows as they finish, on a process pool or Ray.

Work is cut per conversation (a chunk is every setting of one conversation), so each
conversation's text analysis is computed once, in the worker that runs it, and reused for every
setting. Rows come back in corpus order whatever the backend, so two runs give the same rows in
the same order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from compactor.analyses import BUDGET_RANGE
from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.errors import InvalidRequest, Problem, ProblemError
from compactor.evaluation._corpus import CorpusItem
from compactor.evaluation._grid import (
    GRID_PARAMETERS,
    grid_points,
)
from compactor.evaluation._outcomes import BASELINES, baseline_point, baseline_protections
from compactor.evaluation._pool import local_rows
from compactor.evaluation._resume import Written
from compactor.evaluation._rows import (
    ConversationRows,
    RowKey,
    baseline_budgets,
    budgets_of,
    outcome,
    row_key,
)
from compactor.evaluation._stream import CorpusStream
from compactor.text import tokenizer

BACKENDS = ("local", "ray")

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RunOptions:
    """How a corpus evaluation runs: ``workers`` processes (default: one per core; 1 runs in this
    process) on the ``local`` backend, or tasks on ``ray`` at ``address`` (a new local Ray
    instance when None and none is running); ``encoding`` adds ``output_tokens`` to every row;
    ``future`` is the continuation check's future (the last ``future`` messages; None: no
    outcome columns and no baseline rows). The rows are the same, in the same order, whatever
    the backend and workers."""

    workers: int | None = None
    backend: str = "local"
    address: str | None = None
    encoding: str | None = None
    future: int | None = DEFAULT_FUTURE

    def check(self) -> None:
        """Raise :class:`~compactor.errors.ProblemError` for a bad backend or worker count, and
        fail on an unknown encoding (or a missing tokens extra) before any work."""
        if self.backend not in BACKENDS:
            raise ProblemError(
                [Problem(f"unknown backend {self.backend!r}; choose one of {', '.join(BACKENDS)}")]
            )
        if self.workers is not None and self.workers < 1:
            raise ProblemError([Problem(f"workers must be 1 or more, not {self.workers}")])
        if self.future is not None and (isinstance(self.future, bool) or self.future < 1):
            raise ProblemError(
                [Problem(f"the future is 1 message or more, not {self.future}", path="future")]
            )
        if self.encoding is not None:
            tokenizer(self.encoding)


@dataclass
class _Work:
    """What one evaluation computes: the corpus (read as the rows are made), the rows of each
    conversation (every setting at its budgets, less those in ``skip``), and the conversations
    not to run (``whole``, or every row in ``skip``), counted in ``passed`` as they go by."""

    items: Iterable[CorpusItem]
    total: int
    settings: list[dict[str, Any]]
    budgets: list[int] | None
    skip: Container[RowKey]
    whole: frozenset[Any]
    baselines: bool
    probe_columns: bool = False  # whether the corpus carries probes
    progress: Progress | None = None
    passed: int = 0  # conversations not to run, gone by
    finished: int = 0  # conversations run
    shown: tuple[int, int] | None = None  # the last progress given

    def todo(self) -> Iterator[CorpusItem]:
        """The conversations to run, in corpus order, read one at a time; progress is first
        given when the first of them is reached (the done ones before it counted)."""
        for item in self.items:
            if item.conversation in self.whole or _all_done(
                item, self.settings, self.budgets, self.skip, self.baselines
            ):
                self.passed += 1
                continue
            if self.shown is None:
                self.show()
            yield item

    def show(self, done: int | None = None) -> None:
        """Give progress: ``done`` conversations (default: those run and gone by)."""
        if done is None:
            done = min(self.finished + self.passed, self.total)
        if self.progress and self.shown != (done, self.total):
            self.shown = (done, self.total)
            self.progress(*self.shown)


def evaluate(
    items: Iterable[CorpusItem],
    settings: Sequence[Mapping[str, Any]],
    budgets: Sequence[int] | None = None,
    options: RunOptions = RunOptions(),
    *,
    progress: Progress | None = None,
    skip: Iterable[RowKey] = frozenset(),
    whole: Iterable[Any] = frozenset(),
) -> Iterator[dict[str, Any]]:
    """One row per (conversation, setting, budget), conversation by conversation in corpus order.

    ``items`` is a list of conversations, or a :class:`~compactor.evaluation.CorpusStream`:
    its conversations are then read one at a time as the rows are made, so the corpus is never
    held whole. ``settings`` come from :func:`~compactor.evaluation.grid_points`. ``budgets``
    lists the budgets every setting without its own ``budget_chars`` is evaluated at; None
    evaluates it at every budget point of the exact sweep of each conversation (the smallest
    budget of each step of the output; the row holds up to the next point). ``options``
    (:class:`RunOptions`) say on which backend and workers, and in which encoding, if any, to
    count output tokens. ``progress(done, total)`` is called with conversations done.
    ``skip`` holds row keys (:func:`~compactor.evaluation.row_key`) already done: they are not
    yielded, and a conversation whose rows are all known to be done is not run (a
    :class:`~compactor.evaluation._resume.Written` is taken as it is). ``whole`` names
    conversations whose every row the caller has (:func:`written_whole` of a run's rows): they
    are not run either, though their budgets come from the sweep.

    Raises :class:`~compactor.errors.ProblemError` for bad budgets, settings or backend, and
    :class:`~compactor.errors.InvalidRequest` (naming the conversation) for an invalid request.
    """
    if isinstance(items, CorpusStream):
        total, probes = len(items), items.probes
    else:
        items = list(items)
        total, probes = len(items), any(item.probes for item in items)
    settings = [dict(s) for s in settings]
    budgets = _checked_budgets(budgets)
    _check_settings(settings)
    options.check()
    work = _Work(
        items,
        total,
        settings,
        budgets,
        skip if isinstance(skip, Written) else frozenset(skip),
        frozenset(whole),
        options.future is not None,
        probes,
        progress,
    )
    # Checked above, at the call; the rows are computed as they are read.
    return _rows(work, options)


def _rows(work: _Work, options: RunOptions) -> Iterator[dict[str, Any]]:
    for rows, problems in _conversation_rows(work, options):
        if problems:
            raise InvalidRequest(problems)
        for row in rows:
            if not work.skip or row_key(row) not in work.skip:
                yield row
        work.finished += 1
        work.show()
    work.show(work.total)  # the rest were done before (or could not be used)


def _conversation_rows(work: _Work, options: RunOptions) -> Iterator[ConversationRows]:
    """Each conversation to run's rows and problems, in corpus order, on the chosen backend."""
    if options.backend == "ray":
        from compactor.evaluation._ray_backend import ray_rows

        return ray_rows(
            work.todo(),
            work.settings,
            work.budgets,
            options.encoding,
            options.workers,
            options.address,
            options.future,
            work.probe_columns,
        )
    task = functools.partial(
        outcome,
        settings=work.settings,
        budgets=work.budgets,
        encoding=options.encoding,
        future=options.future,
        probe_columns=work.probe_columns,
    )
    return local_rows(work.todo(), task, options.workers)


def _checked_budgets(budgets: Sequence[int] | None) -> list[int] | None:
    if budgets is None:
        return None
    low, high = BUDGET_RANGE
    problems = [
        Problem(f"must be a whole number from {low:,} to {high:,}", path=f"budgets[{k}]")
        for k, b in enumerate(budgets)
        if isinstance(b, bool) or not isinstance(b, int) or not low <= b <= high
    ]
    if not budgets:
        problems.append(Problem("must list at least one budget (or be None: every sweep point)"))
    if len(set(budgets)) != len(budgets):
        problems.append(Problem("lists a budget twice", path="budgets"))
    if problems:
        raise ProblemError(problems)
    return sorted(budgets)


def _check_settings(settings: Sequence[dict[str, Any]]) -> None:
    """Each setting must be a grid's setting; checked the way :func:`grid_points` checks."""
    if not settings:
        raise ProblemError([Problem("there is no setting to evaluate", path="settings")])
    for k, setting in enumerate(settings):
        missing = [name for name in GRID_PARAMETERS if name not in setting]
        if missing:
            raise ProblemError(
                [
                    Problem(
                        f"lacks {', '.join(missing)}; make settings with grid_points",
                        path=f"settings[{k}]",
                    )
                ]
            )
        try:
            grid_points(setting)
        except ProblemError as error:
            raise ProblemError(
                [
                    Problem(p.message, path=f"settings[{k}]" + (p.path or "").removeprefix("base"))
                    for p in error.problems
                ]
            ) from None


def _all_done(
    item: CorpusItem,
    settings: Sequence[Mapping[str, Any]],
    budgets: list[int] | None,
    skip: Container[RowKey],
    baselines: bool = False,
) -> bool:
    """Whether every row of the conversation (with the ``baselines``' rows) is in ``skip``;
    False when its budgets follow from its sweep (:func:`written_whole` says for those)."""
    if not skip:
        return False
    if baselines:
        for strategy in BASELINES:
            for roles in baseline_protections(settings):
                for budget in baseline_budgets(settings, budgets):
                    row = {**baseline_point(strategy, roles), "budget_chars": budget}
                    if row_key({**row, "conversation": item.conversation}) not in skip:
                        return False
    for setting in settings:
        points = budgets_of(setting, budgets)
        if points is None:
            return False
        for budget in points:
            if (
                row_key({**setting, "conversation": item.conversation, "budget_chars": budget})
                not in skip
            ):
                return False
    return True
