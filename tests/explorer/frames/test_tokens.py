"""Frames of the token counts, against bpe-openai itself (each content encoded here, directly),
and the helper that says how to install the tokens extra when it is missing."""

import math
import sys

import bpe_openai
import pytest

from compactor import run, validate
from compactor.analyses._token_report import token_report
from compactor.engine import build_response
from compactor.samples import load_sample
from compactor.text._tokens import INSTALL_HINT
from explorer.frames import snippets, stages
from explorer.frames import tokens as token_frames
from tests.explorer.requests import rich_request

CODE = 'def f(x):\n    return {"a": [x, x * 2], "b": (x // 3)}  # ok\n' * 3
JSON = '{"id": "AC-1234", "items": [{"sku": 17, "qty": 2}, {"sku": 9, "qty": 1}]}'
CJK = "会议在周四下午两点开始，请大家准时参加并带上上周的报告。" * 2
PROSE = "The parcel left the warehouse in Porto on Friday evening and arrived on Monday."


def direct(text, encoding="o200k_base"):
    return len(bpe_openai.get_encoding(encoding).encode_ordinary(text))


@pytest.fixture(scope="module")
def mixed():
    messages = [
        {"role": "system", "content": "You are a careful assistant."},
        {"role": "user", "content": PROSE},
        {"role": "assistant", "content": CODE},
        {"role": "tool", "content": JSON},
        {"role": "user", "content": CJK},
        {"role": "assistant", "content": PROSE + " " + PROSE},
    ]
    return run(validate({"messages": messages, "budget_chars": 300, "max_message_chars": 150}))


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_the_message_frame_is_bpe_openai_per_message(mixed, encoding):
    frame = token_frames.message_frame(token_report(mixed, encoding))
    contents = [t.message.content for t in mixed.messages]
    assert frame["tokens"].tolist() == [direct(c, encoding) for c in contents]
    assert frame["estimate"].tolist() == [math.ceil(len(c) / 4) for c in contents]
    assert frame["error"].tolist() == [
        math.ceil(len(c) / 4) - direct(c, encoding) for c in contents
    ]
    returned = [direct(t.output, encoding) if t.survived else 0 for t in mixed.messages]
    assert frame["returned_tokens"].tolist() == returned


def test_the_worst_estimates_are_code_json_and_non_latin_text(mixed):
    frame = token_frames.message_frame(token_report(mixed))
    worst = frame[frame["worst"]]
    assert set(worst["kind"]) == {"code", "json", "non-latin"}
    # brute force: rank every message by how far the estimate falls short, (tokens - estimate)
    # / tokens; English prose is overcounted, never highlighted
    contents = [t.message.content for t in mixed.messages]
    off = {i: (direct(c) - math.ceil(len(c) / 4)) / direct(c) for i, c in enumerate(contents)}
    ranked = sorted(off, key=lambda i: (-off[i], i))
    expected = [i for i in ranked if off[i] >= token_frames.WORST_ERROR][: token_frames.WORST]
    assert token_frames.worst_indices(frame) == expected
    assert sorted(worst["index"]) == sorted(expected)


def test_the_content_frame_needs_no_result(mixed):
    from compactor.analyses._token_report import message_counts

    contents = [t.message.content for t in mixed.messages]
    roles = [t.message.role for t in mixed.messages]
    frame = token_frames.content_frame(roles, contents, message_counts(contents, "cl100k_base"))
    by_report = token_frames.message_frame(token_report(mixed, "cl100k_base"))
    same = ["message", "role", "kind", "chars", "tokens", "estimate", "error", "worst"]
    assert frame[same].equals(by_report[same])


def test_stage_rows_take_the_tokens_each_stage_removed():
    result = run(validate(rich_request()))
    report = token_report(result)
    rows = stages.stage_rows(result, tokens=report)
    # brute force: what is present after each stage, encoded here
    traces = result.messages
    present = {
        "input": [t.message.content for t in traces],
        "dedupe": [t.message.content for t in traces if t.fate.value != "duplicate"],
        "trim": [
            t.message.content[: t.cut.chars] if t.cut else t.message.content
            for t in traces
            if t.fate.value != "duplicate"
        ],
        "output": [t.output for t in traces if t.survived],
    }
    totals = {k: sum(direct(c) for c in v) for k, v in present.items()}
    assert rows["tokens_removed"].tolist() == [
        0,
        totals["input"] - totals["dedupe"],
        totals["dedupe"] - totals["trim"],
        totals["trim"] - totals["output"],
    ]
    assert rows["tokens_removed"].sum() == totals["input"] - totals["output"] > 0
    estimates = {k: sum(math.ceil(len(c) / 4) for c in v) for k, v in present.items()}
    assert rows["estimate_removed"].sum() == estimates["input"] - estimates["output"]
    headers = stages.stage_table(result, report).data.columns
    assert "o200k_base tokens removed" in headers
    assert "o200k_base tokens removed" not in stages.stage_table(result).data.columns


def test_the_output_rows_get_their_tokens():
    result = run(validate(load_sample("dispatcher").request))
    rows = token_frames.with_tokens(
        snippets.output_rows(build_response(result)), token_report(result)
    )
    assert rows["tokens_out"].tolist() == [direct(c) for c in rows["content"]]
    assert rows["estimate_out"].tolist() == [math.ceil(len(c) / 4) for c in rows["content"]]
    originals = [result.messages[i].message.content for i in rows["index"]]
    assert rows["tokens_in"].tolist() == [direct(c) for c in originals]


def test_the_totals_sentence_and_the_stage_frame(mixed):
    report = token_report(mixed)
    contents = [t.message.content for t in mixed.messages]
    tokens_in = sum(direct(c) for c in contents)
    tokens_out = sum(direct(t.output) for t in mixed.messages if t.survived)
    sentence = token_frames.totals_sentence(report)
    assert f"{sum(map(len, contents)):,} characters in are {tokens_in:,} o200k_base tokens" in (
        sentence
    )
    assert f"{mixed.totals.output:,} characters out are {tokens_out:,} o200k_base tokens" in (
        sentence
    )
    frame = token_frames.stage_frame(report)
    assert frame["present"].tolist() == ["input", "after dedupe", "after trim", "output"]
    assert (frame["tokens"].iloc[0], frame["tokens"].iloc[-1]) == (tokens_in, tokens_out)


def test_the_estimate_note():
    assert token_frames.estimate_note(31, 29) == "estimate 31 (+7%)"
    assert token_frames.estimate_note(10, 20) == "estimate 10 (-50%)"
    assert token_frames.estimate_note(0, 0) == "estimate 0"


def test_without_the_tokens_extra_the_note_says_how_to_install_it(monkeypatch):
    assert token_frames.unavailable_note() is None
    # a None entry makes `import bpe_openai` raise ImportError, as when it is not installed
    monkeypatch.setitem(sys.modules, "bpe_openai", None)
    note = token_frames.unavailable_note()
    assert note == INSTALL_HINT and '.venv/bin/pip install -e ".[tokens]"' in note
    assert token_frames.INSTALL_COMMAND in note
