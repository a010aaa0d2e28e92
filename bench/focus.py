"""focus (issue 38): its speed beside memory-compact, and a quick recall figure on a generator of
our own.

Speed (item 5), measured in one run: for each history, rounds that run one memory-compact
(``compact(request, limits=...)``) and one focus (``apply_strategy("focus", validate(...))``,
validation included as ``compact`` includes it) in alternating order, each round at another
budget: the cost after a parameter change (a budget move over the same history, what the
explorer reruns when a slider moves), with what the budget does not change (focus's parts and
their scores) remembered per history, as ``bench.outcomes`` and ``bench.anchors`` hold their
goals; the figure is the median of the per-round ratios (the machine's noise shows in the
spread, printed beside it). The first focus call on the history (nothing remembered yet) is
printed beside it, once per session and not held to the goal.

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
import re
import statistics
import time
from pathlib import Path

import numpy as np

from bench.agent_scale import history
from bench.prose import largest_request
from compactor import apply_strategy, compact, validate

SPEED_GOALS = {"200 messages": 2.0, "1,000 messages": 3.0}


def speed_rounds(
    request: dict, limits: str, rounds: int
) -> tuple[float, float, float, float, float]:
    """Median memory-compact seconds, median focus seconds, median per-round ratio, the spread
    of the ratios (max - min), each round at another budget (half to nine tenths of the
    request's own), and the seconds of the first focus call on the history, at its own budget."""
    own = request["budget_chars"]

    def memory(k: int) -> None:
        compact({**request, "budget_chars": max(100, own * (5 + k % 5) // 10)}, limits=limits)

    def focus(k: int) -> None:
        moved = {**request, "budget_chars": max(100, own * (5 + k % 5) // 10)}
        apply_strategy("focus", validate(moved, limits=limits))

    start = time.perf_counter()
    apply_strategy("focus", validate(request, limits=limits))  # nothing of it remembered yet
    first = time.perf_counter() - start
    memory(-1)  # warm-up
    spent: dict[str, list[float]] = {"memory": [], "focus": []}
    ratios = []
    for k in range(rounds):
        pair = {}
        order = (("memory", memory), ("focus", focus))
        for name, task in order if k % 2 else order[::-1]:
            start = time.perf_counter()
            task(k)
            pair[name] = time.perf_counter() - start
        for name, seconds in pair.items():
            spent[name].append(seconds)
        ratios.append(pair["focus"] / pair["memory"])
    return (
        statistics.median(spent["memory"]),
        statistics.median(spent["focus"]),
        statistics.median(ratios),
        max(ratios) - min(ratios),
        first,
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


# --- the query-free mode (item 7) ---------------------------------------------------------------

#: The pending turns that say nothing: the conversation ends on one of these (or on no user
#: message at all), and the question about a planted fact comes only after compaction.
NOTHING = ("ok", "continue", "go on", "thanks", "Okay, carry on please.", None)
MORE_CITIES = CITIES + ["Aarhus", "Trieste", "Bilbao", "Uppsala", "Cork", "Brno", "Ljubljana"]
MORE_PETS = PETS + [("gecko", "Ziggy"), ("axolotl", "Mochi"), ("budgie", "Sunny")]
MORE_JOBS = JOBS + [("welder", "Hafenwerk"), ("surveyor", "Geodis"), ("librarian", "Athenaeum")]
#: Facts a person shares in passing, with the question asked about them later.
PASSING = (
    ("My {r} {n} moved to {city} last spring.", "Which city did my {r} {n} move to?"),
    ("My {r} {n} adopted a {pet} called {name}.", "What pet did my {r} {n} adopt?"),
    ("My {r} {n} now works as a {job} at {place}.", "Where does my {r} {n} work?"),
    ("My {r} {n} is learning the {instrument}.", "What is my {r} {n} learning to play?"),
    ("Our flat viewing with {n} is on the {day}th at {hour}:15.", "When is the viewing?"),
)


def prose() -> list[str]:
    """Real English sentences from Python's own help topics (the filler: natural text, with
    rare words of its own, so the planted facts are not the only rare words)."""
    from pydoc_data.topics import topics

    text = " ".join(" ".join(v.split()) for _, v in sorted(topics.items()))
    return [
        s
        for s in re.split(r"(?<=[.!?])\s+", text)
        if 40 < len(s) < 200 and not re.search(r"[>{}=\[\]()*\"']", s)
    ]


def quiet_conversation(
    seed: int, sentences: list[str], turns: int = 70
) -> tuple[dict, tuple[int, int, int]]:
    """A conversation of ``2 * turns`` messages of filler prose with six facts planted in its
    first 80% and a pending turn that says nothing; the evidence is one fact, the one the
    (unseen) next question asks about."""
    rng = random.Random(seed)
    people = [(rng.choice(RELATIONS), name) for name in rng.sample(NAMES, 6)]
    facts = []
    for person, (fact, _) in zip(people, rng.sample(PASSING * 2, 6), strict=True):
        pet, name = rng.choice(MORE_PETS)
        job, place = rng.choice(MORE_JOBS)
        fields = {"r": person[0], "n": person[1], "city": rng.choice(MORE_CITIES), "pet": pet}
        fields |= {"name": name, "job": job, "place": place, "day": rng.randint(4, 28)}
        fields |= {"instrument": rng.choice(INSTRUMENTS), "hour": rng.randint(8, 18)}
        facts.append(fact.format(**fields))
    at = dict(zip(rng.sample(range(1, int(turns * 0.8)), len(facts)), facts, strict=True))
    target = rng.randrange(len(facts))
    messages = [{"role": "system", "content": "You are a helpful assistant."}]
    evidence = (0, 0, 0)
    for turn in range(turns):
        text = " ".join(rng.sample(sentences, rng.randint(1, 3)))
        if turn in at:
            start = len(text) + 1
            text = f"{text} {at[turn]}"
            if at[turn] == facts[target]:
                evidence = (len(messages), start, start + len(at[turn]))
        messages.append({"role": "user", "content": text})
        reply = " ".join(rng.sample(sentences, rng.randint(1, 4)))
        messages.append({"role": "assistant", "content": reply})
    pending = NOTHING[seed % len(NOTHING)]
    if pending is not None:
        messages.append({"role": "user", "content": pending})
    total = sum(len(m["content"]) for m in messages)
    return {"messages": messages, "budget_chars": total // 5, "keep_last_n": 1}, evidence


FREE_STRATEGIES = {
    "focus (query-free: the pending turn says nothing)": ("focus", {}),
    "focus, cover=False (recent turns as the query)": ("focus", {"cover": False}),
    "keep-last": ("keep-last", {}),
    "memory-compact": ("memory-compact", {}),
    "anchor-keep": ("anchor-keep", {}),
}
RANDOM_DRAWS = 20


def interval95(values: list[float], draws: int = 2000, seed: int = 20261206):
    data = np.array(values, dtype=float)
    means = data[np.random.default_rng(seed).integers(0, len(data), (draws, len(data)))].mean(1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(data.mean()), float(low), float(high)


def query_free_table(seeds: range, shares=(0.1, 0.2, 0.3, 0.5)) -> dict:
    """Per strategy (and random, the mean of 20 draws per conversation) and budget share, the
    strict evidence recall with its 95% interval, and focus minus keep-last, paired."""
    from compactor.analyses.outcomes import random_lengths

    sentences = prose()
    hits: dict[tuple[str, float], list[float]] = {}
    for seed in seeds:
        data, evidence = quiet_conversation(seed, sentences)
        total = sum(len(m["content"]) for m in data["messages"])
        lengths = [len(m["content"]) for m in data["messages"]]
        for share in shares:
            budget = int(total * share)
            request = validate({**data, "budget_chars": budget}, limits="agent")
            for name, (key, params) in FREE_STRATEGIES.items():
                result = apply_strategy(key, request, params=params)
                hits.setdefault((name, share), []).append(float(kept_whole(result, evidence)))
            drawn = random_lengths(lengths, budget, RANDOM_DRAWS)[:, evidence[0]]
            hits.setdefault(("random (20 draws)", share), []).append(
                float((drawn >= evidence[2]).mean())
            )
    return hits


def print_query_free(conversations: int) -> None:
    tuning = range(0, conversations // 3)
    test = range(10_000, 10_000 + conversations)
    print(
        "OWN GENERATOR, QUERY-FREE MODE (item 7; never counts toward the issue's target): the "
        "pending turn says nothing ('ok', 'continue', 'go on', 'thanks', none); filler is real "
        "prose (Python's help topics), six facts planted in the first 80%, the evidence is the "
        "one a later question asks about. Strict evidence recall, 95% bootstrap interval over "
        "conversations; the paired lift of focus over keep-last with its interval."
    )
    for label, seeds in (("tuning part", tuning), ("TEST PART", test)):
        hits = query_free_table(seeds)
        shares = sorted({s for _, s in hits})
        print(f"  {label}: {len(seeds)} conversations (seeds {seeds.start}..{seeds.stop - 1})")
        print(f"    {'strategy':<52}" + "".join(f"{f'{s:.0%}':>24}" for s in shares))
        for name in [*FREE_STRATEGIES, "random (20 draws)"]:
            cells = []
            for share in shares:
                mean, low, high = interval95(hits[(name, share)])
                cells.append(f"{mean:6.1%} [{low:5.1%}, {high:5.1%}]")
            print(f"    {name:<52}" + "".join(f"{c:>24}" for c in cells))
        first = next(iter(FREE_STRATEGIES))
        cells = []
        for share in shares:
            diff = np.array(hits[(first, share)]) - np.array(hits[("keep-last", share)])
            mean, low, high = interval95(list(diff))
            cells.append(f"{mean * 100:+5.1f} [{low * 100:+5.1f}, {high * 100:+5.1f}] pp")
        print(f"    {'focus - keep-last (paired)':<52}" + "".join(f"{c:>24}" for c in cells))


# --- do no harm on agent traffic (item 6) ------------------------------------------------------

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real-compactions"
CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
AGENT_SHARES = (0.1, 0.2, 0.3, 0.5)


#: keep-last protects nothing (it keeps the newest messages that fit, the system prompt too
#: only when it fits): focus is given the same protection, so both return at most the budget.
SAME_PROTECTION = {"keep_last_n": 0, "keep_roles": []}


def judged_pair(past, needs, params: dict, budget: int, rereads=None, offset: int = 0):
    """(needs judged, met by focus, met by keep-last) for one past at one budget, at the same
    protection (none); with ``rereads`` (a compaction's, the history ``offset`` messages after
    the request's start) also (re-reads, held by focus, held by keep-last)."""
    from compactor.analyses._rereads import spans_recall
    from compactor.analyses.outcomes import judge_outcome

    given = {**SAME_PROTECTION, **params}
    result = apply_strategy("focus", past, budget_chars=budget, params=given)
    assert result.output_chars <= budget
    baseline = apply_strategy("keep-last", past, budget_chars=budget)
    focus, last = judge_outcome(needs, result), judge_outcome(needs, baseline)
    assert focus.needs == last.needs
    if rereads is None:
        return focus.needs, focus.met, last.met
    held = [
        spans_recall(rereads, [m.kept_spans for m in r.messages], offset)
        for r in (result, baseline)
    ]
    return (focus.needs, focus.met, last.met), (held[0].rereads, held[0].held, held[1].held)


def real_compaction_cells(rereads_too: list | None = None) -> list[tuple[str, int, int, int]]:
    """Each recorded compaction of the shared real sessions, graded as Graded grades it: the
    history before the boundary (after the previous summary), focus given the last user
    message recorded before the boundary, both at the summary's characters; needed-later
    recall on the messages up to the next compaction."""
    from compactor.analyses import find_rereads
    from compactor.analyses._graded import last_user_message, summary_budget
    from compactor.analyses.outcomes import find_needs
    from compactor.contract import AGENT_LIMITS
    from compactor.formats import convert_text

    cells = []
    for path in sorted(REAL.glob("*.jsonl")):
        conversion = convert_text(path.read_bytes())
        request = validate(conversion.request, limits=AGENT_LIMITS)
        marks = conversion.compactions
        found = find_rereads(request, marks)
        for k, compaction in enumerate(marks):
            b, summary = compaction.boundary, compaction.summary
            end = marks[k + 1].boundary if k + 1 < len(marks) else len(request.messages)
            start = marks[k - 1].boundary if k else 0
            lead = [{"role": "user", "content": marks[k - 1].summary}] if k else []
            if not summary or b - start < 2:
                continue
            budget = summary_budget(summary)
            past = validate(
                {
                    "messages": [*lead, *(m.to_dict() for m in request.messages[start:b])],
                    **request.params.to_dict(),
                    "budget_chars": budget,
                },
                limits=AGENT_LIMITS,
            )
            contents = (*past.contents, *request.contents[b:end])
            roles = (*past.roles, *request.roles[b:end])
            needs = find_needs(contents, roles)
            pending = last_user_message(request, b)
            params = {} if pending is None else {"focus": pending}
            judged, reread = judged_pair(past, needs, params, budget, found[k], len(lead))
            cells.append((f"{path.name}#{k}", *judged))
            if rereads_too is not None:
                rereads_too.append((f"{path.name}#{k}", *reread))
    return cells


def tau_cells(share: float) -> list[tuple[str, int, int, int]]:
    """The tau-bench records of the shared corpus, cut after every 10th message from the 20th
    (the past), compacted to ``share`` of the past's characters; focus takes its default (the
    last user message of the past); needed-later recall on the rest."""
    from compactor.analyses.outcomes import find_needs
    from compactor.contract import AGENT_LIMITS
    from compactor.evaluation import load_corpus

    cells = []
    for item in load_corpus(CORPUS):
        if not item.conversation.startswith("tau"):
            continue
        request = validate(item.request, limits=AGENT_LIMITS)
        needs = find_needs(request.contents, request.roles)
        for cut in range(20, len(request.messages) - 4, 10):
            head = [m.to_dict() for m in request.messages[:cut]]
            budget = max(100, int(sum(len(m["content"]) for m in head) * share))
            past = validate(
                {"messages": head, **request.params.to_dict(), "budget_chars": budget},
                limits=AGENT_LIMITS,
            )
            cells.append((f"{item.conversation}@{cut}", *judged_pair(past, needs, {}, budget)))
    return cells


def paired(cells: list[tuple[str, int, int, int]]) -> str:
    from bench.recall_corpus import lift_interval

    needs = [c[1] for c in cells if c[1]]
    if not needs:
        return "no needs"
    focus = sum(c[2] for c in cells) / sum(needs)
    last = sum(c[3] for c in cells) / sum(needs)
    diff, low, high = lift_interval(needs, [c[2] - c[3] for c in cells if c[1]])
    return (
        f"focus {focus:.1%}, keep-last {last:.1%}, focus - keep-last {diff * 100:+.1f} pp "
        f"[{low * 100:+.1f}, {high * 100:+.1f}] ({sum(needs)} needs in {len(needs)} cuts)"
    )


def print_agents() -> None:
    print(
        "AGENT TRAFFIC (item 6): needed-later recall (SPEC part D; a source kept when a span "
        "returned verbatim holds it) and, on the real sessions, the re-read judge; focus against "
        "keep-last at the same size and protection (none), paired; the 95% interval resamples "
        "compactions/cuts. Goal: the interval's low end at -2 pp or above."
    )
    rereads: list = []
    real = real_compaction_cells(rereads)
    print(f"  real Claude Code compactions (shared, at the summary's size): {paired(real)}")
    print(
        "  the re-read judge (issue 36: a file read again after the compaction, unchanged; held "
        "when half its earlier result is kept), the same compactions: "
        + paired(rereads).replace("needs", "re-reads")
    )
    for share in AGENT_SHARES:
        tau = tau_cells(share)
        print(f"  tau-bench records at {share:.0%}: {paired(tau)}")
        print(f"  pooled with the real compactions: {paired(real + tau)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and conversations")
    parser.add_argument(
        "--only", choices=("speed", "recall", "query-free", "agents"), help="one table only"
    )
    args = parser.parse_args()
    if args.only == "agents":
        print_agents()
        return
    if args.only == "query-free":
        print_query_free(60 if args.quick else 150)
        return
    rounds = 5 if args.quick else 9
    print(
        f"focus / one memory-compact run after a budget move, median of {rounds} interleaved"
        " rounds (spread); the first call on the history beside it"
    )
    apply_strategy("focus", validate(history(20_000), limits="agent"))  # imports, first calls
    cases = [
        ("200 messages", "about 1,000 chars each", _first(200), "auto"),
        ("200 messages", "about 8,000 chars each", largest_request(), "contract"),
        ("1,000 messages", "about 1,000,000 chars", history(1_000_000), "agent"),
    ]
    for label, size, request, limits in cases:
        memory, focus, ratio, spread, first = speed_rounds(request, limits, rounds)
        chars = sum(len(m["content"]) for m in request["messages"])
        print(
            f"  {label} ({size}, {chars:,} in all, {limits}): memory-compact {memory:.3f} s, "
            f"focus {focus:.3f} s, ratio {ratio:.2f} (spread {spread:.2f}; goal <= "
            f"{SPEED_GOALS[label]:g}); first call {first:.3f} s = {first / memory:.2f} x (once"
            " per session, not held to the goal)"
        )
    if args.only == "speed":
        return
    conversations = 60 if args.quick else 200
    print()
    print(
        f"OWN GENERATOR (never counts toward the issue's target): strict evidence recall at 20% "
        f"of the characters, {conversations} generated conversations of 141 messages, 95% "
        "bootstrap interval"
    )
    for name, share, low, high in recall_table(conversations):
        print(f"  {name:<52} {share:6.1%}  [{low:.1%}, {high:.1%}]")
    print()
    print_query_free(conversations)


def _first(count: int) -> dict:
    """``bench.agent_scale.history``'s first ``count`` messages (about 1,000 characters each)."""
    request = history(count * 1_100)
    return {**request, "messages": request["messages"][:count]}


if __name__ == "__main__":
    main()
