"""Not anchors, not needs (issue 36, item 5): a tool call's argument keys, markup tags and the
remains of escape sequences; a need's sources named once each."""

import json
import re
from types import SimpleNamespace

from compactor.analyses.anchors import find_anchors
from compactor.analyses.outcomes import find_needs
from compactor.contract import AGENT_LIMITS
from compactor.formats import convert_text
from compactor.input import validate
from explorer.frames.outcomes import source_text
from tests.paths import REAL_COMPACTIONS

CALL = re.compile(r"^\[tool call [^\]]+\] (.*)$", re.MULTILINE)


def texts(contents):
    return [a.text for a in find_anchors(contents)]


def test_the_keys_of_a_tool_calls_arguments_are_not_anchors_and_their_values_are():
    args = {"file_path": "src/app/main.py", "old_string": "a_b", "new_string": "c_d"}
    line = "[tool call Edit id=toolu_1] " + json.dumps({**args, "replace_all": False})
    found = texts([line])
    assert {"file_path", "old_string", "new_string", "replace_all"}.isdisjoint(found)
    assert {"src/app/main.py", "a_b", "c_d"} <= set(found)


def test_a_key_named_in_prose_is_still_an_anchor():
    assert "file_path" in texts(["Set file_path before the call."])
    # and a quoted word followed by a colon outside a call line is not a call's key
    assert "file_path" in texts(['The config says "file_path": here'])


def test_markup_tags_are_not_anchors():
    text = "<system-reminder>Mind DE-4471.</system-reminder> <tool_use_error>x</tool_use_error>"
    assert texts([text]) == ["DE-4471"]
    # a url between angle brackets is no tag
    assert texts(["see <https://example.com/a>"]) == ["https://example.com/a"]


def test_escape_remains_are_not_paths_and_a_drive_path_stays():
    assert texts([r'{"text": "Example a:\n", "more": "b:\t\n"}']) == []
    assert texts([r'{"text": "a:\n\n"}']) == []
    assert "C:\\data\\x.csv" in texts(["open C:\\data\\x.csv now"])


def test_no_need_of_a_real_session_is_a_key_a_tag_or_an_escape():
    path = REAL_COMPACTIONS / "bc-cb77bb88fa-1-full.jsonl"
    request = validate(convert_text(path.read_text("utf-8")).request, limits=AGENT_LIMITS)
    contents = request.contents
    needs = find_needs(contents, [m.role for m in request.messages])
    found = {n.anchor for n in needs.needs}
    # before issue 36 all of these were needs of this session (hundreds of them)
    assert {"old_string", "replace_all", "/system-reminder"}.isdisjoint(found)
    keys = set()
    for content in contents:
        for args in CALL.findall(content):
            try:
                keys |= _keys(json.loads(args))
            except ValueError:
                continue
    assert {"file_path", "old_string", "new_string", "command"} <= keys  # real Edit/Bash calls
    occurrences = {a.text: a.occurrences for a in find_anchors(contents)}
    for need in needs.needs:
        for i, start, end in occurrences[need.anchor]:
            content = contents[i]
            line_start = content.rfind("\n", 0, start) + 1
            on_call = content.startswith("[tool call ", line_start)
            assert not (
                on_call
                and content[start - 1] == '"'
                and content[end] == '"'
                and content[end : end + 3].replace(" ", "").startswith('":')
            ), need
            assert not (content[start - 1] == "<" and content[end : end + 1] == ">"), need
            assert not re.fullmatch(r"[A-Za-z]:(\\+[ntr])+", need.anchor), need


def _keys(value):
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_a_source_is_named_once_however_often_its_message_holds_the_anchor():
    lost = [SimpleNamespace(index=143, lost_at="trim"), SimpleNamespace(index=143, lost_at="trim")]
    lost.append(SimpleNamespace(index=150, lost_at="trim"))
    assert source_text(lost) == "#143 trim; #150 trim"
    lost.append(SimpleNamespace(index=150, lost_at="drop"))
    assert source_text(lost).count("#150") == 1
