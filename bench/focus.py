"""focus (issue 38): its speed beside memory-compact, and a quick recall figure on a generator of
our own.

Speed (item 5), measured in one run: for each history, rounds that run one memory-compact
(``compact(request, limits=...)``) and one focus (``apply_strategy("focus", validate(...))``,
validation included as ``compact`` includes it) in alternating order; the figure is the median
of the per-round ratios (the machine's noise shows in the spread, printed beside it).

- 200 messages: the first 200 of ``bench.agent_scale.history`` (about 1,000 characters each) and the
  largest contract request (``bench.prose.largest_request``: 200 messages of about 8,000):
  goal at most 2 x one memory-compact;
- 1,000 messages, about 1,000,000 characters (``bench.agent_scale.history``), agent mode:
  goal at most 3 x.

Recall, on a generator of our own (reported apart: it never counts toward the issue's target,
since its questions share rare words with the planted evidence and so are easy for BM25): long
conversations of small talk with facts about people planted early, distractor facts about the
same people and about other people, and, last, a question about one planted fact. Strict
evidence recall: the share of conversations whose evidence sentence is returned whole (one
span a strategy returned verbatim holds it), at a budget of 20% of the characters, with a 95%
bootstrap interval over conversations; focus (and, apart, a variant with parts of 160
characters) against keep-last, memory-compact and anchor-keep (without, and with the question
as its focus).

    python -m bench.focus            # from the project root
    python -m bench.focus --quick    # fewer rounds and conversations
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from bench.agent_scale import history
from bench.prose import largest_request
from compactor import apply_strategy, compact, validate

SPEED_GOALS = {"200 messages": 2.0, "1,000 messages": 3.0}


def speed_rounds(request: dict, limits: str, rounds: int) -> tuple[float, float, float, float]:
    """Median memory-compact seconds, median focus seconds, median per-round ratio, and the
    spread of the ratios (max - min)."""

    def memory() -> None:
        compact(request, limits=limits)

    def focus() -> None:
        apply_strategy("focus", validate(request, limits=limits))

    memory()  # warm-up: imports, caches
    focus()
    spent: dict[str, list[float]] = {"memory": [], "focus": []}
    ratios = []
    for k in range(rounds):
        pair = {}
        order = (("memory", memory), ("focus", focus))
        for name, task in order if k % 2 else order[::-1]:
            start = time.perf_counter()
            task()
            pair[name] = time.perf_counter() - start
        for name, seconds in pair.items():
            spent[name].append(seconds)
        ratios.append(pair["focus"] / pair["memory"])
    return (
        statistics.median(spent["memory"]),
        statistics.median(spent["focus"]),
        statistics.median(ratios),
        max(ratios) - min(ratios),
    )


# --- the generator -----------------------------------------------------------------------------

NAMES = ["Dana", "Milo", "Iris", "Tomas", "Lena", "Ravi", "Greta", "Owen", "Noor", "Felix"]
RELATIONS = ["cousin", "sister", "brother", "neighbour", "colleague", "friend", "aunt", "uncle"]
CITIES = ["Tallinn", "Porto", "Ghent", "Kraków", "Bergen", "Valencia", "Tartu", "Lyon"]
INSTRUMENTS = ["cello", "banjo", "oboe", "harp", "trumpet", "accordion"]
PETS = [("parrot", "Kiwi"), ("tortoise", "Sheldon"), ("ferret", "Pip"), ("corgi", "Biscuit")]
JOBS = [("nurse", "St. Mary's"), ("baker", "Crumb & Co"), ("pilot", "Nordair"), ("chemist", "Lumo")]
#: (fact, question) templates about one person.
FACTS = (
    (
        lambda r, n, rng: f"My {r} {n} moved to {rng.choice(CITIES)} last spring.",
        lambda r, n: f"Remind me, which city did my {r} {n} move to?",
    ),
    (
        lambda r, n, rng: f"My {r} {n} started learning the {rng.choice(INSTRUMENTS)} in March.",
        lambda r, n: f"What instrument was my {r} {n} learning again?",
    ),
    (
        lambda r, n, rng: "My {} {} adopted a {} called {}.".format(r, n, *rng.choice(PETS)),
        lambda r, n: f"What kind of pet did my {r} {n} adopt, and its name?",
    ),
    (
        lambda r, n, rng: "My {} {} now works as a {} at {}.".format(r, n, *rng.choice(JOBS)),
        lambda r, n: f"Where does my {r} {n} work these days?",
    ),
)
#: Small-talk topics, each a few words the filler sentences are made of.
TOPICS = {
    "garden": ("tomatoes soil compost shade seedlings watering mulch beds roses pruning"),
    "cooking": ("risotto oven garlic stock simmer butter recipe pan herbs dough"),
    "travel": ("train tickets luggage hostel museum map ferry delays passport beach"),
    "work": ("meeting deadline slides report budget manager review project inbox spreadsheet"),
    "health": ("running knee stretching sleep doctor vitamins walking yoga posture water"),
    "books": ("novel chapter author library mystery poetry series ending plot characters"),
}


def sentence(rng: random.Random, words: list[str]) -> str:
    picked = rng.sample(words, 4)
    forms = [
        "I keep thinking about the {} and the {}, though the {} and {} matter too.",
        "Honestly the {} was fine, but the {} and the {} made the {} harder.",
        "We talked about {} and {} for a while, then {} and some {}.",
    ]
    return rng.choice(forms).format(*picked)


def conversation(seed: int, turns: int = 70) -> tuple[dict, tuple[int, int, int]]:
    """A request (about ``2 * turns`` messages) and its evidence ``(message, start, end)``."""
    rng = random.Random(seed)
    people = [(rng.choice(RELATIONS), name) for name in rng.sample(NAMES, 4)]
    target = people[0]
    kind = rng.randrange(len(FACTS))
    planted = []  # (turn, text, is the evidence)
    planted.append((rng.randrange(2, turns // 2), FACTS[kind][0](*target, rng), True))
    for other in range(len(FACTS)):  # the same person, other facts
        if other != kind:
            planted.append((rng.randrange(2, turns - 5), FACTS[other][0](*target, rng), False))
    for person in people[1:]:  # other people, the same kind of fact
        planted.append((rng.randrange(2, turns - 5), FACTS[kind][0](*person, rng), False))
    by_turn: dict[int, list[tuple[str, bool]]] = {}
    for turn, text, evidence in planted:
        by_turn.setdefault(turn, []).append((text, evidence))
    messages = [{"role": "system", "content": "You are a friendly assistant."}]
    evidence_at = (0, 0, 0)
    for turn in range(turns):
        topic = rng.choice(list(TOPICS))
        words = TOPICS[topic].split()
        text = " ".join(sentence(rng, words) for _ in range(rng.randint(2, 5)))
        for fact, evidence in by_turn.get(turn, ()):
            start = len(text) + 1
            text = f"{text} {fact}"
            if evidence:
                evidence_at = (len(messages), start, start + len(fact))
        messages.append({"role": "user", "content": text})
        reply = " ".join(sentence(rng, words) for _ in range(rng.randint(2, 6)))
        messages.append({"role": "assistant", "content": reply})
    messages.append({"role": "user", "content": FACTS[kind][1](*target)})
    total = sum(len(m["content"]) for m in messages)
    return {"messages": messages, "budget_chars": total // 5}, evidence_at


STRATEGIES = {
    "focus": ("focus", {}),
    "focus, part_chars=160 (a variant, not the default)": ("focus", {"part_chars": 160}),
    "keep-last": ("keep-last", {}),
    "memory-compact": ("memory-compact", {}),
    "anchor-keep": ("anchor-keep", {}),
    "anchor-keep, the question as focus": ("anchor-keep", "question"),
}


def kept_whole(result, evidence: tuple[int, int, int]) -> bool:
    i, start, end = evidence
    return any(s <= start and end <= e for s, e in result.messages[i].kept_spans)


def recall_table(conversations: int, draws: int = 2000) -> list[tuple[str, float, float, float]]:
    hits: dict[str, list[bool]] = {name: [] for name in STRATEGIES}
    for seed in range(conversations):
        data, evidence = conversation(seed)
        request = validate(data, limits="auto")
        question = data["messages"][-1]["content"]
        for name, (key, params) in STRATEGIES.items():
            given = {"focus": question} if params == "question" else params
            result = apply_strategy(key, request, params=given)
            hits[name].append(kept_whole(result, evidence))
    rng = np.random.default_rng(20261206)
    out = []
    for name, found in hits.items():
        values = np.array(found, dtype=float)
        means = values[rng.integers(0, len(values), (draws, len(values)))].mean(axis=1)
        low, high = np.percentile(means, [2.5, 97.5])
        out.append((name, float(values.mean()), float(low), float(high)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and conversations")
    args = parser.parse_args()
    rounds = 5 if args.quick else 9
    print(f"focus / one memory-compact run, median of {rounds} interleaved rounds (spread)")
    cases = [
        ("200 messages", "about 1,000 chars each", _first(200), "auto"),
        ("200 messages", "about 8,000 chars each", largest_request(), "contract"),
        ("1,000 messages", "about 1,000,000 chars", history(1_000_000), "agent"),
    ]
    for label, size, request, limits in cases:
        memory, focus, ratio, spread = speed_rounds(request, limits, rounds)
        chars = sum(len(m["content"]) for m in request["messages"])
        print(
            f"  {label} ({size}, {chars:,} in all, {limits}): memory-compact {memory:.3f} s, "
            f"focus {focus:.3f} s, ratio {ratio:.2f} (spread {spread:.2f}; goal <= "
            f"{SPEED_GOALS[label]:g})"
        )
    conversations = 60 if args.quick else 200
    print()
    print(
        f"OWN GENERATOR (never counts toward the issue's target): strict evidence recall at 20% "
        f"of the characters, {conversations} generated conversations of 141 messages, 95% "
        "bootstrap interval"
    )
    for name, share, low, high in recall_table(conversations):
        print(f"  {name:<52} {share:6.1%}  [{low:.1%}, {high:.1%}]")


def _first(count: int) -> dict:
    """``bench.agent_scale.history``'s first ``count`` messages (about 1,000 characters each)."""
    request = history(count * 1_100)
    return {**request, "messages": request["messages"][:count]}


if __name__ == "__main__":
    main()
