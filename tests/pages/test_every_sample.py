"""Every page renders every sample without an error, with its charts."""

import pytest

from compactor.samples import load_samples
from explorer.navigation import PAGES
from harness.apptest import assert_clean, charts, goto, start

SAMPLES = load_samples()
CHART_PAGES = {"pages/overview.py": 3, "pages/timeline.py": 1, "pages/scores.py": 1}


@pytest.fixture(scope="module", params=SAMPLES, ids=lambda s: s.slug)
def session(request):
    return start({"sample": request.param.slug})


@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.title)
def test_every_page_renders_every_sample(session, spec):
    at = goto(session, spec.path)
    assert_clean(at)
    assert at.title[0].value == spec.title
    assert len(charts(at)) >= CHART_PAGES.get(spec.path, 0)
    for _, data in charts(at):
        assert data, "a chart without data"
