"""Recommend's speed (issue 39, item 5): 100 trials over 200 conversations in at most 60 s.

The set, "mixed-200": the shared corpus (``../shared/corpus``: 4 conversations, tau-bench and
ABCD and SWE-agent traces), windows of the twelve real Claude Code sessions
(``../shared/real-compactions``: 6 windows of 30 messages from each, contents cut at 2,000
characters, as an agent's context at six points of its session), and generated conversations
(the property tests' pieces, ``harness/pieces.py``: 8 to 40 messages, seeded) to make 200.
Goal: 4,000 characters, needed-later recall, the budget met on 95%; every strategy with a
search space; seed 0. Each backend's run prints its trials per second and the check.

    python -m bench.recommend [--trials N] [--backends local,ray]    # from the project root
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from compactor.evaluation import CorpusItem, load_corpus
from compactor.recommend import Goal, Options, recommend
from harness.pieces import PIECES

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SIZE = 200
WINDOWS, WINDOW, CUT = 6, 30, 2000
TARGET_SECONDS = 60.0


def mixed_200() -> list[CorpusItem]:
    """The set named above, in a fixed order."""
    items = list(load_corpus(SHARED / "corpus"))
    for session_file in sorted((SHARED / "real-compactions").glob("*.jsonl")):
        (session,) = load_corpus(session_file, keep_last=True, cut_long=True)
        messages = [{**m, "content": m["content"][:CUT]} for m in session.request["messages"]]
        step = max(1, (len(messages) - WINDOW) // WINDOWS)
        for k in range(WINDOWS):
            window = messages[k * step : k * step + WINDOW]
            if len(window) >= 12:
                request = {**session.request, "messages": window}
                name = f"{session_file.stem}@{k * step}"
                items.append(CorpusItem(name, request))
    rnd = random.Random(39)
    roles = ("user", "assistant", "tool", "assistant")
    g = 0
    while len(items) < SIZE:
        n = rnd.randint(8, 40)
        order = f"DE-{rnd.randint(1000, 9999)}"
        messages = [{"role": "system", "content": f"You are a careful agent. Order {order}."}]
        for k in range(n - 1):
            text = "".join(rnd.choices(PIECES, k=rnd.randint(5, 120))).strip() or "ok"
            if rnd.random() < 0.15:
                text += f" About {order}."
            messages.append({"role": roles[k % len(roles)], "content": text})
        items.append(CorpusItem(f"generated-{g}", {"messages": messages, "budget_chars": 4000}))
        g += 1
    return items[:SIZE]


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def run(items: list[CorpusItem], trials: int, backend: str) -> None:
    cpu, start = _cpu(), time.perf_counter()
    found = recommend(
        items, Goal(budget_chars=4000), Options(trials=trials, seed=0, workers=2, backend=backend)
    )
    seconds = time.perf_counter() - start
    cpu = _cpu() - cpu  # this process and its pool's workers (Ray's workers are not counted)
    tuned = len(found.trials) / found.seconds
    verdict = "ok" if seconds <= TARGET_SECONDS else f"over the {TARGET_SECONDS:.0f} s goal"
    print(
        f"{backend}: {len(found.trials)} trials, {seconds:.1f} s in all ({verdict}), "
        f"{tuned:.2f} trials/s, {cpu:.0f} CPU s here ({cpu / 2:.0f} s on each of 2 cores "
        f"if split evenly; the wall time counts whatever else the machine runs); "
        f"winner {found.winner.strategy} {dict(found.winner.params)}"
    )
    for line in found.check.lines():
        print("  " + line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument(
        "--backends", default="local,ray", help="which backends, in order (default local,ray)"
    )
    args = parser.parse_args()
    items = mixed_200()
    chars = sum(len(m["content"]) for i in items for m in i.request["messages"])
    print(f"mixed-200: {len(items)} conversations, {chars:,} characters", flush=True)
    for backend in args.backends.split(","):
        run(items, args.trials, backend.strip())


if __name__ == "__main__":
    main()
