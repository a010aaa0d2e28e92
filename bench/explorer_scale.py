"""Explorer speed at agent scale (issue 35): every page on a session of 1,000 messages and
1,000,000 characters, loaded whole (the engine's agent mode).

For each page of the navigation, in Streamlit's AppTest: open the page, one warm-up rerun after
a budget change, then five more budget changes to values not seen before (each a new engine run
and new analyses), timing each rerun (the script, the cached engine calls, the views and
AppTest's own work of turning the page into elements). Prints each page's median of the five.
Targets: Overview at most 1 s, every page at most 3 s, on the project's 2-core machine.

The session: ``bench.agent_scale.history`` (messages of about 1,000 characters from the engine
bench's prose, roles user, assistant, tool, assistant), about 1,000 messages and 1,000,000
characters; ``--real`` builds it instead from the shared real Claude Code sessions
(``../shared/real-compactions``): their messages in order up to 1,000 (tool results up to
50,000 characters).

    python -m bench.explorer_scale [--real] [--pages overview,timeline]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bench.agent_scale import history
from compactor.formats import convert_text
from explorer.navigation import PAGES
from explorer.session import state
from explorer.session.conversation import Conversation, params_from
from explorer.session.keys import PHRASES_KEY
from explorer.widgets.page import FRIENDLY_ERROR
from harness.apptest import APP

MESSAGES = 1_000
CHARS = 1_000_000
REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real-compactions"
RERUNS = 5
TARGET_OVERVIEW = 1.0
TARGET_PAGE = 3.0
WATCHED_PHRASES = "error\ntest\nthe file\nnot in this history"


def synthetic() -> dict:
    return history(CHARS)


def real() -> dict:
    """The shared real sessions' messages, in order, up to 1,000 (each file read whole)."""
    messages: list[dict] = []
    for path in sorted(REAL.glob("*.jsonl")):
        messages.extend(convert_text(path.read_bytes()).request["messages"])
        if len(messages) >= MESSAGES:
            break
    messages = messages[:MESSAGES]
    return {"messages": messages, "budget_chars": 200_000}


def chars(request: dict) -> int:
    return sum(len(m["content"]) for m in request["messages"])


def open_app(request: dict) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=600)
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
    if FRIENDLY_ERROR in [e.value for e in at.error]:  # a view failed: its time means nothing
        raise SystemExit("a view of the page failed (its log above says why)")
    return elapsed


def page_path(spec_path: str) -> str:
    return str(Path("..") / spec_path)  # relative to harness/explorer_entry.py


def moves(at: AppTest, budgets: list[int]) -> list[float]:
    box = state.PARAM_KEYS["budget_chars"]
    times = []
    for budget in budgets:
        at.number_input(key=box).set_value(budget)
        times.append(timed(at))
        if at.query_params.get("budget_chars") != str(budget):  # the run really used it
            raise SystemExit(f"the budget {budget} did not reach the page")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", action="store_true", help="build it from the real sessions")
    parser.add_argument("--pages", help="comma-separated page names (overview,timeline,...)")
    args = parser.parse_args()
    request = real() if args.real else synthetic()
    kind = "real sessions" if args.real else "bench.agent_scale.history"
    print(
        f"explorer at scale ({kind}): {len(request['messages']):,} messages, "
        f"{chars(request):,} characters, {RERUNS} reruns after a budget change per page "
        "(one warm-up first), medians"
    )
    at = open_app(request)
    start = time.perf_counter()
    timed(at)
    print(f"  load (text analysis and first run): {time.perf_counter() - start:.2f} s")
    at.session_state[PHRASES_KEY] = WATCHED_PHRASES
    wanted = set(args.pages.split(",")) if args.pages else None
    base = request["budget_chars"]
    worst = []
    for n, spec in enumerate(PAGES):
        name = Path(spec.path).stem
        if wanted and name not in wanted:
            continue
        at.switch_page(page_path(spec.path))
        first = timed(at)
        budgets = [base + 1_000 * (n * 10 + k) for k in range(1, RERUNS + 2)]
        warm = moves(at, budgets[:1])[0]
        times = moves(at, budgets[1:])
        median = statistics.median(times)
        target = TARGET_OVERVIEW if name == "overview" else TARGET_PAGE
        worst.append((median / target, name))
        print(
            f"  {spec.title:<20} median {median:6.2f} s (max {max(times):.2f}; first visit "
            f"{first:.2f}, warm-up {warm:.2f}) target <= {target:.0f} s"
            f"{'' if median <= target else '  OVER'}"
        )
        if name == "replay" and any(b.key == "replay_go_button" for b in at.button):
            at.button(key="replay_go_button").click()
            asked = timed(at)  # the replay itself, which a long conversation runs on request
            print(f"  {'':<20} the replay itself, on request: {asked:.2f} s (once)")
    ratio, name = max(worst)
    print(f"WORST_PAGE {name} {ratio:.2f} x its target")


if __name__ == "__main__":
    main()
