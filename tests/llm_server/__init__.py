"""The test suite's language model server, and the fixture that runs one per test.

A test module takes it with one line, ``llm = llm_fixture()``, and then ``def test_x(llm)``:
``llm.openai_url`` and ``llm.anthropic_url`` are its base URLs, ``llm.behaviour`` what it does,
``llm.calls`` what it received. The project's provider code reaches it through the real
``openai`` and ``anthropic`` client libraries over loopback HTTP; no test needs a network.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.llm_server.server import (
    ANTHROPIC_PATH,
    OPENAI_PATH,
    Behaviour,
    Call,
    FakeLLM,
    expand,
    start,
    summary_of,
)

#: A key that must never show up anywhere but in the HTTP header sent to the server.
SECRET = "sk-test-9f2c1e77d0a94b1b8c3e5f6a7b8c9d0e"
KEY_ENV = "COMPACTOR_TEST_LLM_KEY"

__all__ = [
    "ANTHROPIC_PATH",
    "KEY_ENV",
    "OPENAI_PATH",
    "SECRET",
    "Behaviour",
    "Call",
    "FakeLLM",
    "expand",
    "llm_fixture",
    "providers_toml",
    "running",
    "summary_of",
]


@contextmanager
def running() -> Iterator[FakeLLM]:
    """A server on a free loopback port, stopped (and any waiting answer abandoned) on exit."""
    fake, httpd, thread = start()
    try:
        yield fake
    finally:
        fake.stopping.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


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
