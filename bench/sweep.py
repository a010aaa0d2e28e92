"""Sweep speed: the sweeps, given one run, against one `compact` call on the largest request.

The budget sweep answers "from which budget does each message survive" for every budget in the
schema's range from one run's drop order. Target: the full sweep from a request (validate, run,
sweep: what `python -m compactor sweep` does) takes at most 1.2 times one `compact` call. Also
printed: the sweep alone given a result, compact + sweep against compact, and the two
sensitivity sweeps (duplicate_threshold and max_message_chars), on the largest request and on a
variant full of near-duplicates (many similarity values for the threshold sweep to visit).
Medians over interleaved rounds, so machine noise hits every measurement alike.

    python -m bench.sweep    # from the project root
"""

from __future__ import annotations

import random

from bench.prose import largest_request
from bench.timing import medians
from compactor import compact, run, validate
from compactor.analyses._sweeps import budget_sweep, threshold_sweep, trim_sweep
from compactor.samples import load_samples

ROUNDS = 15
TARGET = 1.2
LARGE = 1_500_000  # characters: a sample this large is used instead of the generated request


def biggest_request() -> tuple[str, dict]:
    """The largest sample if one is close to the 1.6M-character maximum, else the generated one."""
    samples = sorted(
        load_samples(),
        key=lambda s: sum(len(m["content"]) for m in s.request["messages"]),
    )
    if samples:
        size = sum(len(m["content"]) for m in samples[-1].request["messages"])
        if size >= LARGE:
            return f"sample {samples[-1].slug!r}", samples[-1].request
    return "bench.prose.largest_request()", largest_request()


def near_duplicates(request: dict, seed: int = 7) -> dict:
    """The same size, but every message a variant of a few others: dedupe has much to weigh."""
    rng = random.Random(seed)
    messages = request["messages"]
    bases = [m["content"].split(" ") for m in messages[1:6]]
    out = [messages[0]]
    for _ in messages[1:]:
        words = list(rng.choice(bases))
        for _ in range(rng.randint(0, 40)):
            words[rng.randrange(len(words))] = f"w{rng.randrange(10**6)}"
        out.append({"role": "user", "content": " ".join(words)[:8000]})
    return {**request, "messages": out, "keep_last_n": 0}


def measure(label: str, request: dict) -> None:
    typed = validate(request)
    result = run(typed)
    sim = result.analysis.similarity
    pairs = int((sim >= 0.5).sum())
    chars = sum(len(m["content"]) for m in request["messages"])
    t = medians(
        {
            "compact": lambda: compact(request),
            "sweep given the result": lambda: budget_sweep(result),
            "validate + run + sweep": lambda: budget_sweep(run(validate(request))),
            "threshold sweep": lambda: threshold_sweep(result),
            "max_message_chars sweep": lambda: trim_sweep(result),
        },
        ROUNDS,
    )
    steps = len(threshold_sweep(result).steps)
    print(f"{label}: {len(request['messages'])} messages, {chars:,} characters; {ROUNDS} rounds")
    for name, seconds in t.items():
        print(f"  {name + ' median:':32}{seconds * 1000:9.2f} ms")
    base = t["compact"]
    full = t["validate + run + sweep"] / base
    verdict = "meets" if full <= TARGET else "misses"
    print(f"  full budget sweep / compact:    {full:6.2f}  (target <= {TARGET}: {verdict})")
    print(f"  sweep given the result / compact: {t['sweep given the result'] / base:6.3f}")
    print(f"  (compact + sweep) / compact:    {1 + t['sweep given the result'] / base:6.3f}")
    print(
        f"  threshold sweep: {pairs:,} pairs with similarity >= 0.5, {steps} steps; "
        f"{t['threshold sweep'] / base:.2f} x compact"
    )
    print(
        f"  max_message_chars sweep: {len(trim_sweep(result).points):,} limits; "
        f"{t['max_message_chars sweep'] / base:.2f} x compact"
    )


def main() -> None:
    label, request = biggest_request()
    measure(f"largest request ({label})", request)
    measure("same size, near-duplicates", near_duplicates(request))


if __name__ == "__main__":
    main()
