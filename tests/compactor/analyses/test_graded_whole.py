"""Graded compactions on the real past: the twelve shared Claude Code sessions, each read whole
(no window, no cut), every recorded compaction graded against the history the tool had."""

import json
import subprocess
import sys

import pytest

from compactor.analyses import grade
from compactor.contract import AGENT_LIMITS, LIMITS
from compactor.formats import convert_text
from compactor.input import validate
from tests.paths import REAL_COMPACTIONS

MANIFEST = json.loads((REAL_COMPACTIONS / "MANIFEST.json").read_text("utf-8"))


def recorded(path):
    """From the file itself: the line of each compact_boundary and its summary's length."""
    lines = path.read_text("utf-8").splitlines()
    boundaries, summaries = [], []
    for number, line in enumerate(lines):
        record = json.loads(line)
        if record.get("type") == "system" and record.get("subtype") == "compact_boundary":
            boundaries.append(number)
        if record.get("isCompactSummary"):
            content = record["message"]["content"]
            if not isinstance(content, str):
                content = "".join(b.get("text", "") for b in content if b.get("type") == "text")
            summaries.append(len(content))
    return lines, boundaries, summaries


@pytest.mark.slow
def test_every_shared_session_grades_whole_with_the_counts_of_its_file():
    assert len(MANIFEST) == 12
    over_the_contract = 0
    for entry in MANIFEST:
        path = REAL_COMPACTIONS / entry["file"]
        lines, boundary_lines, summary_chars = recorded(path)
        conversion = convert_text("\n".join(lines))
        request = validate(conversion.request, limits=AGENT_LIMITS)
        messages = len(request.messages)
        over_the_contract += messages > LIMITS["max_messages"] or any(
            len(c) > LIMITS["max_content_chars"] for c in request.contents
        )
        graded = grade(request, conversion.compactions).compactions
        assert len(graded) == entry["compactions"] == len(boundary_lines), entry["file"]
        for k, g in enumerate(graded):
            # the messages before the boundary are those the lines before it hold
            before = convert_text("\n".join(lines[: boundary_lines[k]])).request["messages"]
            assert g.compaction.boundary == len(before), (entry["file"], k)
            assert len(g.compaction.summary) == summary_chars[k]
            start = graded[k - 1].compaction.boundary if k else 0
            assert g.past_messages == (1 if k else 0) + g.compaction.boundary - start
            end = graded[k + 1].compaction.boundary if k + 1 < len(graded) else messages
            assert g.future_messages == end - g.compaction.boundary
            assert g.valid, (entry["file"], k, g.problems)
            strategies = [r for r in g.rows[1:] if r.available]
            assert strategies and g.rows[0].output_chars == summary_chars[k]
            # held to the summary's size (keep-last always fits it)
            assert g.budget_chars == summary_chars[k]
            assert g.row("keep-last").output_chars <= g.budget_chars
    assert over_the_contract >= 10  # most sessions could not be graded whole before


def test_a_later_compaction_starts_from_the_previous_summary(tmp_path):
    """The history of compaction 2 is the summary of compaction 1, then what followed it."""
    path = REAL_COMPACTIONS / "bc-cb77bb88fa-1-full.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "compactor", "graded", str(path), "--indent", "0"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    first, second = json.loads(done.stdout)["compactions"]
    assert first["past_messages"] == first["boundary"]  # from the start of the session
    assert second["past_messages"] == 1 + second["boundary"] - first["boundary"]
    assert first["valid"] and second["valid"]
    assert first["budget_chars"] == first["summary_chars"] == 12_775
