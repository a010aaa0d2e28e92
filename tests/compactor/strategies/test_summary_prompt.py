"""The summary prompt: the default wording, the caller's additions, and what the model reads."""

from compactor.strategies._context_trim import message_chars
from compactor.strategies._summary_prompt import (
    SYSTEM_PROMPT,
    Piece,
    message_text,
    system_prompt,
)


def test_without_target_or_instructions_the_prompt_is_the_default():
    assert system_prompt(None, None) == SYSTEM_PROMPT
    assert system_prompt("   ", None) == SYSTEM_PROMPT


def test_the_target_and_the_instructions_come_after_the_default():
    prompt = system_prompt("Keep every price.", 100)
    assert prompt == (
        SYSTEM_PROMPT
        + "\n\nAim for about 100 tokens (roughly 75 words)."
        + "\n\nAlso follow these instructions for the summary:\nKeep every price."
    )


def test_the_model_reads_text_and_tool_parts_as_the_estimate_counts_them():
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    messages = [
        {"role": "user", "content": "Weather in Porto?"},
        {"role": "assistant", "content": "Checking.", "tool_calls": [call]},
        {"role": "assistant", "content": [{"type": "text", "text": "A"}, {"type": "image"}]},
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c", "output": 18}]},
    ]
    texts = [message_text(m) for m in messages]
    assert texts == [
        "Weather in Porto?",
        'Checking.\n{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}',
        "A",
        '{"type":"tool-result","toolCallId":"c","output":18}',
    ]
    # The same characters as the trim's token estimate, plus one newline between lines.
    assert [len(t) - t.count("\n") for t in texts] == [message_chars(m) for m in messages]


def test_a_part_names_where_it_is_in_the_whole_message():
    assert Piece("#3 user", "hello").rendered == "[#3 user] hello"
    part = Piece("#3 user", "lo w", start=3, whole=11)
    assert part.rendered == "[#3 user, characters 4-7 of 11] lo w"
