"""The Output page's table of compacted messages and the service snippets' note on where the
request comes from."""

from compactor import run, validate
from compactor.analyses import token_report
from compactor.engine import build_response
from explorer.frames import snippets
from explorer.output.frames import messages_frame, snippets_note
from tests.explorer.requests import rich_request


def test_the_messages_are_the_responses_one_row_each_without_tokens():
    response = build_response(run(validate(rich_request())))
    frame = messages_frame(response)
    assert frame.equals(snippets.output_rows(response))
    assert frame["index"].tolist() == [m["index"] for m in response["messages"]]


def test_with_tokens_each_message_has_its_counts_and_the_content_stays_last():
    result = run(validate(rich_request()))
    response = build_response(result)
    report = token_report(result, "o200k_base")
    frame = messages_frame(response, report)
    assert frame.columns[-1] == "content"
    assert {"tokens_in", "tokens_out", "estimate_out"} <= set(frame.columns)
    counts = {m.index: m.returned_tokens for m in report.messages}
    assert frame["tokens_out"].tolist() == [counts[i] for i in frame["index"]]


def test_a_small_request_is_inline_in_the_snippets_and_a_large_one_read_from_its_file():
    small = rich_request()
    assert "holds the whole request" in snippets_note(small, "chat.request.json")
    large = {**small, "messages": small["messages"] * 3}
    assert len(snippets.request_json(large, None)) > snippets.INLINE_LIMIT
    note = snippets_note(large, "chat.request.json")
    assert "read it from chat.request.json" in note
