"""The price table: the shipped file's sources, and errors with the file, line and key."""

from __future__ import annotations

import pytest

from compactor.analyses.pricing import (
    PRICES_ENV,
    PricesError,
    context_window,
    load_prices,
    price,
    prices_from_toml,
)

GOOD = """\
[models.m]
provider = "p"
name = "M"
source = "https://example.test"
read = "2026-12-06"
input = 1.0
output = 2
cache_writes = [{ lifetime_seconds = 300, per_mtok = 1.25 }]
"""


def test_every_shipped_entry_names_its_source_and_leaves_unread_figures_out():
    table = load_prices(None)
    assert {m.provider for m in table.models} == {"anthropic", "openai", "google"}
    for m in table.models:
        assert m.source.startswith("https://") and "2026" in m.read
    assert price("claude-sonnet-5-5", table).cache_write().per_mtok == 2.5
    assert price("claude-sonnet-5-5", table).cache_write(3600).per_mtok == 4.0
    assert context_window("gpt-6-2-sol", table) == 1_050_000
    # Google's pricing page was not read: its entries have no price and no window
    assert not price("gemini-3-pro-preview", table).priced
    assert context_window("gemini-3-pro-preview", table) is None
    assert context_window("no-such-model", table) is None


def test_a_replacement_file_is_read_from_the_environment(tmp_path, monkeypatch):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    monkeypatch.setenv(PRICES_ENV, str(path))
    table = load_prices()
    assert table.names() == ("m",) and table.origin == str(path)
    assert table.get("m").output == 2.0 and table.get("m").cache_read is None


def problems(text: str) -> list[str]:
    with pytest.raises(PricesError) as raised:
        prices_from_toml(text, "mine.toml")
    return [str(p) for p in raised.value.problems]


def test_a_bad_value_is_named_by_file_line_and_key():
    text = GOOD.replace("input = 1.0", 'input = "cheap"').replace("output = 2", "output = -1")
    assert problems(text) == [
        "mine.toml:6: models.m.input: must be a number at least 0, not 'cheap'",
        "mine.toml:7: models.m.output: must be a number at least 0, not -1",
    ]


def test_an_entry_without_its_source_or_with_an_unknown_key_is_refused():
    text = GOOD.replace('source = "https://example.test"\n', "").replace("output = 2", "ouptut = 2")
    said = problems(text)
    assert "mine.toml:6: models.m.ouptut: unknown key" in said[0]
    assert said[1].startswith(
        "mine.toml:1: models.m.source: is missing (every figure names the page"
    )


def test_bad_cache_writes_and_counts_are_refused():
    text = GOOD.replace("per_mtok = 1.25", "per_mtok = 1.25, ttl = 5") + "context_window = 0\n"
    said = problems(text)
    assert said == [
        "mine.toml:9: models.m.context_window: must be a whole number at least 1, not 0",
        "mine.toml:8: models.m.cache_writes: [0] must be { lifetime_seconds = N, "
        "per_mtok = PRICE }, not an object of 3 fields",
    ]


def test_not_toml_gives_its_line_and_column():
    assert problems("[models.m]\ninput = = 1\n") == ["mine.toml:2:9: is not TOML: Invalid value"]


def test_an_unknown_model_names_the_known_ones():
    with pytest.raises(PricesError, match="no model 'x' in the price table \\(it has: m\\)"):
        prices_from_toml(GOOD).get("x")
