"""How pytest-xdist shares out the suite: every test on its own, except the browser tests, which
one worker runs together, in order, on one server and one Chromium (their package fixtures).

pytest-xdist's own ``--dist loadgroup`` cannot do this under pytest 9.2: it marks a group by
rewriting a test's node id, which pytest now computes. The scheduler here groups by path.
"""

from __future__ import annotations

import pytest

BROWSER = "tests/browser/"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if config.getvalue("dist") != "load":  # -n's default; another --dist asked for is kept
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BrowserTestsTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return BROWSER if nodeid.startswith(BROWSER) else nodeid

    return BrowserTestsTogether(config, log)
