"""Engine speed: one `compact` call on the largest valid request, against one tokenization pass.

Five kinds of text that agents send, each a request of 200 messages of close to 8,000 characters:
ASCII prose, non-ASCII prose, a wide vocabulary (logs, code and identifiers: about 6,000
distinct words), JSON tool output (nested objects, ids, numbers) and CJK. For each, the median
time of `compact` and of one plain tokenization pass (`re.findall(r"[^\\W_]+", m.lower())` over
every content) over the same rounds, and the median of each round's ratio (the two run back to
back, in alternating order, so machine noise hits both alike). Validation (jsonschema, not the
engine's own work) is timed separately and shown as its share of `compact`. Target: ratio <= 1.5
on every kind; goal 1.3.

    python -m bench.engine    # from the project root
"""

from __future__ import annotations

import json
import random
import re
import statistics
import time
from collections.abc import Callable

from bench.prose import largest_request
from compactor import compact, validate

ROUNDS = 31
TARGET, GOAL = 1.5, 1.3
MAX_CHARS = 8000


def tokenize(contents: list[str]) -> list[list[str]]:
    return [re.findall(r"[^\W_]+", m.lower()) for m in contents]


def _request(contents: list[str], roles: list[str]) -> dict:
    messages = [{"role": r, "content": c[:MAX_CHARS]} for r, c in zip(roles, contents, strict=True)]
    return {"messages": messages, "budget_chars": 120_000}


def _roles(rng: random.Random) -> list[str]:
    return ["system"] + [rng.choice(["user", "assistant", "assistant", "tool"]) for _ in range(199)]


def _fill(rng: random.Random, piece: Callable[[], str], chars: int) -> str:
    out: list[str] = []
    length = 0
    while True:
        text = piece()
        if length + len(text) > chars:
            return "".join(out) or text[:chars]
        out.append(text)
        length += len(text)


def ascii_prose() -> dict:
    return largest_request()


def non_ascii_prose() -> dict:
    """The ASCII prose with typographic quotes and accents, as real model output has."""
    request = largest_request()
    swaps = {" the ": " the “", ". ": "” café. ", "was ": "wasn’t "}
    messages = []
    for m in request["messages"]:
        content = m["content"]
        for old, new in swaps.items():
            content = content.replace(old, new, 40)
        messages.append({**m, "content": content[:MAX_CHARS]})
    return {**request, "messages": messages}


def wide_vocabulary(seed: int = 17) -> dict:
    """Code, logs and identifiers: about 6,000 distinct words, most of them rare."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocabulary = sorted(
        {
            "".join(rng.choice(letters) for _ in range(rng.randint(3, 9)))
            + (str(rng.randint(0, 999)) if rng.random() < 0.3 else "")
            for _ in range(6200)
        }
    )[:6000]

    def word() -> str:
        # a heavy head and a long tail, as identifiers in a code base have
        return vocabulary[int(len(vocabulary) * rng.random() ** 2)]

    def line() -> str:
        kind = rng.random()
        if kind < 0.4:
            call = f"self.{word()}.{word()}({word()}, {word()}={rng.randint(0, 99)})"
            return f"    {word()}_{word()} = {call}\n"
        if kind < 0.7:
            return (
                f"2025-03-12T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:01Z WARN "
                f"{word()}.{word()} {word()}_id={rng.randint(0, 999)} {word()} {word()}\n"
            )
        path = f"src/{word()}/{word()}_{word()}.py:{rng.randint(1, 900)}"
        return f"{path}: in {word()}.{word().title()}\n"

    roles = _roles(rng)
    return _request([_fill(rng, line, rng.randint(7800, MAX_CHARS)) for _ in roles], roles)


def json_tool_output(seed: int = 23) -> dict:
    """Tool results as compact JSON: nested objects with ids, numbers, dates and names."""
    rng = random.Random(seed)
    cities = ["San Diego", "Lyon", "Porto", "Osaka", "Berlin", "Oslo", "Quito", "Austin"]
    statuses = ["confirmed", "pending", "cancelled", "refunded", "shipped"]

    def record() -> str:
        value = {
            "reservation_id": "".join(
                rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(6)
            ),
            "user_id": f"user_{rng.getrandbits(24):06x}",
            "status": rng.choice(statuses),
            "created_at": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            f"T10:{rng.randint(0, 59):02d}:00",
            "flights": [
                {
                    "flight_number": f"HAT{rng.randint(1, 300):03d}",
                    "origin": rng.choice(cities),
                    "price": round(rng.uniform(50, 2000), 2),
                    "seats": rng.randint(0, 9),
                }
                for _ in range(rng.randint(1, 3))
            ],
            "payment": {
                "method": f"credit_card_{rng.randint(1000000, 9999999)}",
                "amount": rng.randint(10, 5000),
            },
        }
        return json.dumps(value) + "\n"

    rng_roles = _roles(rng)
    contents = [_fill(rng, record, rng.randint(7800, MAX_CHARS)) for _ in rng_roles]
    return _request(contents, rng_roles)


def cjk(seed: int = 29) -> dict:
    """Chinese prose: clauses between full-width punctuation, each clause one contract word."""
    rng = random.Random(seed)
    # the 600 code points from U+4E00: common and rare characters alike, as real text mixes them
    common = [chr(code) for code in range(0x4E00, 0x4E00 + 600)]
    ends = "。！？"

    def sentence() -> str:
        clauses = [
            "".join(rng.choice(common) for _ in range(rng.randint(4, 14)))
            for _ in range(rng.randint(1, 3))
        ]
        return "，".join(clauses) + rng.choice(ends)

    roles = _roles(rng)
    return _request([_fill(rng, sentence, rng.randint(7800, MAX_CHARS)) for _ in roles], roles)


KINDS: dict[str, Callable[[], dict]] = {
    "ASCII prose": ascii_prose,
    "non-ASCII prose": non_ascii_prose,
    "wide vocabulary": wide_vocabulary,
    "JSON tool output": json_tool_output,
    "CJK": cjk,
}


def measure(label: str, request: dict) -> float:
    contents = [m["content"] for m in request["messages"]]
    compact(request), tokenize(contents), validate(request)  # warm up caches and imports
    engine, baseline, validation, ratios = [], [], [], []
    for k in range(ROUNDS):
        # each round times both back to back, in alternating order: its ratio sees one load
        first, second = (compact, tokenize) if k % 2 == 0 else (tokenize, compact)
        times = {}
        for task in (first, second):
            arg = request if task is compact else contents
            start = time.perf_counter()
            task(arg)
            times[task] = time.perf_counter() - start
        engine.append(times[compact])
        baseline.append(times[tokenize])
        ratios.append(times[compact] / times[tokenize])
        start = time.perf_counter()
        validate(request)
        validation.append(time.perf_counter() - start)
    t_engine, t_base = statistics.median(engine), statistics.median(baseline)
    t_valid = statistics.median(validation)
    ratio = statistics.median(ratios)
    words = {w for m in tokenize(contents) for w in m}
    chars = sum(map(len, contents))
    print(f"{label}: {len(contents)} messages, {chars:,} characters, {len(words):,} distinct words")
    print(f"  compact median:       {t_engine * 1000:8.2f} ms")
    print(f"  tokenization median:  {t_base * 1000:8.2f} ms")
    print(
        f"  validate median:      {t_valid * 1000:8.2f} ms  ({t_valid / t_engine:.0%} of compact)"
    )
    print(f"  ratio compact/tokenization (median of rounds): {ratio:.2f}  (target <= {TARGET})")
    return ratio


def main() -> None:
    print(f"{ROUNDS} interleaved rounds per kind; medians; goal {GOAL}")
    ratios = {label: measure(label, build()) for label, build in KINDS.items()}
    print("summary: " + ", ".join(f"{label} {ratio:.2f}" for label, ratio in ratios.items()))


if __name__ == "__main__":
    main()
