"""Re-reads after recorded compactions (SPEC part D): small Claude Code logs built by hand, each
rule checked on its own (ranges, writes, the most recent earlier read, searches and commands
apart, the two holding rules), and the analysis held to a brute-force count on random logs."""

import json
import random

import pytest

from compactor import validate
from compactor.analyses import RECORDED, find_rereads, grade, summary_holds
from compactor.analyses._rereads import lengths_recall, spans_hold, spans_recall
from compactor.contract import AGENT_LIMITS
from compactor.formats import convert_text
from compactor.strategies import KEEP_LAST

A, B = "/repo/a.py", "/repo/b.py"


def numbered(first, count, word="line"):
    """A Read result as Claude Code writes it: ``   N→text`` a line."""
    return "\n".join(f"{n:>6}→{word} {n} of the file" for n in range(first, first + count))


class Log:
    """A Claude Code JSONL log written step by step: a user turn, tool calls with their results,
    compactions (a compact_boundary and its summary)."""

    def __init__(self):
        self.records = [{"type": "user", "message": {"role": "user", "content": "Fix the bug."}}]
        self.calls = 0

    def call(self, name, arguments, result="done"):
        self.calls += 1
        tid = f"toolu_{self.calls:03d}"
        block = {"type": "tool_use", "id": tid, "name": name, "input": arguments}
        self.records.append(
            {
                "type": "assistant",
                "message": {"id": f"m{self.calls}", "role": "assistant", "content": [block]},
            }
        )
        self.records.append(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": tid, "content": result}],
                },
            }
        )
        return self

    def read(self, path, offset=None, limit=None, result=None):
        args = {"file_path": path}
        if offset is not None:
            args["offset"] = offset
        if limit is not None:
            args["limit"] = limit
        first = offset or 1
        return self.call("Read", args, result or numbered(first, limit or 30, path[-4:]))

    def edit(self, path, name="Edit"):
        key = "notebook_path" if name == "NotebookEdit" else "file_path"
        return self.call(name, {key: path, "old_string": "x", "new_string": "y"})

    def compact(self, summary="The user asked to fix a bug in the repository; work continues."):
        self.records.append(
            {
                "type": "system",
                "subtype": "compact_boundary",
                "compactMetadata": {"trigger": "auto", "preTokens": 1000},
            }
        )
        self.records.append(
            {
                "type": "user",
                "isCompactSummary": True,
                "message": {"role": "user", "content": summary},
            }
        )
        self.records.append({"type": "user", "message": {"role": "user", "content": "Go on."}})
        return self

    def imported(self):
        conversion = convert_text("\n".join(json.dumps(r) for r in self.records))
        request = validate(conversion.request, limits=AGENT_LIMITS)
        return request, conversion.compactions

    def rereads(self):
        request, compactions = self.imported()
        return find_rereads(request, compactions)


def pairs(found):
    """Per compaction: (file, earlier read's lines, re-read's lines) of each re-read."""
    return [[(r.earlier.path, r.earlier.lines, r.again.lines) for r in c.rereads] for c in found]


def test_a_whole_file_read_overlaps_any_later_range():
    log = Log().read(A).compact().read(A, offset=200, limit=5)
    request, compactions = log.imported()
    (found,) = find_rereads(request, compactions)
    (r,) = found.rereads
    assert (r.earlier.path, r.earlier.lines, r.again.lines) == (A, "whole file", "lines 200-204")
    # the earlier read is the first call (message 1, result 2); the boundary comes after it
    assert (r.earlier.message, r.earlier.result) == (1, 2)
    assert r.again.message >= compactions[0].boundary == 3
    assert r.chars == len(request.contents[2])
    assert r.chars_again == len(request.contents[r.again.result]) == found.chars_again
    assert found.to_dict()["files"][0]["before_lines"] == "whole file"


@pytest.mark.parametrize(
    "later, counted",
    [
        ((20, 5), False),  # lines 20-24 after lines 10-19
        ((19, 5), True),  # shares line 19
        ((1, 10), True),  # lines 1-10 share line 10
        ((1, 9), False),  # lines 1-9
        ((15, None), True),  # from line 15 to the end
        ((25, None), False),
        ((None, None), True),  # the whole file
        ((None, 9), False),  # lines 1-9 (a limit alone starts at line 1)
    ],
)
def test_offset_and_limit_ranges_overlap_by_shared_lines(later, counted):
    log = Log().read(A, offset=10, limit=10).compact().read(A, *later)
    assert len(log.rereads()[0].rereads) == int(counted)


def test_a_read_of_another_file_is_no_reread():
    assert pairs(Log().read(A).compact().read(B).rereads()) == [[]]


@pytest.mark.parametrize("name", ["Edit", "Write", "MultiEdit", "NotebookEdit"])
def test_a_write_between_the_two_reads_cancels_the_reread(name):
    before = Log().read(A).edit(A, name).compact().read(A)
    after = Log().read(A).compact().edit(A, name).read(A)
    assert pairs(before.rereads()) == pairs(after.rereads()) == [[]]


def test_a_write_elsewhere_or_before_the_earlier_read_does_not_cancel():
    elsewhere = Log().read(A).edit(B).compact().read(A)
    earlier = Log().edit(A).read(A).compact().read(A)
    expected = [[(A, "whole file", "whole file")]]
    assert pairs(elsewhere.rereads()) == pairs(earlier.rereads()) == expected


def test_the_most_recent_overlapping_earlier_read_is_the_one_needed_again():
    # the later of two overlapping reads is chosen, with its own result's characters
    log = Log().read(A, result="x" * 900).read(A, offset=5, limit=3, result="y" * 70)
    (found,) = log.compact().read(A, offset=6, limit=1).rereads()
    (r,) = found.rereads
    assert (r.earlier.lines, r.chars) == ("lines 5-7", 70)
    # a more recent read that does not overlap is passed over for an older one that does
    log = Log().read(A, limit=10, result="z" * 50).read(A, offset=50, limit=10)
    (found,) = log.compact().read(A, offset=5, limit=2).rereads()
    assert [(r.earlier.lines, r.chars) for r in found.rereads] == [("lines 1-10", 50)]
    # an edit after the older read and before the newer one only cancels the older one
    log = Log().read(A, limit=10).edit(A).read(A, offset=50, limit=10).compact()
    assert pairs(log.read(A, offset=5, limit=2).read(A, offset=55, limit=2).rereads()) == [
        [(A, "lines 50-59", "lines 55-56")]
    ]


def test_an_earlier_read_is_needed_again_once():
    log = Log().read(A).read(B).compact().read(A).read(A, offset=3, limit=2).read(B)
    assert pairs(log.rereads()) == [
        [(A, "whole file", "whole file"), (B, "whole file", "whole file")]
    ]


def test_each_compaction_looks_back_to_the_previous_boundary_and_ahead_to_the_next():
    log = Log().read(A).compact().read(B).compact().read(A).read(B)
    first, second = log.rereads()
    assert pairs([first, second]) == [[], [(B, "whole file", "whole file")]]
    # the re-read of A comes after the second boundary: not the first compaction's, and A's
    # read before the first boundary is not in the second compaction's history
    assert second.start == first.boundary


def test_repeated_searches_and_commands_are_listed_apart_and_are_no_rereads():
    log = Log().call("Grep", {"pattern": "def main", "path": "/repo"})
    log.call("Glob", {"pattern": "**/*.py"}).call("Bash", {"command": "pytest -q"})
    log.call("Bash", {"command": "git status"}).compact()
    log.call("Grep", {"pattern": "def main", "path": "/repo"})
    log.call("Grep", {"pattern": "def main", "path": "/repo/src"})  # other arguments
    log.call("Bash", {"command": "pytest -q"}).call("Bash", {"command": "pytest -q"})
    log.call("Glob", {"pattern": "**/*.py"})
    (found,) = log.rereads()
    assert found.rereads == ()
    assert [(s.tool, json.loads(s.what)) for s in found.searches] == [
        ("Grep", {"path": "/repo", "pattern": "def main"}),
        ("Glob", {"pattern": "**/*.py"}),
    ]
    assert [(c.tool, c.what) for c in found.commands] == [("Bash", "pytest -q")]
    said = found.to_dict()
    assert (said["rereads"], len(said["repeated_searches"]), len(said["repeated_commands"])) == (
        0,
        2,
        1,
    )


def test_kept_spans_hold_a_reread_from_half_of_its_characters():
    assert spans_hold(100, [(0, 30), (60, 80)])  # 50 of 100
    assert not spans_hold(100, [(0, 49)])
    assert not spans_hold(0, [(0, 0)])
    log = Log().read(A, result="a" * 100).read(B, result="b" * 101).compact().read(A).read(B)
    request, compactions = log.imported()
    (found,) = find_rereads(request, compactions)
    a, b = (r.earlier.result for r in found.rereads)
    spans = [() for _ in range(compactions[0].boundary)]
    spans[a], spans[b] = ((10, 60),), ((0, 50),)  # half of A, one short of half of B
    assert spans_recall(found, spans, 0).held == 1
    assert spans_recall(found, [()] + spans, 1).held == 1  # a lead message before the history
    lengths = [[-1] * len(spans), [-1] * len(spans)]
    lengths[0][a] = 100
    assert lengths_recall(found, lengths, 0).to_dict() == {
        "rereads": 2,
        "held": 0.5,
        "recall": 0.25,
    }


def test_the_summary_holds_a_reread_with_half_of_its_lines():
    result = numbered(1, 4)  # "line 1 of the file" ... "line 4 of the file"
    assert summary_holds("Read: line 1 of the file; line 2 of the file.", result)  # 2 of 4
    assert not summary_holds("line 3 of the file", result)  # 1 of 4
    assert not summary_holds("   1→line 1", result)
    # blank lines and lines without a letter or digit are not counted
    braces = "    1→func f() {\n    2→\n    3→}\n    4→  return x\n    5→}"
    assert summary_holds("func f() {", braces)  # 1 of 2
    assert not summary_holds("}\n}", braces)
    assert not summary_holds("anything", "\n}\n")


def test_graded_judges_the_summary_and_each_strategy_with_keep_last_and_random_beside():
    lines = numbered(1, 40, "alpha")
    summary = (
        "Work so far: " + "\n".join(lines.splitlines()[:20]) + "\nNext: " + "finish the fix " * 80
    )
    log = Log().read(B, result=numbered(1, 200, "beta")).read(A, result=lines)
    log.compact(summary).read(A).read(B)
    request, compactions = log.imported()
    (g,) = grade(request, compactions).compactions
    assert g.rereads is not None and len(g.rereads.rereads) == 2
    # the summary quotes half of A's lines (20 of 40), none of B's
    assert g.row(RECORDED).rereads.held == 1
    # keep-last at the summary's size keeps A's result (the last message) whole, not B's
    assert len(lines) < g.budget_chars < len(lines) + len(request.contents[4])
    assert g.row(KEEP_LAST).rereads.to_dict() == {"rereads": 2, "held": 1, "recall": 0.5}
    said = g.to_dict()
    assert said["rereads"]["rereads"] == 2 and said["rereads"]["random"]["draws"] == 20
    assert said["rows"][0]["reread_recall"]["held"] == 1
    assert 0 <= said["rereads"]["random"]["held"] <= 2


# -- against a brute-force count on random logs ------------------------------------------------


def overlap(first, last, other_first, other_last):
    ends = [x for x in (last, other_last) if x is not None]
    return not ends or max(first, other_first) <= min(ends)


def plain_rereads(steps):
    """``steps``: ("read", path, first, last), ("write", path) or ("boundary",), in order. Per
    compaction, the (earlier step, later step) pairs, by the SPEC read as plainly as possible."""
    bounds = [i for i, s in enumerate(steps) if s[0] == "boundary"]
    out = []
    for k, b in enumerate(bounds):
        start = bounds[k - 1] if k else -1
        end = bounds[k + 1] if k + 1 < len(bounds) else len(steps)
        found, used = [], set()
        for j in range(b + 1, end):
            if steps[j][0] != "read":
                continue
            _, path, first, last = steps[j]
            chosen = next(
                (
                    i
                    for i in range(b - 1, start, -1)
                    if steps[i][0] == "read"
                    and steps[i][1] == path
                    and overlap(steps[i][2], steps[i][3], first, last)
                ),
                None,
            )
            if chosen is None or chosen in used:
                continue
            if any(steps[w] == ("write", path) for w in range(chosen + 1, j)):
                continue
            used.add(chosen)
            found.append((chosen, j))
        out.append(found)
    return out


@pytest.mark.parametrize("seed", range(25))
def test_random_logs_agree_with_the_plain_count(seed):
    rng = random.Random(seed)
    steps, log = [], Log()
    for _ in range(rng.randint(6, 24)):
        kind = rng.choices(["read", "write", "boundary"], [6, 2, 1])[0]
        path = rng.choice([A, B])
        if kind == "boundary" and steps and steps[-1][0] != "boundary":
            steps.append(("boundary",))
            log.compact()
        elif kind == "write":
            steps.append(("write", path))
            log.edit(path)
        elif kind == "read":
            offset = rng.choice([None, 1, 5, 12])
            limit = rng.choice([None, 3, 8])
            first = offset or 1
            steps.append(("read", path, first, None if limit is None else first + limit - 1))
            log.read(path, offset, limit)
    call_of = [i for i, s in enumerate(steps) if s[0] != "boundary"]  # the n-th call's step
    request, compactions = log.imported()
    found = find_rereads(request, compactions)
    # the n-th call sits in message 2n+1 after the first user turn and 3 messages a compaction
    # adds (the user's "Go on."; the summary is no message): map messages back to steps
    messages = {}
    for n, i in enumerate(call_of):
        messages[1 + 2 * n + sum(1 for s in steps[:i] if s[0] == "boundary")] = i
    got = [
        [(messages[r.earlier.message], messages[r.again.message]) for r in c.rereads] for c in found
    ]
    assert got == plain_rereads(steps)


# -- Codex: reads and writes through its shell ------------------------------------------------


class Rollout:
    """A Codex rollout written step by step: shell calls, patches and compactions."""

    def __init__(self):
        self.lines = [
            self._item(
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": "Fix it."}],
                }
            )
        ]
        self.calls = 0

    @staticmethod
    def _item(payload, kind="response_item"):
        return {"timestamp": "2025-09-14T16:00:00.000Z", "type": kind, "payload": payload}

    def _call(self, payload, output):
        self.calls += 1
        cid = f"call_{self.calls}"
        self.lines.append(self._item({**payload, "call_id": cid}))
        kind = "custom_tool_call_output" if payload["type"] == "custom_tool_call" else None
        self.lines.append(
            self._item({"type": kind or "function_call_output", "call_id": cid, "output": output})
        )
        return self

    def shell(self, script, output="ok", workdir="/repo"):
        arguments = {"command": ["bash", "-lc", script], "workdir": workdir}
        payload = {"type": "function_call", "name": "shell", "arguments": json.dumps(arguments)}
        return self._call(payload, output)

    def patch(self, *paths):
        body = "\n".join(f"*** Update File: {p}\n@@\n-x\n+y" for p in paths)
        text = f"*** Begin Patch\n{body}\n*** End Patch"
        return self._call({"type": "custom_tool_call", "name": "apply_patch", "input": text}, "ok")

    def compact(self):
        self.lines.append(
            self._item({"message": "Summary of the work.", "replacement_history": []}, "compacted")
        )
        self.lines.append(
            self._item(
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": "Go on."}],
                }
            )
        )
        return self

    def rereads(self):
        conversion = convert_text("\n".join(json.dumps(x) for x in self.lines))
        assert conversion.format == "codex"
        request = validate(conversion.request, limits=AGENT_LIMITS)
        return find_rereads(request, conversion.compactions)


@pytest.mark.parametrize(
    "before, after, lines",
    [
        ("cat a.py", "sed -n '5,9p' a.py", ("whole file", "lines 5-9")),
        ("sed -n 1,40p a.py", "nl -ba /repo/a.py | sed -n '30,60p'", ("lines 1-40", "lines 30-60")),
        ("head -n 20 a.py", "sed -n '20,$p' a.py", ("lines 1-20", "lines 20-end")),
        ("sed -n 7p a.py", "cat ./a.py", ("lines 7-7", "whole file")),
    ],
)
def test_codex_shell_commands_that_clearly_read_a_file_are_reads(before, after, lines):
    (found,) = Rollout().shell(before).compact().shell(after).rereads()
    assert [(r.earlier.path, r.earlier.lines, r.again.lines) for r in found.rereads] == [
        ("/repo/a.py", *lines)
    ]


@pytest.mark.parametrize(
    "after",
    [
        "sed -n '41,60p' a.py",  # no shared line
        "cat a.py | grep load",  # more than a read: not recognised
        "cat $FILE",
        "cat b.py",
        "python a.py",
    ],
)
def test_codex_commands_that_are_no_reread(after):
    (found,) = Rollout().shell("sed -n 1,40p a.py").compact().shell(after).rereads()
    assert found.rereads == ()


@pytest.mark.parametrize(
    "write",
    [
        lambda r: r.patch("a.py"),
        lambda r: r.shell("echo x > a.py"),
        lambda r: r.shell("sed -i 's/x/y/' a.py"),
        lambda r: r.shell("rm a.py && git checkout a.py"),
    ],
)
def test_codex_patches_and_writing_commands_cancel_a_reread(write):
    log = Rollout().shell("cat a.py").compact()
    (found,) = write(log).shell("cat a.py").rereads()
    assert found.rereads == ()
    # the same write to another file leaves it a re-read
    other = Rollout().shell("cat a.py").compact().patch("b.py").shell("cat a.py")
    assert len(other.rereads()[0].rereads) == 1


def test_codex_commands_run_again_are_listed_apart():
    log = Rollout().shell("pytest -q").shell("rg region_id").compact()
    (found,) = log.shell("pytest -q").shell("rg region_code").rereads()
    assert [(c.tool, c.what) for c in found.commands] == [("shell", "pytest -q")]
    assert found.rereads == ()
