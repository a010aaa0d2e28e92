"""The re-read columns of corpus rows equal the plain computation: for each recorded
compaction, its history compacted with ``compactor.compact`` at the row's budget (keep-last and
random by their definitions), each re-read held when half of its earlier result's characters
come back verbatim; and the summary pools them beside the baselines."""

import json
import os

from compactor import compact
from compactor.analyses import find_rereads
from compactor.evaluation import REREAD_KEYS, conversation_rows, load_corpus, summarise
from compactor.input import validate
from tests.compactor.analyses.outcomes.brute import plain_keep_last, plain_random
from tests.compactor.analyses.test_rereads import A, B, Log, numbered

SETTING = {
    "keep_last_n": 2,
    "keep_roles": ["system"],
    "duplicate_threshold": 0.9,
    "max_message_chars": 400,
}
BUDGETS = [300, 900, 2_500, 20_000]
C = "/repo/c.py"


def session(tmp_path):
    log = Log().read(A, result=numbered(1, 20, "alpha")).read(B, result=numbered(1, 40, "beta"))
    log.read(C, limit=5, result=numbered(1, 5, "gamma")).compact("Summary one. " * 20)
    log.read(A, offset=4, limit=2).read(B).read(C, limit=1, result=numbered(1, 1, "gamma"))
    log.compact("Summary two. " * 20).read(C, limit=5).read(A)
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in log.records), "utf-8")
    return path


def common_prefix(a, b):
    return len(os.path.commonprefix([a, b]))


def plain(item, budget):
    """Per way (the setting, keep-last, random), the re-reads held at ``budget``."""
    request = validate(item.request, limits="auto")
    messages = item.request["messages"]
    found = find_rereads(request, item.compactions)
    held = {"memory-compact": 0, "keep-last": 0, "random": 0.0}
    for k, c in enumerate(found):
        lead = []
        if k:
            lead = [{"role": "user", "content": item.compactions[k - 1].summary}]
        history = lead + messages[c.start : c.boundary]
        contents = [m["content"] for m in history]
        response = compact({"messages": history, **SETTING, "budget_chars": budget})
        returned = {m["index"]: m["content"] for m in response["messages"]}
        lengths = [len(x) for x in contents]
        kept_last = plain_keep_last(lengths, budget)
        draws = [plain_random(lengths, budget, seed) for seed in range(20)]
        for r in c.rereads:
            i = r.earlier.result - c.start + len(lead)
            assert contents[i] == messages[r.earlier.result]["content"]
            prefix = common_prefix(returned.get(i, ""), contents[i])
            held["memory-compact"] += 2 * prefix >= r.chars
            held["keep-last"] += i in kept_last
            held["random"] += sum(i in d for d in draws) / 20
    return held, sum(len(c.rereads) for c in found), sum(c.chars for c in found)


def test_reread_columns_equal_the_plain_computation(tmp_path):
    (item,) = load_corpus(session(tmp_path))
    assert len(item.compactions) == 2
    rows = conversation_rows(item, [SETTING], BUDGETS)
    assert all(set(REREAD_KEYS) <= set(row) for row in rows)
    seen = set()
    for row in rows:
        held, count, chars = plain(item, row["budget_chars"])
        strategy = row["strategy"]
        assert (row["rereads"], row["reread_chars"]) == (count, chars)
        assert abs(row["rereads_held"] - held[strategy]) < 1e-9, (strategy, row)
        seen.add((strategy, row["rereads_held"]))
    # A, B and C after the first compaction; C and A (read again since it) after the second
    assert count == 5
    # the rule bites: the setting's trim (400 characters) loses B's long result at every budget
    assert {h for s, h in seen if s == "memory-compact"} != {h for s, h in seen if s == "keep-last"}
    summaries = summarise(rows)
    top = next(
        s for s in summaries if s["budget_chars"] == 20_000 and s["strategy"] == "memory-compact"
    )
    mine = next(
        r for r in rows if r["budget_chars"] == 20_000 and r["strategy"] == "memory-compact"
    )
    assert top["rereads"] == 5 and top["reread_conversations"] == 1
    assert top["reread_recall"] == round(mine["rereads_held"] / 5, 6)
    assert top["reread_recall_keep_last"] == 1.0


def test_a_conversation_without_recorded_compactions_has_no_reread_columns(tmp_path):
    log = Log().read(A).read(A)
    path = tmp_path / "plain.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in log.records), "utf-8")
    (item,) = load_corpus(path)
    rows = conversation_rows(item, [SETTING], [2_000])
    assert rows and not any(key in row for row in rows for key in REREAD_KEYS)
    assert not any("reread_recall" in s for s in summarise(rows))


def test_strategy_rows_carry_the_reread_columns_that_memory_compact_rows_have(tmp_path):
    # the registry strategy memory-compact judged as any strategy is (a run per history at the
    # row's budget, the spans it returns) holds the same re-reads as the sweep's rows
    from compactor.evaluation import evaluate_strategy

    (item,) = load_corpus(session(tmp_path))
    swept = {
        r["budget_chars"]: r
        for r in conversation_rows(item, [SETTING], BUDGETS)
        if r["strategy"] == "memory-compact"
    }
    rows = list(evaluate_strategy([item], "memory-compact", [SETTING], BUDGETS, workers=1))
    assert [r["budget_chars"] for r in rows] == BUDGETS
    for row in rows:
        mine = {k: row[k] for k in REREAD_KEYS}
        assert mine == {k: swept[row["budget_chars"]][k] for k in REREAD_KEYS}
    assert len({r["rereads_held"] for r in rows}) > 1  # the budget matters
    kept_last = list(evaluate_strategy([item], "keep-last", [{}], [20_000], workers=1))
    assert kept_last[0]["rereads_held"] == 5  # every earlier result fits whole
