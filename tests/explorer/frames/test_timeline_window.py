"""Issue 35: the fate timeline of a long conversation is drawn in windows under a strip of the
whole; the strip counts every message and character once, in at most STRIP_BINS columns."""

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.frames import compare, views

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


@settings(deadline=None, max_examples=30)
@given(st.integers(1, 1_500))
def test_the_strategy_runs_count_every_message_of_every_strategy_once(count):
    kinds = ("verbatim", "cut", "removed")
    long = pd.DataFrame(
        {
            "strategy": [s for s in ("a", "b") for _ in range(count)],
            "index": [i for _ in range(2) for i in range(count)],
            "kept": [kinds[(i * 5) % 3] for _ in range(2) for i in range(count)],
            "chars": [i % 50 for _ in range(2) for i in range(count)],
            "original_chars": [i % 90 + 1 for _ in range(2) for i in range(count)],
        }
    )
    runs = compare.strategy_runs(long, views.STRIP_BINS)
    for strategy in ("a", "b"):
        mine = runs[runs["strategy"] == strategy]
        assert len(mine) <= views.STRIP_BINS
        counted = sum(int(n.split()[0]) for c in mine["counts"] for n in c.split(", "))
        assert counted == count
        assert (
            mine["original_chars"].sum()
            == long[long["strategy"] == strategy]["original_chars"].sum()
        )


def test_a_strategy_run_is_named_by_its_most_frequent_kind_and_a_tie_by_the_first_seen():
    kept = ["cut", "removed", "removed", "cut", "verbatim", "removed", "verbatim", "verbatim"]
    long = pd.DataFrame(
        {
            "strategy": ["a"] * 8,
            "index": list(range(8)),
            "kept": kept,
            "chars": [1] * 8,
            "original_chars": [2] * 8,
        }
    )
    runs = compare.strategy_runs(long, 2)  # two runs of four messages
    assert runs["message"].tolist() == ["#0 to #3", "#4 to #7"]
    assert runs["kept"].tolist() == ["cut", "verbatim"]
    assert runs["counts"].tolist() == ["2 cut, 2 removed", "3 verbatim, 1 removed"]
    assert runs["chars"].tolist() == [4, 4] and runs["original_chars"].tolist() == [8, 8]
