"""The rows of an evaluation the plain way: one ``compact`` call per (setting, budget), and the
baselines by their definitions (SPEC part D), message by message."""

import random

from compactor import compact
from compactor.analyses._pairing import call_line_span, tool_pairs
from compactor.analyses.anchors._report import find_anchors
from compactor.input._validation import validate
from compactor.text._tokens import count_tokens

FUTURE = 5
DRAWS = 20
PARAMETERS = ("keep_last_n", "keep_roles", "duplicate_threshold", "max_message_chars")


def brute_row(item, setting, budget, encoding=None, future=FUTURE):
    """What compacting the item's request with ``setting`` at ``budget`` gives, read from the
    response JSON alone (anchors by the SPEC's rule, tool pairs by who is in the output, a call
    only with its call line); with a ``future``, the past compacted alone at ``budget`` and every
    need's sources looked for in its output, and the probes looked for in the first output."""
    messages = item.request["messages"]
    params = {name: value for name, value in setting.items() if name != "budget_chars"}
    response = compact({"messages": messages, **params, "budget_chars": budget})
    returned = {m["index"]: m["chars"] for m in response["messages"]}
    row = {
        "conversation": item.conversation,
        "budget_chars": budget,
        **params,
        "output_chars": response["loss"]["output_chars"],
        "output_messages": response["loss"]["output_messages"],
        "budget_met": response["budget"]["budget_met"],
        **_kept_counts(item, returned),
    }
    if encoding:
        returned_texts = [m["content"] for m in response["messages"]]
        row["output_tokens"] = sum(count_tokens(text, encoding) for text in returned_texts)
    if future is None:
        return row
    row["strategy"] = "memory-compact"
    past = len(messages) - future
    if past < 2:
        row["needs"] = row["needs_met"] = None
    else:
        kept = compact({"messages": messages[:past], **params, "budget_chars": budget})
        row.update(_needs(item, past, {m["index"]: m["chars"] for m in kept["messages"]}))
    if item.probes:
        row.update(_probes(item, [returned]))
    return row


def brute_baseline(item, strategy, budget, encoding=None, future=FUTURE):
    """A baseline's row: keep-last, or the mean over the random draws, by their definitions."""
    messages = item.request["messages"]
    lengths = [len(m["content"]) for m in messages]
    past = len(messages) - future
    draws = _keep_last if strategy == "keep-last" else _random
    whole = draws(lengths, budget)
    outputs = [{i: lengths[i] for i in kept} for kept in whole]
    counts = [_kept_counts(item, returned) for returned in outputs]
    row = {"conversation": item.conversation, "budget_chars": budget}
    row.update({name: None for name in PARAMETERS})
    row["output_chars"] = _mean([sum(r.values()) for r in outputs])
    row["output_messages"] = _mean([len(r) for r in outputs])
    row["budget_met"] = all(sum(r.values()) <= budget for r in outputs)
    row["anchors"] = counts[0]["anchors"]
    row["anchors_kept"] = _mean([c["anchors_kept"] for c in counts])
    row["tool_pairs_broken"] = _mean([c["tool_pairs_broken"] for c in counts])
    if encoding:
        row["output_tokens"] = _mean(
            [sum(count_tokens(messages[i]["content"], encoding) for i in r) for r in outputs]
        )
    row["strategy"] = strategy
    if past < 2:
        row["needs"] = row["needs_met"] = None
    else:
        judged = [
            _needs(item, past, {i: lengths[i] for i in kept})
            for kept in draws(lengths[:past], budget)
        ]
        row["needs"] = judged[0]["needs"]
        row["needs_met"] = _mean([j["needs_met"] for j in judged])
    if item.probes:
        row.update(_probes(item, outputs))
    return row


def _kept_counts(item, returned):
    messages = item.request["messages"]
    contents = [m["content"] for m in messages]
    anchors = find_anchors(contents)
    kept = sum(
        any(i in returned and end <= returned[i] for i, _, end in a.occurrences) for a in anchors
    )
    pairs, _ = tool_pairs([m["role"] for m in messages], item.tool_links)
    request = validate(item.request)

    def call_kept(call, answer):  # returned, with the line of this call (a trim may cut it)
        if call not in returned:
            return False
        line = call_line_span(request, call, answer)
        return returned[call] == len(contents[call]) or line is None or line[1] <= returned[call]

    broken = sum(call_kept(call, answer) != (answer in returned) for call, answer, _ in pairs)
    return {"anchors": len(anchors), "anchors_kept": kept, "tool_pairs_broken": broken}


def _needs(item, past, returned):
    """Needs of a future message with a source in the past, and those with a past source kept
    in ``returned`` (the past's output: index -> characters)."""
    contents = [m["content"] for m in item.request["messages"]]
    needs = met = 0
    for anchor in find_anchors(contents):
        users = {i for i, _, _ in anchor.occurrences if i >= past}
        sources = [(i, end) for i, _, end in anchor.occurrences if i < past]
        for _ in users:
            if sources:
                needs += 1
                met += any(i in returned and end <= returned[i] for i, end in sources)
    return {"needs": needs, "needs_met": met}


def _probes(item, outputs):
    """Probe recall (the mean over the outputs), read from each output's returned characters;
    the answerable count, and with one output the ids of the probes failed per recall."""
    contents = [m["content"] for m in item.request["messages"]]
    shares = {"strict": [], "partial": [], "answer": []}
    failed = {"strict": [], "partial": [], "answer": []}
    for returned in outputs:
        strict = partial = answered = answerable = 0
        for probe in item.probes:
            whole = all(returned.get(i) == len(contents[i]) for i in probe.evidence)
            kept = all(i in returned for i in probe.evidence)
            strict += whole
            partial += kept
            if len(outputs) == 1:
                failed["strict"] += [] if whole else [probe.id]
                failed["partial"] += [] if kept else [probe.id]
            if probe.answer and any(probe.answer in contents[i] for i in probe.evidence):
                answerable += 1
                found = any(
                    i in returned and probe.answer in contents[i][: returned[i]]
                    for i in probe.evidence
                )
                answered += found
                if len(outputs) == 1 and not found:
                    failed["answer"].append(probe.id)
        shares["strict"].append(strict / len(item.probes))
        shares["partial"].append(partial / len(item.probes))
        shares["answer"].append(answered / answerable if answerable else None)
    out = {"probes": len(item.probes)}
    for kind, values in shares.items():
        out[f"probes_{kind}"] = None if values[0] is None else round(sum(values) / len(values), 6)
    out["probes_answerable"] = answerable
    out["probes_failed"] = failed if len(outputs) == 1 else None
    return out


def _keep_last(lengths, budget):
    """The one keep-last output: the most recent whole messages whose characters fit."""
    kept, total = [], 0
    for i in reversed(range(len(lengths))):
        if total + lengths[i] > budget:
            break
        kept.append(i)
        total += lengths[i]
    return [kept]


def _random(lengths, budget):
    """Each draw's output: messages removed in the seeded order until the rest fits."""
    outputs = []
    for seed in range(DRAWS):
        order = list(range(len(lengths)))
        random.Random(seed).shuffle(order)
        kept, total = set(order), sum(lengths)
        for i in order:
            if total <= budget:
                break
            kept.discard(i)
            total -= lengths[i]
        outputs.append(sorted(kept))
    return outputs


def _mean(values):
    if len(values) == 1:
        return values[0]
    return round(sum(values) / len(values), 6)


def in_force(rows, budget):
    """Of one conversation's sweep rows for one setting, the row that holds at ``budget``."""
    return max((r for r in rows if r["budget_chars"] <= budget), key=lambda r: r["budget_chars"])
