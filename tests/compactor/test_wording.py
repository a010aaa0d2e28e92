"""Counts read in the singular and the plural, with thousands separators."""

from compactor.wording import plural


def test_counts_read_in_the_singular_and_the_plural():
    assert plural(1, "message") == "1 message"
    assert plural(0, "message") == "0 messages"
    assert plural(12_345, "character") == "12,345 characters"
    assert plural(2, "query", "queries") == "2 queries"
