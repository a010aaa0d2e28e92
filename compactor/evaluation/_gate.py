"""The regression gate: thresholds on the summary's figures, checked setting by setting, with the
conversations that pull a failing figure down (``evaluate --fail-under needed_later=0.6``).

A threshold names a figure of :func:`~compactor.evaluation.summarise` (or a short alias:
``needed_later`` is ``needed_recall``, ``budget_met`` is ``budget_met_rate``) and a bound;
``under`` fails a setting whose figure is below the bound, ``over`` one whose figure is above
it. A figure the run did not measure (no conversation long enough for a future, no probes)
fails too: a gate that cannot see is not a gate that holds.

>>> t = parse_threshold("needed_later=60%", "under")
>>> t.figure, t.bound
('needed_recall', 0.6)
>>> summary = {"budget_chars": 4000, "keep_last_n": 2, "keep_roles": ["system"],
...     "duplicate_threshold": 0.9, "max_message_chars": 400, "needed_recall": 0.5}
>>> rows = [dict(summary, conversation="a.json", needs=4, needs_met=2)]
>>> verdict = check(setting_groups([summary], rows), [t])[0]
>>> verdict.lines()[0]
'FAIL needed_recall (needed-later recall, pooled) = 0.5, under 0.6'
>>> verdict.worst
(('a.json', '2 of 4 needs met'),)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from compactor.errors import Problem, ProblemError, quoted
from compactor.evaluation._grid import BUDGET, MEMORY_COMPACT, STRATEGY, grid_point_key

#: How many conversations a failing figure names, worst first.
WORST = 5
DIRECTIONS = ("under", "over")

Row = Mapping[str, Any]


def _ratio(kept: str, total: str) -> Callable[[Row], float | None]:
    """A conversation's share kept; None when it has nothing to keep or keeps it all."""
    return lambda r: r[kept] / r[total] if r.get(total) and r[kept] < r[total] else None


def _retention_words(r: Row) -> str:
    return f"{r['anchors_kept']:,} of {r['anchors']:,} anchors kept"


def _needs_words(r: Row) -> str:
    return f"{r['needs_met']:,} of {r['needs']:,} needs met"


@dataclass(frozen=True)
class Figure:
    """A summary figure: its words, whether it is a share (0 to 1), and how one conversation
    scores on it (``score``: lower is worse; None leaves a conversation out of the worst), with
    the words that say that conversation's part."""

    words: str
    share: bool
    score: Callable[[Row], float | None]
    said: Callable[[Row], str]


_BUDGET = Figure(
    "budget met rate",
    True,
    lambda r: -max(0, r["output_chars"] - r[BUDGET]) if not r["budget_met"] else None,
    lambda r: f"{r['output_chars'] - r[BUDGET]:,} characters over the budget",
)
_CHARS = Figure(
    "", False, lambda r: -r["output_chars"], lambda r: f"{r['output_chars']:,} characters out"
)
_RETENTION = Figure("", True, _ratio("anchors_kept", "anchors"), _retention_words)
_NEEDED = Figure("", True, _ratio("needs_met", "needs"), _needs_words)
_BROKEN = Figure(
    "tool pairs broken, total",
    False,
    lambda r: -r["tool_pairs_broken"] if r["tool_pairs_broken"] else None,
    lambda r: f"{r['tool_pairs_broken']:,} tool pairs broken",
)


def _probe(kind: str) -> Figure:
    return Figure(
        f"probe recall, {kind} (mean)",
        True,
        lambda r: r.get(f"probes_{kind}"),
        lambda r: f"probe recall {r[f'probes_{kind}']:.2f}",
    )


def _as(figure: Figure, words: str) -> Figure:
    return Figure(words, figure.share, figure.score, figure.said)


#: Every figure a threshold may name: the numeric figures of a summary.
FIGURES: Mapping[str, Figure] = {
    "budget_met_rate": _BUDGET,
    "anchor_retention_median": _as(_RETENTION, "anchor retention, median"),
    "anchor_retention_p10": _as(_RETENTION, "anchor retention, 10th percentile"),
    "anchor_retention_p90": _as(_RETENTION, "anchor retention, 90th percentile"),
    "anchors_kept": _as(_RETENTION, "anchors kept, total"),
    "needed_recall": _as(_NEEDED, "needed-later recall, pooled"),
    "needed_recall_median": _as(_NEEDED, "needed-later recall, median"),
    "needed_lift": Figure(
        "needed-later recall minus keep-last's (protected: the setting's keep_roles and pins "
        "kept first)",
        False,
        _NEEDED.score,
        _NEEDED.said,
    ),
    "needed_lift_bare": Figure(
        "needed-later recall minus the bare keep-last's", False, _NEEDED.score, _NEEDED.said
    ),
    "needs_met": _as(_NEEDED, "needs met, total"),
    "probes_strict": _probe("strict"),
    "probes_partial": _probe("partial"),
    "probes_answer": _probe("answer"),
    "output_chars_median": _as(_CHARS, "output characters, median"),
    "output_chars_p10": _as(_CHARS, "output characters, 10th percentile"),
    "output_chars_p90": _as(_CHARS, "output characters, 90th percentile"),
    "output_chars": _as(_CHARS, "output characters, total"),
    "output_tokens": Figure(
        "output tokens, total",
        False,
        lambda r: -r["output_tokens"],
        lambda r: f"{r['output_tokens']:,} tokens out",
    ),
    "tool_pairs_broken": _BROKEN,
}
#: Short names for the figures a gate names most.
ALIASES: Mapping[str, str] = {
    "budget_met": "budget_met_rate",
    "needed_later": "needed_recall",
    "needed_later_median": "needed_recall_median",
    "anchor_retention": "anchor_retention_median",
}
#: Figures only a run with outcomes measures (``evaluate --no-outcomes`` leaves them out).
OUTCOME_FIGURES = frozenset(
    {"needed_recall", "needed_recall_median", "needed_lift", "needed_lift_bare", "needs_met"}
)


def figure_names() -> str:
    """Every name a threshold takes, for an error message: the figures, then the aliases."""
    aliases = ", ".join(f"{a} (= {f})" for a, f in ALIASES.items())
    return f"{', '.join(FIGURES)}; or {aliases}"


@dataclass(frozen=True)
class Threshold:
    """``figure`` (a key of :data:`FIGURES`) must not be ``direction`` ``bound``."""

    figure: str
    bound: float
    direction: str = "under"
    given: str = ""  # the name as written, when an alias

    @property
    def option(self) -> str:
        return f"--fail-{self.direction}"


def parse_threshold(text: str, direction: str = "under", where: str | None = None) -> Threshold:
    """``NAME=VALUE`` as a :class:`Threshold`; a share may be written ``95%``.

    Raises :class:`~compactor.errors.ProblemError` at ``where`` (default ``--fail-DIRECTION``)
    for text not of that form, a name that is not a figure (listing them) or a value that is
    not a number (or, for a share, not between 0 and 1).
    """
    where = where or f"--fail-{direction}"
    name, sign, value = (part.strip() for part in text.partition("="))
    if not sign or not name or not value:
        raise ProblemError([Problem(f"{quoted(text)}: write FIGURE=VALUE", path=where)])
    figure = ALIASES.get(name, name)
    if figure not in FIGURES:
        raise ProblemError(
            [Problem(f"{quoted(name)} is not a figure; the figures are {figure_names()}", where)]
        )
    percent = value.endswith("%")
    try:
        bound = float(value.removesuffix("%")) / (100 if percent else 1)
    except ValueError:
        bound = math.nan
    share = FIGURES[figure].share
    if not math.isfinite(bound):
        raise ProblemError([Problem(f"{name}: {quoted(value)} is not a number", path=where)])
    if percent and not share:
        raise ProblemError(
            [Problem(f"{name}: {quoted(value)}: {figure} is not a share; write a number", where)]
        )
    if share and not 0 <= bound <= 1:
        raise ProblemError(
            [
                Problem(
                    f"{name}: {quoted(value)} is not a share; write 0 to 1 "
                    f"(0.6) or a percentage (60%)",
                    path=where,
                )
            ]
        )
    return Threshold(figure, round(bound, 12), direction, name if name != figure else "")


@dataclass(frozen=True)
class Verdict:
    """One threshold on one setting: its value (None: not measured), whether it holds, and the
    conversations worst on the figure (``(conversation, words)``, worst first)."""

    threshold: Threshold
    setting: str  # the setting in words
    value: float | None
    holds: bool
    worst: tuple[tuple[Any, str], ...] = ()

    def lines(self) -> list[str]:
        """The verdict in words: its figure, value and bound, then the worst conversations."""
        t = self.threshold
        bound = f"{'at least' if t.direction == 'under' else 'at most'} {t.bound:g}"
        named = f"{t.figure} ({FIGURES[t.figure].words})"
        if self.value is None:
            head = f"FAIL {named}: not measured{_unmeasured(t.figure)}, so not {bound}"
        elif self.holds:
            head = f"ok   {named} = {self.value:.6g}, {bound}"
        else:
            head = f"FAIL {named} = {self.value:.6g}, {t.direction} {t.bound:g}"
        out = [head]
        if not self.holds and self.worst:
            out.append(
                "     worst conversations: "
                + "; ".join(f"{conversation_name(c)} ({w})" for c, w in self.worst)
            )
        return out


def _unmeasured(figure: str) -> str:
    if figure in OUTCOME_FIGURES:
        return " (no conversation has a need in its last messages)"
    if figure.startswith("probes_"):
        return " (no conversation carries probes)"
    if figure.startswith("anchor_retention"):
        return " (no conversation has an anchor)"
    return ""


def conversation_name(conversation: Any) -> str:
    return f"record {conversation}" if isinstance(conversation, int) else str(conversation)


@dataclass(frozen=True)
class Group:
    """One setting the gate checks: its words, its summary and the rows it was made of (one per
    conversation, at the setting's budget)."""

    label: str
    summary: Mapping[str, Any]
    rows: Sequence[Row]


def setting_groups(summaries: Sequence[Mapping[str, Any]], rows: Iterable[Row]) -> list[Group]:
    """The memory-compact settings of :func:`~compactor.evaluation.summarise`'s summaries (the
    baselines are references, not checked), each with its rows. ``rows`` are the rows the
    summaries were made of, at listed budgets."""
    by_setting: dict[tuple[Any, ...], list[Row]] = {}
    for row in rows:
        by_setting.setdefault((*grid_point_key(row), row[BUDGET]), []).append(row)
    return [
        Group(_setting_words(s), s, by_setting.get((*grid_point_key(s), s[BUDGET]), []))
        for s in summaries
        if (s.get(STRATEGY) or MEMORY_COMPACT) == MEMORY_COMPACT
    ]


def strategy_groups(rows: Iterable[Row]) -> list[Group]:
    """Rows of another strategy (``evaluate --strategy``) grouped by parameters and budget, with
    the figures its rows measure: budget met rate, anchor retention, output characters, anchors
    kept and tool pairs broken."""
    groups: dict[tuple[str, str, int], list[Row]] = {}
    for row in rows:
        key = (row[STRATEGY], json.dumps(row["strategy_params"], sort_keys=True), row[BUDGET])
        groups.setdefault(key, []).append(row)
    return [
        Group(f"{name} {params}, budget_chars {budget:,}", _figures(found), found)
        for (name, params, budget), found in groups.items()
    ]


def _figures(rows: Sequence[Row]) -> dict[str, Any]:
    chars = np.array([r["output_chars"] or 0 for r in rows], dtype=np.float64)
    retention = np.array([r["anchors_kept"] / r["anchors"] for r in rows if r["anchors"]])
    out: dict[str, Any] = {
        # rounded down, never up to 1.0 while a row missed (issue 36)
        "budget_met_rate": sum(bool(r["budget_met"]) for r in rows) * 10**6 // len(rows) / 10**6,
        "output_chars": int(chars.sum()),
        "anchors_kept": sum(r["anchors_kept"] for r in rows),
        "tool_pairs_broken": sum(r["tool_pairs_broken"] for r in rows),
    }
    for p, name in ((50, "median"), (10, "p10"), (90, "p90")):
        out[f"output_chars_{name}"] = float(np.percentile(chars, p))
        out[f"anchor_retention_{name}"] = (
            round(float(np.percentile(retention, p)), 6) if len(retention) else None
        )
    return out


def _setting_words(summary: Mapping[str, Any]) -> str:
    roles = "+".join(summary["keep_roles"]) or "none"
    return (
        f"memory-compact, budget_chars {summary[BUDGET]:,}, keep_last_n "
        f"{summary['keep_last_n']}, keep_roles {roles}, duplicate_threshold "
        f"{summary['duplicate_threshold']:g}, max_message_chars {summary['max_message_chars']:,}"
    )


def check(
    groups: Sequence[Group], thresholds: Sequence[Threshold], worst: int = WORST
) -> list[Verdict]:
    """One :class:`Verdict` per (setting, threshold), setting by setting."""
    verdicts = []
    for group in groups:
        for t in thresholds:
            value = group.summary.get(t.figure)
            holds = value is not None and (
                value >= t.bound if t.direction == "under" else value <= t.bound
            )
            found = () if holds else _worst(FIGURES[t.figure], group.rows, worst)
            verdicts.append(Verdict(t, group.label, value, holds, found))
    return verdicts


def _worst(figure: Figure, rows: Sequence[Row], limit: int) -> tuple[tuple[Any, str], ...]:
    scored = []
    for order, row in enumerate(rows):
        try:
            score = figure.score(row)
        except KeyError:
            score = None
        if score is not None:
            scored.append((score, order, row))
    scored.sort(key=lambda found: found[:2])
    return tuple((row["conversation"], figure.said(row)) for _, _, row in scored[:limit])
