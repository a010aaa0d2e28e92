"""Token counts against published values and a second implementation (tiktoken, fed the same
vocabulary files after checking them against the hashes tiktoken pins for OpenAI's files)."""

import base64
import gzip
import hashlib
import importlib.resources
import math

import pytest

from compactor import run, validate
from compactor.analyses._token_report import token_report
from compactor.formats import convert_text
from compactor.samples import load_samples
from compactor.strategies._context_trim import trim_context, trim_token_counter
from compactor.text import _tokens as tokens
from tests.paths import CORPUS

pytest.importorskip("bpe_openai")


@pytest.mark.parametrize(
    ("text", "encoding", "ids"),
    [
        # tiktoken's own test (tests/test_simple_public.py).
        ("hello world", "cl100k_base", [15339, 1917]),
        # OpenAI's cookbook, "How to count tokens with tiktoken": t|ik|token| is| great|!
        ("tiktoken is great!", "cl100k_base", [83, 1609, 5963, 374, 2294, 0]),
    ],
)
def test_published_token_ids(text, encoding, ids):
    assert tokens.tokenizer(encoding).encode_ordinary(text) == ids
    assert tokens.count_tokens(text, encoding) == len(ids)


def test_the_cookbook_counts_six_tokens_in_both_encodings():
    assert [tokens.count_tokens("tiktoken is great!", e) for e in tokens.ENCODINGS] == [6, 6]


def contents():
    found = []
    for path in sorted(CORPUS.glob("*.json")):
        found += [m["content"] for m in convert_text(path.read_bytes()).request["messages"]]
    for sample in load_samples():
        if sample.slug != "largest":
            found += [m["content"] for m in sample.request["messages"]]
    return found + ["", " ", "<|endoftext|>", "👨‍👩‍👧 🇩🇪 e\u0301", "会议在周四14:00", "\n\n\t x"]


@pytest.fixture(scope="module")
def tiktoken_encodings():
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken_ext import openai_public

    def from_the_wheel(url, expected_hash=None):
        name = url.rsplit("/", 1)[1] + ".gz"
        data = gzip.decompress(
            importlib.resources.files("bpe_openai.data").joinpath(name).read_bytes()
        )
        assert hashlib.sha256(data).hexdigest() == expected_hash  # OpenAI's file, byte for byte
        return {
            base64.b64decode(token): int(rank)
            for token, rank in (line.split() for line in data.splitlines() if line)
        }

    loader = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = from_the_wheel
    try:
        return {
            name: tiktoken.Encoding(**getattr(openai_public, name)()) for name in tokens.ENCODINGS
        }
    finally:
        openai_public.load_tiktoken_bpe = loader


@pytest.mark.parametrize("encoding", tokens.ENCODINGS)
def test_counts_equal_tiktokens_on_real_conversations(encoding, tiktoken_encodings):
    other = tiktoken_encodings[encoding]
    for text in contents():
        assert tokens.count_tokens(text, encoding) == len(other.encode_ordinary(text)), text[:80]


def test_report_per_message_per_stage_and_budget():
    sample = next(s for s in load_samples() if s.slug == "multilingual")
    result = run(validate(sample.request))
    report = token_report(result)
    assert [m.index for m in report.messages] == list(range(len(result.messages)))
    for m, t in zip(report.messages, result.messages, strict=True):
        assert (m.chars, m.tokens) == (t.original_chars, tokens.count_tokens(t.message.content))
        assert m.estimate == math.ceil(m.chars / 4)
        assert m.returned_chars == t.chars
        assert m.returned_tokens == tokens.count_tokens(t.output or "")
    stages = {s.stage: s for s in report.stages}
    assert stages["input"].tokens == report.total.tokens == sum(m.tokens for m in report.messages)
    assert stages["drop"].chars == result.totals.output
    assert stages["trim"].chars == result.totals.after_trim
    assert stages["dedupe"].chars == result.totals.after_dedupe
    assert report.output.tokens == sum(m.returned_tokens for m in report.messages)
    budget = report.budget
    assert budget.tokens == round(budget.budget_chars / budget.chars_per_token)
    assert budget.chars_per_token == report.output.chars / report.output.tokens


def test_the_estimate_is_worst_on_non_latin_text_json_and_code():
    texts = {
        "prose": "The parcel left our warehouse in Berlin on Monday and should arrive soon. " * 4,
        "non-latin": "我们的包裹星期一从柏林的仓库发出，预计很快就会到达。请耐心等待。" * 4,
        "json": '{"reservation_id": "JG7FMM", "flights": [{"origin": "MCO", "price": 1859}]}',
        "code": "def f(x):\n    return {k: v for k, v in x.items() if v is not None}\n",
    }
    for kind, text in texts.items():
        assert tokens.text_kind(text) == kind
    error = {
        kind: (tokens.estimate_tokens(len(t)) - tokens.count_tokens(t)) / tokens.count_tokens(t)
        for kind, t in texts.items()
    }
    assert error["prose"] > 0  # English prose: more than 4 characters a token
    assert error["non-latin"] < error["json"] < 0 and error["code"] < 0


def test_trim_can_count_max_tokens_with_the_tokenizer():
    messages = [{"role": "user", "content": "会议在周四14:00，请准时参加。" * 3} for _ in range(4)]
    by_estimate = trim_context({"messages": messages, "maxTokensEstimate": 60})
    counter = trim_token_counter()
    by_tokens = trim_context({"messages": messages, "maxTokensEstimate": 60}, counter)
    per_message = tokens.count_tokens(messages[0]["content"])
    assert by_tokens["stats"]["tokensBeforeEstimate"] == 4 * per_message
    assert by_tokens["stats"]["messagesAfter"] == 60 // per_message
    assert by_estimate["stats"]["tokensBeforeEstimate"] == 4 * math.ceil(
        len(messages[0]["content"]) / 4
    )
