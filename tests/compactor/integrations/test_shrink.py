"""shrink is the import, the strategy and the export in one call, in every format, on every
sample; and the report says what it removed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from compactor import compact, shrink, shrink_with_report
from compactor.formats import apply_fixes, convert, export
from compactor.input._validation import validate
from compactor.integrations import Setting, SettingError, setting_toml
from compactor.strategies import apply_strategy
from tests.compactor.integrations.conftest import FORMATS, SAMPLES, written_as
from tests.paths import ROOT

SETTING = Setting(budget_chars=2000, params={"keep_last_n": 3, "max_message_chars": 300})


def pipeline(data: Any, setting: Setting, format: str, fixes: bool = False) -> Any:
    """import -> compact -> export, by hand, as the CLI's compact --emit same does it (with
    --keep-last --cut-long for ``fixes``)."""
    conversion = convert(data, format)
    if fixes:
        conversion = apply_fixes(conversion)
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()}
    request = {**conversion.request, **params, "budget_chars": setting.budget_chars}
    empty = {call for _, call in conversion.removed_results}
    return export(compact(request), request, format, empty_results=empty).value


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("slug", [s for s in SAMPLES if s != "largest"])
def test_shrink_is_import_compact_export(slug, format):
    data = written_as(SAMPLES[slug], format)
    assert shrink(data, SETTING) == pipeline(data, SETTING, format)


@pytest.mark.slow
@pytest.mark.parametrize("format", ["openai", "anthropic"])
def test_shrink_is_import_compact_export_on_the_largest_sample(format):
    data = written_as(SAMPLES["largest"], format)
    assert shrink(data, SETTING, lossy_fixes=True) == pipeline(data, SETTING, format, True)


def test_an_envelope_comes_back_with_its_messages_replaced():
    messages = written_as(SAMPLES["support-chat"], "openai")
    body = {"model": "gpt-4.1", "temperature": 0, "messages": messages}
    out = shrink(body, SETTING)
    assert out == {"model": "gpt-4.1", "temperature": 0, "messages": shrink(messages, SETTING)}


def test_an_anthropic_list_comes_back_as_a_list():
    anthropic = written_as(SAMPLES["coding-agent"], "anthropic")
    out = shrink(anthropic["messages"], SETTING, format="anthropic")
    assert isinstance(out, list)
    assert out == pipeline(anthropic["messages"], SETTING, "anthropic")["messages"]


def test_the_orphan_half_of_a_pair_is_dropped_and_reported_never_sent():
    data = written_as(SAMPLES["coding-agent"], "openai")
    shrunk = shrink_with_report(data, Setting(budget_chars=1500, params={"keep_last_n": 1}))
    calls = {c["id"] for m in shrunk.messages for c in m.get("tool_calls", [])}
    results = [m["tool_call_id"] for m in shrunk.messages if m["role"] == "tool"]
    assert sorted(calls) == sorted(results)
    assert any("dropped" in note for note in shrunk.report.export_notes)


def test_the_report_names_what_was_removed_and_cut():
    data = written_as(SAMPLES["support-chat"], "openai")
    shrunk = shrink_with_report(data, SETTING)
    request = convert(data).request
    response = compact(
        {**request, "keep_last_n": 3, "max_message_chars": 300, "budget_chars": 2000}
    )
    kept = {m["index"] for m in response["messages"]}
    report = shrunk.report
    assert report.removed == tuple(i for i in range(len(request["messages"])) if i not in kept)
    assert report.cut == tuple(m["index"] for m in response["messages"] if m["kept"] == "trimmed")
    assert report.removed and report.cut
    assert (report.output_chars, report.budget_met) == (
        response["loss"]["output_chars"],
        response["budget"]["budget_met"],
    )
    assert report.response == response
    assert report.summary().startswith(
        f"memory-compact at 2,000 characters: {len(request['messages'])} -> "
    )


@pytest.mark.parametrize(
    ("strategy", "params"),
    [
        ("keep-last", {}),
        ("drop-oldest", {"keepLastMessages": 6}),
        ("observation-masking", {"n": 2}),
        ("anthropic-clear-tool-uses", {"trigger": 100, "keep": 1}),
        ("vercel-prune", {"toolCalls": "before-last-2-messages"}),
    ],
)
def test_any_strategy_of_the_registry_is_its_outcome_exported(strategy, params):
    request = SAMPLES["coding-agent"]
    data = written_as(request, "openai")
    setting = Setting(strategy=strategy, params=params, budget_chars=3000)
    shrunk = shrink_with_report(data, setting)
    conversion = convert(data, "openai")
    outcome = apply_strategy(
        strategy,
        validate({**conversion.request, "budget_chars": 3000}),
        budget_chars=3000,
        params=params,
    )
    returned = outcome.returned()
    # every returned content is in the output, in order, as text or as structured calls
    assert shrunk.report.output_messages == len(returned)
    assert shrunk.report.removed == tuple(m.index for m in outcome.messages if m.kept == "removed")
    sent_tools = [m["content"] for m in shrunk.messages if m["role"] == "tool"]
    kept_tools = [m["content"] for m in returned if m["role"] == "tool"]
    assert set(sent_tools) <= set(kept_tools)
    calls = {c["id"] for m in shrunk.messages for c in m.get("tool_calls", [])}
    assert calls == {m["tool_call_id"] for m in shrunk.messages if m["role"] == "tool"}


def test_a_setting_may_be_a_dict_or_a_file(tmp_path):
    data = written_as(SAMPLES["support-chat"], "vercel")
    path = tmp_path / "compaction.toml"
    path.write_text(setting_toml(SETTING), "utf-8")
    expected = shrink(data, SETTING)
    assert shrink(data, SETTING.to_dict()) == expected
    assert shrink(data, path) == expected
    assert shrink(data, str(path)) == expected


def test_a_wrong_setting_is_named():
    with pytest.raises(SettingError, match="budget_chars: give exactly one budget"):
        shrink([{"role": "user", "content": "hi"}], {"strategy": "keep-last"})
    with pytest.raises(SettingError, match="must be a Setting, a dict or the path"):
        shrink([{"role": "user", "content": "hi"}], 4000)  # type: ignore[arg-type]


def test_a_log_it_cannot_write_back_comes_back_as_a_request():
    # it used to be refused, while `import` read it: shrink reads what the import reads
    lines = (ROOT / "tests/fixtures/real/codex_tool_calls.jsonl").read_text("utf-8").splitlines()
    codex = [json.loads(line) for line in lines if line.strip()]
    shrunk = shrink_with_report(codex, SETTING)
    conversion = convert(codex, "codex")
    request = {**conversion.request, "keep_last_n": 3, "max_message_chars": 300}
    request["budget_chars"] = 2000
    assert shrunk.report.format == "codex"
    assert shrunk.messages == export(compact(request), request, "request").value


def test_a_conversation_over_the_limits_is_shrunk_whole_and_the_fixes_are_an_option():
    history = [{"role": "user", "content": f"message {i}"} for i in range(205)]
    history[3] = {"role": "user", "content": "The order is DE-4471. " * 500}  # 11,000 chars
    whole = shrink_with_report(history, SETTING)
    assert whole.report.budget_met
    request = {"messages": history, "budget_chars": 2000, **SETTING.params}
    response = compact(request, limits="agent")
    survivors = [m for m in response["messages"] if m["kept"] != "removed"]
    assert whole.messages == [{"role": m["role"], "content": m["content"]} for m in survivors]
    assert "kept-last" not in {c.kind for c in whole.report.import_changes}
    shrunk = shrink_with_report(history, SETTING, lossy_fixes=True)
    assert shrunk.messages[-1] == {"role": "user", "content": "message 204"}
    assert "kept-last" in {c.kind for c in shrunk.report.import_changes}


def test_an_agent_setting_shrinks_a_history_the_contract_takes_with_a_budget_over_its_own():
    data = written_as(SAMPLES["support-chat"], "vercel")
    wide = {**SETTING.to_dict(), "budget_chars": 1_500_000, "limits": "agent"}
    # a budget larger than the history keeps what dedupe and trim leave: the contract's
    # answer at its own largest budget
    assert shrink(data, wide) == shrink(data, {**wide, "budget_chars": 400_000, "limits": None})
    with pytest.raises(SettingError, match='limits = "agent" takes up to 2,000,000'):
        shrink(data, {**wide, "limits": None})
