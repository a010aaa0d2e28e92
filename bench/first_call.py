"""The first provider call of a process, against its deadline: the client library's import is
inside it (issue 34, item 16).

For each kind of provider (``openai``, ``anthropic``), a fresh process makes one call to a test
server (harness/llm_server.py) on loopback, timed from before anything of the library is
imported to the error it ends with:

1. a server that never answers, deadline 5 s (``timeout_seconds``): the call must end within
   it (before the fix, it ended at the import time plus 5 s);
2. a server that answers 429 with ``Retry-After: 9999``, far past the deadline, ``max_retries``
   2: the call must end at once as rate limited (before, the Anthropic client waited the 9999 s
   and the call ended as a timeout at the deadline); the first call (the import inside it),
   then a second in the same process.

Target: case 1 within the deadline plus 0.1 s; case 2 as rate limited, the second call within
0.1 s and the first within the import's time plus that.

    python -m bench.first_call [--deadline 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from harness.llm_server import running

ROOT = Path(__file__).resolve().parent.parent
KEY_ENV = "BENCH_PROVIDER_KEY"
#: The child: one call, timed from its start (the provider code is imported before it, and
#: does not import the client library).
CHILD = """
import json, sys, time
from compactor.providers import ProviderConfig, ProviderError, provider_for
assert "openai" not in sys.modules and "anthropic" not in sys.modules
kind, url, deadline, retries = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
config = ProviderConfig(name=kind, kind=kind, base_url=url, api_key_env="BENCH_PROVIDER_KEY",
                        timeout_seconds=deadline, max_retries=retries)
out = []
for _ in range(int(sys.argv[5])):
    started = time.monotonic()
    try:
        provider_for(config).complete(model="m", system="Summarise.", user="[#0 user] hi",
                                      max_tokens=20)
        said = "answered"
    except ProviderError as error:
        said = f"{type(error).__name__}: {error}"
    out.append({"seconds": time.monotonic() - started, "said": said})
print(json.dumps(out))
"""


def first_calls(kind: str, url: str, deadline: float, retries: int, calls: int = 1) -> list[dict]:
    """The first ``calls`` calls of a fresh process: each one's seconds and what it said."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, kind, url, str(deadline), str(retries), str(calls)],
        capture_output=True,
        cwd=ROOT,
        timeout=deadline * 4 + 60,
        env={**os.environ, KEY_ENV: "sk-bench"},
        check=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deadline", type=float, default=5.0)
    args = parser.parse_args()
    with running() as fake:
        for kind in ("openai", "anthropic"):
            url = fake.openai_url if kind == "openai" else fake.anthropic_url
            fake.behaviour.delay, fake.behaviour.fail_status = 600.0, None
            (silent,) = first_calls(kind, url, args.deadline, 0)
            print(
                f"{kind:9} silent server, deadline {args.deadline:g} s: ended after "
                f"{silent['seconds']:.2f} s ({silent['said'][:60]})"
            )
            fake.behaviour.delay, fake.behaviour.fail_status = 0.0, 429
            fake.behaviour.retry_after = "9999"
            first, second = first_calls(kind, url, args.deadline, 2, calls=2)
            print(
                f"{kind:9} 429 Retry-After 9999, deadline {args.deadline:g} s: ended after "
                f"{first['seconds']:.2f} s, then {second['seconds']:.2f} s "
                f"({second['said'][:50]}...{second['said'][-60:]})"
            )
            fake.behaviour.retry_after = None


if __name__ == "__main__":
    main()
