"""Issue 35: the fate timeline of a long conversation is drawn in windows under a strip of the
whole; the strip counts every message and character once, in at most STRIP_BINS columns."""

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.frames import views

FATES = ("protected", "verbatim", "trimmed", "deduped", "dropped")


def frame(count: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "index": range(count),
            "fate": [FATES[(i * 7) % 5] for i in range(count)],
            "original_chars": [(i * 37) % 1000 + 1 for i in range(count)],
        }
    )


@settings(deadline=None)
@given(st.integers(1, 3_000))
def test_the_strip_counts_every_message_once_in_at_most_its_bins(count):
    whole = frame(count)
    strip = views.fate_strip(whole)
    assert strip["bin"].nunique() <= views.STRIP_BINS
    assert strip["messages"].sum() == count
    assert strip["original_chars"].sum() == whole["original_chars"].sum()
    assert strip["first"].min() == 0 and strip["last"].max() == count - 1


@given(st.integers(0, 5_000), st.integers(0, 4_999))
def test_the_window_holds_the_picked_message_and_stays_in_the_conversation(count, picked):
    size = views.TIMELINE_WINDOW
    start = views.window_start(count, picked % count if count else None)
    if count <= size:
        assert start == 0
        return
    assert 0 <= start <= count - size
    assert start <= picked % count < start + size
