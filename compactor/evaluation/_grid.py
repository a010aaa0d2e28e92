"""The grid an evaluation runs: every combination of chosen parameter values, each a grid point.

A grid point is a dict of the contract's parameters (:data:`compactor.contract.PARAMETERS`):
always the four that shape the output whatever the budget (``keep_last_n``, ``keep_roles``,
``duplicate_threshold``, ``max_message_chars``), each from the grid, else the base, else the
schema's default; and ``budget_chars`` only when the grid or the base names it. A grid point
without ``budget_chars`` is evaluated at the budgets :func:`~compactor.evaluation.evaluate`
is given, or at every budget point of the exact sweep; at one budget, it is a setting (what the
summary reports and the Corpus page can ship as a ``compaction.toml``).

>>> points = grid_points({"max_message_chars": 300}, {"keep_last_n": [2, 5]})
>>> [(p["keep_last_n"], p["max_message_chars"], p["keep_roles"]) for p in points]
[(2, 300, ['system']), (5, 300, ['system'])]
>>> parse_grid_option("keep_roles=system,system+user,none")
('keep_roles', [['system'], ['system', 'user'], []])
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from compactor.contract import DEFAULTS, MEMORY_COMPACT, PARAMETERS, ROLES
from compactor.errors import Problem, ProblemError, quoted
from compactor.input import errors_of

BUDGET = "budget_chars"
#: Which strategy a row is of: memory-compact at a grid point, or a baseline (SPEC part D),
#: whose rows are pseudo-points with no parameter (every parameter None).
STRATEGY = "strategy"
#: The parameters every grid point holds (all but the budget), in the schema's order.
GRID_PARAMETERS: tuple[str, ...] = tuple(name for name in PARAMETERS if name != BUDGET)
# Two short messages: a request to check one parameter value against the schema.
_PROBE = [{"role": "user", "content": "x"}, {"role": "user", "content": "y"}]


def grid_points(
    base: Mapping[str, Any] | None = None, grid: Mapping[str, Sequence[Any]] | None = None
) -> list[dict[str, Any]]:
    """Every combination of the ``grid`` values, in the schema's parameter order (the first
    parameter varies slowest), over the ``base`` values and the defaults.

    Raises :class:`~compactor.errors.ProblemError` naming each unknown parameter, empty or
    repeated value list and value the schema rejects (``grid.keep_last_n[1]: ...``).
    """
    base, grid = dict(base or {}), dict(grid or {})
    problems = [
        Problem(f"is not a parameter; the parameters are {', '.join(PARAMETERS)}", path=where)
        for where, name in [*((f"base.{n}", n) for n in base), *((f"grid.{n}", n) for n in grid)]
        if name not in PARAMETERS
    ]
    values: dict[str, list[Any]] = {}
    for name in PARAMETERS:
        if name in grid:
            given = grid[name]
            if isinstance(given, str | bytes) or not isinstance(given, Sequence):
                problems.append(Problem("must be a list of values", path=f"grid.{name}"))
                continue
            if not given:
                problems.append(Problem("must list at least one value", path=f"grid.{name}"))
                continue
            found = [_checked(name, v, f"grid.{name}[{k}]", problems) for k, v in enumerate(given)]
            seen: list[Any] = []
            for k, value in enumerate(found):
                if value in seen:
                    problems.append(Problem("is given twice", path=f"grid.{name}[{k}]"))
                seen.append(value)
            values[name] = found
        elif name in base:
            values[name] = [_checked(name, base[name], f"base.{name}", problems)]
        elif name != BUDGET:
            values[name] = [_normal(name, DEFAULTS[name])]
    if problems:
        raise ProblemError(problems)
    names = list(values)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values.values())]


def parse_grid_option(text: str) -> tuple[str, list[Any]]:
    """``NAME=V1,V2,...`` (the CLI's ``--grid``) as ``(name, values)``; the values are JSON
    numbers, and for ``keep_roles`` each value is roles joined by ``+`` (``none`` for no role).

    Raises :class:`~compactor.errors.ProblemError` for text that is not of that form; the
    values themselves are checked by :func:`grid_points`.
    """
    name, sign, listed = text.partition("=")
    name = name.strip()
    if not sign or not name:
        raise ProblemError(
            [Problem(f"{quoted(text)}: write NAME=V1,V2,... (e.g. keep_last_n=2,5)")]
        )
    if name not in PARAMETERS:
        raise ProblemError(
            [
                Problem(
                    f"{quoted(name)} is not a parameter; the parameters are {', '.join(PARAMETERS)}"
                )
            ]
        )
    parts = [part.strip() for part in listed.split(",")]
    if name == "keep_roles":
        return name, [[] if p in ("", "none") else p.split("+") for p in parts]
    values = []
    for part in parts:
        try:
            values.append(json.loads(part))
        except ValueError:
            raise ProblemError(
                [Problem(f"{name}: {quoted(part)} is not a number", path=f"grid.{name}")]
            ) from None
    return name, values


def grid_point_key(point: Mapping[str, Any]) -> tuple[Any, ...]:
    """A grid point (or a row, or a summary) as a hashable key: its strategy (memory-compact
    when not named, as for a grid's points and rows written without outcomes) and its four grid
    parameters, ``keep_roles`` as a tuple."""
    strategy = point.get(STRATEGY) or MEMORY_COMPACT
    return (strategy, *(_hashable(point[name]) for name in GRID_PARAMETERS))


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value


def _checked(name: str, value: Any, where: str, problems: list[Problem]) -> Any:
    """``value`` as the request carries it, or None with its problems added (at ``where``)."""
    request = {"messages": _PROBE, BUDGET: 100, name: value}
    found = errors_of(request)
    for problem in found:
        tail = problem.path.removeprefix(name) if problem.path else ""
        problems.append(Problem(problem.message, path=where + tail))
    return None if found else _normal(name, value)


def _normal(name: str, value: Any) -> Any:
    """One spelling per value: whole numbers as ``int``, the threshold as ``float``, roles as a
    list in the contract's role order without repeats."""
    if name == "keep_roles":
        return [role for role in ROLES if role in value]
    if name == "duplicate_threshold":
        return float(value)
    return int(value)
