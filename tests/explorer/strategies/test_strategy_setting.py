"""The Strategies page's "Download setting": every strategy the lineup ran becomes a
compaction.toml that reads back equal and that shrink runs, with the parameters it ran with
(memory-compact's from the sidebar)."""

from compactor import shrink, validate
from compactor.samples import load_sample
from compactor.strategies import compare_strategies, load_setting, setting_toml
from explorer.strategies.frames import strategy_setting

SIDEBAR = {
    "budget_chars": 600,
    "keep_last_n": 3,
    "keep_roles": ["system"],
    "duplicate_threshold": 0.8,
    "max_message_chars": 300,
}


def test_every_strategy_the_lineup_ran_downloads_as_a_setting_shrink_reads(tmp_path):
    request = validate({**load_sample("support-chat").request, **SIDEBAR})
    comparison = compare_strategies(request)
    ran = [r for r in comparison.results if r.available]
    assert len(ran) >= 8
    for result in ran:
        setting = strategy_setting(result, SIDEBAR)
        assert setting.strategy == result.key and setting.budget_chars == 600
        path = tmp_path / f"{result.key}.toml"
        path.write_text(setting_toml(setting), "utf-8")
        assert load_setting(path) == setting
        assert shrink(load_sample("support-chat").request["messages"], str(path))
    memory = strategy_setting(comparison.result("memory-compact"), SIDEBAR)
    assert dict(memory.params) == {k: v for k, v in SIDEBAR.items() if k != "budget_chars"} | {
        "keep_roles": ("system",)
    }
