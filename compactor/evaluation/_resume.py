"""What a resumed run takes from the rows a run wrote: the rows not to make again, the
conversations not to run again, and what the rows were made with (to refuse another grid).

The rows are read one at a time and kept as keys, never as rows: a row is its conversation,
its budget and a small number standing for its setting, so resuming from a file of a million
rows holds a few dozen bytes a row rather than the rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from compactor.evaluation._grid import BUDGET, GRID_PARAMETERS, MEMORY_COMPACT, grid_point_key
from compactor.evaluation._rows import budgets_of


class Written:
    """The rows a run wrote (or runs resumed one after another), in the order written, as keys.

    ``key in written`` says whether the row of that :data:`~compactor.evaluation.RowKey` is
    there; :meth:`whole` names the conversations written whole; ``settings`` are the setting
    keys the rows have (baselines included) and ``budgets`` the budgets of memory-compact rows;
    ``columns`` the names of the first row's columns.
    """

    def __init__(self, rows: Iterable[Mapping[str, Any]] = ()):
        self.settings: dict[tuple[Any, ...], int] = {}  # setting key -> its number here
        self.budgets: set[int] = set()
        self.columns: frozenset[str] = frozenset()
        self.rows = 0
        self._keys: set[tuple[Any, int, int]] = set()
        self._seen: dict[Any, frozenset[int]] = {}  # conversation -> settings it has rows of
        self._shared: dict[frozenset[int], frozenset[int]] = {}  # one copy of each such set
        self._last: Any = None  # the conversation of the last row: it may have been cut short
        for row in rows:
            self.add(row)

    def add(self, row: Mapping[str, Any]) -> None:
        setting = grid_point_key(row)
        number = self.settings.setdefault(setting, len(self.settings))
        conversation = row["conversation"]
        if not self.rows:
            self.columns = frozenset(row)
        self.rows += 1
        self._keys.add((conversation, row[BUDGET], number))
        if setting[0] == MEMORY_COMPACT:
            self.budgets.add(row[BUDGET])
        seen = self._seen.get(conversation, frozenset())
        if number not in seen:
            seen = seen | {number}
            self._seen[conversation] = self._shared.setdefault(seen, seen)
        self._last = conversation

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) < 3:
            return False
        conversation, budget, *setting = key
        number = self.settings.get(tuple(setting))
        return number is not None and (conversation, budget, number) in self._keys

    def __len__(self) -> int:
        return self.rows

    def whole(
        self, settings: Sequence[Mapping[str, Any]], budgets: Sequence[int] | None = None
    ) -> frozenset[Any]:
        """The conversations whose every row for ``settings`` (and ``budgets``, None: the
        sweep's) is here. A run writes each conversation's rows one after another, in corpus
        order, so a conversation followed by another's row was written whole by that run; the
        last one may have been cut short. It must also hold rows of every swept setting, and
        every row of the settings with known budgets (a setting added on resume is still to
        run)."""
        swept = [grid_point_key(s) for s in settings if budgets_of(s, budgets) is None]
        fixed = [(b, grid_point_key(s)) for s in settings for b in budgets_of(s, budgets) or ()]
        numbers = {key: self.settings.get(key) for key in {*swept, *(k for _, k in fixed)}}
        if any(numbers[key] is None for key in swept):
            return frozenset()
        return frozenset(
            c
            for c, seen in self._seen.items()
            if c != self._last
            and all(numbers[key] in seen for key in swept)
            and all((c, b, numbers[key]) in self._keys for b, key in fixed)
        )


def written_whole(
    rows: Iterable[Mapping[str, Any]],
    settings: Sequence[Mapping[str, Any]],
    budgets: Sequence[int] | None = None,
) -> frozenset[Any]:
    """The conversations whose every row for ``settings`` (and ``budgets``, None: the sweep's)
    is in ``rows``, the rows a run wrote (or runs resumed one after another), in the order
    written (:meth:`Written.whole`)."""
    return Written(rows).whole(settings, budgets)


def describe_setting(key: tuple[Any, ...]) -> str:
    """A setting key as the command line gives it: ``keep_last_n=5 keep_roles=system ...``, or
    a baseline's ``strategy=keep-last`` (``strategy=keep-last keep_roles=system`` protected)."""
    strategy, *values = key
    if strategy != MEMORY_COMPACT:
        roles = values[GRID_PARAMETERS.index("keep_roles")]
        if roles is None:
            return f"strategy={strategy}"
        return f"strategy={strategy} keep_roles={'+'.join(roles) if roles else 'none'}"
    parts = []
    for name, value in zip(GRID_PARAMETERS, values, strict=True):
        if name == "keep_roles":
            value = "+".join(value) if value else "none"
        parts.append(f"{name}={value}")
    return " ".join(parts)
