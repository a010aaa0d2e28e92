"""Corpus rows of any registry strategy: one per (conversation, parameters, budget), with the
columns memory-compact's rows share (characters, anchors, tool pairs broken), and whether
every system message is still returned (``system_kept``).

A strategy runs once per budget (no sweep: the peers' outputs are not prefixes of one order).
An anchor is kept when one of its occurrences is still in what the strategy returns (a cut
message up to its end, a replaced message anywhere in the new text); a tool pair is broken
when exactly one of the call and the result is returned (a cleared result still answers its
call). A conversation with recorded compactions has the re-read columns last
(:meth:`~compactor.evaluation._reread_rows.ConversationRereads.strategy_columns`). With a
future, ``needs`` and ``needs_met`` follow (:func:`needs_columns`): the
continuation check, as memory-compact's rows have it, the past compacted by the strategy at
the row's budget and judged by :func:`~compactor.analyses.outcomes.judge_outcome` (a kept
span holds a source; a placeholder holds none). :func:`strategy_conversation_rows` is one
conversation's rows as a worker returns them, for :func:`~compactor.evaluation._pool.local_rows`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from compactor.analyses import tool_pairs
from compactor.analyses.anchors import find_anchors
from compactor.analyses.outcomes import (
    DEFAULT_FUTURE,
    Needs,
    failed_probes_outcome,
    find_needs,
    judge_outcome,
    probe_recall_outcome,
)
from compactor.analyses.outcomes import past_request as past_of
from compactor.contract import AUTO_LIMITS
from compactor.errors import InvalidRequest, Problem, ProblemError
from compactor.evaluation._corpus import CorpusItem
from compactor.evaluation._grid import BUDGET
from compactor.evaluation._outcomes import PROBE_KEYS, PROBE_KINDS, baseline_probes
from compactor.evaluation._reread_rows import ConversationRereads
from compactor.evaluation._rows import ConversationRows
from compactor.evaluation._run import local_rows
from compactor.input import validate
from compactor.model import Request
from compactor.strategies import (
    CUT,
    REMOVED,
    VERBATIM,
    RegisteredStrategy,
    StrategyResult,
    get_strategy,
    require_strategy_available,
)

STRATEGY_ROW_KEYS: tuple[str, ...] = (
    "conversation",
    "strategy",
    "strategy_params",
    BUDGET,
    "output_chars",
    "output_messages",
    "budget_met",
    "replaced_messages",
    "anchors",
    "anchors_kept",
    "tool_pairs_broken",
    "system_kept",
)
#: The outcome keys after them, with a future.
NEEDS_KEYS: tuple[str, ...] = ("needs", "needs_met")
#: The probe keys last, when the corpus carries probes (or a question set is asked): the
#: strategy's figures, then keep-last's and random's at the row's budget.
STRATEGY_PROBE_KEYS: tuple[str, ...] = (
    *PROBE_KEYS,
    "probes_keep_last",
    "probes_random",
)


def strategy_grid_points(
    strategy: RegisteredStrategy,
    params: Mapping[str, Any] | None = None,
    grid: Mapping[str, Sequence[Any]] | None = None,
) -> list[dict[str, Any]]:
    """Every combination of the ``grid`` values over ``params`` (the first grid parameter
    varies slowest), each checked by the strategy; StrategyParameterError names what is wrong."""
    params, grid = dict(params or {}), dict(grid or {})
    for name, values in grid.items():
        strategy.parameter(name)  # an unknown name fails here, by name
        if not values:
            raise ProblemError([Problem("must list at least one value", path=f"grid.{name}")])
    combos = itertools.product(*grid.values()) if grid else [()]
    settings = [{**params, **dict(zip(grid, combo, strict=True))} for combo in combos]
    for setting in settings:
        strategy.validate(setting)
    return settings


def parse_strategy_grid(strategy: RegisteredStrategy, option: str) -> tuple[str, list[Any]]:
    """``keep=1,3,5`` -> ``("keep", [1, 3, 5])``, each value parsed as the parameter's kind."""
    name, sep, text = option.partition("=")
    if not sep:
        raise ProblemError([Problem(f"must be NAME=V1,V2,..., not {option!r}", path="--grid")])
    parameter = strategy.parameter(name)
    return name, [parameter.parse(v) for v in text.split(",")]


@dataclass(frozen=True, eq=False)
class PreparedConversation:
    """What every setting of one conversation shares: its request (the agent mode), anchors,
    tool pairs, system messages, for a future its past and needs (None when the past alone
    is not a valid request), and its recorded compactions' re-reads (None without any)."""

    item: CorpusItem
    request: Request
    anchors: tuple[Any, ...]
    pairs: tuple[Any, ...]
    system: tuple[int, ...]
    past: Request | None
    needs: Needs | None
    future: int | None
    rereads: ConversationRereads | None = None
    #: keep-last's and random's probe columns per budget, found on first use: the same for
    #: every setting, so a tuner's trials share them.
    probe_baselines: dict[int, dict[str, Any]] = field(default_factory=dict)


def prepare_conversation(
    item: CorpusItem, future: int | None = DEFAULT_FUTURE
) -> PreparedConversation:
    """The parameter-free parts of ``item``'s rows, found once. Raises InvalidRequest for an
    invalid request."""
    request = validate(item.request, limits=AUTO_LIMITS)  # a whole session: the agent mode
    pairs, _ = tool_pairs(request.roles, item.tool_links)
    past = None if future is None else _past(request, future)
    return PreparedConversation(
        item,
        request,
        tuple(find_anchors(request.contents)),
        tuple(pairs),
        tuple(i for i, role in enumerate(request.roles) if role == "system"),
        past,
        None if past is None else find_needs(request.contents, request.roles),
        future,
        ConversationRereads.of(request, item.compactions),
    )


def strategy_rows(
    item: CorpusItem,
    strategy: RegisteredStrategy,
    settings: Sequence[Mapping[str, Any]],
    budgets: Sequence[int] | None = None,
    future: int | None = DEFAULT_FUTURE,
    probe_columns: bool | None = None,
) -> list[dict[str, Any]]:
    """The rows of one conversation: every setting at every budget (default: the request's
    own ``budget_chars``), with ``needs`` and ``needs_met`` for a ``future`` (None: without
    them), and the probe columns when ``probe_columns`` (None: when the item has probes; see
    :func:`probe_columns_of`). Raises InvalidRequest for an invalid request."""
    return prepared_rows(
        prepare_conversation(item, future), strategy, settings, budgets, probe_columns
    )


def prepared_rows(
    prepared: PreparedConversation,
    strategy: RegisteredStrategy,
    settings: Sequence[Mapping[str, Any]],
    budgets: Sequence[int] | None = None,
    probe_columns: bool | None = None,
) -> list[dict[str, Any]]:
    """:func:`strategy_rows` of a conversation prepared once (a tuner judges it under many
    settings, one call after another)."""
    item, request, anchors, pairs = (
        prepared.item,
        prepared.request,
        prepared.anchors,
        prepared.pairs,
    )
    system, future, past, needs = prepared.system, prepared.future, prepared.past, prepared.needs
    probing = bool(item.probes) if probe_columns is None else probe_columns
    baselines = prepared.probe_baselines  # per budget: the same for every setting
    rows = []
    for setting in settings:
        for budget in sorted(budgets or [request.params.budget_chars]):
            result = strategy.apply(request, budget_chars=budget, params=setting)
            alive = [m.kept != REMOVED for m in result.messages] or [False] * len(request.contents)
            kept = sum(any(_holds(result, o, a.text) for o in a.occurrences) for a in anchors)
            row = {
                "conversation": item.conversation,
                "strategy": strategy.name,
                "strategy_params": dict(setting),
                BUDGET: budget,
                "output_chars": result.output_chars,
                "output_messages": result.output_messages,
                "budget_met": result.budget_met,
                "replaced_messages": result.replaced_messages,
                "anchors": len(anchors),
                "anchors_kept": kept,
                "tool_pairs_broken": sum(alive[c] != alive[r] for c, r, _ in pairs),
                "system_kept": all(alive[i] for i in system),
            }
            if future is not None:
                row.update(needs_columns(strategy, setting, budget, past, needs))
            if probing:
                if budget not in baselines:
                    baselines[budget] = baseline_probes(item.probes, request.contents, budget)
                row.update(probe_columns_of(item, request.contents, result))
                row.update(baselines[budget])
            if prepared.rereads is not None:
                row.update(prepared.rereads.strategy_columns(strategy, setting, budget))
            rows.append(row)
    return rows


def probe_columns_of(
    item: CorpusItem, contents: Sequence[str], result: StrategyResult
) -> dict[str, Any]:
    """A strategy row's probe columns (:data:`STRATEGY_PROBE_KEYS`): its recall of the item's
    probes, read from what it returned of each message (a placeholder holds none), and the ids
    it fails; None figures when the strategy could not run."""
    probes = item.probes
    out: dict[str, Any] = {"probes": len(probes)}
    if not result.available:
        return out | dict.fromkeys(STRATEGY_PROBE_KEYS[1:6])
    recall = probe_recall_outcome(probes, contents, result)
    for kind in PROBE_KINDS:
        out[f"probes_{kind}"] = (
            None if getattr(recall, kind) is None else round(getattr(recall, kind), 6)
        )
    out["probes_answerable"] = recall.answer_probes
    out["probes_failed"] = failed_probes_outcome(probes, contents, result)
    return out


def needs_columns(
    strategy: RegisteredStrategy,
    setting: Mapping[str, Any],
    budget: int,
    past: Request | None,
    needs: Needs | None,
) -> dict[str, Any]:
    """``needs`` and ``needs_met`` of a row: the ``past`` (the request less its future)
    compacted by ``strategy`` with ``setting`` at ``budget``, the future's ``needs`` judged on
    what it returned; both None when the past alone is not a valid request, or when the
    strategy could not run."""
    if past is None or needs is None:
        return dict.fromkeys(NEEDS_KEYS)
    result = strategy.apply(past, budget_chars=budget, params=setting)
    if not result.available:
        return dict.fromkeys(NEEDS_KEYS)
    judged = judge_outcome(needs, result)
    return {"needs": judged.needs, "needs_met": judged.met}


def strategy_conversation_rows(
    item: CorpusItem,
    name: str,
    settings: Sequence[Mapping[str, Any]],
    budgets: Sequence[int] | None,
    future: int | None = DEFAULT_FUTURE,
    probe_columns: bool | None = None,
) -> ConversationRows:
    """:func:`strategy_rows` of one conversation for the strategy registered as ``name``, or
    the problems of its request, each naming it (a worker returns them as values)."""
    try:
        found = strategy_rows(item, get_strategy(name), settings, budgets, future, probe_columns)
        return found, ()
    except InvalidRequest as error:
        named = f"(conversation {item.conversation!r})"
        return [], tuple(
            Problem(f"{p.message} {named}", p.path, p.line, p.column) for p in error.problems
        )


def evaluate_strategy(
    items: Sequence[CorpusItem],
    name: str,
    settings: Sequence[Mapping[str, Any]],
    budgets: Sequence[int] | None = None,
    *,
    workers: int | None = None,
    future: int | None = DEFAULT_FUTURE,
    progress: Callable[[int, int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[dict[str, Any]]:
    """The rows of the strategy registered as ``name`` over ``items``, conversation by
    conversation in corpus order, one conversation per task on ``workers`` processes (1: in
    this process; None: one per core), or as Ray tasks (``backend="ray"``, on the cluster at
    ``address`` or a new local instance). ``progress(done, total)`` follows the conversations.
    Raises InvalidRequest (naming the conversation) for an invalid request, and
    StrategyUnavailable for a strategy whose extra is not installed."""
    require_strategy_available(name)  # an unknown name fails here, by name; a missing extra too
    task = functools.partial(
        strategy_conversation_rows,
        name=name,
        settings=settings,
        budgets=budgets,
        future=future,
        probe_columns=any(item.probes for item in items) or None,
    )
    if progress:
        progress(0, len(items))
    if backend == "ray":
        from compactor.evaluation._ray_backend import ray_map

        outcomes = ray_map(items, task, workers, address)
    else:
        outcomes = local_rows(items, task, workers)
    for done, (found, problems) in enumerate(outcomes, start=1):
        if problems:
            raise InvalidRequest(problems)
        yield from found
        if progress:
            progress(done, len(items))


def _past(request: Request, future: int) -> Request | None:
    try:
        return past_of(request, future)
    except InvalidRequest:
        return None


def _holds(result: StrategyResult, occurrence: Any, text: str) -> bool:
    index, end = occurrence[0], occurrence[2]
    if not result.messages:
        return False
    m = result.messages[index]
    if m.kept == REMOVED or m.content is None:
        return False
    if m.kept == VERBATIM:
        return True
    if m.kept == CUT:
        return end <= len(m.content)
    return text in m.content  # replaced: the anchor survives only if the new text holds it
