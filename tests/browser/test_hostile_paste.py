"""The hostile corpus (tests/hostile/cases.py) pasted into the Conversation page's paste box.

One page load, then each case pasted and loaded in turn, as a person would. A refusal is the
error box and the problem table that the import layer decides (tests/hostile/explorer_answers.py:
the same first and last rows, as many rows), every row saying where: the whole-input shapes (no
messages, a number, a string, null, true, []) at ``$``, the 40 KB amplification body 100 rows and
then "and 39,901 more". A body the import takes (an unknown key, a byte-order mark) loads and
lists the ignored key, shortened and escaped. Never an exception, and the pasted text stays in
the box.

Not pasted: the cases that are not UTF-8 text, or longer than 100,000 characters (a textarea
fill of megabytes is slow, and no one pastes them): tests/hostile/test_explorer_upload.py loads
those through the page's upload instead.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, expect

from explorer.frames import imports
from explorer.navigation import PAGES
from explorer.widgets.page import FRIENDLY_ERROR
from tests.hostile.explorer_answers import Answer, answer, check_refusal, first_params, pasteable

CONVERSATION = next(spec for spec in PAGES if spec.path == "pages/conversation.py")
LOADED = "Loaded: Pasted conversation (request)"


def cell(frame: Locator, column: int, row: int) -> Locator:
    """A data frame's cell by position (the grid's accessible cells are named so)."""
    return frame.get_by_test_id(f"glide-cell-{column}-{row}")


def expected() -> list[tuple[str, str, Answer, tuple[str, ...]]]:
    """(name, text, what the page must show, the ignored keys' places) for each pasted case."""
    out = []
    for case in pasteable():
        text = case.text()
        assert text is not None
        shown = answer(text, "pasted", first_params())
        if shown.loaded:
            places = tuple(c.source for c in imports.read(text).conversion.changes)
        else:
            check_refusal(case, shown)
            places = ()
        out.append((case.name, text, shown, places))
    # Each outcome differs from the one before it, so that seeing it proves the new run drew.
    for (before, _, was, _), (name, _, now, _) in zip(out, out[1:], strict=False):
        assert (was.loaded, was.title, was.rows[:1]) != (now.loaded, now.title, now.rows[:1]), (
            f"{before} and {name} look the same on the page: reorder the cases"
        )
    return out


# 25 pastes in one page: more than one page visit's 120 s under a loaded machine
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_every_hostile_paste_is_refused_where_it_is_wrong_and_the_text_stays(visit):
    cases = expected()
    assert len(cases) >= 20 and any(len(shown.rows) > 100 for _, _, shown, _ in cases)
    visit.open()
    visit.go(CONVERSATION.title)
    visit.choose_mode("Paste")
    box = visit.paste_box
    for name, text, shown, places in cases:
        box.fill(text)
        visit.main.get_by_role("button", name="Load pasted conversation").click()
        frames = visit.main.get_by_test_id("stDataFrame")
        if shown.loaded:
            expect(visit.alert(LOADED), name).to_be_visible()
            changes = visit.table_with(places[0]) if places else None
            for place in places:
                expect(visit.cell(changes, place), f"{name}: {place}").to_have_count(1)
        else:
            expect(visit.alert(shown.title), name).to_be_visible()
            expect(frames, name).to_have_count(1)
            frame = frames.first
            where, problem = shown.rows[0]
            expect(cell(frame, 0, 0), name).to_have_text(where)
            expect(cell(frame, 1, 0), name).to_have_text(problem)
            last = len(shown.rows) - 1
            if last:
                frame.hover()
                visit.page.mouse.wheel(0, 100_000)  # the grid draws only the rows in view
                where, problem = shown.rows[last]
                expect(cell(frame, 0, last), name).to_have_text(where)
                expect(cell(frame, 1, last), name).to_have_text(problem)
            expect(cell(frame, 0, last + 1), name).to_have_count(0)
        visit.settle()
        assert not visit.exceptions(), name
        expect(visit.main.get_by_text(FRIENDLY_ERROR), name).to_have_count(0)
        expect(box, name).to_have_value(text)  # nothing typed is lost
    assert visit.errors == [] and visit.dialogs == []
