"""The price table: per model, what a call costs per million tokens (input, output, cache read,
cache writes by lifetime), its minimum cacheable prefix and context window, and the provider
page each figure was read from; read from a TOML file the user can replace.

The shipped table is ``compactor/data/prices.toml``; ``COMPACTOR_PRICES`` (an environment
variable naming a file), ``--prices FILE`` on the command line, or an upload in the explorer
replaces it. A figure the source did not give is absent (None), never guessed. Every error is a
:class:`PricesError` whose problems name the file, the line and the key
(``prices.toml:12: models.x.input: must be a number at least 0, not 'cheap'``), as the setting
file's do.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from compactor.errors import Problem, ProblemError, capped, quoted, toml_key_lines
from compactor.text import ENCODINGS

#: The environment variable naming a price table that replaces the shipped one.
PRICES_ENV = "COMPACTOR_PRICES"
#: The largest price file read (1 MiB; the shipped one is a few kilobytes).
MAX_PRICES_BYTES = 1 << 20
PRICES_FILE = "prices.toml"
#: Every key an entry may have.
ENTRY_KEYS = (
    "provider",
    "name",
    "source",
    "read",
    "input",
    "output",
    "cache_read",
    "cache_writes",
    "min_cacheable_tokens",
    "context_window",
    "tokenizer",
)
_PRICES = ("input", "output", "cache_read")
_COUNTS = ("min_cacheable_tokens", "context_window")


class PricesError(ProblemError):
    """A price table that cannot be used; each problem names the file, line and key."""


@dataclass(frozen=True)
class CacheWrite:
    """Writing the prompt cache for ``lifetime_seconds``, at ``per_mtok`` USD per million."""

    lifetime_seconds: int
    per_mtok: float


@dataclass(frozen=True)
class ModelPrice:
    """One model's entry of the table; a figure its source did not give is None."""

    key: str
    provider: str
    name: str
    source: str
    read: str
    input: float | None = None
    output: float | None = None
    cache_read: float | None = None
    cache_writes: tuple[CacheWrite, ...] = ()
    min_cacheable_tokens: int | None = None
    context_window: int | None = None
    tokenizer: str | None = None

    @property
    def priced(self) -> bool:
        """Whether a call can be priced: the input and output prices are both known."""
        return self.input is not None and self.output is not None

    def cache_write(self, lifetime_seconds: int | None = None) -> CacheWrite | None:
        """The cache write of ``lifetime_seconds`` (None: the shortest), or None when the entry
        has none of that lifetime."""
        if not self.cache_writes:
            return None
        if lifetime_seconds is None:
            return min(self.cache_writes, key=lambda w: w.lifetime_seconds)
        return next((w for w in self.cache_writes if w.lifetime_seconds == lifetime_seconds), None)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"model": self.key, "provider": self.provider, "name": self.name}
        for k in (*_PRICES, *_COUNTS, "tokenizer"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        if self.cache_writes:
            out["cache_writes"] = [
                {"lifetime_seconds": w.lifetime_seconds, "per_mtok": w.per_mtok}
                for w in self.cache_writes
            ]
        out["source"], out["read"] = self.source, self.read
        return out


@dataclass(frozen=True)
class PriceTable:
    """Every model of a price file, in the file's order, and where it came from."""

    models: tuple[ModelPrice, ...]
    origin: str  # the file's name (the shipped table: "prices.toml (shipped)")

    def names(self) -> tuple[str, ...]:
        return tuple(m.key for m in self.models)

    def get(self, model: str) -> ModelPrice:
        """The entry of ``model``; PricesError naming the models there are when it has none."""
        found = next((m for m in self.models if m.key == model), None)
        if found is None:
            known = ", ".join(self.names()) or "none"
            raise PricesError(
                [
                    Problem(
                        f"no model {quoted(model)} in the price table (it has: {known})",
                        path=self.origin,
                    )
                ]
            )
        return found


def prices_from_toml(text: str, name: str = PRICES_FILE) -> PriceTable:
    """The price table in TOML ``text``; problems are located in the file ``name``."""
    if len(text) > MAX_PRICES_BYTES:
        raise PricesError([Problem(f"is over {MAX_PRICES_BYTES:,} bytes", path=name)])
    text = text.removeprefix("\ufeff")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        at = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        where = f"{name}:{at[1]}:{at[2]}" if at else name
        reason = message[: at.start()] if at else message
        raise PricesError([Problem(f"is not TOML: {reason}", path=where)]) from None
    lines = toml_key_lines(text)
    problems: list[Problem] = []
    models = _models(data, problems)
    if problems:
        located = []
        for p in problems:
            key = p.path or ""
            line = lines.get(key) or lines.get(key.rsplit(".", 1)[0])
            located.append(
                Problem(p.message, path=f"{name}:{line}: {key}" if line else f"{name}: {key}")
            )
        raise PricesError(capped(located))
    return PriceTable(tuple(models), name)


def load_prices(path: str | Path | None = None) -> PriceTable:
    """The price table at ``path``; without one, the file ``COMPACTOR_PRICES`` names, else the
    shipped table (``compactor/data/prices.toml``).

    >>> load_prices().get("claude-sonnet-5-5").cache_read
    0.2
    """
    if path is None:
        path = os.environ.get(PRICES_ENV) or None
    if path is None:
        text = resources.files("compactor.data").joinpath(PRICES_FILE).read_text("utf-8")
        return prices_from_toml(text, f"{PRICES_FILE} (shipped)")
    name = str(path)
    try:
        if not Path(path).is_file():
            raise PricesError([Problem("is not a file", path=name)])
        if Path(path).stat().st_size > MAX_PRICES_BYTES:
            raise PricesError([Problem(f"is over {MAX_PRICES_BYTES:,} bytes", path=name)])
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as error:
        raise PricesError(
            [Problem(f"cannot read the file ({error.strerror})", path=name)]
        ) from None
    except UnicodeDecodeError as error:
        raise PricesError(
            [Problem(f"is not UTF-8 text (byte {error.start + 1})", path=name)]
        ) from None
    return prices_from_toml(text, name)


def price(model: str, table: PriceTable | None = None) -> ModelPrice:
    """The entry of ``model`` in ``table`` (None: :func:`load_prices`)."""
    return (table or load_prices()).get(model)


def context_window(model: str, table: PriceTable | None = None) -> int | None:
    """The context window of ``model`` in tokens, or None when its source gives none (or the
    table has no such model)."""
    table = table or load_prices()
    return next((m.context_window for m in table.models if m.key == model), None)


# --- validation ------------------------------------------------------------------------------


def _models(data: Mapping[str, Any], problems: list[Problem]) -> list[ModelPrice]:
    for key in data:
        if key != "models":
            problems.append(
                Problem("unknown key; a price table holds [models.NAME] tables", path=key)
            )
    models = data.get("models")
    if models is None:
        problems.append(Problem("no [models.NAME] table: the table prices no model", path="models"))
        return []
    if not isinstance(models, dict):
        problems.append(Problem("must be tables [models.NAME]", path="models"))
        return []
    out = []
    for key, entry in models.items():
        where = f"models.{key}"
        if not isinstance(entry, dict):
            problems.append(Problem("must be a table of the model's figures", path=where))
            continue
        before = len(problems)
        for k in entry:
            if k not in ENTRY_KEYS:
                problems.append(
                    Problem(
                        f"unknown key; an entry takes {', '.join(ENTRY_KEYS)}", path=f"{where}.{k}"
                    )
                )
        for k in ("provider", "name", "source", "read"):
            value = entry.get(k)
            if not isinstance(value, str) or not value.strip():
                said = "is missing" if value is None else f"must be text, not {quoted(value)}"
                why = (
                    " (every figure names the page it was read from and when)"
                    if k in ("source", "read")
                    else ""
                )
                problems.append(Problem(f"{said}{why}", path=f"{where}.{k}"))
        for k in _PRICES:
            if k in entry and not _price(entry[k]):
                problems.append(
                    Problem(
                        f"must be a number at least 0, not {quoted(entry[k])}", path=f"{where}.{k}"
                    )
                )
        for k in _COUNTS:
            if k in entry and not _count(entry[k]):
                problems.append(
                    Problem(
                        f"must be a whole number at least 1, not {quoted(entry[k])}",
                        path=f"{where}.{k}",
                    )
                )
        tokenizer = entry.get("tokenizer")
        if tokenizer is not None and tokenizer not in ENCODINGS:
            problems.append(
                Problem(
                    f"must be one of {', '.join(ENCODINGS)}, not {quoted(tokenizer)}",
                    path=f"{where}.tokenizer",
                )
            )
        writes = _writes(entry.get("cache_writes", []), f"{where}.cache_writes", problems)
        if len(problems) > before:
            continue
        out.append(
            ModelPrice(
                key,
                entry["provider"],
                entry["name"],
                entry["source"],
                entry["read"],
                *(float(entry[k]) if k in entry else None for k in _PRICES),
                writes,
                *(entry.get(k) for k in _COUNTS),
                tokenizer,
            )
        )
    return out


def _writes(value: Any, where: str, problems: list[Problem]) -> tuple[CacheWrite, ...]:
    if not isinstance(value, list):
        problems.append(Problem("must be a list of {lifetime_seconds, per_mtok}", path=where))
        return ()
    out = []
    for k, item in enumerate(value):
        if not isinstance(item, dict) or set(item) != {"lifetime_seconds", "per_mtok"}:
            problems.append(
                Problem(
                    f"[{k}] must be {{ lifetime_seconds = N, per_mtok = PRICE }}, "
                    f"not {quoted(item)}",
                    path=where,
                )
            )
        elif not _count(item["lifetime_seconds"]) or not _price(item["per_mtok"]):
            problems.append(
                Problem(
                    f"[{k}]: lifetime_seconds must be a whole number at least 1 and per_mtok a "
                    "number at least 0",
                    path=where,
                )
            )
        else:
            out.append(CacheWrite(item["lifetime_seconds"], float(item["per_mtok"])))
    if len({w.lifetime_seconds for w in out}) < len(out):
        problems.append(Problem("two cache writes of one lifetime", path=where))
    return tuple(out)


def _price(value: Any) -> bool:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < float("inf")
    )


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1
