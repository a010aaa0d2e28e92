"""Re-reads after the recorded compactions of the twelve shared real Claude Code sessions
(issue 36, the re-read judge; SPEC part D "Re-reads").

Per session and in total: the compactions, the re-reads after them (a Read after a compaction of
lines a Read of its history returned, no edit between), the earlier results' characters and the
characters read again, how many the recorded summary holds (half of the result's lines in its
text), and the re-read recall of keep-last, random (the mean of 20 draws), memory-compact (the
schema's defaults, agent mode), anchor-keep and focus (when installed) at the summary's size
(``graded``: budget_chars = the summary's characters), each with the number of re-reads it rests
on. A strategy that returned more than the summary's size and its tolerance (10%) is not at its
size: its figure is left out and counted apart (``over``).

    python -m bench.rereads            # from the project root (about a minute)
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from compactor.analyses import RECORDED, grade
from compactor.contract import AGENT_LIMITS
from compactor.formats import convert_text
from compactor.input import validate
from compactor.wording import percent

SESSIONS = Path(__file__).resolve().parent.parent.parent / "shared" / "real-compactions"
#: The rows shown, by key, in order ("random" is graded's drawn baseline).
WAYS = ("keep-last", "random", "memory-compact", "anchor-keep", "focus")


class Tally:
    """Held re-reads and the re-reads they rest on, per way."""

    def __init__(self) -> None:
        self.held = {w: 0.0 for w in (RECORDED, *WAYS)}
        self.rests = {w: 0 for w in (RECORDED, *WAYS)}
        self.over = {w: 0 for w in WAYS}
        self.unavailable: set[str] = set()
        self.compactions = self.rereads = self.chars = self.chars_again = 0

    def add(self, g) -> None:
        self.compactions += 1
        found = g.rereads
        n = len(found.rereads)
        self.rereads += n
        self.chars += found.chars
        self.chars_again += found.chars_again
        if not g.valid or not n:
            return
        for row in g.rows:
            if row.key not in self.held:
                continue
            if not row.available:
                self.unavailable.add(row.key)
                continue
            if row.key != RECORDED and not g.at_size(row):
                self.over[row.key] += n
                continue
            self.held[row.key] += row.rereads.held
            self.rests[row.key] += n
        self.held["random"] += g.random_rereads.held
        self.rests["random"] += n

    def merge(self, other: Tally) -> None:
        for name in ("compactions", "rereads", "chars", "chars_again"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for w in self.held:
            self.held[w] += other.held[w]
            self.rests[w] += other.rests[w]
        for w in self.over:
            self.over[w] += other.over[w]
        self.unavailable |= other.unavailable

    def line(self, name: str) -> str:
        cells = [
            f"{name:<28}",
            f"{self.compactions:>3}",
            f"{self.rereads:>4}",
            f"{self.chars:>9,}",
            f"{self.chars_again:>9,}",
            f"{self.held[RECORDED]:>4g}",
        ]
        for w in WAYS:
            if w in self.unavailable and not self.rests[w]:
                cells.append(f"{'not installed':>19}")
                continue
            figure = percent(self.held[w] / self.rests[w]) if self.rests[w] else "-"
            over = f" +{self.over[w]}over" if self.over[w] else ""
            cells.append(f"{figure + f' of {self.rests[w]}' + over:>19}")
        return " ".join(cells)


def main() -> None:
    manifest = json.loads((SESSIONS / "MANIFEST.json").read_text("utf-8"))
    started = time.perf_counter()
    header = (
        f"{'session':<28} {'cmp':>3} {'rr':>4} {'chars':>9} {'again':>9} {'summ':>4} "
        + " ".join(f"{w:>19}" for w in WAYS)
    )
    print("judge: re-read (files the agent read again after the compaction); recall at the")
    print("summary's size, 'of N' = the re-reads it rests on, 'over' = re-reads of compactions")
    print("where the strategy returned more than the summary's size (not counted)")
    print(header)
    total = Tally()
    for entry in manifest:
        conversion = convert_text((SESSIONS / entry["file"]).read_text("utf-8"))
        request = validate(conversion.request, limits=AGENT_LIMITS)
        tally = Tally()
        for g in grade(request, conversion.compactions).compactions:
            tally.add(g)
        print(tally.line(entry["file"]))
        total.merge(tally)
    print(total.line("total"))
    print(f"took {time.perf_counter() - started:.0f}s")


if __name__ == "__main__":
    main()
