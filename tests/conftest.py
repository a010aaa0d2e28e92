"""What the whole suite shares: the ``browser`` mark on every test under tests/browser/, and how
pytest-xdist shares out the suite: every test on its own, except that a browser test file goes to
one worker whole, so that its tests share that worker's server and Chromium (package fixtures)
and its module fixtures (the dark-theme server) start once; a file whose tests each start a
server of their own is shared out test by test.

pytest-xdist's ``--dist loadfile`` would send every file whole, piling up a file of slow tests on
one worker; its ``loadgroup`` marks a group by rewriting node ids, which pytest 9.2 ignores. The
scheduler here groups by path.
"""

from __future__ import annotations

import pytest

BROWSER = "tests/browser/"
#: Browser test files whose tests each start a server of their own: shared out one by one.
EACH_ITS_OWN_SERVER = ("tests/browser/test_deep_links.py",)


# tryfirst: the mark must be on the items before ``-m "not browser"`` deselects by it.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(BROWSER):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if config.getvalue("dist") != "load":  # -n's default; another --dist asked for is kept
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BrowserFilesWhole(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            whole = nodeid.startswith(BROWSER) and not nodeid.startswith(EACH_ITS_OWN_SERVER)
            return nodeid.split("::", 1)[0] if whole else nodeid

    return BrowserFilesWhole(config, log)
