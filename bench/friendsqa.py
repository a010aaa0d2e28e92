"""FriendsQA (Yang and Choi, SIGDIAL 2019: question answering on multiparty dialogue), a set
labelled by people outside this project: crowd workers asked questions about scenes of the TV
show *Friends* and marked, for each, the utterance(s) that answer it (several annotators per
question). Source: https://github.com/emorynlp/FriendsQA, commit
9ce6c98a6acf13c87d96b6811e4409b5de43bdfe, ``dat/friendsqa_dev.json`` (the tuning part) and
``dat/friendsqa_tst.json`` (the test part); Apache-2.0, Copyright 2019, 2020 Emory University
(kept beside the data: ``bench/data/friendsqa/LICENSE``, with a README giving the checksums).

``bench/data/friendsqa/friendsqa.jsonl.gz`` holds what the benchmark reads (one line per
episode: its scenes in order, each scene's utterances as messages and its questions with the
message each annotator's answer names); its sha256 is checked on load. ``python -m
bench.friendsqa --build CHECKOUT`` rebuilds it from a checkout of that repository at that
commit, checking each source file's sha256 first.

The benchmark. An episode's scenes (titles ``sNN_eNN_cNN``) are joined in scene order into one
long conversation, one message per utterance, ``Speaker: text`` (a stage direction, speaker
``#NOTE#``, is its text alone; an utterance said by several is ``A and B: text``). Every message
is a ``user`` message: the dialogue has five or six people and no assistant, so no speaker is
the model, and alternating roles would invent a structure the strategies could read (roles are
what ``keep_roles`` protects) where there is none. Each question is asked when its scene ends:
the history is the episode up to and including that scene, and the question is the pending
user turn after it (the focus; protected as the last message, ``keep_last_n`` 1, no role
protected, the same request for every strategy) and is not part of the evidence judged. The
budget is 10/20/30/50% of the history's characters (the question's come on top of them; at
least the contract's least budget, 100, which a short first scene of the test part gets at 10%).

Evidence and strict recall: each annotator's answer names one utterance (``utterance_id``; an
``is_speaker`` answer names the speaker of that utterance, which its message holds). A question
is answered (strict) when at least one annotator's answer utterance is returned whole: any
annotator's answer answers it. The stricter figure, every distinct answer utterance of the
question returned whole, is printed apart. 95% intervals: bootstrap over questions (2,000
resamples); the lift over keep-last is paired per question, with a second interval that
resamples whole episodes (the conversations: only 8 in the test part, so it is wide).

Strategies: focus (its defaults; and a setting chosen on the tuning part), focus with no focus
(the query-free mode, item 7: the pending turn says "ok"), keep-last, random (20 seeded draws),
memory-compact and anchor-keep (without, and with the question as its focus), reported on the
test part only. A variant asks every question
after the whole episode instead (``--at-episode-end``: the history is the episode, and the
question may be about any scene of it), with its own setting chosen on the tuning part.

    python -m bench.friendsqa            # the test part's table
    python -m bench.friendsqa --tuning   # the tuning part's
    python -m bench.friendsqa --search   # the settings tried on the tuning part
    python -m bench.friendsqa --search-free      # the query-free settings tried on it
    python -m bench.friendsqa --at-episode-end   # the variant (with --tuning, --search too)
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from pathlib import Path

import numpy as np

from compactor import apply_strategy, validate

DATA = Path(__file__).resolve().parent / "data" / "friendsqa" / "friendsqa.jsonl.gz"
DATA_SHA256 = "1a1a9888900f78f4bcdb33d2f4ef8180b527348ea1263e87d9ec0cee3eb14be0"
COMMIT = "9ce6c98a6acf13c87d96b6811e4409b5de43bdfe"
#: The source files at that commit and their sha256.
SOURCES = {
    "dat/friendsqa_dev.json": "3a85d3fcb175589ffd050fb4bf431da77a6e12589c8ec03f1d54060ce33ec703",
    "dat/friendsqa_tst.json": "a98f24d4b04ac9f8d9468088febf304bd90eada134537277c1a425e31c0372bc",
}
SHARES = (0.1, 0.2, 0.3, 0.5)
#: The setting chosen on the tuning part, at 20% (``--search`` prints what was tried there:
#: the defaults 87.5%, ``recent_share`` 0 / 0.25 / 0.75: 86.1 / 86.6 / 88.0%, ``min_score=0``
#: 87.2%, ``spread=1`` 87.5%, ``query_messages=0`` 89.0%; keep-last 81.2%): the recent turns'
#: words (the scene's last lines) are not about the question.
TUNED: dict = {"query_messages": 0}
#: The same, for the questions asked at the episode's end (``--search --at-episode-end``, at
#: 20%: the defaults 73.3%, ``recent_share`` 0 / 0.25 / 0.75: 76.2 / 76.1 / 68.8%,
#: ``min_score=0`` 74.7%, ``spread=1`` 72.2%, ``query_messages=0`` 73.3%; keep-last 21.0%).
TUNED_AT_END: dict = {"recent_share": 0.0}
#: What the pending turn says in the query-free runs (it says nothing about what comes next).
NOTHING = "ok"
STRATEGIES = {
    "focus": ("focus", {}),
    "focus (tuned)": ("focus", TUNED),
    "focus, query-free (pending turn 'ok')": ("focus", "free"),
    "keep-last": ("keep-last", {}),
    "memory-compact": ("memory-compact", {}),
    "anchor-keep": ("anchor-keep", {}),
    "anchor-keep, the question as focus": ("anchor-keep", "query"),
}
LIFTS = ("focus", "focus (tuned)", "focus, query-free (pending turn 'ok')")
RANDOM = "random (20 seeded draws)"
RANDOM_DRAWS = 20
#: The contract's least budget: a history under 1,000 characters (a short first scene) gets it
#: at 10% (a little more than 10% of its characters).
MIN_BUDGET = 100


def message(utterance: dict) -> str:
    """One utterance as a message: ``Speaker: text`` (a stage direction is its text alone)."""
    speakers = [s for s in utterance["speakers"] if s != "#NOTE#"]
    text = utterance["utterance"]
    return f"{' and '.join(speakers)}: {text}" if speakers else text


def build(checkout: Path) -> bytes:
    """The benchmark's file from a FriendsQA checkout, each source file's sha256 checked."""
    episodes: dict[tuple[str, str], list[dict]] = {}
    for name, digest in sorted(SOURCES.items()):
        raw = (checkout / name).read_bytes()
        if hashlib.sha256(raw).hexdigest() != digest:
            raise SystemExit(f"{name}: sha256 differs from the commit's; not the same data")
        part = "tuning" if name.endswith("_dev.json") else "test"
        for scene in json.loads(raw)["data"]:
            (paragraph,) = scene["paragraphs"]
            utterances = paragraph["utterances:"]
            assert [u["uid"] for u in utterances] == list(range(len(utterances))), scene["title"]
            questions = [
                {"question": q["question"], "answers": [a["utterance_id"] for a in q["answers"]]}
                for q in paragraph["qas"]
            ]
            episodes.setdefault((part, scene["title"][:7]), []).append(
                {
                    "scene": scene["title"],
                    "messages": [message(u) for u in utterances],
                    "questions": questions,
                }
            )
    lines = []
    for (part, episode), scenes in sorted(episodes.items()):
        scenes.sort(key=lambda s: int(s["scene"].split("_c")[1]))
        lines.append(json.dumps({"episode": episode, "part": part, "scenes": scenes}))
    return gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0)


def load(part: str) -> list[dict]:
    raw = DATA.read_bytes()
    if hashlib.sha256(raw).hexdigest() != DATA_SHA256:
        raise SystemExit(f"{DATA}: sha256 differs from the one recorded here")
    episodes = [json.loads(line) for line in gzip.decompress(raw).decode().splitlines()]
    return [e for e in episodes if e["part"] == part]


def cases(episodes: list[dict], at_end: bool = False):
    """Per question of ``episodes``: its episode, the history (the episode up to and including
    its scene; with ``at_end``, the whole episode), the question, and the history's message
    indices each annotator's answer names."""
    for episode in episodes:
        whole = [m for scene in episode["scenes"] for m in scene["messages"]]
        history: list[str] = []
        for scene in episode["scenes"]:
            offset = len(history)
            history = history + scene["messages"]
            for q in scene["questions"]:
                answers = sorted({offset + a for a in q["answers"] if a < len(scene["messages"])})
                if answers:
                    yield episode["episode"], whole if at_end else history, q["question"], answers


def table(
    part: str,
    shares=SHARES,
    strategies=STRATEGIES,
    random_too: bool = True,
    at_end: bool = False,
) -> dict:
    """Per (strategy, share): per question, (any annotator's utterance whole, every one whole)
    and the question's episode, under ``("episodes", None)`` (the episodes run in two
    processes)."""
    hits: dict = {("episodes", None): []}
    jobs = [(e, shares, strategies, random_too, at_end) for e in load(part)]
    for got in _runs(jobs):
        for key, values in got.items():
            hits.setdefault(key, []).extend(values)
    return hits


#: How many processes run the episodes.
WORKERS = 2


def _runs(jobs):
    """Each job's hits, in order: in WORKERS processes (forked), or in this one without fork."""
    from multiprocessing import get_context

    try:
        context = get_context("fork")
    except ValueError:  # no fork (Windows)
        yield from map(_episode, jobs)
        return
    with context.Pool(WORKERS) as pool:
        yield from pool.imap(_episode, jobs)


def _free(params) -> bool:
    """Whether a strategy's entry is a query-free run ("free", or ("free", its settings))."""
    return params == "free" or (isinstance(params, tuple) and params[0] == "free")


def _episode(job) -> dict:
    from compactor.analyses.outcomes import random_lengths
    from compactor.contract import AGENT_LIMITS

    episode, shares, strategies, random_too, *rest = job
    at_end = bool(rest and rest[0])
    hits: dict = {("episodes", None): []}
    same: dict = {}  # (history, share) -> the query-free runs' kept spans
    for _, history, question, answers in cases([episode], at_end):
        hits[("episodes", None)].append(episode["episode"])
        total = sum(len(t) for t in history)
        lengths = [len(t) for t in history]
        for share in shares:
            budget = max(int(total * share), MIN_BUDGET)
            free = any(_free(p) for _, p in strategies.values())
            for pending in (question, NOTHING) if free else (question,):
                if pending == NOTHING and (len(history), share) in same:
                    for name, kept in same[(len(history), share)].items():
                        whole = [kept[i] == ((0, lengths[i]),) for i in answers]
                        hits.setdefault((name, share), []).append((any(whole), all(whole)))
                    continue
                request = validate(
                    {
                        "messages": [{"role": "user", "content": t} for t in [*history, pending]],
                        "budget_chars": budget,
                        "keep_last_n": 1,
                        "keep_roles": [],
                    },
                    limits=AGENT_LIMITS,
                )
                for name, (key, params) in strategies.items():
                    if _free(params) != (pending == NOTHING):
                        continue
                    given = {"focus": question} if params == "query" else params
                    if _free(given):  # "free", or ("free", the settings)
                        given = given[1] if isinstance(given, tuple) else None
                    result = apply_strategy(key, request, params=given)
                    if pending == NOTHING:  # the same for every question of the scene
                        spans = [m.kept_spans for m in result.messages]
                        same.setdefault((len(history), share), {})[name] = spans
                    whole = [result.messages[i].kept_spans == ((0, lengths[i]),) for i in answers]
                    hits.setdefault((name, share), []).append((any(whole), all(whole)))
            if random_too:
                protected = np.zeros(len(history) + 1, dtype=bool)
                protected[-1] = True
                sizes = [*lengths, len(question)]
                drawn = random_lengths(sizes, budget, RANDOM_DRAWS, protected)[:, answers]
                whole = drawn >= np.array([lengths[i] for i in answers])
                hits.setdefault((RANDOM, share), []).append(
                    (float(whole.any(axis=1).mean()), float(whole.all(axis=1).mean()))
                )
    return hits


def interval95(values, groups=None, draws: int = 2000, seed: int = 20261206):
    """The mean and a 95% bootstrap interval, resampling values (or, given ``groups``, whole
    groups of them)."""
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    if groups is None:
        means = data[rng.integers(0, len(data), (draws, len(data)))].mean(1)
    else:
        names = sorted(set(groups))
        of = np.array([names.index(g) for g in groups])
        sums = np.bincount(of, weights=data, minlength=len(names))
        counts = np.bincount(of, minlength=len(names)).astype(float)
        picks = rng.integers(0, len(names), (draws, len(names)))
        means = sums[picks].sum(1) / counts[picks].sum(1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(data.mean()), float(low), float(high)


def cell(values) -> str:
    mean, low, high = interval95(values)
    return f"{mean:6.1%} [{low:5.1%}, {high:5.1%}]"


def print_table(part: str, hits: dict, names, at_end: bool = False) -> None:
    episodes = hits[("episodes", None)]
    shares = sorted({s for (_, s) in hits if s is not None})
    print(
        f"FriendsQA {part} part ({'dev' if part == 'tuning' else 'tst'} split): "
        f"{len(episodes)} questions in {len(set(episodes))} episodes (conversations); "
        + (
            "each question asked after the whole episode (a variant)"
            if at_end
            else "each question asked when its scene ends"
        )
    )
    for k, label in (
        (0, "strict evidence recall: at least one annotator's answer utterance returned whole"),
        (1, "stricter: every annotator's answer utterance returned whole"),
    ):
        print(f"  {label}; 95% bootstrap interval over questions")
        print(f"  {'strategy':<44}" + "".join(f"{f'{s:.0%}':>24}" for s in shares))
        for name in names:
            row = [cell([h[k] for h in hits[(name, s)]]) for s in shares]
            print(f"  {name:<44}" + "".join(f"{c:>24}" for c in row))
        for name in LIFTS:
            if (name, shares[0]) not in hits:
                continue
            for grouped in (False, True):
                row = []
                for s in shares:
                    diff = np.array([h[k] for h in hits[(name, s)]], dtype=float) - np.array(
                        [h[k] for h in hits[("keep-last", s)]], dtype=float
                    )
                    mean, low, high = interval95(diff, episodes if grouped else None)
                    row.append(f"{mean * 100:+5.1f} [{low * 100:+5.1f}, {high * 100:+5.1f}] pp")
                by = "by episode" if grouped else "by question"
                label = f"{name.split(' (')[0].split(',')[0]}{' free' if 'free' in name else ''}"
                label += f"{' tuned' if 'tuned' in name else ''} - keep-last ({by})"
                print(f"  {label:<44}" + "".join(f"{c:>24}" for c in row))


#: The settings ``--search`` tries on the tuning part, at 20% and 30%.
SEARCH = {
    "defaults": {},
    "recent_share=0": {"recent_share": 0.0},
    "recent_share=0.25": {"recent_share": 0.25},
    "recent_share=0.75": {"recent_share": 0.75},
    "min_score=0": {"min_score": 0.0},
    "spread=1": {"spread": 1},
    "query_messages=0": {"query_messages": 0},
}


#: The query-free settings ``--search-free`` tries on the tuning part, at 20% and 30%. None
#: reaches item 7's goal (+10 pp over keep-last) there, so the test part shows the defaults:
#: at the scene's end the more of the budget recency gets the better (``recent_share`` 0.9:
#: 80.5% and 87.6% against keep-last's 81.2% and 87.6%); at the episode's end the best,
#: ``recent_share=0.25``, is 28.2% and 39.8% against 21.0% and 30.6% (the defaults 27.4%, 39.0%).
SEARCH_FREE = {
    "defaults": {},
    "recent_share=0": {"recent_share": 0.0},
    "recent_share=0.25": {"recent_share": 0.25},
    "recent_share=0.75": {"recent_share": 0.75},
    "recent_share=0.9": {"recent_share": 0.9},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tuning", action="store_true", help="the tuning part (FriendsQA's dev)")
    parser.add_argument(
        "--search", action="store_true", help="the settings tried on the tuning part"
    )
    parser.add_argument(
        "--search-free", action="store_true", help="the query-free settings tried on it"
    )
    parser.add_argument(
        "--at-episode-end",
        action="store_true",
        help="ask every question after the whole episode (not when its scene ends)",
    )
    parser.add_argument("--build", type=Path, help="rebuild the data from a FriendsQA checkout")
    args = parser.parse_args()
    if args.build:
        DATA.write_bytes(build(args.build))
        print(DATA, hashlib.sha256(DATA.read_bytes()).hexdigest())
        return
    at_end = args.at_episode_end
    if args.search_free:
        tried = {f"query-free {k}": ("focus", ("free", v)) for k, v in SEARCH_FREE.items()}
        tried["keep-last"] = ("keep-last", {})
        hits = table("tuning", (0.2, 0.3), tried, random_too=False, at_end=at_end)
        print_table("tuning", hits, list(tried), at_end)
        return
    if args.search:
        tried = {f"focus {k}": ("focus", v) for k, v in SEARCH.items()}
        tried["keep-last"] = ("keep-last", {})
        hits = table("tuning", (0.2,), tried, random_too=False, at_end=at_end)
        print_table("tuning", hits, list(tried), at_end)
        return
    part = "tuning" if args.tuning else "test"
    strategies = {**STRATEGIES, "focus (tuned)": ("focus", TUNED_AT_END if at_end else TUNED)}
    hits = table(part, strategies=strategies, at_end=at_end)
    print_table(part, hits, [*strategies, RANDOM], at_end)
    tuned = TUNED_AT_END if at_end else TUNED
    print(f"  focus (tuned): {', '.join(f'{k}={v}' for k, v in tuned.items())}")


if __name__ == "__main__":
    main()
