"""QMSum (Zhong et al., NAACL 2021: query-based meeting summarization), a set labelled by people
outside this project: for each meeting's specific queries, the annotators marked the transcript
turns relevant to the query (``relevant_text_span``). Source: github.com/Yale-LILY/QMSum,
commit 83d7768c1f2b4dfeb091385d3dc7e239b8e5bb7e, ``data/ALL/val`` (the tuning part) and
``data/ALL/test`` (the test part); MIT licence, Copyright (c) 2021 Yale-LILY (kept beside the
data: ``bench/data/qmsum/LICENSE``).

``bench/data/qmsum/qmsum.jsonl.gz`` holds what the benchmark reads (each meeting's turns as
``speaker: content``, its specific queries and their spans); its sha256 is checked on load.
``python -m bench.qmsum --build PATH`` rebuilds it from a checkout of that repository at that
commit, checking each source file's sha256 first.

The benchmark: each meeting is a conversation of its turns (role ``user``, ``Speaker: text``)
followed by the query as the pending user turn; strict evidence recall is the share of queries
whose every relevant turn is returned whole, at 10/20/30/50% of the characters, with 95%
bootstrap intervals over queries; focus against keep-last, random (20 draws), memory-compact and
anchor-keep (without, and with the query as its focus), reported on the test part only (the
tuning part is where focus's defaults may be tried).

    python -m bench.qmsum            # the test part's table
    python -m bench.qmsum --tuning   # the tuning part's
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from pathlib import Path

import numpy as np

from compactor import apply_strategy, validate

DATA = Path(__file__).resolve().parent / "data" / "qmsum" / "qmsum.jsonl.gz"
DATA_SHA256 = "f82400a848abbf051801c95c89683aa974f3e7d714974f3a319626a160d5dbb7"
SHARES = (0.1, 0.2, 0.3, 0.5)
#: The variant chosen on the tuning part (spread 0..32, recent_share 0..0.5, min_score,
#: part_chars tried there): a passage of turns ranks as a run, and no share goes to recency.
TUNED = {"spread": 16, "recent_share": 0.0}
STRATEGIES = {
    "focus": ("focus", {}),
    "focus, spread=16, recent_share=0 (tuned)": ("focus", TUNED),
    "keep-last": ("keep-last", {}),
    "memory-compact": ("memory-compact", {}),
    "anchor-keep": ("anchor-keep", {}),
    "anchor-keep, the query as focus": ("anchor-keep", "query"),
}
RANDOM_DRAWS = 20


def build(checkout: Path, sources: dict[str, str]) -> bytes:
    """The benchmark's file from a QMSum checkout, each source file's sha256 checked."""
    lines = []
    for name, digest in sorted(sources.items()):
        raw = (checkout / name).read_bytes()
        if hashlib.sha256(raw).hexdigest() != digest:
            raise SystemExit(f"{name}: sha256 differs from the commit's; not the same data")
        meeting = json.loads(raw)
        part = "tuning" if "/val/" in name else "test"
        turns = [f"{t['speaker']}: {t['content']}" for t in meeting["meeting_transcripts"]]
        queries = [
            {"query": q["query"], "spans": [[int(a), int(b)] for a, b in q["relevant_text_span"]]}
            for q in meeting["specific_query_list"]
        ]
        lines.append(
            json.dumps({"meeting": name, "part": part, "turns": turns, "queries": queries})
        )
    return gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0)


def load(part: str) -> list[dict]:
    raw = DATA.read_bytes()
    if hashlib.sha256(raw).hexdigest() != DATA_SHA256:
        raise SystemExit(f"{DATA}: sha256 differs from the one recorded here")
    meetings = [json.loads(line) for line in gzip.decompress(raw).decode().splitlines()]
    return [m for m in meetings if m["part"] == part]


def evidence(turns: list[str], spans: list[list[int]]) -> list[int]:
    """The message indices of the relevant turns (spans are inclusive turn ranges)."""
    return sorted({k for a, b in spans for k in range(a, min(b, len(turns) - 1) + 1)})


def table(part: str, shares=SHARES, names=tuple(STRATEGIES)) -> dict:
    from compactor.analyses.outcomes import random_lengths
    from compactor.contract import AGENT_LIMITS

    hits: dict[tuple[str, float], list[float]] = {}
    for meeting in load(part):
        turns = meeting["turns"]
        for q in meeting["queries"]:
            wanted = evidence(turns, q["spans"])
            if not wanted:
                continue
            messages = [{"role": "user", "content": t} for t in turns]
            messages.append({"role": "user", "content": q["query"]})
            total = sum(len(t) for t in turns)
            lengths = [len(m["content"]) for m in messages]
            for share in shares:
                budget = int(total * share)
                request = validate(
                    {
                        "messages": messages,
                        "budget_chars": budget,
                        "keep_last_n": 1,
                        "keep_roles": [],
                    },
                    limits=AGENT_LIMITS,
                )
                for name in names:
                    key, params = STRATEGIES[name]
                    given = {"focus": q["query"]} if params == "query" else params
                    result = apply_strategy(key, request, params=given)
                    whole = all(result.messages[i].kept_spans == ((0, lengths[i]),) for i in wanted)
                    hits.setdefault((name, share), []).append(float(whole))
                drawn = random_lengths(lengths, budget, RANDOM_DRAWS)[:, wanted]
                hits.setdefault(("random (20 draws)", share), []).append(
                    float((drawn >= np.array([lengths[i] for i in wanted])).all(axis=1).mean())
                )
    return hits


def interval95(values, draws: int = 2000, seed: int = 20261206):
    data = np.asarray(values, dtype=float)
    means = data[np.random.default_rng(seed).integers(0, len(data), (draws, len(data)))].mean(1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(data.mean()), float(low), float(high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tuning", action="store_true", help="the tuning part (QMSum's val)")
    parser.add_argument("--build", type=Path, help="rebuild the data from a QMSum checkout")
    args = parser.parse_args()
    if args.build:
        DATA.write_bytes(build(args.build, SOURCES))
        print(DATA, hashlib.sha256(DATA.read_bytes()).hexdigest())
        return
    part = "tuning" if args.tuning else "test"
    hits = table(part)
    queries = len(hits[("focus", SHARES[0])])
    print(
        f"QMSum {part} part ({'val' if args.tuning else 'test'} split): {queries} specific "
        "queries; strict evidence recall (every relevant turn returned whole), 95% bootstrap "
        "interval over queries"
    )
    print(f"  {'strategy':<44}" + "".join(f"{f'{s:.0%}':>24}" for s in SHARES))
    for name in [*STRATEGIES, "random (20 draws)"]:
        cells = []
        for share in SHARES:
            mean, low, high = interval95(hits[(name, share)])
            cells.append(f"{mean:6.1%} [{low:5.1%}, {high:5.1%}]")
        print(f"  {name:<44}" + "".join(f"{c:>24}" for c in cells))
    for name in ("focus", "focus, spread=16, recent_share=0 (tuned)"):
        cells = []
        for share in SHARES:
            diff = np.array(hits[(name, share)]) - np.array(hits[("keep-last", share)])
            mean, low, high = interval95(diff)
            cells.append(f"{mean * 100:+5.1f} [{low * 100:+5.1f}, {high * 100:+5.1f}] pp")
        label = f"{name.split(' (')[0]} - keep-last"
        print(f"  {label:<44}" + "".join(f"{c:>24}" for c in cells))


#: The source files at commit 83d7768 and their sha256.
SOURCES: dict[str, str] = {
    "data/ALL/test/Bed003.json": (
        "959b0a710628f786f64c35f1462717f234b03ba34f2e170d3bb13be72f3321f8"
    ),
    "data/ALL/test/Bed008.json": (
        "d05c8b6dbc35244a277147f85778bb02b7ad7eae0f03700ac68d084d296fc84a"
    ),
    "data/ALL/test/Bed016.json": (
        "c8f8cb9ad047361dd3f364e28aa44d150d2b9c730434ef88c0dece6ce34a9756"
    ),
    "data/ALL/test/Bmr006.json": (
        "0b1fb051ad319a0ff006970b86336425fc2ed987a3616bd07cf9a48c53bbfa69"
    ),
    "data/ALL/test/Bmr014.json": (
        "d0e8d99b8a2568beaaedae741c4ac5453a6bcb22f23386e50659690dcc916bd6"
    ),
    "data/ALL/test/Bmr023.json": (
        "5fa1ac45bd19972a64f21d7cba3ef1afb73ad7b38c26a5c1ff03139bf0971cb5"
    ),
    "data/ALL/test/Bro004.json": (
        "f8a8c92c0574f4d4ed4596b68d94ca236f2ae09bccb283ead925ef3512f64890"
    ),
    "data/ALL/test/Bro019.json": (
        "b2f4aee0ced969ee2c3a9d4dc71d24dce227e9513aca8acc539ae3cfda5a2cec"
    ),
    "data/ALL/test/Bro027.json": (
        "ba636d2f05985723663e72aa6c8c85bf9f1e8e50fa03790146dbbebc2d1419af"
    ),
    "data/ALL/test/ES2004a.json": (
        "911e56db0d8482f1e730bae0a8fcf0ab0095c94abb000ba0516e975fa6e48b31"
    ),
    "data/ALL/test/ES2004b.json": (
        "5ed3c79e6784827652a2cdfaf2922c377aa386d8501b4a2039e51fb00a4d294d"
    ),
    "data/ALL/test/ES2004c.json": (
        "31815196407111dba01f8b8cbfa31cd07fb8a682e4005bae7846893ab93a6778"
    ),
    "data/ALL/test/ES2004d.json": (
        "d3f7235ffcf577909726ebbd95e87b1f5bef62a7a984911abf9d9cb0825fd752"
    ),
    "data/ALL/test/ES2011a.json": (
        "1e2ae7b9d3a7e9cf2e6c1dcd62de5c4f4050d7366c5e6a7605bfaf5d790ff35c"
    ),
    "data/ALL/test/ES2011b.json": (
        "aa9c1ac75b1092e1bdb22576268831b0321147375de563be51cace51a67636f1"
    ),
    "data/ALL/test/ES2011c.json": (
        "0f76f60f6eeae152da331d498d384dbaf9b9b3e2d5aa705abb0ddf4ab742328a"
    ),
    "data/ALL/test/ES2011d.json": (
        "a5882a985364529b7c82836f0368af46d738c7bf5a830485614d61c077525519"
    ),
    "data/ALL/test/IS1003a.json": (
        "94241cde8ed5e0eda79881f1df343baf331119b540b846436d1d5a16ebf0d4ff"
    ),
    "data/ALL/test/IS1003b.json": (
        "1aa2ac4526602ec1ffd25e2624dd5bf72c05cd2dc526ca3f756fb2b6cee8cc0c"
    ),
    "data/ALL/test/IS1003c.json": (
        "1a3c18ed141f731763614eb93b616daef627516c9584cca5c4e18acdc494e558"
    ),
    "data/ALL/test/IS1003d.json": (
        "c99895f2a1fee6f5602329316047e7dc7448891f697606d65313ceb83570a80d"
    ),
    "data/ALL/test/TS3004a.json": (
        "dcd543b2ebe895069a33cd3b1e0bf3e7072010bc32e34c31798d43a9a4616c10"
    ),
    "data/ALL/test/TS3004b.json": (
        "5c1e39e5e52154f41e54280ec27fde5dbe945d89d66d4e2ef14d6f6a4712d561"
    ),
    "data/ALL/test/TS3004c.json": (
        "4000d632f2d2956956c5ba8e5448bcc829781b33e4ab3f89f1db29dc524a384c"
    ),
    "data/ALL/test/TS3004d.json": (
        "2fda8b12aa354453cd71345549079787a34c5eb3a1e617cbddcc3cee5c167113"
    ),
    "data/ALL/test/TS3011a.json": (
        "d9ec9c44f157ee9f3d3960394e4046c5014cfde8e5ceb1a1ad64ab8ba3c870af"
    ),
    "data/ALL/test/TS3011b.json": (
        "a9893799ef415b28b73d74412375774543003f6778c3c169835a7c8517ddc7c5"
    ),
    "data/ALL/test/TS3011c.json": (
        "c08cb7f63bbcae707ce9a47e6f0534b68e6c889228e703f108024ce56e90c00c"
    ),
    "data/ALL/test/TS3011d.json": (
        "b555b5693e29d34336d75d3afb7eecaa0c155502bc8b1071751ac34d16bc6403"
    ),
    "data/ALL/test/covid_4.json": (
        "f0cff5da0694b867630dd180263b09f44a76b49088f96e9660a95bfb6ba0ed1b"
    ),
    "data/ALL/test/covid_9.json": (
        "270347ed6d3fab99e4981a04997244c4b617c1ba26cbbfe12a0b34998d7ea8de"
    ),
    "data/ALL/test/education_13.json": (
        "ee8b8b44e0d438c4280a15165148a9c52e3e278390af3a72aef1feb8e776dc60"
    ),
    "data/ALL/test/education_17.json": (
        "a25f5bf677a5328f1f1628f45c0a4290b5735e434899d3e7a28aaa60b3cc2a90"
    ),
    "data/ALL/test/education_4.json": (
        "dbea7eb2a18e4616922ab1a405cf846c0e9e11f3272ec6eb366a9f93c2b52e2f"
    ),
    "data/ALL/test/education_9.json": (
        "2afbf4403292953ef9c380ceba7811930b4e2bc0e442fc0ba193ed2ac5f74c64"
    ),
    "data/ALL/val/Bed002.json": (
        "bb2892b5df74d283936a75368acf843b17c24256a7d3286e6e6599566ce87672"
    ),
    "data/ALL/val/Bed010.json": (
        "7af05a58b32a7dcb70172d017c4b9a17467609e41fd36c48060cb376106c4eee"
    ),
    "data/ALL/val/Bed015.json": (
        "d0fad52701e7911a14c07c02dc274c2103e91935d471b3156bafd2546edde4c1"
    ),
    "data/ALL/val/Bmr005.json": (
        "bd6ebed66ccccd5fdebeee4cbbc0558a2025dbb2ac24dba270cae95982d700b8"
    ),
    "data/ALL/val/Bmr012.json": (
        "97312e8352dec5b8ede22fc9abac7b25d8c566d504ba719471bc63e0347fc34f"
    ),
    "data/ALL/val/Bmr026.json": (
        "a560d5bf6742426a067ff72354b97bf4c99c614404c4b96cf2e656a28c08c36a"
    ),
    "data/ALL/val/Bro005.json": (
        "cc3c48e6f2ef2f70627111f2a060db92362c329aa7e295c61fe8ce3fcc70e790"
    ),
    "data/ALL/val/Bro011.json": (
        "e28964b656b126553ed1e2b0dca59f2f0b6f8a2e71d0060cc6e0521ff522218d"
    ),
    "data/ALL/val/Bro022.json": (
        "552de3e22fcc0e35c22e3494c5ecaac5ea7e2cab78fd97a86fc804ee90861b7b"
    ),
    "data/ALL/val/ES2006a.json": (
        "19592a4f5f6306a7f22401112c3973bbd991b739cd1ed9a3ec2084ca8801e8ec"
    ),
    "data/ALL/val/ES2006b.json": (
        "fe7c362c3e2f6e2ca3a7ddcc1b36db4f247e2587636abe514b0f16f8b7b8991a"
    ),
    "data/ALL/val/ES2006c.json": (
        "bf485a60f7aa0088010d06d570bc88bb01feb944353f72316e1aca7addb024eb"
    ),
    "data/ALL/val/ES2006d.json": (
        "628aadbf28ab0b1f2cba5c6d6c62b0710fd1a2279f8750ea33c268fb73b90c14"
    ),
    "data/ALL/val/ES2009a.json": (
        "d282566d900fd268fdfa5045ae198226c512a329b6f2c5b34a8ceae4dae38f12"
    ),
    "data/ALL/val/ES2009b.json": (
        "fcf8fb6a650cce9d8de176e2370d1928abf53f8a2a710b3b2263f200946c69fb"
    ),
    "data/ALL/val/ES2009c.json": (
        "9180b057b98d8a258109e5ee98648d5a7d7d533dbfc4da934514f2ccc2729dc9"
    ),
    "data/ALL/val/ES2009d.json": (
        "d8e14aec4c281896e7ca49557f0999ea48635c5f93088cdde90c02213c26e2d2"
    ),
    "data/ALL/val/IS1006a.json": (
        "1a44ea297c0395b200efe2f776b868167dc7906d1e2f2eab2cee782b1b5c1870"
    ),
    "data/ALL/val/IS1006b.json": (
        "e4f558cd4e684b3e273211cb40959835666213bb67d8afef77fbce0fed64ad0f"
    ),
    "data/ALL/val/IS1006c.json": (
        "5be419c12fb87f4c6a8a5cd9576b992d4e0482e4bd730197d591e2a4b1a4fb94"
    ),
    "data/ALL/val/IS1006d.json": (
        "161fd1bd62aa7aad2ceedd16da465431f3f54fed101c11a25c6f030e5d574aac"
    ),
    "data/ALL/val/TS3009a.json": (
        "91a06e9e431040b00f78d70680f73174d3cb2df719b178845f3494ae62d837fe"
    ),
    "data/ALL/val/TS3009b.json": (
        "c8c461d840cd54fba9e5f764585af189279cef60ed707a4335c2ce8b16933843"
    ),
    "data/ALL/val/TS3009c.json": (
        "7c3b99d8a9ce71bb351d9ea40c2d53ff668fb89558f6c9006f57e178fb73adcd"
    ),
    "data/ALL/val/TS3009d.json": (
        "4053e0011d801b7b7735c61570f574c1d4c661fdc461f068da7d8e8f16824830"
    ),
    "data/ALL/val/TS3010a.json": (
        "586681bbe916a7038707b945cd4a6e46e5d7338a77b5cbd56b7fb8f77b52d302"
    ),
    "data/ALL/val/TS3010b.json": (
        "9a846509abc0d92e52503f21db422da014a8e8da4aca98487f76601cb6e6a9fb"
    ),
    "data/ALL/val/TS3010c.json": (
        "85a43ab88dd7c7f11181660c48a3513223d3f8dafe49af790d3b3101a35f3029"
    ),
    "data/ALL/val/TS3010d.json": (
        "0227c7c85c04a5ccd1cb2cafd41d9eae6b9bb0de615b505bcb0a96d60d730e9d"
    ),
    "data/ALL/val/covid_2.json": (
        "11804fd7aa27b7d76ff1ed0bc799e265ca1d6e2e5429f196d7237f9ac9a35e4c"
    ),
    "data/ALL/val/covid_6.json": (
        "2dcf98d1fa109a39ecede6983f5c635534c8153c36a2109f9bd43a18fd1fcf3f"
    ),
    "data/ALL/val/education_0.json": (
        "fbffeafdb4b594a75b1dceff28fe1c029d901ebf06c559cde14145845178c1a4"
    ),
    "data/ALL/val/education_10.json": (
        "3adcef514b1a97d8bde89344a63d2715499e02e59145ef178c53b94e736eca70"
    ),
    "data/ALL/val/education_18.json": (
        "06b43aa15e878f58b9f42cb659e635722ceeb0834ee32598cf623cd7226f7807"
    ),
    "data/ALL/val/education_22.json": (
        "429db583970f51ee8c81557aeefb9f83b844800f0b4f0644cb1120c7bea9bcc0"
    ),
}

if __name__ == "__main__":
    main()
