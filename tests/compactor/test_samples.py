"""The sample library: every sample loads, is valid, and shows what its description promises.

Expectations come from the engine's typed result and the claim in each description, not from
numbers copied out of a run.
"""

import copy
import json
import re
import statistics
import unicodedata

import pytest

from bench.make_largest_sample import PATH as LARGEST_PATH
from bench.make_largest_sample import build, text
from compactor import compact, run, validate
from compactor.analyses._pairing import check_pairing
from compactor.contract import DEFAULTS, LIMITS, SENTENCE_ENDS
from compactor.engine._result import Fate
from compactor.formats import convert
from compactor.samples import DEFAULT_SAMPLE, SAMPLES_DIR, load_sample, load_samples
from compactor.text._words import grapheme_floor
from tests.paths import CORPUS

SAMPLES = {s.slug: s for s in load_samples()}
PARAMETERS = ["budget_chars", "keep_last_n", "keep_roles", "duplicate_threshold"]
PARAMETERS.append("max_message_chars")


def result_of(slug):
    sample = SAMPLES[slug]
    request = validate(sample.request)
    return request, run(request)


def test_the_library_has_every_sample_in_order():
    files = sorted(f.name for f in SAMPLES_DIR.iterdir() if f.name.endswith(".json"))
    assert all(re.fullmatch(r"\d\d-[a-z0-9-]+\.json", name) for name in files)
    assert list(SAMPLES) == [
        "tour",
        "dispatcher",
        "support-chat",
        "coding-agent",
        "repeated-questions",
        "multilingual",
        "pins-and-ids",
        "research-chat",
        "largest",
    ]
    assert next(iter(SAMPLES)) == DEFAULT_SAMPLE  # the tour opens first, and is listed first
    assert load_sample("largest") == SAMPLES["largest"]


@pytest.mark.parametrize("slug", list(SAMPLES))
def test_a_sample_is_a_valid_request_with_a_name_and_a_one_line_description(slug):
    sample = SAMPLES[slug]
    validate(sample.request)
    assert sample.name.strip() and "\n" not in sample.name
    assert sample.description.strip() and "\n" not in sample.description
    assert len(sample.description) <= 400
    # each sample states the parameters that make it instructive (not just the defaults)
    assert set(sample.request) == {"messages", *PARAMETERS}
    assert any(sample.request[p] != DEFAULTS.get(p) for p in PARAMETERS)


def test_samples_are_written_for_this_project_not_copied_from_the_corpus():
    corpus = {
        m["content"]
        for path in CORPUS.glob("*.json")
        for m in json.loads(path.read_text("utf-8"))["messages"]
        if m.get("content")
    }
    for sample in SAMPLES.values():
        assert not corpus & {m["content"] for m in sample.request["messages"]}, sample.slug


def test_the_tour_the_explorer_opens_on_has_every_stage_act():
    # a first look shows all four stages at work, none of them "no change" or "nothing to drop"
    request, result = result_of(DEFAULT_SAMPLE)
    n, keep = len(request.messages), request.params.keep_last_n
    assert result.protection.indices == (0, *range(n - keep, n))  # the system prompt, the last
    removed = result.deduplication.removed
    assert {request.roles[r.index] for r in removed} == {"assistant", "user"}  # a reply and a
    assert all(r.similarity == 1.0 for r in removed)  # question said again, word for word
    cut = {c.index for c in result.trimming.cuts}
    dropped = {d.index for d in result.dropping.dropped}
    assert cut - dropped and cut & dropped  # some cuts come out trimmed, some are dropped later
    assert {request.roles[i] for i in cut} >= {"tool"}
    assert dropped and result.budget_met
    first_user = request.roles.index("user")
    assert first_user in dropped  # the task is lost: the Overview offers to pin it
    report = check_pairing(result)  # and no warning on the first screen: every call is kept
    assert report.pairs and report.ok and not report.uncalled  # or removed with its result
    assert 4_000 <= sum(len(c) for c in request.contents) <= 8_000  # small enough to read


def test_dispatcher_removes_the_repeated_question():
    request, result = result_of("dispatcher")
    assert [r.similarity for r in result.deduplication.removed] == [1.0]
    assert result.protection.indices == (0, len(request.messages) - 2, len(request.messages) - 1)


def test_support_chat_drops_the_oldest_turns_and_customer_turns_last():
    request, result = result_of("support-chat")
    n, keep = len(request.messages), request.params.keep_last_n
    assert n >= 40 and "tool" in request.roles
    assert result.protection.indices == (0, *range(n - keep, n))
    dropped = [d.index for d in result.dropping.dropped]
    assert len(dropped) >= 10 and result.budget_met
    unprotected = [t for t in result.messages if not t.protected]
    kept = [t.index for t in unprotected if t.survived]
    assert statistics.mean(dropped) < statistics.mean(kept)  # the oldest go

    def user_share(indices):
        return sum(request.roles[i] == "user" for i in indices) / len(indices)

    assert user_share(dropped) < user_share([t.index for t in unprotected])


def test_coding_agent_cuts_long_tool_outputs_and_drops_old_ones_first():
    request, result = result_of("coding-agent")
    limit = request.params.max_message_chars
    tools = [t for t in result.messages if t.message.role == "tool"]
    assert len(tools) >= 8 and max(len(t.message.content) for t in tools) > 2000
    long_unprotected = [t for t in tools if not t.protected and len(t.message.content) > limit]
    assert len(long_unprotected) >= 3
    assert all(t.cut is not None for t in long_unprotected)
    assert request.roles[result.dropping.dropped[0].index] == "tool"
    for t in result.messages:
        if t.message.role in ("system", "user"):
            assert "role" in t.protected_because and t.fate is Fate.PROTECTED


def test_repeated_questions_are_removed_by_dedupe_alone():
    request, result = result_of("repeated-questions")
    removed = result.deduplication.removed
    assert len(removed) >= 5
    assert {request.roles[r.index] for r in removed} == {"user", "assistant"}
    similarities = {r.similarity for r in removed}
    assert 1.0 in similarities  # exact repeats
    assert any(request.params.duplicate_threshold <= s < 1 for s in similarities)  # near ones
    assert result.trimming.cuts == () and result.dropping.dropped == ()
    assert result.budget_met


def test_multilingual_trims_at_sentence_ends_and_never_splits_a_character():
    request, result = result_of("multilingual")
    everything = "".join(request.contents)
    assert re.search("[äöüß]", everything) and re.search("[éèàç]", everything)
    assert re.search("[\u4e00-\u9fff]", everything)
    assert any(unicodedata.category(ch) == "So" for ch in everything)  # emoji
    assert "\u200d" in everything  # a ZWJ sequence
    cuts = result.trimming.cuts
    for c in cuts:
        assert grapheme_floor(request.contents[c.index], c.chars) == c.chars
    ends = [request.contents[c.index][: c.chars] for c in cuts if c.kind == "sentence"]
    assert any(e[-1] in "。！？" for e in ends)  # after a full-width sentence end
    assert any(e.endswith(" M.") for e in ends)  # an abbreviation looks like a sentence end
    limit = request.params.max_message_chars
    stepped_back = [c for c in cuts if c.kind == "hard" and c.chars < limit]
    assert stepped_back, "a hard cut should have moved back to keep a character whole"
    for c in stepped_back:
        assert "\u200d" in request.contents[c.index][c.chars : limit + 1]


def test_pins_protect_decisions_that_would_otherwise_go_and_ids_are_echoed():
    request, result = result_of("pins-and-ids")
    pinned = [t for t in result.messages if t.message.pin]
    assert len(pinned) >= 3
    assert all("pin" in t.protected_because and t.output == t.message.content for t in pinned)
    limit = request.params.max_message_chars
    assert any(len(t.message.content) > limit for t in pinned)
    assert result.dropping.dropped and result.budget_met
    unpinned = copy.deepcopy(SAMPLES["pins-and-ids"].request)
    for message in unpinned["messages"]:
        message.pop("pin", None)
    without = run(validate(unpinned))
    saved = [t.index for t in pinned if without.messages[t.index].fate is not Fate.VERBATIM]
    assert len(saved) >= 2
    ids = [m.id for m in request.messages]
    assert None not in ids and len(set(ids)) == len(ids)
    response = compact(SAMPLES["pins-and-ids"].request)
    assert [m["id"] for m in response["messages"]] == [ids[t.index] for t in result.survivors]


def test_research_answers_are_cut_to_their_last_full_sentence():
    request, result = result_of("research-chat")
    limit = request.params.max_message_chars
    answers = [t for t in result.messages if t.message.role == "assistant" and not t.protected]
    assert len(answers) >= 4
    assert all(len(t.message.content) > limit for t in answers)
    for t in answers:
        assert t.fate is Fate.TRIMMED and t.cut.kind == "sentence"
        assert t.output[-1] in SENTENCE_ENDS
    assert result.dropping.dropped == () and result.budget_met


def test_the_largest_sample_is_what_its_generator_writes():
    assert LARGEST_PATH.read_text("utf-8") == text(build())


def test_the_largest_sample_is_at_the_limits_and_gives_every_stage_work():
    request, result = result_of("largest")
    assert len(request.messages) == LIMITS["max_messages"]
    lengths = [len(c) for c in request.contents]
    assert max(lengths) <= LIMITS["max_content_chars"]
    assert min(lengths) >= 0.95 * LIMITS["max_content_chars"]  # close to 8,000 each
    assert len(result.trimming.cuts) > len(request.messages) / 2
    assert len(result.dropping.dropped) > len(request.messages) / 2
    assert result.budget_met


@pytest.mark.parametrize("slug", list(SAMPLES))
def test_a_sample_imports_as_itself(slug):
    conversion = convert(SAMPLES[slug].request)
    assert (conversion.format, conversion.changes) == ("request", ())
    assert validate(conversion.request) == validate(SAMPLES[slug].request)
