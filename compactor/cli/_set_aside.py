"""How ``evaluate`` tells of the conversations it set aside: each one on standard error, with
what makes it unusable, where, and the option that fixes it; the run goes on with the others
and ends with :data:`SET_ASIDE` (the rows and the summary are written for the others), or
:data:`NOTHING_EVALUATED` when none was left to evaluate."""

from __future__ import annotations

from compactor.cli._io import fail
from compactor.errors import more_problems
from compactor.evaluation import FIXES, CorpusStream

#: The exit code of a run that finished with conversations set aside (0: none was; 1: a
#: threshold of the gate failed, which says more; 2: nothing was evaluated).
SET_ASIDE = 3

#: The exit code of a run whose every conversation was set aside: nothing was evaluated.
NOTHING_EVALUATED = 2

#: The option of ``evaluate`` that applies each of the import's fixes.
FLAGS = {"keep_last": "--keep-last", "cut_long": "--cut-long"}


def report(corpus: CorpusStream, out: str | None, verdict: int = 0, verbose: bool = False) -> int:
    """Write what was set aside on standard error, then a count; the exit code:
    :data:`NOTHING_EVALUATED` when none was evaluated, else the gate's ``verdict`` when it
    failed, else :data:`SET_ASIDE`.

    By default one line per conversation set aside (its first problem, and how many more it
    has); with ``verbose``, one line per problem of each (issue 40: a folder's notice ran to 57
    lines)."""
    lines = []
    for found in corpus.set_aside:
        hint = "; ".join(f"{FLAGS[fix]} {FIXES[fix]}" for fix in found.fixes)
        problems = list(found.problems) if verbose else list(found.problems)[:1]
        for problem in problems:
            lines.append(f"set aside {found.label}: {problem}" + (f" ({hint})" if hint else ""))
        more = len(found.problems) - len(problems)
        if more:
            lines[-1] += f"; {more:,} more problem{'s' if more != 1 else ''} (--verbose)"
    unlisted = corpus.unusable - len(corpus.set_aside)
    if unlisted:
        lines.append(str(more_problems(unlisted)).removeprefix("$: "))
    kept_in = f"; their rows are in {out}" if out else ""
    lines.append(
        f"{corpus.read:,} of the {len(corpus):,} conversations evaluated, "
        f"{corpus.unusable:,} set aside (above){kept_in}"
    )
    fail(lines)
    if not corpus.read:
        return NOTHING_EVALUATED
    return verdict or SET_ASIDE
