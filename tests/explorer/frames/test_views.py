"""The views' data frames hold the engine's numbers; their totals agree with the response."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import compact, run, validate
from explorer.frames import stages as stage_frames
from explorer.frames import views
from explorer.theme import FATES
from explorer.timeline import detail
from tests.explorer.requests import rich_request
from tests.generate import requests


@pytest.fixture(scope="module")
def rich():
    return run(validate(rich_request()))


@settings(max_examples=60, deadline=None)
@given(requests())
def test_the_fate_table_is_the_engines_trace_message_by_message(request):
    result = run(validate(request))
    frame = views.fate_frame(result)
    assert list(frame["index"]) == list(range(len(request["messages"])))
    for row, trace in zip(frame.itertuples(), result.messages, strict=True):
        assert row.fate == trace.fate.value
        assert row.original_chars == len(request["messages"][row.index]["content"])
        assert row.chars == trace.chars
        assert row.reasons == ", ".join(trace.protected_because)
        assert row.cut_chars == (trace.cut.original_chars - trace.cut.chars if trace.cut else 0)
        assert len(row.preview) <= views.PREVIEW_CHARS


@settings(max_examples=60, deadline=None)
@given(requests())
def test_totals_per_fate_stage_and_output_agree_with_the_response(request):
    result = run(validate(request))
    response = compact(request)
    loss = response["loss"]
    counts = views.fate_counts(result).set_index("fate")
    assert list(counts.index) == list(FATES)
    assert counts["messages"].sum() == loss["input_messages"]
    assert counts["input_chars"].sum() == loss["input_chars"]
    assert counts["output_chars"].sum() == loss["output_chars"]
    lost = counts.loc[["duplicate", "dropped"], "messages"].sum()
    assert lost == loss["dropped_messages"]

    waterfall = views.waterfall_frame(result.totals).set_index("step")
    assert waterfall.loc["Input", "high"] == loss["input_chars"]
    assert waterfall.loc["Output", "high"] == loss["output_chars"]
    removed = waterfall.loc[["Dedupe", "Trim", "Drop"], "chars"].sum()
    assert removed == loss["input_chars"] - loss["output_chars"]
    assert waterfall.loc["Trim", "low"] == result.totals.after_trim

    output = views.output_frame(result)
    assert output["chars"].sum() == loss["output_chars"]
    assert output.iloc[-1]["end"] == loss["output_chars"]
    protected = output.set_index("fate").loc["protected", "chars"]
    assert protected == response["budget"]["protected_chars"]

    stages = stage_frames.stage_rows(result)
    assert list(stages["messages"]) == [
        response["stages"][0]["protected_messages"],
        response["stages"][1]["removed_messages"],
        response["stages"][2]["trimmed_messages"],
        response["stages"][3]["dropped_messages"],
    ]
    assert stages["chars_removed"].sum() == loss["input_chars"] - loss["output_chars"]


@settings(max_examples=60, deadline=None)
@given(requests())
def test_scores_add_up_and_the_drop_line_is_the_highest_dropped_score(request):
    result = run(validate(request))
    frame = views.scores_frame(result)
    assert set(frame["index"]) == set(result.dropping.scores)
    parts = frame["recency_part"] + frame["role_part"] + frame["topic_part"]
    assert ((parts - frame["score"]).abs() <= 5e-7).all()
    assert sorted(frame["drop_order"]) == list(range(1, len(frame) + 1))
    dropped = {d.index for d in result.dropping.dropped}
    assert set(frame.loc[frame["dropped"], "index"]) == dropped
    line = views.drop_line(result)
    if dropped:
        assert line == max(frame.loc[frame["dropped"], "score"])
        kept = frame.loc[~frame["dropped"], "score"]
        assert (kept >= line).all()
    else:
        assert line is None
    long = views.score_parts_frame(frame)
    assert len(long) == 3 * len(frame)
    sums = long.groupby("index")["value"].sum()
    for index, total in sums.items():
        assert abs(total - frame.set_index("index").loc[index, "score"]) <= 5e-7


def test_topic_terms_are_the_engines_in_order(rich):
    frame = views.topic_frame(rich)
    assert list(zip(frame["term"], frame["count"], strict=True)) == list(rich.analysis.topic_terms)
    assert list(frame["rank"]) == list(range(1, len(frame) + 1))


def test_the_protected_table_keeps_reasons_and_a_running_total(rich):
    frame = views.protected_frame(rich)
    assert list(frame["index"]) == [0, 6, 10, 11]
    assert list(frame["by pin"]) == [False, True, False, False]
    assert list(frame["by role"]) == [True, False, False, False]
    assert list(frame["by recency"]) == [False, False, True, True]
    assert frame["end"].iloc[-1] == rich.protected_chars
    assert (frame["end"] - frame["start"] == frame["chars"]).all()
    assert views.protection_counts(rich) == {"pin": 1, "role": 1, "recent": 2}


def test_similarities_are_each_messages_nearest_and_flag_the_threshold(rich):
    frame = views.similarity_frame(rich).set_index("index")
    for trace in rich.messages:
        if trace.nearest is None:
            assert trace.index not in frame.index
        else:
            assert frame.loc[trace.index, "nearest"] == trace.nearest.index
            assert frame.loc[trace.index, "similarity"] == trace.nearest.similarity
    assert set(frame.index[frame["fate"] == "duplicate"]) == {4, 8}
    assert frame.loc[4, "reaches_threshold"] and frame.loc[8, "reaches_threshold"]


def test_word_sets_split_two_messages_words(rich):
    shared, only_a, only_b = views.word_sets(rich, 6, 8)
    assert shared == {"please", "also", "check", "order", "ac", "9876", "for", "me"}
    assert only_a == only_b == set()


def test_every_cut_is_listed_with_kept_and_cut_off_characters(rich):
    frame = views.trim_frame(rich)
    assert list(frame["index"]) == [c.index for c in rich.trimming.cuts]
    assert (frame["kept_chars"] + frame["cut_chars"] == frame["original_chars"]).all()
    assert set(frame["cut"]) == {"sentence", "hard"}
    assert frame.set_index("index").loc[1, "fate"] == "dropped"  # trimmed, then dropped
    bars = views.trim_bars(frame)
    assert len(bars) == 2 * len(frame)
    assert (bars["end"] - bars["start"] == bars["chars"]).all()


def test_a_trim_splits_into_a_prefix_and_the_rest():
    assert views.split_at("One. Two.", 4) == ("One.", " Two.")


def test_the_explanation_gives_the_engines_reasons_and_numbers(rich):
    by_index = {t.index: detail.explain(t, rich) for t in rich.messages}
    assert by_index[6][0].startswith("Protected: it is pinned (pin: true).")
    assert "is in keep_roles" in by_index[0][0]
    assert "one of the last 2 messages" in by_index[11][0]
    assert any("overlap message #1's by 1.000" in s for s in by_index[4])
    drop = rich.messages[1].drop
    assert any(f"Dropped as number {drop.rank}" in s for s in by_index[1])
    cut = rich.messages[1].cut
    assert any(
        f"Trimmed from {cut.original_chars} to {cut.chars} characters" in s for s in by_index[1]
    )
    assert any("Kept by drop" in s for s in by_index[5])


def test_score_rows_of_a_protected_message_are_empty_and_of_a_scored_one_add_up(rich):
    assert detail.score_rows(rich.messages[0]).empty
    rows = detail.score_rows(rich.messages[5]).set_index("component")
    parts = rows.loc[["recency", "role weight", "topic overlap"], "weighted"].sum()
    assert abs(parts - rows.loc["score (rounded)", "weighted"]) <= 5e-7


@given(st.text(alphabet=" \n\tab", max_size=400), st.integers(2, 50))
def test_a_preview_is_the_start_of_the_text_with_whitespace_collapsed(text, limit):
    flat = " ".join(text.split())
    shown = views.preview(text, limit)
    if len(flat) <= limit:
        assert shown == flat
    else:
        assert len(shown) <= limit and shown.endswith("…")
        assert flat.startswith(shown[:-1])


def test_previews_are_one_short_line():
    assert views.preview("a\n\nb   c") == "a b c"
    long = views.preview("word " * 100, 20)
    assert len(long) <= 20 and long.endswith("…")


def test_long_lists_say_how_many_more():
    assert views.name_list([]) == "none"
    assert views.name_list(["#1"]) == "#1"
    assert views.name_list(["#1", "#2", "#3"]) == "#1, #2 and #3"
    assert views.name_list([f"#{i}" for i in range(15)], 3) == "#0, #1, #2 and 12 more"


@pytest.mark.parametrize(
    ("count", "page", "size", "expected"),
    [
        (0, 1, 10, (0, 0, 1)),
        (25, 1, 10, (0, 10, 3)),
        (25, 3, 10, (20, 25, 3)),
        (25, 9, 10, (20, 25, 3)),
        (5, 0, 10, (0, 5, 1)),
    ],
)
def test_pages_are_clamped(count, page, size, expected):
    assert views.paginate(count, page, size) == expected
