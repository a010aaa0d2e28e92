"""The part D figures by their plain definitions: compact the past with ``compactor.compact``,
look for every source in the returned contents, remove messages one by one for the baselines."""

from __future__ import annotations

import random
from typing import Any

from compactor import compact
from compactor.analyses.anchors import find_anchors
from compactor.evaluation import load_corpus
from compactor.input._validation import validate
from compactor.samples import load_samples
from tests.paths import CORPUS, ROOT


def plain_needs(contents, roles, watched=()):
    """``[(user, anchor text, role, sources)]``, by user then anchor order."""
    out = []
    for a in find_anchors(contents, watched):
        for j in sorted({i for i, _, _ in a.occurrences}):
            sources = tuple(o for o in a.occurrences if o[0] < j)
            if sources:
                out.append((j, a.text, roles[j], sources))
    order = {a.text: k for k, a in enumerate(find_anchors(contents, watched))}
    return sorted(out, key=lambda need: (need[0], order[need[1]]))


def past_dict(request: dict[str, Any], future: int, budget: int | None = None) -> dict:
    past = {**request, "messages": request["messages"][: len(request["messages"]) - future]}
    if budget is not None:
        past["budget_chars"] = budget
    return past


def returned_by_compact(request: dict[str, Any]) -> dict[int, str]:
    return {m["index"]: m["content"] for m in compact(request)["messages"]}


def kept_source(returned: dict[int, str], contents, source) -> bool:
    i, s, e = source
    text = contents[i][s:e]
    return i in returned and len(returned[i]) >= e and returned[i][s:e] == text


def plain_recall(needs, contents, returned: dict[int, str], past: int):
    """``(judged, met)`` lists of ``(user, anchor)`` for a past returned as ``returned``."""
    judged, met = [], []
    for user, anchor, _role, sources in needs:
        in_past = [o for o in sources if o[0] < past]
        if user < past or not in_past:
            continue
        judged.append((user, anchor))
        if any(kept_source(returned, contents, o) for o in in_past):
            met.append((user, anchor))
    return judged, met


def plain_keep_last(lengths, budget) -> set[int]:
    kept, total = set(), 0
    for i in reversed(range(len(lengths))):
        if total + lengths[i] > budget:
            break
        total += lengths[i]
        kept.add(i)
    return kept


def plain_random(lengths, budget, seed) -> set[int]:
    order = list(range(len(lengths)))
    random.Random(seed).shuffle(order)
    present = set(range(len(lengths)))
    for i in order:
        if sum(lengths[k] for k in present) <= budget:
            break
        present.discard(i)
    return present


def plain_protected(rule, lengths, budget, protected, *args) -> set[int]:
    """SPEC part D's protected form of a baseline ``rule``: keep the protected messages whole,
    then the rule over the others with the budget that remains (none left: nothing else)."""
    kept = {i for i, p in enumerate(protected) if p}
    rest = [i for i, p in enumerate(protected) if not p]
    remaining = budget - sum(lengths[i] for i in kept)
    if remaining < 0:
        return kept
    chosen = rule([lengths[i] for i in rest], remaining, *args)
    return kept | {rest[k] for k in chosen}


def plain_protection(data: dict[str, Any]) -> list[bool]:
    """Per message, whether the setting protects it by ``pin`` or ``keep_roles``."""
    roles = data.get("keep_roles", ["system"])
    return [bool(m.get("pin")) or m["role"] in roles for m in data["messages"]]


def plain_percentile(values, q):
    ordered = sorted(values)
    rank = q / 100 * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def whole(contents, kept: set[int]) -> dict[int, str]:
    return {i: contents[i] for i in kept}


def corpus_requests() -> list[tuple[str, dict]]:
    """Every conversation of the corpus, the real fixtures and the samples, as valid requests."""
    found = []
    for folder in (CORPUS, ROOT / "tests" / "fixtures" / "real"):
        for item in load_corpus(folder, keep_last=True, cut_long=True):
            found.append((f"{folder.name}/{item.conversation}", item.request))
    for sample in load_samples():
        found.append((f"sample/{sample.slug}", sample.request))
    return [(name, r) for name, r in found if _valid(r)]


def _valid(request) -> bool:
    try:
        validate(request)
    except ValueError:
        return False
    return True
