"""Protected: which messages, why, their characters, and the warning, as the engine says."""

import pytest

from compactor.engine import build_response
from harness.apptest import MOVES, follows_the_engine, metrics, table
from tests.explorer.requests import rich_request

PAGE = "pages/protected.py"


def reported(at):
    shown = metrics(at)
    frame = table(at, "reasons")
    return {
        "count": shown["Protected messages"],
        "pin": shown["Pinned (pin)"],
        "role": shown["Kept role (role)"],
        "recent": shown["Recent (recent)"],
        "chars": shown["Protected characters"],
        "rows": list(zip(frame["message"], frame["reasons"], frame["chars"], strict=True)),
        "warned": any("alone hold" in w.value for w in at.warning),
    }


def expected(result):
    response = build_response(result)
    protected = [t for t in result.messages if t.protected]
    count = {r: sum(r in t.protected_because for t in protected) for r in ("pin", "role", "recent")}
    return {
        "count": f"{len(protected)} of {len(result.messages)}",
        "pin": str(count["pin"]),
        "role": str(count["role"]),
        "recent": str(count["recent"]),
        "chars": f"{response['budget']['protected_chars']:,}",
        "rows": [
            (f"#{t.index}", ", ".join(t.protected_because), t.original_chars) for t in protected
        ],
        "warned": response["budget"]["protected_exceeds_budget"],
    }


@pytest.mark.parametrize("move", [*MOVES, ("budget_chars", 100)], ids=lambda m: f"{m[0]}={m[1]}")
def test_the_protected_view_follows_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)
