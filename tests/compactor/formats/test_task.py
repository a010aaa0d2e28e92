"""The task is the first user message a person wrote, past a host's preamble (issue 40 item 3)."""

from compactor.formats import PREAMBLES, convert_text, preamble_of, task_index
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"


def test_a_codex_rollouts_task_is_after_its_environment_context():
    messages = convert_text((REAL / "codex_exec_session.jsonl").read_bytes()).request["messages"]
    first_user = next(i for i, m in enumerate(messages) if m["role"] == "user")
    assert messages[first_user]["content"].startswith("<environment_context>")
    assert task_index(messages) == first_user + 1
    assert preamble_of(messages[first_user]["content"]) == "Codex's environment context"


def test_each_preamble_is_passed_over_and_a_written_message_is_the_task():
    for start in PREAMBLES:
        messages = [
            {"role": "system", "content": "rules"},
            {"role": "user", "content": f"  {start} something"},
            {"role": "assistant", "content": "ok"},
            {"role": "user", "content": "Add a multiply function"},
        ]
        assert task_index(messages) == 3, start


def test_without_a_written_message_the_first_user_message_and_without_users_none():
    only = [{"role": "user", "content": "<system-reminder>x</system-reminder>"}]
    assert task_index(only) == 0
    assert task_index([{"role": "assistant", "content": "hi"}]) is None
    assert task_index([{"role": "user", "content": "Fix <environment_context> parsing"}]) == 0
