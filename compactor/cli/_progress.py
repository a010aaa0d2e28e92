"""The progress line of a long command: conversations done, rows, rows per second, time left."""

from __future__ import annotations

import time
from typing import Any


class ProgressBar:
    """Conversations done, rows, rows per second and time left, on one line of ``stream``
    (redrawn at most five times a second; on a stream that is not a terminal, a line every
    five seconds)."""

    def __init__(self, stream: Any, unit: str = "conversations", counted: str | None = "rows"):
        self.stream = stream
        self.unit = unit  # what done and total count
        self.counted = counted  # what ``rows`` counts (None: the rate is of ``unit``)
        self.rows = 0
        self._start = time.monotonic()
        self._shown = 0.0
        self._tty = hasattr(stream, "isatty") and stream.isatty()
        self._line = ""

    def update(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._shown < (0.2 if self._tty else 5.0):
            return
        self._shown = now
        elapsed = max(now - self._start, 1e-9)
        share = done / total if total else 1.0
        width = 24
        filled = int(share * width)
        rate = (self.rows if self.counted else done) / elapsed
        left = "" if done in (0, total) else f", {_duration(elapsed * (total - done) / done)} left"
        if done == total:
            left = f", took {_duration(elapsed)}"
        counted = f"{self.rows:,} {self.counted}, " if self.counted else ""
        per = self.counted or self.unit
        self._line = (
            f"[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} {self.unit}, "
            f"{counted}{rate:,.{0 if rate >= 10 else 1}f} {per}/s{left}"
        )
        self.stream.write(("\r" + self._line + "\x1b[K") if self._tty else self._line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self._tty and self._line:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"
