"""shrink's cost: one ``shrink(messages, setting)`` against the three calls it stands for, the
import (``convert``), ``compact`` and the export, on the largest sample written as OpenAI Chat
Completions messages (its tool calls structured). Target: at most 1.3 times. Also printed:
the same with a budget in tokens (one sweep, every step's tokens counted, then the compact at
the chosen budget), and LangChain message objects in and out. Medians over interleaved rounds,
so machine noise hits every measurement alike.

    python -m bench.shrink    # from the project root
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench.timing import medians
from compactor import compact, shrink
from compactor.formats import convert, export
from compactor.integrations import Setting
from compactor.samples import load_samples

ROUNDS = 15
TARGET = 1.3
PARAMS = ("keep_last_n", "keep_roles", "duplicate_threshold", "max_message_chars")


def largest() -> tuple[str, dict[str, Any]]:
    sample = max(
        load_samples(), key=lambda s: sum(len(m["content"]) for m in s.request["messages"])
    )
    return sample.slug, sample.request


def as_openai(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The whole conversation as Chat Completions messages, as the export writes them."""
    everything = {
        "messages": [
            {"index": i, **{k: m[k] for k in ("role", "content", "id") if k in m}}
            for i, m in enumerate(request["messages"])
        ]
    }
    return export(everything, request, "openai").value


def by_hand(messages: list[dict[str, Any]], setting: Setting) -> Any:
    conversion = convert(messages, "openai")
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()}
    request = {**conversion.request, **params, "budget_chars": setting.budget_chars}
    empty = {call for _, call in conversion.removed_results}
    return export(compact(request), request, "openai", empty_results=empty).value


def main() -> None:
    slug, request = largest()
    params = {k: request[k] for k in PARAMS if k in request}
    setting = Setting(budget_chars=request["budget_chars"], params=params)
    messages = as_openai(request)
    assert shrink(messages, setting) == by_hand(messages, setting)
    tasks: dict[str, Callable[[], object]] = {
        "import + compact + export": lambda: by_hand(messages, setting),
        "shrink": lambda: shrink(messages, setting),
    }
    tokens = Setting(budget_tokens=request["budget_chars"] // 4, params=params)
    tasks["shrink, budget in tokens"] = lambda: shrink(messages, tokens)
    try:
        from langchain_core.messages.utils import convert_to_messages

        objects = convert_to_messages(messages)
        tasks["shrink, LangChain messages"] = lambda: shrink(objects, setting)
    except ImportError:
        print("(LangChain not installed: its line is left out)")
    t = medians(tasks, ROUNDS)
    chars = sum(len(m["content"]) for m in request["messages"])
    base = t["import + compact + export"]
    print(
        f"sample {slug!r}: {len(messages)} messages, {chars:,} characters, "
        f"budget_chars {request['budget_chars']:,}; medians of {ROUNDS} interleaved rounds"
    )
    for name, seconds in t.items():
        print(f"  {name:<30} {seconds * 1000:8.1f} ms   {seconds / base:5.2f} x")
    ratio = t["shrink"] / base
    verdict = "meets" if ratio <= TARGET else "misses"
    print(f"shrink / (import + compact + export) = {ratio:.2f} ({verdict} the target {TARGET})")


if __name__ == "__main__":
    main()
