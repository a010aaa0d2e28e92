"""The strategies a replay runs on every turn (memory-compact, keep-last-N, drop-oldest (the
seeds/003 trim) with its own options, the seeds/003 loop, and any strategy of the registry
through :class:`Registered`) and :func:`replay_request`, which builds one by name and replays."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from compactor.analyses.replay._loop import (
    ALWAYS,
    Carried,
    Fact,
    Replay,
    Shrunk,
    Strategy,
    compose_spans,
    replay,
)
from compactor.contract import MEMORY_COMPACT
from compactor.engine import TurnStages
from compactor.model import Message, Params, Request
from compactor.strategies import (
    CUT,
    DROP_OLDEST,
    FOCUS,
    KEEP_LAST,
    REMOVED,
    VERBATIM,
    current_strategy_name,
    estimate_message_tokens,
    get_strategy,
    keep_last,
    strategy_names,
    trim_context,
)
from compactor.text import IncrementalAnalysis


class MemoryCompact:
    """The memory-compact engine with fixed parameters; the text analysis of every content and
    pair is computed once over the whole replay (:class:`IncrementalAnalysis`), and the stages
    decide on it (:class:`TurnStages`, equal to :func:`compactor.engine._pipeline.outputs`)."""

    name = MEMORY_COMPACT

    def __init__(self, params: Params, analysis: IncrementalAnalysis | None = None) -> None:
        """``analysis`` may be shared by replays of one conversation with other parameters
        (what it holds depends on the contents only), one replay at a time."""
        self.params = params
        self._stages = TurnStages(params, analysis or IncrementalAnalysis())
        self._recorded: list[str] = []

    def prepare(self, recorded: Sequence[Carried]) -> None:
        """Count the words of every recorded message at once; trimmed ones reuse them."""
        self._recorded = [m.content for m in recorded]
        self._stages.analysis.register(self._recorded)

    def __call__(self, history: Sequence[Carried]) -> list[Carried]:
        kept = self._stages.outputs(
            [m.content for m in history],
            [m.role for m in history],
            [m.pin for m in history],
            [self._source(m.origin) for m in history],
        )
        return [
            m if out == m.content else replace(m, content=out)
            for m, out in zip(history, kept, strict=True)
            if out is not None
        ]

    def _source(self, origin: int | None) -> str | None:
        return (
            self._recorded[origin] if origin is not None and origin < len(self._recorded) else None
        )


class KeepLast:
    """Keep the largest number of last messages that fits ``budget_chars``, whole."""

    name = KEEP_LAST

    def __init__(self, budget_chars: int) -> None:
        self.budget_chars = budget_chars

    def __call__(self, history: Sequence[Carried]) -> list[Carried]:
        kept = keep_last([m.content for m in history], self.budget_chars)
        return [history[i] for i in kept]


class ContextTrim:
    """drop-oldest, the seeds/003 trim, with its own parameters (``keepLastMessages``,
    ``dropToolParts``, ``maxTokensEstimate``); messages are kept or removed whole."""

    name = DROP_OLDEST

    def __init__(
        self,
        keep_last_messages: int | None = None,
        drop_tool_parts: bool = False,
        max_tokens_estimate: int | None = None,
    ) -> None:
        self.options: dict[str, Any] = {"dropToolParts": drop_tool_parts}
        if keep_last_messages is not None:
            self.options["keepLastMessages"] = keep_last_messages
        if max_tokens_estimate is not None:
            self.options["maxTokensEstimate"] = max_tokens_estimate

    def __call__(self, history: Sequence[Carried]) -> list[Carried]:
        sent = [m.to_dict() for m in history]
        # trim returns the very message objects it keeps, so each maps back to its own
        position = {id(d): k for k, d in enumerate(sent)}
        kept = trim_context({"messages": sent, **self.options})["messages"]
        return [history[position[id(d)]] for d in kept]


class SeedLoop:
    """The loop of seeds/003: while the history's token estimate (``ceil(chars / 4)`` per
    message, as the trim counts) is at most ``token_limit``, send it unchanged; else compact it
    with ``compact``; and if that fails, send the last ``fallback_messages``.

    ``compact`` is any :class:`Strategy`: an LLM compact once a provider is configured.
    """

    def __init__(
        self, compact: Strategy, token_limit: int = 20_000, fallback_messages: int = 10
    ) -> None:
        self.compact = compact
        self.token_limit = token_limit
        self.fallback_messages = fallback_messages
        self.name = f"seed-loop({getattr(compact, 'name', 'compact')})"

    def __call__(self, history: Sequence[Carried]) -> Shrunk:
        tokens = sum(estimate_message_tokens(m.to_dict()) for m in history)
        if tokens <= self.token_limit:
            return Shrunk(tuple(history), compacted=False)
        try:
            shrunk = self.compact(history)
        except Exception:  # the seed's loop falls back on any failure of the beta endpoint
            return Shrunk(tuple(history[-self.fallback_messages :]))
        return shrunk if isinstance(shrunk, Shrunk) else Shrunk(tuple(shrunk))


class ProviderCompact:
    """The seeds/003 compact (an :class:`~compactor.strategies._llm_compact.LLMCompact`, or any
    callable from role/content messages to its response) as a replay strategy: the summary is
    new text (no origin), the kept last messages are the history's own."""

    def __init__(self, compact: Any, name: str | None = None) -> None:
        self.compact = compact
        self.name = name or f"llm-compact({getattr(compact, 'model', 'model')})"

    def __call__(self, history: Sequence[Carried]) -> Shrunk:
        sent = [{"role": m.role, "content": m.content} for m in history]
        response = self.compact.compact(sent) if hasattr(self.compact, "compact") else None
        if response is None:
            response = self.compact(sent)
        if not response.get("compaction", {}).get("compacted", True):
            return Shrunk(tuple(history), compacted=False)
        out = response["messages"]
        kept = len(out) - 1
        summary = Carried(out[0]["role"], out[0]["content"])
        return Shrunk((summary, *(history[len(history) - kept :] if kept else ())))


class Registered:
    """Any strategy of :mod:`compactor.strategies._registry`, by name, on every turn at
    ``params.budget_chars`` with its own ``strategy_params`` (None: the lineup's, the
    registry's example where the peer's defaults do nothing).

    A message it returns verbatim or cut keeps its origin (a cut that keeps parts other than
    a prefix, anchor-keep's, carries the recorded spans it keeps, mapped back through the
    spans an earlier turn kept); a replaced one (a cleared tool result, a masked observation)
    is new text (no origin). A strategy that clears earlier messages changes the prefix sent
    before, which the replay's stable prefix shows (the provider's prompt cache is
    invalidated from the first changed message on).

    focus, given no ``focus`` of its own, is given at turn ``t`` the pending turn as it was
    known then: the last user message of the recorded ``m_0..m_t`` (never a later one), even
    when an earlier turn removed or cut it from the carried history.
    """

    def __init__(
        self, name: str, params: Params, strategy_params: dict[str, Any] | None = None
    ) -> None:
        self.strategy = get_strategy(name)
        if strategy_params is None:
            strategy_params = dict(self.strategy.lineup)
        self.strategy.validate(strategy_params)  # fail before the first turn
        self.params = params
        self.strategy_params = dict(strategy_params)
        self.name = name
        #: Per recorded message, the last user message's content up to it (None before any).
        self._pending: list[str | None] = []

    def prepare(self, recorded: Sequence[Carried]) -> None:
        """Note, for every turn, the last user message recorded up to it (the focus's pending
        turn); nothing of a later message is ever read at an earlier turn."""
        last: str | None = None
        self._pending = []
        for m in recorded:
            if m.role == "user":
                last = m.content
            self._pending.append(last)

    def __call__(self, history: Sequence[Carried]) -> list[Carried]:
        request = Request(
            tuple(Message(i, m.role, m.content, m.id, m.pin) for i, m in enumerate(history)),
            self.params,
        )
        outcome = self.strategy.apply(
            request, budget_chars=self.params.budget_chars, params=self._params_now(history)
        )
        out = []
        for m in outcome.messages:
            if m.kept == REMOVED:
                continue
            carried = history[m.index]
            if m.kept == VERBATIM:
                out.append(carried)
            elif m.kept != CUT or carried.origin is None:
                out.append(replace(carried, content=m.content or "", origin=None, spans=None))
            elif carried.spans is None and m.spans is None:  # a prefix of a prefix
                out.append(replace(carried, content=m.content or ""))
            else:
                outer = carried.spans or ((0, len(carried.content)),)
                spans = compose_spans(outer, m.kept_spans)
                out.append(replace(carried, content=m.content or "", spans=spans))
        return out

    def _params_now(self, history: Sequence[Carried]) -> dict[str, Any]:
        """The strategy's parameters at this turn: focus's pending turn added when it has none
        (the turn is the origin of the message just arrived, the history's last)."""
        if self.name != FOCUS or self.strategy_params.get("focus") is not None or not history:
            return self.strategy_params
        turn = history[-1].origin
        if turn is None or turn >= len(self._pending) or self._pending[turn] is None:
            return self.strategy_params
        return {**self.strategy_params, "focus": self._pending[turn]}


#: The strategies the command line offers, by name (the seed loop needs a compact strategy);
#: every name of the registry is offered too (:class:`Registered`).
STRATEGIES = (MEMORY_COMPACT, KEEP_LAST, DROP_OLDEST)


def build_strategy(
    name: str,
    params: Params,
    *,
    keep_last_messages: int | None = None,
    drop_tool_parts: bool = False,
    max_tokens_estimate: int | None = None,
    strategy_params: dict[str, Any] | None = None,
) -> Strategy:
    """One of :data:`STRATEGIES`: memory-compact with ``params``, keep-last within
    ``params.budget_chars``, or drop-oldest with its own options (without any, it is the
    registry's at the budget); or any registry strategy (:class:`Registered`) with
    ``strategy_params``. An old name (``trim``, ``seed-trim``) is read as its new one."""
    name = current_strategy_name(name)
    own = keep_last_messages is not None or drop_tool_parts or max_tokens_estimate is not None
    if name == MEMORY_COMPACT:
        return MemoryCompact(params)
    if name == KEEP_LAST:
        return KeepLast(params.budget_chars)
    if name == DROP_OLDEST and own:
        return ContextTrim(keep_last_messages, drop_tool_parts, max_tokens_estimate)
    if name in strategy_names():
        return Registered(name, params, strategy_params)
    known = ", ".join(dict.fromkeys((*STRATEGIES, *strategy_names())))
    raise ValueError(f"strategy must be one of {known}, not {name!r}")


def replay_request(
    request: Request,
    strategy: str | Strategy = MEMORY_COMPACT,
    *,
    policy: str = ALWAYS,
    facts: Iterable[Fact | tuple[str, Iterable[tuple[int, int, int]]]] = (),
    **options: Any,
) -> Replay:
    """:func:`replay` of a request's messages, ``budget_chars`` from its parameters; a
    strategy named in :data:`STRATEGIES` is built with them (``options`` go to drop-oldest)."""
    if isinstance(strategy, str):
        strategy = build_strategy(strategy, request.params, **options)
    return replay(
        request.messages,
        strategy,
        policy=policy,
        budget_chars=request.params.budget_chars,
        facts=facts,
    )
