"""Trims: every cut the engine made, where and how, with the kept and the cut-off text."""

import html
import re

import pytest

from harness.apptest import MOVES, follows_the_engine, on_page, table
from tests.explorer.requests import rich_request

PAGE = "pages/trims.py"


def reported(at):
    if not [d for d in at.dataframe if "kept_chars" in d.value.columns]:
        return {"rows": [], "none": any("No unprotected message" in i.value for i in at.info)}
    frame = table(at, "kept_chars")
    rows = zip(
        frame["message"], frame["original_chars"], frame["kept_chars"], frame["cut"], strict=True
    )
    return {"rows": list(rows), "none": False}


def expected(result):
    cuts = result.trimming.cuts
    rows = [(f"#{c.index}", c.original_chars, c.chars, c.kind) for c in cuts]
    return {"rows": rows, "none": not cuts}


@pytest.mark.parametrize(
    "move", [*MOVES, ("max_message_chars", 4000)], ids=lambda m: f"{m[0]}={m[1]}"
)
def test_the_trims_follow_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


def test_each_trim_shows_the_kept_prefix_and_the_cut_off_rest_apart():
    request = rich_request()
    at = on_page(PAGE, request)
    shown = [h.value for h in at.html if "✂" in h.value]
    assert len(shown) == 2
    for markup, index, keep in ((shown[0], 1, None), (shown[1], 2, 200)):
        content = request["messages"][index]["content"]
        kept_part, rest = markup.split("</span>", 1)
        cut_at = int(re.search(r"cut at ([\d,]+)", kept_part).group(1).replace(",", ""))
        if keep is not None:
            assert cut_at == keep
        assert html.unescape(re.sub(r"<[^>]+>", "", rest)) == content[cut_at:]
        assert "line-through" in rest
    headers = [m.value for m in at.markdown if m.value.startswith("**#")]
    assert "sentence end" in headers[0] and "then dropped" in headers[0]
    assert "hard, at the limit" in headers[1]
