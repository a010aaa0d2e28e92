"""Where the search looks: for every strategy that keeps to a budget, the values of its own
parameters worth trying (the registry says what a parameter takes; this says which of those
values a tuner should try, a range a person would give).

A dimension is named by its parameter; Optuna's name for it is ``strategy.parameter`` (two
strategies' parameters of one name are different knobs). ``keep_roles`` is searched as one of a
few role sets written ``system+user`` (Optuna's choices are plain values, not lists).

>>> [d.name for d in SPACES["anchor-keep"]]
['unit_chars', 'fill_recent', 'keep_last_n', 'keep_roles']
>>> params_of("anchor-keep", {"anchor-keep.keep_roles": "system+user"})
{'keep_roles': ['system', 'user']}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from compactor.contract import MEMORY_COMPACT
from compactor.strategies import FOCUS, KEEP_LAST, get_strategy, strategy_available

#: The role sets tried for ``keep_roles`` (``none``: no role protected).
ROLE_SETS = ("system", "system+user", "none")


@dataclass(frozen=True)
class Dimension:
    """One parameter's searched values: whole numbers or numbers from ``low`` to ``high``
    (``log``: on a log scale), or one of ``choices``."""

    name: str
    kind: str  # "int", "float" or "choice"
    low: float = 0
    high: float = 0
    log: bool = False
    choices: tuple[Any, ...] = ()

    def suggest(self, trial: Any, strategy: str) -> Any:
        key = f"{strategy}.{self.name}"
        if self.kind == "int":
            return trial.suggest_int(key, int(self.low), int(self.high), log=self.log)
        if self.kind == "float":
            return trial.suggest_float(key, self.low, self.high, log=self.log)
        return trial.suggest_categorical(key, list(self.choices))


def _roles() -> Dimension:
    return Dimension("keep_roles", "choice", choices=ROLE_SETS)


#: Every searched strategy's dimensions, in the order the search offers the strategies. A
#: strategy without a dimension (keep-last) is one setting. Those left out do not keep to a
#: budget by themselves (the clearing peers, observation masking, the AI SDK's prune), need a
#: provider (LLM compact) or run for seconds per conversation (semantic dedupe's embeddings).
SPACES: Mapping[str, tuple[Dimension, ...]] = MappingProxyType(
    {
        MEMORY_COMPACT: (
            Dimension("keep_last_n", "int", 0, 12),
            _roles(),
            Dimension("duplicate_threshold", "float", 0.5, 1.0),
            Dimension("max_message_chars", "int", 80, 4000, log=True),
        ),
        KEEP_LAST: (),
        "drop-oldest": (
            Dimension("keepLastMessages", "choice", choices=(None, 2, 4, 8, 16)),
            Dimension("dropToolParts", "choice", choices=(False, True)),
        ),
        "anchor-keep": (
            Dimension("unit_chars", "int", 40, 640, log=True),
            Dimension("fill_recent", "choice", choices=(True, False)),
            Dimension("keep_last_n", "int", 0, 8),
            _roles(),
        ),
        FOCUS: (
            Dimension("part_chars", "int", 200, 4000, log=True),
            Dimension("recent_share", "float", 0.0, 1.0),
            Dimension("query_messages", "int", 1, 6),
            Dimension("keep_last_n", "int", 0, 8),
        ),
        "clear-then-fit": (
            Dimension("keep", "int", 0, 8),
            Dimension("clear_tool_inputs", "choice", choices=(False, True)),
            Dimension("then", "choice", choices=(KEEP_LAST, MEMORY_COMPACT)),
        ),
    }
)


def searched(names: Sequence[str] | None = None) -> tuple[str, ...]:
    """The strategies a search covers: ``names`` (each must have a space), else every one of
    :data:`SPACES` that runs here (focus needs its extra)."""
    if names is None:
        return tuple(n for n in SPACES if strategy_available(n))
    unknown = [n for n in names if n not in SPACES]
    if unknown:
        raise ValueError(
            f"no search space for {', '.join(unknown)}; the searched strategies are "
            f"{', '.join(SPACES)}"
        )
    return tuple(names)


def params_of(strategy: str, chosen: Mapping[str, Any]) -> dict[str, Any]:
    """The strategy's own parameters from an Optuna trial's ``strategy.parameter`` values
    (a role set as a list of roles), checked by the registry."""
    out: dict[str, Any] = {}
    prefix = f"{strategy}."
    for key, value in chosen.items():
        if not key.startswith(prefix):
            continue
        name = key[len(prefix) :]
        if name == "keep_roles":
            value = [] if value == "none" else value.split("+")
        if value is not None:
            out[name] = value
    get_strategy(strategy).validate(out)
    return out


def suggest(trial: Any, strategies: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """A strategy and its parameters, as ``trial`` suggests them."""
    strategy = trial.suggest_categorical("strategy", list(strategies))
    for dimension in SPACES[strategy]:
        dimension.suggest(trial, strategy)
    return strategy, params_of(strategy, trial.params)
