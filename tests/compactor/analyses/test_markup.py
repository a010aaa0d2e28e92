"""Topic terms from import markup: counted exactly, and scores without it follow the contract's
formula (equal to the engine's own scores when a history has no markup)."""

from pathlib import Path

import pytest
from hypothesis import given, settings

from compactor import run, validate
from compactor.analyses._markup import (
    MARKUP,
    markup_counts,
    strip_markup,
    term_sources,
    topic_terms,
    without_markup,
)
from compactor.formats import convert, convert_text
from compactor.samples import load_samples
from tests.generate import requests
from tests.paths import CORPUS, ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "formats"


def imported(path: Path) -> dict:
    conversion = convert_text(path.read_bytes())
    return conversion.request


def tool_heavy():
    """A conversation whose tool calls make 'tool' and 'call' the most frequent long words."""
    calls = [
        {"role": "user", "content": "Look up the weather in Porto, Lisbon and Faro."},
    ]
    for i, city in enumerate(["Porto", "Lisbon", "Faro", "Braga", "Evora"]):
        calls.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"c{i}",
                        "type": "function",
                        "function": {"name": "weather", "arguments": f'{{"city": "{city}"}}'},
                    }
                ],
            }
        )
        calls.append({"role": "tool", "tool_call_id": f"c{i}", "content": f"{city}: 18 C"})
    calls.append({"role": "assistant", "content": "Sunny everywhere, about 18 degrees."})
    return convert(calls).request | {"budget_chars": 200}


@settings(max_examples=150, deadline=None)
@given(requests())
def test_without_markup_the_scores_and_terms_are_the_contracts(request):
    result = run(validate(request))
    if any(MARKUP.search(c) for c in result.request.contents):
        return
    plain = without_markup(result)
    assert plain.terms == result.analysis.topic_terms
    assert {s.index: s.score_without for s in plain.scores} == {
        i: s.value for i, s in result.dropping.scores.items()
    }
    assert plain.changed == ()
    assert all(t.in_markup == 0 and not t.from_markup for t in term_sources(result))


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
def test_every_sample_has_its_own_scores_without_markup(sample):
    result = run(validate(sample.request))
    plain = without_markup(result)
    clean = not any(MARKUP.search(c) for c in result.request.contents)
    if clean:
        assert plain.terms == result.analysis.topic_terms


def test_tool_call_markup_is_counted_and_left_out():
    result = run(validate(tool_heavy()))
    heads = sum(len(MARKUP.findall(c)) for c in result.request.contents)
    assert heads == 5
    sources = {t.term: t for t in term_sources(result)}
    # the importer wrote 'tool call' five times; no message wrote either word
    assert sources["tool"].in_markup == 5 and sources["tool"].count == 5
    assert sources["call"].from_markup and sources["tool"].from_markup
    plain = without_markup(result)
    assert "tool" not in dict(plain.terms) and "call" not in dict(plain.terms)
    assert dict(plain.terms)["weather"] == 6  # five tool names (the conversation's) and the user
    stripped = [strip_markup(c) for c in result.request.contents]
    assert plain.terms == topic_terms(stripped)
    assert not any("[tool call" in s for s in stripped)


@pytest.mark.parametrize(
    "path", sorted(CORPUS.glob("*.json")) + [FIXTURES / "openai_chat.json"], ids=lambda p: p.name
)
def test_markup_counts_on_real_conversations_never_exceed_the_terms_counts(path):
    result = run(validate(imported(path)))
    counts = markup_counts(result.request.contents)
    for source in term_sources(result):
        assert 0 <= source.in_markup <= source.count
        assert source.in_markup == counts.get(source.term, 0)
