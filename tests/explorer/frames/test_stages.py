"""The Overview's stage table: each stage's rule, counts and shortened lists, and every message
each stage acted on in full, as the engine reports them."""

import pytest

from compactor import run, validate
from compactor.samples import load_sample
from explorer.frames import stages as stage_frames
from tests.explorer.requests import rich_request


@pytest.fixture(scope="module")
def rich():
    return run(validate(rich_request()))


def test_the_stage_table_names_what_each_stage_did(rich):
    stages = stage_frames.stage_rows(rich).set_index("stage")
    assert stages.loc["1. pin", "which"] == "#0 (role), #6 (pin), #10 (recent) and #11 (recent)"
    assert stages.loc["2. dedupe", "which"] == "#4 ≈ #1 (1.000) and #8 ≈ #6 (1.000)"
    # a run of words without a sentence end is cut hard, at exactly the limit (ASCII)
    original = len(rich_request()["messages"][2]["content"])
    assert f"#2 {original} → 200 (hard)" in stages.loc["3. trim", "which"]
    assert stages.loc["4. drop", "rule"] == "budget_chars 600"


def test_the_stage_table_shows_words_literally_and_counts_with_separators(rich):
    rows = stage_frames.stage_rows(rich)
    styled = stage_frames.stage_table(rich)
    assert list(styled.data.columns) == [
        "Stage",
        "Rule",
        "Messages",
        "Result",
        "Which",
        "Characters removed",
    ]
    assert styled.data["Messages"].tolist() == rows["messages"].tolist()  # still numbers
    shown = [line.split("|") for line in styled.to_string(delimiter="|").splitlines()[1:]]
    assert [cells[1] for cells in shown] == ["1\\. pin", "2\\. dedupe", "3\\. trim", "4\\. drop"]
    assert [cells[6] for cells in shown] == [f"{n:,}" for n in rows["chars_removed"]]


def test_every_message_a_stage_acted_on_is_listed_in_stage_order():
    result = run(validate(load_sample("largest").request))
    acted = stage_frames.stage_messages(result)
    by_stage = {stage: list(group["index"]) for stage, group in acted.groupby("stage")}
    assert by_stage == {
        "1. pin": [t.index for t in result.messages if t.protected],
        "3. trim": [c.index for c in result.trimming.cuts],
        "4. drop": [d.index for d in result.dropping.dropped],
    }
    assert list(acted["stage"]) == sorted(acted["stage"])  # pin, then trim, then drop
    first_drop = result.dropping.dropped[0]
    row = acted[acted["stage"] == "4. drop"].iloc[0]
    assert (row["message"], row["role"]) == (
        f"#{first_drop.index}",
        result.messages[first_drop.index].message.role,
    )
    assert row["what"] == (
        f"dropped as no. 1 (score {first_drop.score:g}; {first_drop.chars:,} characters)"
    )


def test_dedupe_rows_name_the_earlier_message(rich):
    acted = stage_frames.stage_messages(rich)
    dedupe = acted[acted["stage"] == "2. dedupe"]
    assert list(dedupe["what"]) == [
        f"duplicate of #{r.duplicate_of} (similarity {r.similarity:.3f})"
        for r in rich.deduplication.removed
    ]


def test_an_items_words_can_be_glued_so_it_wraps_as_a_whole(rich):
    glued = stage_frames.stage_rows(rich, glue=stage_frames.NO_BREAK).set_index("stage")
    plain = stage_frames.stage_rows(rich).set_index("stage")
    assert (
        glued.loc["2. dedupe", "which"]
        == "#4\u00a0≈\u00a0#1\u00a0(1.000) and #8\u00a0≈\u00a0#6\u00a0(1.000)"
    )
    assert (glued["which"].str.replace("\u00a0", " ") == plain["which"]).all()


def test_trim_and_drop_counts_agree_with_the_fates_when_drop_removes_trimmed_messages():
    # The largest sample at half its size: trim cuts 194 messages and drop removes many.
    request = load_sample("largest").request | {"budget_chars": 200_000}
    result = run(validate(request))
    fates = [t.fate.value for t in result.messages]
    cut = [c.index for c in result.trimming.cuts]
    later = [i for i in cut if fates[i] == "dropped"]
    assert later and len(later) < len(cut)  # the case the fate table and stage table differ
    assert stage_frames.later_dropped(result) == later
    rows = stage_frames.stage_rows(result).set_index("stage")
    assert rows.loc["3. trim", "messages"] == len(cut)
    assert rows.loc["3. trim", "result"] == (
        f"{len(cut):,} cut, of which {len(later):,} later dropped "
        f"({fates.count('trimmed'):,} trimmed)"
    )
    assert rows.loc["4. drop", "result"].endswith(f"{len(later):,} of them cut by trim first")
    acted = stage_frames.stage_messages(result)
    marked = acted[acted["what"].str.endswith("; later dropped")]["index"].tolist()
    assert marked == later


def test_without_later_drops_the_trim_result_is_the_plain_count():
    result = run(validate(rich_request() | {"budget_chars": 400_000}))
    rows = stage_frames.stage_rows(result).set_index("stage")
    assert result.trimming.cuts and stage_frames.later_dropped(result) == []
    assert rows.loc["3. trim", "result"] == f"{len(result.trimming.cuts)} cut"
