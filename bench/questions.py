"""Labelled questions over a corpus: how each setting, keep-last and random fare.

    python -m bench.questions [FOLDER] [--budgets 2000,4000,8000,16000]

Builds a question set over the corpus (default: the shared corpus folder) by a rule stated
here and blind to every strategy: per conversation, its system prompt ("policy"), its first
user message ("task"), each tool result (with its first booking-like code, six capitals and
digits, as the answer when it has one) and its last message ("final"). Then evaluates the grid
keep_last_n 0,5 x keep_roles system,none at the budgets and prints, per setting, probe recall
(strict, partial, answer; pooled, with counts) beside keep-last and random at its budget and
needed-later recall (and how many conversations met the budget: a setting that keeps a
6,000-character system prompt misses a 2,000 budget and is compared with baselines that fit
it), then the questions each setting fails, by kind. Structural labels, not a
team's: they show the mechanics and the spread, not which strategy a person would prefer.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from compactor.evaluation import (
    CorpusStream,
    RunOptions,
    evaluate,
    grid_points,
    read_questions_text,
    summarise,
)
from compactor.wording import percent

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
CODE = re.compile(r"\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6}\b")


def question_set(folder: Path) -> list[dict]:
    """The structural questions of every conversation of ``folder``."""
    found = []
    for item in CorpusStream(folder):
        messages = item.request["messages"]
        name = item.conversation
        roles = [m["role"] for m in messages]
        if roles[0] == "system":
            found.append({"record": name, "id": f"{name}:policy", "evidence": [0],
                          "question": "What are the agent's rules?"})  # fmt: skip
        if "user" in roles:
            found.append({"record": name, "id": f"{name}:task", "evidence": [roles.index("user")],
                          "question": "What did the user first ask for?"})  # fmt: skip
        for i, m in enumerate(messages):
            if m["role"] != "tool":
                continue
            question = {"record": name, "id": f"{name}:tool{i}", "evidence": [i],
                        "question": f"What did tool result #{i} say?"}  # fmt: skip
            code = CODE.search(m["content"])
            if code:
                question["answer"] = code.group(0)
            found.append(question)
        found.append({"record": name, "id": f"{name}:final", "evidence": [len(messages) - 1],
                      "question": "How did the conversation end?"})  # fmt: skip
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(SHARED))
    parser.add_argument("--budgets", default="2000,4000,8000,16000")
    args = parser.parse_args()
    folder = Path(args.folder)
    asked = question_set(folder)
    questions = read_questions_text(json.dumps(asked), "structural questions")
    items = list(CorpusStream(folder, questions=questions))
    grid = grid_points({}, {"keep_last_n": [0, 5], "keep_roles": [["system"], []]})
    budgets = [int(b) for b in args.budgets.split(",")]
    rows = list(evaluate(items, grid, budgets, RunOptions(workers=1)))
    print(
        f"{len(items)} conversations, {questions.asked} questions, {questions.unusable} set aside"
    )
    print(
        f"{'budget':>7} {'last':>4} {'roles':<7} {'met':>4} "
        + " ".join(f"{k + ' set/keep-last/random':>34}" for k in ("strict", "partial", "answer"))
        + f" {'needed set/keep-last/random':>30}"
    )
    misses: Counter[str] = Counter()
    settings = 0
    for s in summarise(rows):
        if s["strategy"] != "memory-compact":
            continue
        settings += 1
        cells = []
        for kind in ("strict", "partial", "answer"):
            of = s["probes_answerable"] if kind == "answer" else s["probes_total"]
            met = s[f"probes_met_{kind}"]
            figures = "/".join(
                percent(s.get(f"probe_recall_{kind}{suffix}"))
                for suffix in ("", "_keep_last", "_random")
            )
            cells.append(f"{f'{met}/{of} ' + figures:>34}")
        needed = "/".join(
            percent(s.get(k))
            for k in ("needed_recall", "needed_recall_keep_last", "needed_recall_random")
        )
        roles = "+".join(s["keep_roles"]) or "none"
        print(
            f"{s['budget_chars']:>7,} {s['keep_last_n']:>4} {roles:<7} "
            f"{s['budget_met_count']}/{s['conversations']:<2} " + " ".join(cells) + f" {needed:>30}"
        )
        misses.update(f["id"].split(":")[1].rstrip("0123456789") for f in s["probes_failed"])
    print(f"failed questions by kind over {settings} settings: {dict(misses.most_common())}")


if __name__ == "__main__":
    main()
