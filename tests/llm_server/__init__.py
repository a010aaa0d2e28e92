"""The test suite's language model server (:mod:`harness.llm_server`, which the benchmarks share),
and the fixture that runs one per test.

A test module takes it with one line, ``llm = llm_fixture()``, and then ``def test_x(llm)``:
``llm.openai_url`` and ``llm.anthropic_url`` are its base URLs, ``llm.behaviour`` what it does,
``llm.calls`` what it received. The project's provider code reaches it through the real
``openai`` and ``anthropic`` client libraries over loopback HTTP; no test needs a network.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest

from harness.llm_server import (
    ANTHROPIC_PATH,
    ECHOES,
    OPENAI_PATH,
    Behaviour,
    Call,
    FakeLLM,
    echoed,
    expand,
    running,
    summary_of,
)

#: A key that must never show up anywhere but in the HTTP header sent to the server. It holds
#: characters that URL-encoding and JSON-escaping change, so every form of it can be looked for.
SECRET = "sk-test/9f2c+1e77d0a9=4b1b8c3e5f6a7b8c9d0e"
KEY_ENV = "COMPACTOR_TEST_LLM_KEY"


def secret_forms(secret: str = SECRET) -> set[str]:
    """Every way a key may be written back: as sent, URL-encoded (each way, either case),
    JSON-escaped, and the parts a masked copy shows (its first 8 and last 8 characters)."""
    return {
        secret[:8],
        secret[-8:],
        secret,
        quote(secret, safe=""),
        quote(secret),
        quote_plus(secret),
        "".join(f"%{b:02x}" for b in secret.encode()),
        "".join(f"%{b:02X}" for b in secret.encode()),
        "".join(f"\\u{ord(c):04x}" for c in secret),
        "".join(f"\\u{ord(c):04X}" for c in secret),
        json.dumps(secret)[1:-1],
        secret.replace("/", "\\/"),
    }


__all__ = [
    "ANTHROPIC_PATH",
    "ECHOES",
    "KEY_ENV",
    "OPENAI_PATH",
    "SECRET",
    "Behaviour",
    "Call",
    "FakeLLM",
    "echoed",
    "expand",
    "llm_fixture",
    "providers_toml",
    "running",
    "secret_forms",
    "summary_of",
]


def llm_fixture():
    """A pytest fixture: a fresh server for each test (starting one takes about a millisecond)."""

    @pytest.fixture
    def fixture() -> Iterator[FakeLLM]:
        with running() as fake:
            yield fake

    return fixture


def providers_toml(fake: FakeLLM, path: Path, **extra: object) -> Path:
    """A providers file with ``openai`` and ``anthropic`` providers at ``fake`` (key in KEY_ENV).

    ``extra`` adds fields to both (``context_window_tokens=512``, ``timeout_seconds=0.3``).
    """
    lines = []
    for name, url in (("openai", fake.openai_url), ("anthropic", fake.anthropic_url)):
        lines += [f"[providers.{name}]", f'kind = "{name}"', f'base_url = "{url}"']
        lines += [f'api_key_env = "{KEY_ENV}"', 'model = "fake-small"']
        lines += [f"{k} = {_toml(v)}" for k, v in extra.items()]
        lines.append("")
    path.write_text("\n".join(lines), "utf-8")
    return path


def _toml(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value).lower()
