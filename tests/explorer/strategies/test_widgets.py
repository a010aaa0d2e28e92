"""The Strategies page's options as its form gives them."""

from explorer.strategies.widgets import TRIM_COUNTERS, StrategyOptions, options_from


def test_nothing_set_asks_for_the_plain_strategies():
    assert options_from(None, False, TRIM_COUNTERS[0], False, False, 0.8) == StrategyOptions()


def test_keep_last_and_drop_tools_are_passed_as_the_trim_takes_them():
    options = options_from(4.0, True, TRIM_COUNTERS[0], False, False, 0.8)
    assert (options.keep_last_messages, options.drop_tool_parts) == (4, True)
    assert isinstance(options.keep_last_messages, int)


def test_a_tokenizer_counts_only_when_chosen_and_installed():
    encoding = TRIM_COUNTERS[1]
    assert options_from(None, False, encoding, False, False, 0.8).trim_encoding == encoding
    assert options_from(None, False, encoding, True, False, 0.8).trim_encoding is None


def test_the_meaning_threshold_counts_only_with_semantic_dedupe_on():
    assert options_from(None, False, TRIM_COUNTERS[0], False, True, 0.75).semantic_threshold == 0.75
    assert (
        options_from(None, False, TRIM_COUNTERS[0], False, False, 0.75).semantic_threshold is None
    )
