"""The optional models load from their wheels: with every network connection refused and an
empty home (no caches), tokens are counted, messages embedded and scored by BM25 in a fresh
interpreter."""

import json
import subprocess
import sys

import pytest

from tests.paths import ROOT

GUARD = """
import socket
def refuse(*args, **kwargs):
    raise OSError("network access is blocked in this test")
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
"""
WORK = """
import json
from compactor.text import _semantic as semantic
from compactor.text import _tokens as tokens
from compactor.text import _relevance as relevance
vector = semantic.embed(["The parcel left Berlin on Monday."])
found = relevance.relevance(["The parcel left Berlin.", "Lunch was fine."], {"berlin": 1.0})
print(json.dumps({
    "o200k": tokens.count_tokens("hello world"),
    "cl100k": tokens.count_tokens("hello world", "cl100k_base"),
    "dimensions": int(vector.shape[1]),
    "bm25": [t for t, _ in found.matches(0)],
}))
"""


def test_the_network_guard_refuses_connections():
    code = GUARD + "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:9', timeout=1)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "network access is blocked" in done.stderr


@pytest.mark.slow
def test_tokenizer_and_embeddings_need_no_network(tmp_path):
    pytest.importorskip("bpe_openai")
    pytest.importorskip("wordllama")
    pytest.importorskip("bm25s")
    env = {
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),  # no ~/.cache/wordllama, no tiktoken cache
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run(
        [sys.executable, "-c", GUARD + WORK], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "o200k": 2,
        "cl100k": 2,
        "dimensions": 256,
        "bm25": ["berlin"],
    }
    assert not any(tmp_path.iterdir())  # nothing was downloaded or cached
