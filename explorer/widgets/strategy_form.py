"""A registry strategy's own parameters as inputs, built from its :class:`Parameter` list: one
form for the Strategies page, the Replay page and the Corpus page.

Inputs start at the lineup's values (the registry's example where the peer's defaults do
nothing); a parameter the budget sets when not given (a trigger) starts empty. What the inputs
give is checked by the strategy, and its problems are shown by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from compactor.strategies import (
    DROP_OLDEST,
    MEMORY_COMPACT,
    SEMANTIC_DEDUPE,
    STRATEGIES,
    Parameter,
    RegisteredStrategy,
    StrategyParameterError,
)
from explorer.widgets import common

#: Strategies whose parameters other controls set (the sidebar, the trim's options, the
#: semantic threshold) or which have none: the form does not offer them.
ELSEWHERE = (MEMORY_COMPACT, DROP_OLDEST, SEMANTIC_DEDUPE)


def offered() -> list[str]:
    """The registry strategies with parameters of their own to set here, in its order."""
    return [n for n, s in STRATEGIES.items() if s.parameters and n not in ELSEWHERE]


def start_values(strategy: RegisteredStrategy) -> dict[str, Any]:
    """Each parameter's first value: the lineup's, else its default; None where the budget
    sets it."""
    return {
        p.name: None if p.from_budget else strategy.lineup.get(p.name, p.default)
        for p in strategy.parameters
    }


def params_from(strategy: RegisteredStrategy, values: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters to run with, from the inputs' ``values``: the lineup's, with every value
    that differs from its start (a list given as ``a, b``; an empty text is the default of an
    optional parameter). Raises StrategyParameterError naming a bad value."""
    start = start_values(strategy)
    params = dict(strategy.lineup)
    for p in strategy.parameters:
        value = _typed(p, values.get(p.name, start[p.name]))
        if value != start[p.name]:
            params[p.name] = value
        elif p.from_budget:
            params.pop(p.name, None)
    strategy.validate(params)
    return params


def _typed(p: Parameter, value: Any) -> Any:
    if p.kind == "names" and isinstance(value, str):
        text = value.strip()
        if not text:
            return None if p.nullable else []
        return [n.strip() for n in text.split(",") if n.strip()]
    if p.kind in ("str", "choice") and isinstance(value, str) and not value and p.nullable:
        return None
    if p.kind == "int" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def parameter_inputs(strategy: RegisteredStrategy, key: str) -> dict[str, Any] | None:
    """Draw an input per parameter (three to a row); the parameters to run with, or None when
    one is invalid (its problem shown)."""
    start = start_values(strategy)
    values: dict[str, Any] = {}
    columns = st.columns(3)
    for k, p in enumerate(strategy.parameters):
        with columns[k % 3]:
            values[p.name] = _input(p, start[p.name], f"{key}_{strategy.name}_{p.name}")
    try:
        return params_from(strategy, values)
    except StrategyParameterError as error:
        common.show_problems(f"{strategy.name} cannot take these parameters.", error.problems)
        return None


def _input(p: Parameter, start: Any, key: str) -> Any:
    help_ = p.description + (f"; empty: {p.from_budget}" if p.from_budget else "")
    if p.kind == "bool":
        return st.toggle(p.name, value=bool(start), key=key, help=help_)
    if p.kind in ("int", "float"):
        kind = int if p.kind == "int" else float
        low = None if p.minimum is None else kind(p.minimum)
        start = None if start is None else kind(start)
        step = 1 if p.kind == "int" else 0.05
        empty = p.from_budget is not None or p.nullable
        return st.number_input(
            p.name + (" (empty: not set)" if empty else ""),
            min_value=low,
            value=start,
            step=step,
            key=key,
            help=help_,
            placeholder="from the budget" if p.from_budget else "not set",
        )
    if p.kind == "choice" and not p.pattern:
        return st.selectbox(p.name, p.choices, index=p.choices.index(start), key=key, help=help_)
    shown = ", ".join(start) if isinstance(start, list) else "" if start is None else str(start)
    if p.kind == "names":
        help_ += "; names separated by commas" + ("; empty: the default" if p.nullable else "")
    return st.text_input(p.name, value=shown, key=key, help=help_)


def strategy_choice(key: str, label: str = "Strategy") -> tuple[str, dict[str, Any] | None]:
    """A strategy of :func:`offered` and its parameters' inputs; ``(name, params)``, params
    None when invalid."""
    names = offered()
    name = st.selectbox(
        label,
        names,
        key=f"{key}_strategy",
        format_func=lambda n: f"{n}: {STRATEGIES[n].title}",
    )
    strategy = STRATEGIES[name]
    st.caption(f"Source: {strategy.source.title} ({strategy.source.date}). {strategy.budget}")
    return name, parameter_inputs(strategy, key)
