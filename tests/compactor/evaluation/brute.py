"""The rows of an evaluation the plain way: one ``compact`` call per (setting, budget)."""

from compactor import compact
from compactor.analyses.anchors.report import find_anchors
from compactor.analyses.pairing import tool_pairs
from compactor.text.tokens import count_tokens


def brute_row(item, setting, budget, encoding=None):
    """What compacting the item's request with ``setting`` at ``budget`` gives, read from the
    response JSON alone (anchors by the SPEC's rule, tool pairs by who is in the output)."""
    messages = item.request["messages"]
    params = {name: value for name, value in setting.items() if name != "budget_chars"}
    response = compact({"messages": messages, **params, "budget_chars": budget})
    returned = {m["index"]: m["chars"] for m in response["messages"]}
    contents = [m["content"] for m in messages]
    anchors = find_anchors(contents)
    kept = sum(
        any(i in returned and end <= returned[i] for i, _, end in a.occurrences) for a in anchors
    )
    pairs, _ = tool_pairs([m["role"] for m in messages], item.tool_links)
    broken = sum((call in returned) != (answer in returned) for call, answer, _ in pairs)
    row = {
        "conversation": item.conversation,
        "budget_chars": budget,
        **params,
        "output_chars": response["loss"]["output_chars"],
        "output_messages": response["loss"]["output_messages"],
        "budget_met": response["budget"]["budget_met"],
        "anchors": len(anchors),
        "anchors_kept": kept,
        "tool_pairs_broken": broken,
    }
    if encoding:
        returned_texts = [m["content"] for m in response["messages"]]
        row["output_tokens"] = sum(count_tokens(text, encoding) for text in returned_texts)
    return row


def in_force(rows, budget):
    """Of one conversation's sweep rows for one setting, the row that holds at ``budget``."""
    return max((r for r in rows if r["budget_chars"] <= budget), key=lambda r: r["budget_chars"])
