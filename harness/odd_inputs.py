"""Odd inputs for the surfaces a caller reaches (issue 34): hypothesis strategies for three
families, and the rule they are held to. The tests run a few hundred cases
(tests/compactor/test_odd_inputs.py); ``python -m bench.fuzz_inputs`` runs thousands and prints
the outcomes by kind.

- **messages**: conversations of odd shape through ``shrink`` (roles, types, contents, tool
  calls and LangChain-style dicts holding lists, objects, NaN, tuple keys, sets, bytes, long
  integers and deep nesting), with a setting of memory-compact or another strategy;
- **settings**: ``compaction.toml`` texts (odd keys and values, a byte order mark, TOML that
  breaks) through ``setting_from_toml``, and dicts through ``Setting.from_dict``;
- **params**: odd parameters, as values and as command-line texts, for every registered
  strategy, through ``apply_strategy`` on a small valid request.

The rule: each call returns, or raises one of the project's errors (:class:`ProblemError` and
its subclasses: FormatError, InvalidRequest, SettingError, ShrinkError, StrategyParameterError,
StrategyUnavailable; :class:`IntegrationUnavailable` for a missing extra). Any other exception
is a crash, named with its type.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from compactor import apply_strategy, shrink, strategy_names, validate
from compactor.errors import IntegrationUnavailable, ProblemError
from compactor.strategies import STRATEGIES, Setting, get_strategy, setting_from_toml

FAMILIES = ("messages", "settings", "params")
OK = "ok"


def outcome(call: Callable[[], Any]) -> str:
    """``"ok"``, the name of the project error ``call`` raised, or ``"CRASH TypeName: ..."``."""
    try:
        call()
    except (ProblemError, IntegrationUnavailable) as error:
        return type(error).__name__
    except RecursionError:
        return "CRASH RecursionError"
    except Exception as error:  # what the rule forbids: named, for the report
        return f"CRASH {type(error).__name__}: {str(error)[:120]}"
    return OK


def crashed(result: str) -> bool:
    return result.startswith("CRASH")


def _nested(levels: int) -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = {"a": value}
    return value


#: Values only Python can hold, beside JSON's own: made when drawn (hypothesis shows a
#: strategy's elements, and a 5,000-digit integer or 3,000 levels cannot be shown).
_PYTHON_ONLY: list[Callable[[], Any]] = [
    lambda: math.nan,
    lambda: math.inf,
    lambda: -math.inf,
    lambda: 10**5000,
    lambda: (1, 2),
    lambda: {1, 2},
    lambda: b"bytes",
    lambda: {(1, 2): "tuple key"},
    lambda: {1: "int key"},
    lambda: _nested(3000),
    lambda: "\ud800",
    lambda: object(),
]
PYTHON_ONLY = st.integers(0, len(_PYTHON_ONLY) - 1).map(lambda i: _PYTHON_ONLY[i]())
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["user", "assistant", "system", "tool", "human", "ai", "message"]),
)
JSON_ISH = st.recursive(
    st.one_of(SCALARS, PYTHON_ONLY),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
LONG = "Where is parcel DE-4471? It left Hamburg on Monday. " * 6
TEXT = st.one_of(st.just(LONG), st.text(max_size=60), JSON_ISH)


@st.composite
def _message(draw: st.DrawFn) -> Any:
    """One message of some format, with odd values in some of its fields."""
    shape = draw(st.sampled_from(["chat", "anthropic", "responses", "langchain", "odd"]))
    odd = draw(st.one_of(st.none(), JSON_ISH))
    if shape == "chat":
        message: dict[Any, Any] = {
            "role": draw(st.one_of(SCALARS, JSON_ISH)),
            "content": draw(TEXT),
        }
        if draw(st.booleans()):
            arguments = draw(st.one_of(JSON_ISH, st.text(max_size=20)))
            function = {"name": draw(st.one_of(st.just("f"), SCALARS)), "arguments": arguments}
            message["tool_calls"] = [{"id": "c1", "type": "function", "function": function}]
    elif shape == "anthropic":
        block = draw(
            st.sampled_from(
                [
                    {"type": "text", "text": draw(TEXT)},
                    {"type": "tool_use", "id": "c1", "name": "f", "input": draw(JSON_ISH)},
                    {"type": "tool_result", "tool_use_id": "c1", "content": draw(TEXT)},
                    {"type": draw(JSON_ISH)},
                ]
            )
        )
        message = {"role": draw(st.sampled_from(["user", "assistant"])), "content": [block]}
    elif shape == "responses":
        message = draw(
            st.sampled_from(
                [
                    {"type": "message", "role": "user", "content": draw(TEXT)},
                    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": odd},
                    {"type": "function_call_output", "call_id": "c1", "output": draw(TEXT)},
                    {"type": draw(JSON_ISH), "role": "user", "content": "hi"},
                ]
            )
        )
    elif shape == "langchain":
        data = {"content": draw(TEXT)}
        if draw(st.booleans()):
            data[draw(st.sampled_from(["tool_calls", "additional_kwargs", "id", "name"]))] = odd
        message = {
            "type": draw(st.one_of(st.sampled_from(["human", "ai", "remove"]), SCALARS)),
            "data": data,
        }
    else:
        message = draw(JSON_ISH)
    return message


SETTING_FOR_MESSAGES = st.one_of(
    st.just({"budget_chars": 200}),
    st.builds(
        lambda name, budget: {"strategy": name, "budget_chars": budget},
        st.sampled_from(strategy_names()),
        st.integers(100, 2000),
    ),
)


@st.composite
def messages_case(draw: st.DrawFn) -> Callable[[], Any]:
    """A call of ``shrink`` on an odd conversation (a list, or its envelope)."""
    messages = draw(st.lists(_message(), min_size=0, max_size=5))
    if draw(st.booleans()):  # a valid pair around it, so the odd part is reached
        messages = [{"role": "user", "content": LONG}, *messages, {"role": "user", "content": "ok"}]
    data: Any = messages
    if draw(st.integers(0, 5)) == 0:
        data = {"messages": messages, "budget_chars": draw(SCALARS)}
    setting = draw(SETTING_FOR_MESSAGES)
    return lambda: shrink(data, setting)


_KEYS = ["name", "note", "strategy", "budget_chars", "budget_tokens", "encoding", "params", "x"]
_TOML_VALUES = st.one_of(
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(['"memory-compact"', '"keep-last"', '"semantic-dedupe"', '"bogus"']),
    st.sampled_from(["nan", "inf", "-inf", "1e400", "true", "[]", "[1, 2]", '["alien"]', "{}"]),
    st.sampled_from(['"o200k_base"', '"cl100k_base"', "1979-05-27", '"\\ud800"', "'''\n'''"]),
    st.text(max_size=12).map(lambda t: '"' + t.replace("\\", "").replace('"', "") + '"'),
)
_PARAM_KEYS = sorted({p.name for s in STRATEGIES.values() for p in s.parameters} | {"x"})


def _toml(value: Any) -> str:
    """A TOML value for ``value`` (a string, number, boolean or a list of them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_toml, value)) + "]"
    return str(value)


def _good_value(parameter: Any) -> Any:
    if parameter.choices:
        return list(parameter.choices[:1]) if parameter.kind == "names" else parameter.choices[0]
    return {"int": 3, "float": 0.5, "bool": True, "names": ["read"], "str": "x"}[parameter.kind]


@st.composite
def settings_case(draw: st.DrawFn) -> Callable[[], Any]:
    """A call of ``setting_from_toml`` on an odd file (most of it a good setting, then a few
    odd lines), or of ``Setting.from_dict`` on an odd dict."""
    if draw(st.integers(0, 3)):
        name = draw(st.sampled_from(strategy_names()))
        budget = draw(
            st.sampled_from(["budget_chars = 900", 'budget_tokens = 300\nencoding = "cl100k_base"'])
        )
        lines = [f'strategy = "{name}"', budget]
        odd_top = draw(st.lists(st.sampled_from(_KEYS[:-2]), max_size=2))
        lines += [f"{k} = {draw(_TOML_VALUES)}" for k in odd_top]
        parameters = get_strategy(name).parameters
        chosen = draw(st.lists(st.sampled_from(parameters), max_size=3)) if parameters else []
        body = [f"{p.name} = {_toml(_good_value(p))}" for p in chosen]
        odd_keys = draw(st.lists(st.sampled_from([p.name for p in parameters] + ["x"]), max_size=2))
        body += [f"{k} = {draw(_TOML_VALUES)}" for k in odd_keys]
        if body:
            lines += ["", "[params]", *body]
        text = "\n".join(lines) + "\n"
        text = draw(st.sampled_from(["", "\ufeff"])) + text + draw(st.sampled_from(["", "", "["]))
        if draw(st.integers(0, 9)) == 0:
            text = draw(st.text(max_size=80))
        return lambda: setting_from_toml(text)
    data = draw(
        st.one_of(
            st.dictionaries(st.sampled_from(_KEYS), st.one_of(SCALARS, JSON_ISH), max_size=5),
            JSON_ISH,
        )
    )
    return lambda: Setting.from_dict(data)


REQUEST = validate(
    {
        "messages": [
            {"role": "system", "content": "You are a dispatcher."},
            {"role": "user", "content": LONG},
            {"role": "assistant", "content": 'Looking.\n\n[tool call track id=c1] {"id": 1}'},
            {"role": "tool", "content": "In Hamburg.", "id": "c1"},
            {"role": "user", "content": "Book the return leg for Friday."},
        ],
        "budget_chars": 300,
    }
)


#: Parameter texts at the edges: none, an unknown encoding or role, more last messages than
#: a conversation holds, numbers JSON or a strategy cannot take.
PARAM_TEXTS = st.sampled_from(
    [
        "none",
        "bogus",
        "o200k_base",
        "before-last-99-messages",
        "before-last-0-messages",
        "before-last-message",
        "alien",
        "system,alien",
        "-1",
        "0",
        "1e400",
        "nan",
        "99999999999999999999",
    ]
)


@st.composite
def params_case(draw: st.DrawFn) -> Callable[[], Any]:
    """A call of ``apply_strategy`` with odd parameters (values, or command-line texts)."""
    name = draw(st.sampled_from(strategy_names()))
    strategy = get_strategy(name)
    names = [p.name for p in strategy.parameters] + ["x"]
    budget = draw(st.one_of(st.none(), st.integers(-5, 5000)))
    if draw(st.booleans()):
        pairs = [
            f"{draw(st.sampled_from(names))}={draw(st.one_of(PARAM_TEXTS, st.text(max_size=12)))}"
            for _ in range(draw(st.integers(0, 3)))
        ]

        def parsed() -> Any:
            return apply_strategy(name, REQUEST, budget_chars=budget, params=strategy.parse(pairs))

        return parsed
    values = st.one_of(PARAM_TEXTS, SCALARS, JSON_ISH)
    params = draw(st.dictionaries(st.sampled_from(names), values, max_size=3))
    return lambda: apply_strategy(name, REQUEST, budget_chars=budget, params=params)


CASES = {"messages": messages_case, "settings": settings_case, "params": params_case}
