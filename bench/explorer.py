"""Explorer speed: the server-side rerun time of the main page when the budget moves.

Loads the largest sample (the one with the most characters; until a sample holds the request
limit of 200 messages, the seeded 200 x ~8,000-character prose request of bench/prose.py), opens
the main page (Overview) in Streamlit's AppTest, then sets the budget to new values one after
another and times each rerun: the script, the cached engine calls, the views, and AppTest's own
work of turning the page into elements. Prints the median. Target: <= 0.5 s.

    python -m bench.explorer    # from the project root
"""

from __future__ import annotations

import statistics
import time

from streamlit.testing.v1 import AppTest

from bench.prose import largest_request
from compactor.contract import LIMITS
from compactor.samples import load_samples
from explorer.session import state
from explorer.session.conversation import Conversation, params_from
from explorer.session.keys import PHRASES_KEY
from harness.apptest import APP

BUDGETS = [40_000, 80_000, 120_000, 160_000, 200_000, 240_000, 280_000, 320_000, 360_000]
PAGES = ["pages/timeline.py", "pages/scores.py", "pages/duplicates.py", "pages/trims.py"]
#: The tuning pages (issue 5): each budget move is a new parameter set, so their sweeps,
#: walkthrough, strategy comparison and watched facts are computed afresh on every rerun timed.
TUNING_PAGES = [
    "pages/sweeps.py",
    "pages/sensitivity.py",
    "pages/compare.py",
    "pages/strategies.py",
    "pages/walkthrough.py",
    "pages/facts.py",
    "pages/pairing.py",
]
WATCHED_PHRASES = "order\nrefund\nthe customer\n2024\nnot in this history"


def chars(request: dict) -> int:
    return sum(len(m["content"]) for m in request["messages"])


def largest() -> tuple[str | None, dict]:
    """The largest sample's slug and request; no slug for the prose stand-in."""
    samples = sorted(load_samples(), key=lambda s: chars(s.request), reverse=True)
    if samples and len(samples[0].request["messages"]) >= LIMITS["max_messages"]:
        return samples[0].slug, samples[0].request
    return None, largest_request()


def open_app(slug: str | None, request: dict) -> AppTest:
    """The app, about to open the sample by its link (or load the stand-in on its next run)."""
    at = AppTest.from_file(str(APP), default_timeout=300)
    if slug is not None:
        at.query_params["sample"] = slug
        return at
    at.run()
    conv = Conversation(tuple(request["messages"]), params_from(request, {}), "Benchmark")
    at.session_state[state.PENDING_KEY] = (conv, None)
    return at


def timed(at: AppTest) -> float:
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    if at.exception:
        raise SystemExit(f"the page failed: {at.exception[0].value}")
    return elapsed


def budget_moves(at: AppTest, budgets: list[int]) -> list[float]:
    times = []
    box = state.PARAM_KEYS["budget_chars"]
    for budget in budgets:
        at.number_input(key=box).set_value(budget)
        times.append(timed(at))
        if at.query_params.get("budget_chars") != str(budget):  # the run really used it
            raise SystemExit(f"the budget {budget} did not reach the page")
    return times


def main() -> None:
    slug, request = largest()
    label = f"sample {slug!r}" if slug else "bench.prose.largest_request() (no 200-message sample)"
    print(f"explorer rerun: {label}: {len(request['messages'])} messages, {chars(request):,} chars")
    at = open_app(slug, request)
    first = timed(at)  # opens the conversation: reading it, the text analysis, the first run
    moves = budget_moves(at, BUDGETS)
    again = budget_moves(at, BUDGETS[:5])  # settings seen before: every engine call cached
    print(f"  first load (text analysis and first run): {first:.3f} s")
    median = statistics.median
    print(
        f"  Overview, budget moved to {len(moves)} new values: median {median(moves):.3f} s "
        f"(min {min(moves):.3f}, max {max(moves):.3f})"
    )
    print(f"  Overview, budget moved back to values seen before: median {median(again):.3f} s")
    for page in PAGES:
        at.switch_page(page)
        timed(at)
        times = budget_moves(at, [b + 1_000 for b in BUDGETS[:5]])
        print(f"  {page}: median {statistics.median(times):.3f} s over {len(times)} new budgets")
    at.session_state[PHRASES_KEY] = WATCHED_PHRASES  # the Watched facts page has work to do
    for page in TUNING_PAGES:
        at.switch_page(page)
        first_visit = timed(at)
        times = budget_moves(at, [b + 2_000 for b in BUDGETS[:5]])
        print(
            f"  {page}: median {statistics.median(times):.3f} s over {len(times)} new budgets "
            f"(max {max(times):.3f}; first visit {first_visit:.3f} s)"
        )
    print(f"MEDIAN_RERUN_SECONDS {statistics.median(moves):.3f} (target <= 0.5)")


if __name__ == "__main__":
    main()
