"""What the engine says the browser should show: the tests compare the screen with these."""

from __future__ import annotations

from typing import Any

from compactor import CompactionResult, run, validate


def result(request: dict[str, Any]) -> CompactionResult:
    return run(validate(request))


def engine_fates(request: dict[str, Any]) -> dict[int, str]:
    """Each message's fate, by index, as the engine decides it for ``request``."""
    return {t.index: t.fate.value for t in result(request).messages}
