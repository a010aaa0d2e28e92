"""Re-reads on the twelve shared real Claude Code sessions: the analysis of the imported log
agrees with a plain count made straight from the JSONL records (no import), compaction by
compaction, and its figures add up."""

import json
import posixpath

from compactor import validate
from compactor.analyses import find_rereads
from compactor.contract import AGENT_LIMITS
from compactor.formats import convert_text
from tests.compactor.analyses.test_rereads import plain_rereads
from tests.paths import REAL_COMPACTIONS

MANIFEST = json.loads((REAL_COMPACTIONS / "MANIFEST.json").read_text("utf-8"))
WRITES = {"Edit", "Write", "MultiEdit", "NotebookEdit"}


def raw_steps(text):
    """The file's reads, writes and boundaries in order, from its records as they are; a read
    whose result the file does not hold is left out (no content was read)."""
    steps, results = [], {}
    for line in text.splitlines():
        record = json.loads(line)
        if record.get("isSidechain"):
            continue
        if record.get("type") == "system" and record.get("subtype") == "compact_boundary":
            steps.append(("boundary",))
        content = (record.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else ():
            if block.get("type") == "tool_result":
                results[block.get("tool_use_id")] = block.get("content")
            if block.get("type") != "tool_use":
                continue
            args = block.get("input") or {}
            path = args.get("notebook_path" if block["name"] == "NotebookEdit" else "file_path")
            if block["name"] in WRITES and path:
                steps.append(("write", posixpath.normpath(path)))
            if block["name"] == "Read" and path:
                first = max(1, args.get("offset") or 1)
                limit = args.get("limit")
                last = None if limit is None else first + max(limit, 1) - 1
                steps.append(("read", posixpath.normpath(path), first, last, block["id"]))
    return [s for s in steps if s[0] != "read" or s[4] in results], results


def lines_of(first, last):
    return "whole file" if (first, last) == (1, None) else f"lines {first}-{last or 'end'}"


def test_the_shared_sessions_rereads_match_a_count_from_their_records():
    totals = {"compactions": 0, "rereads": 0, "chars": 0}
    for entry in MANIFEST:
        text = (REAL_COMPACTIONS / entry["file"]).read_text("utf-8")
        conversion = convert_text(text)
        request = validate(conversion.request, limits=AGENT_LIMITS)
        found = find_rereads(request, conversion.compactions)
        assert len(found) == entry["compactions"], entry["file"]
        steps, results = raw_steps(text)
        plain = plain_rereads([s[:4] for s in steps])
        for c, expected in zip(found, plain, strict=True):
            got = [(r.earlier.path, r.earlier.lines, r.again.lines) for r in c.rereads]
            want = [
                (steps[i][1], lines_of(*steps[i][2:4]), lines_of(*steps[j][2:4]))
                for i, j in expected
            ]
            assert got == want, (entry["file"], c.boundary)
            for r, (i, _) in zip(c.rereads, expected, strict=True):
                assert r.earlier.message < c.boundary <= r.again.message < c.end
                assert c.start <= r.earlier.message < r.earlier.result < c.boundary
                tool = request.messages[r.earlier.result]
                assert tool.role == "tool" and tool.id == steps[i][4]
                assert r.chars == len(tool.content) > 0
                raw = results[steps[i][4]]
                if isinstance(raw, str):  # the import keeps a text result as it is
                    assert r.chars == len(raw)
            assert c.chars == sum(r.chars for r in c.rereads)
            totals["compactions"] += 1
            totals["rereads"] += len(c.rereads)
            totals["chars"] += c.chars
    assert totals["compactions"] == sum(e["compactions"] for e in MANIFEST) == 17
    assert totals["rereads"] > 0
