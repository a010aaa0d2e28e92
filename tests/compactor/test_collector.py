"""The one pause of the cycle collector: restored as found, also after an exception, and held by
the calls that build many objects (compact, the JSON reader)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

import compactor
from compactor import InvalidRequest, compact
from compactor.collector import collector_paused
from compactor.errors import UnreadableJSON
from compactor.input import parse_json


@pytest.fixture
def collector_running():
    """The collector running at the start, and running again after the test whatever it did."""
    gc.enable()
    yield
    gc.enable()


def test_a_pause_restarts_the_collector_also_after_an_exception(collector_running):
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError), collector_paused():
        assert not gc.isenabled()
        raise KeyError("x")
    assert gc.isenabled()


def test_a_collector_the_caller_paused_stays_paused(collector_running):
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("x")
    assert not gc.isenabled()


def test_a_decorated_function_runs_paused_each_call(collector_running):
    @collector_paused()
    def inside() -> bool:
        return gc.isenabled()

    assert (inside(), gc.isenabled(), inside(), gc.isenabled()) == (False, True, False, True)


def test_compact_sets_off_no_collection_and_leaves_the_collector_as_found(collector_running):
    # 3,000 messages make tens of thousands of containers: enough to set off collections
    request = {
        "messages": [
            {"role": ("user", "assistant")[k % 2], "content": f"line {k % 97} of the log"}
            for k in range(3000)
        ],
        "budget_chars": 5000,
    }
    engine = str(Path(compactor.__file__).parent)
    collections = []  # the generation of each collection the engine's own code set off

    def seen(phase: str, info: dict) -> None:
        # the frame that allocated (the one that ends the pause is contextlib's: what was
        # allocated while paused is collected then, once)
        if phase == "start" and sys._getframe(1).f_code.co_filename.startswith(engine):
            collections.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        out = compact(request, limits="agent")
        assert gc.isenabled()
        with pytest.raises(InvalidRequest):
            compact({"messages": []}, limits="agent")
        assert gc.isenabled()
        gc.disable()
        compact(request, limits="agent")
        assert not gc.isenabled()
    finally:
        gc.callbacks.remove(seen)
    assert collections == []
    assert len(out["messages"]) < 3000


def test_the_json_reader_restarts_the_collector_after_unreadable_text(collector_running):
    assert parse_json('{"a": [1, 2]}') == {"a": [1, 2]}
    assert gc.isenabled()
    with pytest.raises(UnreadableJSON):
        parse_json('{"a": [1, 2}')
    assert gc.isenabled()
