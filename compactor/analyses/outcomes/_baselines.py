"""Baselines (SPEC part D): what a team would do without the setting, at the same budget.

- **keep-last**: the longest run of the most recent whole messages whose characters fit;
- **random**: R seeded draws, draw ``s`` the order ``random.Random(s).shuffle`` gives the
  message indices; each draw removes messages in that order until the rest fits.

Both keep whole messages, and both keep a message exactly from one budget on: keep-last from
the characters of the message and every later one, a draw from the characters still present
when the draw reaches it (everything minus what it removed before). So each baseline is an
array of *from-budgets*, one per message (one row per draw), and its output at any budget is
``from_budget <= budget``: every figure at every budget, for all draws at once, with numpy.
Keep-last's from-budgets are the strategy's own rule (:mod:`compactor.strategies._keep_last`).

Each comes in two forms (SPEC part D). **Bare** is the rule above. **Protected** first keeps,
whole, what the setting under comparison protects (messages of ``keep_roles`` and pinned ones;
not the last ``keep_last_n``, which is recency's own job) and applies the rule to the other
messages with the budget that remains: a protected message's from-budget is 0 (kept at every
budget, as memory-compact keeps it), another's is the protected characters plus its bare
from-budget among the unprotected messages (a draw shuffles their positions among themselves),
so no budget left keeps nothing else. :class:`BaselineForm` says which form a figure is of and
labels it ("keep-last, system prompt kept").
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from compactor.engine import pin_rules
from compactor.model import Message, Request
from compactor.strategies import KEEP_LAST as KEEP_LAST  # the baseline's name
from compactor.strategies import keep_last_from_budgets

DEFAULT_DRAWS = 20
#: The percentiles the random interval reports (numpy's linear interpolation between draws).
PERCENTILES = (2.5, 97.5)
RANDOM = "random"
#: The two forms of the baselines; pages and the CLI compare with the first by default.
PROTECTED = "protected"
BARE = "bare"
FORMS = (PROTECTED, BARE)


@dataclass(frozen=True)
class BaselineForm:
    """Which form of the baselines a figure is of, and what the protected form keeps first:
    per message, whether the setting protects it by ``pin`` or ``keep_roles``."""

    form: str
    protected: tuple[bool, ...]
    roles: tuple[str, ...]  # the roles of the messages protected by role (not pinned), in order
    pinned: int
    chars: int  # the protected messages' characters
    system_prompt: bool  # the one message protected is the first one, a system message

    @property
    def messages(self) -> int:
        return sum(self.protected)

    @property
    def mask(self) -> np.ndarray | None:
        """The protected messages as the baselines' rule reads them (None: the bare rule)."""
        if self.form == BARE or not self.messages:
            return None
        return np.asarray(self.protected, dtype=bool)

    @property
    def kept(self) -> str:
        """What the protected form keeps first, in words ("" when nothing)."""
        if not self.messages:
            return ""
        if self.system_prompt:
            return "system prompt kept"
        parts = [f"{self.pinned} pinned"] if self.pinned else []
        return " + ".join([*parts, *self.roles]) + " kept"

    def label(self, name: str = KEEP_LAST) -> str:
        """The baseline ``name``'s label in this form: "keep-last, system prompt kept", "random,
        2 pinned + system kept", "keep-last, bare" (when the protected form would keep
        something), or just "keep-last" when the setting protects nothing."""
        if not self.messages:
            return name
        return f"{name}, bare" if self.form == BARE else f"{name}, {self.kept}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "form": self.form,
            "protected_messages": [i for i, p in enumerate(self.protected) if p],
            "protected_chars": self.chars,
            "keep_last_label": self.label(KEEP_LAST),
            "random_label": self.label(RANDOM),
        }

    def other(self) -> BaselineForm:
        """The same protection in the other form."""
        return BaselineForm(
            BARE if self.form == PROTECTED else PROTECTED,
            self.protected,
            self.roles,
            self.pinned,
            self.chars,
            self.system_prompt,
        )


def protected_messages(
    messages: Sequence[Message], keep_roles: Collection[str]
) -> tuple[bool, ...]:
    """Per message, whether a setting with ``keep_roles`` protects it by ``pin`` or by its role
    (stage 1's rule without the last ``keep_last_n``): what the protected baselines keep first."""
    n, roles = len(messages), frozenset(keep_roles)
    return tuple(any(pin_rules(m.index, n, m.role, m.pin, roles, 0)) for m in messages)


def baseline_form(request: Request, form: str = PROTECTED) -> BaselineForm:
    """The baselines' ``form`` for ``request``: what its setting protects by ``pin`` or
    ``keep_roles`` (stage 1's rule, without the last ``keep_last_n``)."""
    if form not in FORMS:
        raise ValueError(f"the baselines are {' or '.join(FORMS)}, not {form!r}")
    protected = protected_messages(request.messages, request.params.keep_roles)
    by_role: list[str] = []
    pinned = chars = 0
    for m, kept in zip(request.messages, protected, strict=True):
        pinned += m.pin
        chars += len(m.content) if kept else 0
        if kept and not m.pin and m.role not in by_role:
            by_role.append(m.role)
    system_prompt = (
        sum(protected) == 1 and protected[0] and not pinned and request.messages[0].role == "system"
    )
    return BaselineForm(form, tuple(protected), tuple(by_role), pinned, chars, system_prompt)


def protected_from_budgets(
    lengths: Sequence[int],
    protected: Sequence[bool] | np.ndarray | None,
    bare: Any,
) -> np.ndarray:
    """The from-budgets of the baseline whose bare rule is ``bare`` (lengths in, from-budgets
    out, one row or one per draw) in the protected form: 0 for a protected message, the
    protected characters plus the bare rule's from-budget among the others for the rest. With
    nothing protected (``protected`` None or all False), the bare rule itself."""
    sizes = np.asarray(lengths, dtype=np.int64)
    mask = None if protected is None else np.asarray(protected, dtype=bool)
    if mask is None or not mask.any():
        return bare(sizes)
    rest = np.asarray(bare(sizes[~mask]), dtype=np.int64)
    out = np.zeros((*rest.shape[:-1], len(sizes)), dtype=np.int64)
    out[..., ~mask] = rest + int(sizes[mask].sum())
    return out


def keep_last_from(
    lengths: Sequence[int], protected: Sequence[bool] | np.ndarray | None = None
) -> np.ndarray:
    """Keep-last's from-budgets, protected when ``protected`` marks messages (else bare)."""
    return protected_from_budgets(lengths, protected, keep_last_from_budgets)


def random_from(
    lengths: Sequence[int],
    protected: Sequence[bool] | np.ndarray | None = None,
    draws: int = DEFAULT_DRAWS,
) -> np.ndarray:
    """Random's from-budgets per draw, protected when ``protected`` marks messages."""
    return protected_from_budgets(lengths, protected, lambda s: random_from_budgets(s, draws))


@lru_cache(maxsize=64)
def draw_orders(n: int, draws: int = DEFAULT_DRAWS) -> np.ndarray:
    """``orders[s]``: the removal order of draw ``s``, ``random.Random(s).shuffle`` of
    ``range(n)`` (read-only; remembered, the same for every conversation of ``n`` messages)."""
    orders = np.empty((draws, n), dtype=np.int64)
    for seed in range(draws):
        order = list(range(n))
        random.Random(seed).shuffle(order)
        orders[seed] = order
    orders.setflags(write=False)
    return orders


def random_from_budgets(lengths: Sequence[int], draws: int = DEFAULT_DRAWS) -> np.ndarray:
    """``from[s, i]``: the smallest budget at which draw ``s`` keeps message ``i``: the
    characters present when the draw reaches it."""
    sizes = np.asarray(lengths, dtype=np.int64)
    orders = draw_orders(len(sizes), draws)
    in_order = sizes[orders]
    present = sizes.sum() - (np.cumsum(in_order, axis=1) - in_order)
    out = np.empty_like(present)
    np.put_along_axis(out, orders, present, axis=1)
    return out


def keep_last_lengths(
    lengths: Sequence[int],
    budget_chars: int,
    protected: Sequence[bool] | np.ndarray | None = None,
) -> np.ndarray:
    """Per message, its returned length under keep-last at ``budget_chars`` (-1: removed),
    in the protected form when ``protected`` marks messages."""
    sizes = np.asarray(lengths, dtype=np.int64)
    return np.where(keep_last_from(sizes, protected) <= budget_chars, sizes, -1)


def random_lengths(
    lengths: Sequence[int],
    budget_chars: int,
    draws: int = DEFAULT_DRAWS,
    protected: Sequence[bool] | np.ndarray | None = None,
) -> np.ndarray:
    """Per draw and message, its returned length at ``budget_chars`` (-1: removed), in the
    protected form when ``protected`` marks messages."""
    sizes = np.asarray(lengths, dtype=np.int64)
    return np.where(random_from(sizes, protected, draws) <= budget_chars, sizes, -1)


@dataclass(frozen=True)
class Interval:
    """A figure over the random draws: the mean, and the 2.5th and 97.5th percentiles."""

    mean: float | None
    low: float | None
    high: float | None
    draws: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": _round(self.mean),
            "low": _round(self.low),
            "high": _round(self.high),
            "draws": self.draws,
        }


def interval(values: Sequence[float] | np.ndarray | None, draws: int) -> Interval:
    """The :class:`Interval` of one figure per draw (all None when the figure is undefined)."""
    if values is None or len(values) == 0:
        return Interval(None, None, None, draws)
    array = np.asarray(values, dtype=np.float64)
    low, high = np.percentile(array, PERCENTILES)
    return Interval(float(array.mean()), float(low), float(high), draws)


def lift(setting: float | None, keep_last: float | None) -> float | None:
    """The setting's figure minus keep-last's (None when either is undefined)."""
    if setting is None or keep_last is None:
        return None
    return setting - keep_last


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
