"""``evaluate --resume``: the rows an interrupted run wrote, read one at a time, and the check
that they were made by the same run (grid, budgets, columns) before it goes on."""

from __future__ import annotations

from typing import Any

from compactor.cli._reports import write_lines
from compactor.errors import Problem, ProblemError
from compactor.evaluation import (
    BASELINES,
    BUDGET,
    RunOptions,
    Written,
    baseline_point,
    baseline_protections,
    describe_setting,
    grid_point_key,
    iter_rows,
)


def written_before(out: str | None, plan: Any, options: RunOptions, feed: Any = None) -> Written:
    """The rows already in ``out`` (None: a fresh run, none), read one at a time: the rows of
    this run's settings go to the summary ``feed``. Raises :class:`ProblemError` when they were
    made with another grid, budgets or columns than this run's; says which settings are new."""
    written = Written()
    if out is None:
        return written
    wanted = set(setting_keys(plan, options))
    for row in iter_rows(out):
        written.add(row)
        if feed is not None and grid_point_key(row) in wanted:
            feed.add(row)
    if written.rows:
        _same_run(out, written, wanted, plan, options)
    return written


def setting_keys(plan: Any, options: RunOptions) -> list[tuple[Any, ...]]:
    """The settings this run writes rows of, in order: the grid's, then the baselines' (each
    in its protected form per keep_roles of the grid, and bare)."""
    keys = [grid_point_key(s) for s in plan.settings]
    if options.future is not None:
        keys += [
            grid_point_key(baseline_point(b, roles))
            for b in BASELINES
            for roles in baseline_protections(plan.settings)
        ]
    return keys


def _same_run(out: str, written: Written, wanted: set[Any], plan: Any, options: RunOptions) -> None:
    """Refuse to resume rows made with another grid; say which settings a larger grid adds."""
    problems = []
    for column, flag, given in (
        ("output_tokens", "--encoding", options.encoding is not None),
        ("needs", "outcome columns (without --no-outcomes)", options.future is not None),
    ):
        if (column in written.columns) != given:
            had = "with" if column in written.columns else "without"
            problems.append(f"its rows were made {had} {flag}, this run is not")
    others = [key for key in written.settings if key not in wanted]
    if others:
        shown = "; ".join(describe_setting(k) for k in others[:3])
        more = f" and {len(others) - 3:,} more" if len(others) > 3 else ""
        problems.append(f"its rows hold settings this run's --grid does not: {shown}{more}")
    listed = plan.budgets or [s[BUDGET] for s in plan.settings if BUDGET in s]
    if not plan.sweep and not written.budgets <= set(listed):
        extra = ", ".join(f"{b:,}" for b in sorted(written.budgets - set(listed))[:5])
        problems.append(f"its rows are at budgets this run's --budgets does not list: {extra}")
    if problems:
        raise ProblemError(
            [
                Problem(
                    f"{out}: cannot resume: {problem}; resume with the same --grid, --budgets "
                    "and flags as the first run (more --grid values or budgets are fine: only "
                    "they run), or write to another --out",
                    path="--resume",
                )
                for problem in problems
            ]
        )
    new = [key for key in setting_keys(plan, options) if key not in written.settings]
    write_lines(
        f"resuming {out}: {len(written.settings):,} settings there; adding "
        f"{describe_setting(key)} for every conversation"
        for key in new
    )
