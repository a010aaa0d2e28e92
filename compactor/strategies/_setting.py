"""A chosen setting, the thing that leaves the explorer for an agent: a strategy from the
registry, its parameters, and one budget (characters, or tokens in an encoding); read from and
written to ``compaction.toml``.

A budget in characters is the contract's (100 to 400,000) unless the file says
``limits = "agent"``: then up to 2,000,000, for a whole agent session (the agent mode).

A file, as :func:`setting_toml` writes it::

    name = "support bot"
    note = "chosen on the Corpus page"
    strategy = "memory-compact"
    budget_tokens = 2000
    encoding = "o200k_base"

    [params]
    keep_last_n = 4

>>> setting = Setting.from_dict({"strategy": "memory-compact", "budget_chars": 4000,
...                              "params": {"keep_last_n": 4}})
>>> setting.to_dict()
{'strategy': 'memory-compact', 'budget_chars': 4000, 'params': {'keep_last_n': 4}}
>>> Setting.from_dict(setting.to_dict()) == setting
True

Parameters are validated by the strategy's registry entry; a parameter set to its default of
none is the same as one not given (TOML has no null), so it is left out. Every error is a
:class:`SettingError` whose problems name the key (``params.keep_last_n``) and, for a file, the
file and the line (``compaction.toml:7: params.keep_last_n: must be at least 0, not -1``);
at most :data:`~compactor.errors.MAX_PROBLEMS` are listed and the rest counted, and a file over
:data:`MAX_SETTING_BYTES` is refused before it is read.
"""

from __future__ import annotations

import itertools
import math
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from compactor.contract import (
    AGENT_LIMITS,
    CONTRACT_LIMITS,
    LIMIT_MODES,
    MEMORY_COMPACT,
    RANGES,
    budget_range,
)
from compactor.errors import InvalidRequest, Problem, ProblemError, capped, quoted, toml_key_lines
from compactor.input import validate
from compactor.strategies._registry import current_name, unavailable_problem
from compactor.strategies._registry import get as get_strategy
from compactor.strategies._registry import names as strategy_names
from compactor.strategies._spec import StrategyParameterError
from compactor.text import DEFAULT_ENCODING, ENCODINGS

#: The file's name by convention (any name works).
FILE_NAME = "compaction.toml"
#: The keys of a setting, in the order a file lists them.
KEYS = (
    "name",
    "note",
    "strategy",
    "budget_chars",
    "budget_tokens",
    "encoding",
    "limits",
    "params",
)
DEFAULT_STRATEGY = MEMORY_COMPACT
#: The largest ``compaction.toml`` read (1 MiB; a setting takes a few hundred bytes): a larger
#: file is refused before it is read, so reading one costs little whatever the file.
MAX_SETTING_BYTES = 1 << 20
#: The UTF-8 byte order mark as a character: TOML does not allow it, editors write it.
BOM = "\ufeff"
BUDGET_CHARS_RANGE: tuple[int, int] = tuple(int(v) for v in RANGES["budget_chars"])  # type: ignore[assignment]


class SettingError(ProblemError):
    """A setting that cannot be used; each problem names its key (and file and line)."""


@dataclass(frozen=True)
class Setting:
    """A strategy, its parameters and exactly one budget: ``budget_chars``, or
    ``budget_tokens`` counted in ``encoding`` (``o200k_base`` unless given)."""

    strategy: str = DEFAULT_STRATEGY
    params: Mapping[str, Any] = field(default_factory=dict)
    budget_chars: int | None = None
    budget_tokens: int | None = None
    encoding: str | None = None
    #: ``"agent"`` for a whole agent session (a budget up to 2,000,000 characters, as the
    #: agent mode takes); none (the default) or ``"contract"``: the contract's 100..400,000.
    limits: str | None = None
    name: str | None = None
    note: str | None = None
    #: What the one who wrote it should know (a strategy named by its old name: it is read
    #: under its new one); not part of the setting.
    notes: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        new = current_name(self.strategy)
        if new != self.strategy:
            said = f'strategy: "{self.strategy}" is the old name of "{new}" (read as "{new}"; '
            object.__setattr__(self, "notes", (*self.notes, said + f'write strategy = "{new}")'))
            object.__setattr__(self, "strategy", new)
        problems = _problems({k: getattr(self, k) for k in KEYS})
        if problems:
            raise SettingError(capped(problems))
        given = {k: v for k, v in self.params.items() if v is not None}
        params = get_strategy(self.strategy).validate(given)
        frozen = {k: tuple(v) if isinstance(v, list) else v for k, v in params.items()}
        object.__setattr__(self, "params", MappingProxyType({k: frozen[k] for k in given}))
        if self.budget_tokens is not None and self.encoding is None:
            object.__setattr__(self, "encoding", DEFAULT_ENCODING)

    def __hash__(self) -> int:
        return hash((self.strategy, tuple(sorted(self.params.items(), key=str)), self.budget))

    @property
    def budget(self) -> tuple[str, int]:
        """``("chars", n)`` or ``("tokens", n)``."""
        if self.budget_tokens is not None:
            return ("tokens", self.budget_tokens)
        return ("chars", self.budget_chars)  # type: ignore[return-value]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setting:
        """The setting a dict (or a parsed ``compaction.toml``) states; :class:`SettingError`
        names every unknown key and wrong value."""
        if not isinstance(data, Mapping):
            raise SettingError([Problem(f"must be a table of keys, not {quoted(data)}", path="$")])
        unknown = (
            Problem(f"is not a key of a setting; the keys are {', '.join(KEYS)}", path=str(key))
            for key in data
            if key not in KEYS
        )
        fields = {k: data[k] for k in KEYS if k in data}
        known = {**{k: None for k in KEYS}, "strategy": DEFAULT_STRATEGY, "params": {}, **fields}
        problems = capped(itertools.chain(unknown, _problems(known)))
        if problems:
            raise SettingError(problems)
        return cls(**fields)

    def to_dict(self) -> dict[str, Any]:
        """The setting as plain JSON-able data: only the keys it sets, in :data:`KEYS` order."""
        out: dict[str, Any] = {}
        for key in KEYS:
            value = getattr(self, key)
            if key == "params":
                value = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
                if value:
                    out[key] = value
            elif value is not None:
                out[key] = value
        return out


def _problems(setting: Mapping[str, Any]) -> list[Problem]:
    """Everything wrong with the fields of a setting (each key of :data:`KEYS` present)."""
    problems = [
        Problem(f"must be a text, not {quoted(setting[key])}", path=key)
        for key in ("name", "note")
        if setting[key] is not None and not isinstance(setting[key], str)
    ]
    strategy = current_name(setting["strategy"])
    if strategy not in strategy_names():
        known = ", ".join(strategy_names())
        problems.append(
            Problem(
                f"is not a strategy ({quoted(strategy)}); the strategies are {known}",
                path="strategy",
            )
        )
    limits = setting["limits"]
    if limits is not None and limits not in LIMIT_MODES:
        problems.append(
            Problem(f"must be one of {', '.join(LIMIT_MODES)}, not {quoted(limits)}", path="limits")
        )
        limits = None
    problems += _budget_problems(
        setting["budget_chars"], setting["budget_tokens"], setting["encoding"], limits
    )
    if not isinstance(setting["params"], Mapping):
        problems.append(Problem(f"must be a table, not {quoted(setting['params'])}", path="params"))
    elif strategy in strategy_names():
        problems += _param_problems(strategy, setting["params"])
    if strategy in strategy_names():
        missing = unavailable_problem(strategy)
        if missing is not None:
            problems.append(Problem(f"{strategy} {missing.message}", path="strategy"))
    return problems


def _budget_problems(
    chars: Any, tokens: Any, encoding: Any, limits: str | None = None
) -> list[Problem]:
    problems = []
    if (chars is None) == (tokens is None):
        problems.append(
            Problem("give exactly one budget: budget_chars or budget_tokens", path="budget_chars")
        )
    low, high = budget_range(limits or CONTRACT_LIMITS)
    if chars is not None and (not _whole(chars) or not low <= chars <= high):
        beyond = (
            f' (limits = "{AGENT_LIMITS}" takes up to {budget_range(AGENT_LIMITS)[1]:,})'
            if limits != AGENT_LIMITS and _whole(chars) and chars > high
            else ""
        )
        problems.append(
            Problem(
                f"must be a whole number from {low:,} to {high:,}, not {quoted(chars)}{beyond}",
                path="budget_chars",
            )
        )
    if tokens is not None and (not _whole(tokens) or tokens < 1):
        problems.append(
            Problem(
                f"must be a whole number of at least 1, not {quoted(tokens)}", path="budget_tokens"
            )
        )
    if encoding is not None and tokens is None:
        problems.append(Problem("applies only to budget_tokens", path="encoding"))
    elif encoding is not None and encoding not in ENCODINGS:
        problems.append(
            Problem(
                f"must be one of {', '.join(ENCODINGS)}, not {quoted(encoding)}", path="encoding"
            )
        )
    return problems


def _param_problems(strategy: str, params: Mapping[str, Any]) -> list[Problem]:
    """The registry's checks, and for memory-compact the contract's own ranges and roles."""
    given = {k: v for k, v in params.items() if v is not None}
    try:
        get_strategy(strategy).validate(given)
    except StrategyParameterError as error:
        return [
            Problem(
                p.message + _taken_by(strategy, (p.path or "").partition(".")[2]),
                path="params." + (p.path or "").partition(".")[2],
            )
            for p in error.problems
        ]
    if strategy != DEFAULT_STRATEGY or not given:
        return []
    try:  # the request's own schema holds the ranges (keep_last_n at most 50, known roles)
        validate({"messages": [{"role": "user", "content": "x"}] * 2, "budget_chars": 100, **given})
    except InvalidRequest as error:
        return [Problem(p.message, path=f"params.{p.path}") for p in error.problems]
    return []


def _taken_by(strategy: str, name: str) -> str:
    """For a parameter ``strategy`` does not take: which strategies do, and what to do (a
    setting edited from one strategy to another keeps the first one's parameters)."""
    if any(p.name == name for p in get_strategy(strategy).parameters):
        return ""
    others = [
        n for n in strategy_names() if any(p.name == name for p in get_strategy(n).parameters)
    ]
    if not others:
        return ""
    return (
        f" ({name} is a parameter of {', '.join(others[:3])}; remove it from [params] for "
        f"{strategy})"
    )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_setting(path: str | Path) -> Setting:
    """The setting in the TOML file at ``path``.

    Args:
        path: a ``compaction.toml`` (the explorer's "Download setting" writes one).

    Returns:
        The :class:`Setting`: its strategy, its budget (characters or tokens) and its
        parameters, checked against the strategy's own.

    Raises:
        SettingError: the file cannot be read (a named pipe, a device or a folder is
            refused before it is read), holds a bad value, or names a strategy whose extra is
            not installed; each problem names the file, the key and its line
            (``compaction.toml:7: params.keep_last_n: ...``).

    Example:
        >>> import pathlib, tempfile
        >>> from compactor import load_setting
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "compaction.toml"
        >>> _ = path.write_text('strategy = "keep-last"\\nbudget_chars = 8000\\n')
        >>> load_setting(path).budget_chars
        8000
    """
    name = str(path)
    try:
        text = _read(Path(path), name).decode("utf-8")
    except OSError as error:
        raise SettingError(
            [Problem(f"cannot read the file ({error.strerror})", path=name)]
        ) from None
    except UnicodeDecodeError as error:
        raise SettingError(
            [Problem(f"is not UTF-8 text (byte {error.start + 1})", path=name)]
        ) from None
    return setting_from_toml(text, name)


def _read(path: Path, name: str) -> bytes:
    """The bytes of the regular file at ``path``, refused when over :data:`MAX_SETTING_BYTES`
    (by its size before anything is read, and by what is read for a file of no stated size);
    SettingError for a named pipe, a device, a socket or a folder, said before it is opened (a
    pipe nobody writes to would block the read forever, a device never end it)."""
    _refuse_unless_regular(path.stat().st_mode, name)
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as file:
        # checked again on what was opened (without waiting), in case the path changed
        _refuse_unless_regular(os.fstat(file.fileno()).st_mode, name)
        size = os.fstat(file.fileno()).st_size
        if size > MAX_SETTING_BYTES:
            raise _too_large(name, size)
        data = file.read(MAX_SETTING_BYTES + 1)
    if len(data) > MAX_SETTING_BYTES:
        raise _too_large(name, None)
    return data


def _too_large(name: str, size: int | None) -> SettingError:
    said = f"is {size:,} bytes" if size is not None else "is larger"
    return SettingError(
        [
            Problem(
                f"{said}, over the {MAX_SETTING_BYTES:,} bytes (1 MiB) a setting file may be; "
                "a setting takes a few lines",
                path=name,
            )
        ]
    )


#: What a path that is not a regular file is, in words.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def _refuse_unless_regular(mode: int, name: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((kind for test, kind in _KINDS if test(mode)), "not a regular file")
    raise SettingError(
        [Problem(f"is {kind}, not a file; a setting is read from a regular file", path=name)]
    )


_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$|\s*\(at end of document\)$")


def setting_from_toml(text: str, name: str = FILE_NAME) -> Setting:
    """The setting in TOML ``text``; problems are located in the file ``name``. A byte order
    mark before the first key (editors on Windows write one) is not part of the TOML."""
    if len(text) > MAX_SETTING_BYTES:  # characters: each at least one byte in the file
        raise _too_large(name, len(text.encode("utf-8", "surrogatepass")))
    text = text.removeprefix(BOM)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        at = _AT.search(message)
        where = name if at is None or at.group(1) is None else f"{name}:{at[1]}:{at[2]}"
        reason = message[: at.start()] if at else message
        raise SettingError([Problem(f"is not TOML: {reason}", path=where)]) from None
    try:
        setting = Setting.from_dict(data)
    except SettingError as error:
        lines = toml_key_lines(text)
        problems = []
        for p in error.problems:
            if p.path in (None, "$"):  # the count of problems not listed: of the whole file
                problems.append(Problem(p.message, path=name))
                continue
            key = p.path
            line = lines.get(key) or lines.get(key.split("[")[0]) or lines.get(key.split(".")[0])
            where = f"{name}:{line}" if line else name
            problems.append(Problem(p.message, path=f"{where}: {key}"))
        raise SettingError(problems) from None
    if setting.notes:  # each note starts with its key: say where in the file it is
        lines = toml_key_lines(text)
        located = []
        for note in setting.notes:
            line = lines.get(note.split(":", 1)[0])
            located.append(f"{name}:{line}: {note}" if line else f"{name}: {note}")
        object.__setattr__(setting, "notes", tuple(located))
    return setting


def setting_toml(setting: Setting) -> str:
    """``setting`` as the text of a ``compaction.toml`` that :func:`load_setting` reads back
    to an equal setting."""
    data = setting.to_dict()
    params = data.pop("params", {})
    lines = [f"{_key(k)} = {_value(v)}" for k, v in data.items()]
    if params:
        lines += ["", "[params]"] + [f"{_key(k)} = {_value(v)}" for k, v in params.items()]
    return "\n".join(lines) + "\n"


_BARE = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\b": "\\b",
    "\f": "\\f",
}


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:
            raise SettingError([Problem("holds a lone surrogate, which TOML cannot write", "$")])
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise SettingError([Problem(f"cannot be written to TOML: {quoted(value)}", path="$")])
