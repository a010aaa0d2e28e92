"""Explorer speed as a person sees it: from a budget change to the updated chart in Chromium.

Starts ``streamlit run app.py`` (as the browser tests do), opens the largest sample (the one with
the most characters) on the Overview in headless Chromium, then enters new budgets in the
sidebar's exact box, one after another. Each move is timed inside the browser: from the Enter
key's event to the first animation frame on which the Overview's charts draw the new budget (the
waterfall's budget rule and the fate chart's count of dropped messages, both as the engine says)
and Streamlit is idle again (script not running, no status widget). Prints the median.
Target: <= 1.5 s.

    python -m bench.browser    # from the project root
"""

from __future__ import annotations

import statistics

from playwright.sync_api import sync_playwright

from compactor import analyse, run, validate
from compactor.samples import load_samples
from harness import browser as driver

#: New budgets only (none is the sample's own 120,000, so the server computes each afresh).
BUDGETS = [40_000, 200_000, 80_000, 240_000, 100_000, 320_000, 160_000]

#: Armed before each move: the Enter key on the budget box stamps the start of the move.
ARM = """box => {
    window.__budgetMoveStart = null;
    box.addEventListener('keydown', event => {
        if (event.key === 'Enter') window.__budgetMoveStart = performance.now();
    }, {capture: true, once: true});
}"""
#: Milliseconds from the stamp to the first frame showing the new budget with Streamlit idle.
DONE = """([label, dropped]) => {
    const start = window.__budgetMoveStart;
    if (start === null) return false;
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.dataset.testScriptState !== 'notRunning'
        || document.querySelector('[data-testid="stStatusWidget"]')) return false;
    const data = [...document.querySelectorAll(
        '[data-testid="stVegaLiteChart"] svg.marks g.role-mark > *')]
        .map(mark => mark.__data__ && mark.__data__.datum).filter(Boolean);
    const rule = data.some(datum => datum.label === label);
    const fates = data.filter(datum => 'original_chars' in datum && 'fate' in datum);
    const drops = fates.filter(datum => datum.fate === 'dropped').length;
    if (!rule || fates.length === 0 || drops !== dropped) return false;
    return performance.now() - start;
}"""


def chars(request: dict) -> int:
    return sum(len(m["content"]) for m in request["messages"])


def dropped_at(request: dict, budgets: list[int]) -> dict[int, int]:
    """How many messages the engine drops at each budget (what the fate chart must show)."""
    analysis = analyse(
        [m["content"] for m in request["messages"]], [m["role"] for m in request["messages"]]
    )
    out = {}
    for budget in budgets:
        result = run(validate({**request, "budget_chars": budget}), analysis=analysis)
        out[budget] = len(result.dropping.dropped)
    return out


def main() -> None:
    sample = max(load_samples(), key=lambda s: chars(s.request))
    request = sample.request
    print(
        f"explorer in Chromium: sample {sample.slug!r}: {len(request['messages'])} messages, "
        f"{chars(request):,} characters, Overview, {len(BUDGETS)} budget moves"
    )
    drops = dropped_at(request, BUDGETS)
    log = driver.ARTIFACTS / "bench-browser-server.log"
    with driver.running_app(log) as server, sync_playwright() as playwright:
        browser = driver.launch(playwright)
        visit = driver.Visit(browser, server.url)
        try:
            visit.open(f"?sample={sample.slug}")
            box = visit.budget_box()
            times = []
            for budget in BUDGETS:
                box.evaluate(ARM)
                box.fill(str(budget))
                box.press("Enter")
                handle = visit.page.wait_for_function(
                    DONE, arg=[f"budget {budget:,}", drops[budget]], timeout=60_000
                )
                times.append(handle.json_value() / 1000)
                print(f"  budget {budget:>7,}: {times[-1]:.3f} s ({drops[budget]} dropped)")
            if visit.foreign:
                raise SystemExit(f"the page asked another origin for: {visit.foreign}")
        finally:
            visit.close()
            browser.close()
    median = statistics.median(times)
    print(f"  median {median:.3f} s (min {min(times):.3f}, max {max(times):.3f})")
    print(f"MEDIAN_BROWSER_SECONDS {median:.3f} (target <= 1.5)")


if __name__ == "__main__":
    main()
