"""What the registry knows of a strategy: its name, title and source, its parameters (the
peer's own names, types and defaults) with their validation, and its ``apply``.

>>> keep = Parameter("keep", "int", 3, "tool uses kept", minimum=0)
>>> keep.parse("5"), keep.check(2, "x.keep")
(5, 2)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from compactor.errors import Problem, ProblemError, excerpt, quoted
from compactor.model import Request
from compactor.strategies._returned import StrategyResult
from compactor.text import ENCODINGS

#: The kinds of parameter values: "names" is a list of strings (given as ``a,b`` on a command
#: line), "choice" one of ``choices`` (or, with ``pattern``, a text the pattern matches).
KINDS = ("int", "float", "bool", "str", "names", "choice")
_TRUE, _FALSE = {"true", "1", "yes"}, {"false", "0", "no"}


class StrategyParameterError(ProblemError):
    """Parameters a strategy cannot take; each problem's path is ``strategy.parameter``."""


class StrategyUnavailable(ProblemError):
    """A strategy that cannot run here: the optional extra it needs is not installed; the
    problem names the extra and the command that installs it."""


@dataclass(frozen=True)
class Parameter:
    """One parameter, named as the peer names it."""

    name: str
    kind: str  # one of KINDS
    default: Any
    description: str
    minimum: float | None = None
    #: The values a "choice" takes; for a "str", the only texts it takes (a text field); for
    #: "names", the names each item may be.
    choices: tuple[str, ...] = ()
    #: For a "choice" that also takes texts like ``before-last-3-messages``: a regex they match.
    pattern: str | None = None
    nullable: bool = False  # None is a value (the default of an optional parameter)
    #: How the character budget sets it when it is not given (the lineup's "same budget"), in
    #: words; None when the budget never sets it.
    from_budget: str | None = None

    def check(self, value: Any, where: str) -> Any:
        """``value`` when it is one this parameter takes; else StrategyParameterError."""
        problem = self._problem(value)
        if problem:
            raise StrategyParameterError([Problem(problem, path=where)])
        if self.kind == "names" and self.choices and value is not None:
            known = ", ".join(map(excerpt, self.choices))
            unknown = [
                Problem(f"must be one of {known}, not {excerpt(name)}", path=f"{where}[{i}]")
                for i, name in enumerate(value)
                if name not in self.choices
            ]
            if unknown:
                raise StrategyParameterError(unknown)
        return list(value) if self.kind == "names" and value is not None else value

    def parse(self, text: str) -> Any:
        """The value a command line gives as text (``5``, ``true``, ``a,b``, ``none``; an empty
        text is no names for a list, none for another optional parameter)."""
        empty = {"none", "null"} | ({""} if self.kind != "names" else set())
        if self.nullable and text.lower() in empty:
            return None
        if self.kind == "int":
            try:
                return int(text)
            except ValueError:
                return text
        if self.kind == "float":
            try:
                return float(text)
            except ValueError:
                return text
        if self.kind == "bool":
            low = text.lower()
            return True if low in _TRUE else False if low in _FALSE else text
        if self.kind == "names":
            return [n for n in text.split(",") if n]
        return text

    def _problem(self, value: Any) -> str | None:
        if value is None:
            return None if self.nullable else f"must be {self._expects()}, not none"
        if self.kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            return f"must be {self._expects()}, not {quoted(value)}"
        if self.kind == "float" and (isinstance(value, bool) or not isinstance(value, int | float)):
            return f"must be {self._expects()}, not {quoted(value)}"
        if self.kind == "bool" and not isinstance(value, bool):
            return f"must be true or false, not {quoted(value)}"
        if self.kind == "str" and not isinstance(value, str):
            return f"must be a text, not {quoted(value)}"
        if self.kind == "str" and self.choices and value not in self.choices:
            return f"must be {self._expects()}, not {quoted(value)}"
        if self.kind == "names" and (
            isinstance(value, str)
            or not isinstance(value, Sequence)
            or not all(isinstance(v, str) for v in value)
        ):
            return f"must be a list of names, not {quoted(value)}"
        if self.kind == "choice":
            ok = isinstance(value, str) and (
                value in self.choices
                or (self.pattern is not None and re.fullmatch(self.pattern, value) is not None)
            )
            if not ok:
                return f"must be {self._expects()}, not {quoted(value)}"
        if self.minimum is not None and self.kind in {"int", "float"} and value < self.minimum:
            return f"must be at least {self.minimum:g}, not {value}"
        return None

    def _expects(self) -> str:
        if self.choices and self.kind != "names":
            options = [repr(c) for c in self.choices]
            if self.pattern:
                options.append(f"a text matching {self.pattern}")
            return "one of " + ", ".join(options)
        return {"int": "a whole number", "float": "a number"}.get(self.kind, self.kind)


def encoding_parameter(description: str) -> Parameter:
    """The ``encoding`` a strategy counts tokens in instead of its estimate: one of
    :data:`~compactor.text.ENCODINGS`, or none (the estimate)."""
    return Parameter("encoding", "str", None, description, choices=ENCODINGS, nullable=True)


@dataclass(frozen=True)
class Source:
    """Where the strategy is published: the page or file, its address, and its date."""

    title: str
    url: str
    date: str


#: ``run(request, budget_chars, params, given)``: ``params`` complete (defaults filled in),
#: ``given`` the names the caller set (the others may follow the budget).
Runner = Callable[[Request, int, Mapping[str, Any], frozenset[str]], StrategyResult]


@dataclass(frozen=True)
class RegisteredStrategy:
    """A strategy the lineup, the replay, the evaluation and ``shrink`` can run by name."""

    name: str  # the stable key: "anthropic-clear-tool-uses"
    title: str
    source: Source
    parameters: tuple[Parameter, ...]
    run: Runner = field(repr=False)
    #: How the character budget maps to the strategy's own trigger, in words.
    budget: str = ""
    #: The optional package or provider it needs ("langchain-core"), None when it needs none.
    needs: str | None = None
    #: Parameters the lineup gives it when the caller gives none (a documented example where
    #: the peer's defaults do nothing).
    lineup: Mapping[str, Any] = field(default_factory=dict)
    #: Whether it may substitute content (a placeholder) rather than only cut or remove.
    replaces: bool = False

    def parameter(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        raise StrategyParameterError([self._unknown(name)])

    @property
    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.parameters}

    def validate(self, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every parameter: the given ones checked, the others at their defaults. Raises
        :class:`StrategyParameterError` naming each unknown or invalid parameter."""
        params = dict(params or {})
        problems = [self._unknown(n) for n in params if n not in self.defaults]
        out = self.defaults
        for p in self.parameters:
            if p.name in params:
                try:
                    out[p.name] = p.check(params[p.name], f"{self.name}.{p.name}")
                except StrategyParameterError as error:
                    problems += error.problems
        if problems:
            raise StrategyParameterError(problems)
        return out

    def parse(self, pairs: Sequence[str]) -> dict[str, Any]:
        """``KEY=VALUE`` texts (a command line's) as parameters, checked."""
        params: dict[str, Any] = {}
        problems = []
        for pair in pairs:
            key, sep, text = pair.partition("=")
            if not sep:
                problems.append(Problem(f"must be KEY=VALUE, not {quoted(pair)}", path=self.name))
            elif key not in self.defaults:
                problems.append(self._unknown(key))
            else:
                params[key] = self.parameter(key).parse(text)
        if problems:
            raise StrategyParameterError(problems)
        self.validate(params)
        return params

    def apply(
        self,
        request: Request,
        *,
        budget_chars: int | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> StrategyResult:
        """Run it on ``request`` at ``budget_chars`` (default: the request's own budget)."""
        budget = request.params.budget_chars if budget_chars is None else budget_chars
        given = dict(params or {})
        return self.run(request, budget, self.validate(given), frozenset(given))

    def _unknown(self, name: str) -> Problem:
        known = ", ".join(p.name for p in self.parameters) or "none"
        return Problem(
            f"is not a parameter of {self.name}; its parameters are {known}",
            path=f"{self.name}.{name}",
        )
