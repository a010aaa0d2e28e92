"""The transcript frame: every message shown kept, cut or removed exactly as the engine decided,
its content split into what is sent, what the trim cut off and what was removed."""

import pytest

from compactor import Fate, run, validate
from compactor.samples import load_samples
from explorer.frames import transcript
from tests.explorer.requests import rich_request

#: Each sample at its own parameters and squeezed (a tenth of its characters, short trims), so
#: that dedupe, trim and drop all act somewhere.
SETTINGS = ({}, {"budget_chars": 0.1, "max_message_chars": 100})


def squeezed(request, setting):
    out = dict(request)
    if "budget_chars" in setting:
        total = sum(len(m["content"]) for m in request["messages"])
        out["budget_chars"] = max(100, int(total * setting["budget_chars"]))
    if "max_message_chars" in setting:
        out["max_message_chars"] = setting["max_message_chars"]
    return out


SAMPLES = load_samples()


def cases():
    for sample in SAMPLES:
        for number, setting in enumerate(SETTINGS):
            yield pytest.param(sample.request, setting, id=f"{sample.slug}-{number}")


@pytest.mark.parametrize(("request_", "setting"), list(cases()))
def test_each_message_is_shown_as_the_engine_decided(request_, setting):
    result = run(validate(squeezed(request_, setting)))
    frame = transcript.transcript_frame(result)
    deduped = {r.index for r in result.deduplication.removed}
    dropped = {d.index for d in result.dropping.dropped}
    assert list(frame["index"]) == [t.index for t in result.messages]
    for row, trace in zip(frame.itertuples(), result.messages, strict=True):
        content = trace.message.content
        assert row.sent + row.cut_off + row.removed == content
        assert row.role == trace.message.role and row.fate == trace.fate.value
        if trace.index in deduped or trace.index in dropped:
            assert row.shown == "removed" and row.sent == "" and row.removed == content
            assert row.removed_by == ("dedupe" if trace.index in deduped else "drop")
        elif trace.fate is Fate.TRIMMED:
            cut = trace.cut
            assert row.shown == "cut" and row.sent == trace.output and row.cut == cut.kind
            assert row.cut_off == content[cut.chars :]
            assert len(row.cut_off) == cut.original_chars - cut.chars > 0
        else:
            assert row.shown == "kept" and row.sent == trace.output == content
            assert row.cut_off == "" and row.removed_by == ""
    assert frame["sent_chars"].sum() == result.totals.output
    assert frame["original_chars"].sum() == result.totals.input


def test_every_fate_is_met_by_the_squeezed_samples():
    """The cases above meet every way a message can be shown, and both removing stages."""
    seen = set()
    for sample in SAMPLES:
        for setting in SETTINGS:
            frame = transcript.transcript_frame(run(validate(squeezed(sample.request, setting))))
            seen |= set(frame["shown"]) | set(frame["removed_by"])
    assert {"kept", "cut", "removed", "dedupe", "drop"} <= seen


def test_the_notes_say_why_and_the_summary_counts():
    result = run(validate(rich_request()))
    frame = transcript.transcript_frame(result).set_index("index")
    removal = result.deduplication.removed[0]
    assert frame.loc[removal.index, "note"] == (
        f"removed by dedupe: a near-duplicate of #{removal.duplicate_of} "
        f"(similarity {removal.similarity:.2f})"
    )
    first = result.dropping.dropped[0]
    assert frame.loc[first.index, "note"].endswith(
        "removed by drop to meet the budget, 1st in the drop order"
    )
    trimmed = next(t for t in result.messages if t.fate is Fate.TRIMMED)
    assert frame.loc[trimmed.index, "note"].startswith(
        f"cut to {trimmed.cut.chars:,} of {trimmed.cut.original_chars:,} characters"
    )
    assert frame.loc[0, "note"] == "protected (role), kept whole"
    kept = sum(t.survived and t.fate is not Fate.TRIMMED for t in result.messages)
    cut = sum(t.fate is Fate.TRIMMED for t in result.messages)
    assert transcript.summary(frame) == (
        f"{len(result.messages)} messages in, {kept + cut} sent to the model ({kept} whole, "
        f"{cut} cut), {len(result.messages) - kept - cut} removed "
        f"({len(result.deduplication.removed)} by dedupe, {len(result.dropping.dropped)} by "
        f"drop); the model sees {result.totals.output:,} of {result.totals.input:,} characters."
    )
