"""Every strategy by its stable name: the lineup, the replay, the corpus evaluation and
``shrink`` look them up here.

>>> from compactor import validate
>>> from compactor.samples import load_sample
>>> strategy = get("keep-last")
>>> result = strategy.apply(validate(load_sample("dispatcher").request), budget_chars=300)
>>> result.kept, result.budget_met
((2, 3, 4, 5), True)

A strategy of our own is added with :func:`register` (its module defines a
:class:`~compactor.strategies._spec.RegisteredStrategy`, and this module registers it).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from compactor.contract import ROLES
from compactor.errors import Problem
from compactor.input import validate
from compactor.model import Request
from compactor.strategies import (
    _anchor_keep as anchor_keep,
)
from compactor.strategies import (
    _clear_then as clear_then,
)
from compactor.strategies import (
    _context_editing as context_editing,
)
from compactor.strategies import (
    _first_lineup as first_lineup,
)
from compactor.strategies import (
    _focus as focus,
)
from compactor.strategies import (
    _observation_masking as observation_masking,
)
from compactor.strategies import (
    _openai_truncation as openai_truncation,
)
from compactor.strategies import (
    _prune_messages as prune_messages,
)
from compactor.strategies._langchain_trim import langchain_available
from compactor.strategies._returned import StrategyResult
from compactor.strategies._semantic_dedupe import DEFAULT_THRESHOLD
from compactor.strategies._spec import (
    Parameter,
    RegisteredStrategy,
    Source,
    StrategyParameterError,
    StrategyUnavailable,
    encoding_parameter,
)
from compactor.text import semantic_available
from compactor.wording import install_command

_ENCODING = encoding_parameter(
    "count tokens with this tokenizer (o200k_base, cl100k_base; the tokens extra) instead of "
    "the ceil(characters / 4) estimate"
)


def _ids(request: Request) -> list[str | None]:
    return [m.id for m in request.messages]


def _memory_compact(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    # a parameter given as None (a command line's "none") is the request's own, as one not given
    overrides = {k: v for k, v in params.items() if k in given and v is not None}
    if overrides or budget != request.params.budget_chars:
        request = validate(
            {**request.to_dict(), **overrides, "budget_chars": budget}, limits=request.limits
        )
    return first_lineup.memory_compact(request)


def _keep_last(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    return first_lineup.keep_last(request.roles, request.contents, budget, _ids(request))


def _drop_oldest(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    return first_lineup.drop_oldest(
        request.roles,
        request.contents,
        budget,
        params["keepLastMessages"],
        params["dropToolParts"],
        params["encoding"],
        _ids(request),
    )


def _langchain_trim(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    return first_lineup.langchain(request.roles, request.contents, budget, _ids(request))


def _anchor_keep(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    # keep_last_n and keep_roles at None are the request's own
    return anchor_keep.lineup_result(
        request, budget, {k: v for k, v in params.items() if v is not None}
    )


def _semantic(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    if budget != request.params.budget_chars:
        request = validate({**request.to_dict(), "budget_chars": budget}, limits=request.limits)
    return first_lineup.semantic_memory_compact(request, params["semantic_threshold"])


_SPEC = Source(
    "memory-compact specification (the shared contract, SPEC part A; docs/spec.md)",
    "docs/spec.md",
    "this project",
)
_CONTRACT = (
    Parameter("keep_last_n", "int", None, "the request's own unless given", 0, nullable=True),
    Parameter(
        "keep_roles", "names", None, "the request's own unless given", choices=ROLES, nullable=True
    ),
    Parameter(
        "duplicate_threshold", "float", None, "the request's own unless given", 0, nullable=True
    ),
    Parameter("max_message_chars", "int", None, "the request's own unless given", 1, nullable=True),
)

_STRATEGIES: dict[str, RegisteredStrategy] = {}
#: Every registered strategy by name, in the order the lineup shows them (read-only).
STRATEGIES: Mapping[str, RegisteredStrategy] = MappingProxyType(_STRATEGIES)
#: Names a strategy was known by before it was renamed (docs/glossary.md), each with its name
#: now: the old name still works wherever a strategy is named (:func:`get`, a
#: ``compaction.toml``, ``--strategy``), and the one who used it is told the new name.
OLD_NAMES: Mapping[str, str] = MappingProxyType(
    {"seed-trim": first_lineup.DROP_OLDEST, "trim": first_lineup.DROP_OLDEST}
)


def register(strategy: RegisteredStrategy) -> RegisteredStrategy:
    """Add ``strategy`` under its name; a name is registered once."""
    if strategy.name in _STRATEGIES:
        raise ValueError(f"a strategy named {strategy.name!r} is already registered")
    _STRATEGIES[strategy.name] = strategy
    return strategy


def current_name(name: str) -> str:
    """``name`` as the registry spells it now: an old name (:data:`OLD_NAMES`) becomes its new
    one, any other name stays as it is."""
    return OLD_NAMES.get(name, name) if isinstance(name, str) else name


def renamed_notice(name: str) -> str | None:
    """What to tell someone who used the old name ``name``, or None for a current name.

    >>> renamed_notice("seed-trim")
    'the strategy "seed-trim" is now called "drop-oldest" (the old name still works)'
    """
    new = current_name(name)
    if new == name:
        return None
    return f'the strategy "{name}" is now called "{new}" (the old name still works)'


def get(name: str) -> RegisteredStrategy:
    """The strategy registered as ``name``.

    Args:
        name: a registry name, or a name it was once known by (:data:`OLD_NAMES`).

    Returns:
        The registered strategy: its parameters, its source, and how it spends the budget.

    Raises:
        StrategyParameterError: no strategy has that name; the problem lists the names.

    Example:
        >>> from compactor import get_strategy
        >>> get_strategy("seed-trim").name
        'drop-oldest'
    """
    try:
        return _STRATEGIES[current_name(name)]
    except KeyError:
        known = ", ".join(_STRATEGIES)
        raise StrategyParameterError(
            [Problem(f"is not a strategy; the strategies are {known}", path=name)]
        ) from None


def names() -> tuple[str, ...]:
    """Every registered strategy's name, in the order the lineup shows them.

    Returns:
        The names, memory-compact first.

    Example:
        >>> from compactor import strategy_names
        >>> strategy_names()[:3]
        ('memory-compact', 'keep-last', 'drop-oldest')
    """
    return tuple(_STRATEGIES)


#: The extra a strategy needs, and how to tell whether it is installed (without importing it).
_EXTRAS = {
    first_lineup.LANGCHAIN: ("langchain", langchain_available),
    first_lineup.SEMANTIC_DEDUPE: ("semantic", semantic_available),
    focus.KEY: ("focus", focus.focus_available),
}


def available(name: str) -> bool:
    """Whether the strategy registered as ``name`` runs here: LangChain's trim needs
    langchain-core, semantic dedupe the semantic extra, focus the focus extra; the others need
    nothing."""
    return unavailable_problem(name) is None


def unavailable_problem(name: str) -> Problem | None:
    """None when the strategy registered as ``name`` runs here; else the problem that says
    which extra it needs and the command that installs it (its path is the strategy's name)."""
    strategy = get(name)
    needs = _EXTRAS.get(strategy.name)
    if needs is None or needs[1]():
        return None
    extra = needs[0]
    return Problem(
        f"needs the {extra} extra; install it with: {install_command(extra)}", path=strategy.name
    )


def require_available(name: str) -> None:
    """Nothing when the strategy registered as ``name`` runs here; else
    :class:`StrategyUnavailable` naming the extra to install."""
    problem = unavailable_problem(name)
    if problem is not None:
        raise StrategyUnavailable([problem])


def apply(
    name: str,
    request: Request,
    *,
    budget_chars: int | None = None,
    params: Mapping[str, Any] | None = None,
) -> StrategyResult:
    """Shrink ``request`` with the strategy registered as ``name``.

    Args:
        name: the strategy's registry name (an old name works too).
        request: the conversation, as :func:`~compactor.validate` returns it.
        budget_chars: the budget (the request's own when omitted).
        params: the strategy's own parameters (its defaults for any not given).

    Returns:
        What the strategy returned of each message (kept, cut, removed or replaced, with its
        text), its output size and whether it met the budget.

    Raises:
        StrategyParameterError: an unknown strategy, or a parameter it does not take or
            cannot read (each named with its path).
        StrategyUnavailable: the strategy needs an extra that is not installed (langchain-trim
            the langchain extra, semantic-dedupe the semantic extra); it names the command.

    Example:
        >>> from compactor import apply_strategy, validate
        >>> request = validate({"messages": [{"role": "user", "content": "Hi. " * 40},
        ...     {"role": "assistant", "content": "Hello."}], "budget_chars": 100})
        >>> [m.kept for m in apply_strategy("keep-last", request).messages]
        ['removed', 'verbatim']
    """
    require_available(name)
    return get(name).apply(request, budget_chars=budget_chars, params=params)


register(
    RegisteredStrategy(
        first_lineup.MEMORY_COMPACT,
        first_lineup.MEMORY_COMPACT,
        _SPEC,
        _CONTRACT,
        _memory_compact,
        budget="budget_chars is the budget; the other parameters are the request's own unless "
        "given",
    )
)
register(
    RegisteredStrategy(
        first_lineup.KEEP_LAST,
        "keep the last N",
        Source("the baseline of every chat application", "", "n/a"),
        (),
        _keep_last,
        budget="N is the most last messages whose characters fit the budget",
    )
)
register(
    RegisteredStrategy(
        first_lineup.DROP_OLDEST,
        "drop-oldest (recency trim, token estimate)",
        Source("seeds/003 trim (compactor/strategies/_context_trim.py)", "seeds/003", "2025"),
        (
            Parameter("keepLastMessages", "int", None, "keep only the last N", 0, nullable=True),
            Parameter("dropToolParts", "bool", False, "remove tool calls and results"),
            _ENCODING,
        ),
        _drop_oldest,
        budget="maxTokensEstimate = ceil(budget_chars / 4)",
    )
)
register(
    RegisteredStrategy(
        first_lineup.LANGCHAIN,
        "LangChain trim_messages",
        Source(
            "langchain_core.messages.utils.trim_messages",
            "https://python.langchain.com/api_reference/core/messages/"
            "langchain_core.messages.utils.trim_messages.html",
            "langchain-core 0.3/1.x (2025)",
        ),
        (),
        _langchain_trim,
        budget="max_tokens = budget_chars with a character counter, strategy='last', "
        "include_system=True",
        needs="langchain-core",
    )
)
register(
    RegisteredStrategy(
        first_lineup.SEMANTIC_DEDUPE,
        "memory-compact, semantic dedupe",
        _SPEC,
        (Parameter("semantic_threshold", "float", DEFAULT_THRESHOLD, "cosine threshold", 0),),
        _semantic,
        budget="as memory-compact",
        needs="the semantic extra",
    )
)

# The strategies other teams ship, each from its own published documentation.
register(context_editing.ANTHROPIC_STRATEGY)
register(context_editing.LANGCHAIN_STRATEGY)
# What a platform does with it: clear, then fit the budget with a second strategy.
register(clear_then.STRATEGY)
register(observation_masking.STRATEGY)
register(prune_messages.STRATEGY)
register(openai_truncation.STRATEGY)

# Ours: the units that hold salient terms, within the budget, then recent context.
register(
    RegisteredStrategy(
        anchor_keep.KEY,
        "anchor-keep (salient terms, then recent context)",
        Source(
            "this project: compactor/strategies/_anchor_keep.py (issue 27)",
            "compactor/strategies/_anchor_keep.py",
            "this project",
        ),
        (
            Parameter(
                "unit_chars",
                "int",
                anchor_keep.PARAMETERS["unit_chars"],
                "how long a unit (a line, or a sentence or words of a long line) may be",
                1,
            ),
            Parameter(
                "fill_recent",
                "bool",
                anchor_keep.PARAMETERS["fill_recent"],
                "spend what is left on the most recent messages",
            ),
            Parameter(
                "focus",
                "str",
                None,
                "units matching this text's terms rank first (the focus extra; none: no focus)",
                nullable=True,
            ),
            *_CONTRACT[:2],
        ),
        _anchor_keep,
        budget="budget_chars is the budget; keep_last_n and keep_roles are the request's own "
        "unless given",
    )
)

# Ours: what the pending turn is about (BM25), within the budget, then recent context.
register(focus.STRATEGY)
