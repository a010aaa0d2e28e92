"""Replay: the seeds/003 loop around LLM compact is offered only with a provider configured, runs
only on its button, through the test language model server over the real openai client, is kept
for the session, and draws like any other loop; a failing provider makes the loop send the
last ten messages; the key never reaches the page. Its token limit follows the sidebar's budget
(the seed's 20,000 would compare 80,000 characters with the budget) and a limit set apart from it
is said on screen."""

from compactor import validate
from compactor.analyses.anchors._report import find_anchors
from compactor.analyses.replay._loop import replay
from compactor.analyses.replay._strategies import ProviderCompact, SeedLoop
from compactor.providers import OPENAI, PROVIDERS_ENV, ProviderConfig, provider_for
from compactor.strategies._llm_compact import LLMCompact
from explorer.replay.runs import SEED_LOOP
from explorer.replay.widgets import B_KEY, LOOP_LIMIT_KEY
from harness.apptest import assert_clean, chart_rows, on_page, page_text, request_of
from tests.llm_server import KEY_ENV, SECRET, providers_toml

PAGE = "pages/replay.py"
LIMIT = 250


def chat(n=14):
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"Step {i}: " + "word " * 60}
        for i in range(n)
    ]
    return {"messages": messages, "budget_chars": 1000}


def expected_loop(llm, request):
    """The loop written plainly: the engine's replay with the same provider and limit."""
    config = ProviderConfig(
        name="openai", kind=OPENAI, base_url=llm.openai_url, api_key_env=KEY_ENV
    )
    typed = validate(request)
    facts = [(a.text, a.occurrences) for a in find_anchors(typed.contents)]
    compact = LLMCompact(provider_for(config), "fake-small")
    strategy = SeedLoop(ProviderCompact(compact), token_limit=LIMIT)
    return replay(typed.messages, strategy, facts=facts)


def loop_page(configured):
    at = on_page(PAGE, chat())
    at.selectbox(key=B_KEY).set_value(SEED_LOOP).run()
    at.number_input(key=LOOP_LIMIT_KEY).set_value(LIMIT).run()
    assert_clean(at)
    return at


def test_without_a_provider_the_loop_is_not_offered(monkeypatch):
    monkeypatch.delenv(PROVIDERS_ENV, raising=False)
    at = on_page(PAGE, chat())
    assert_clean(at)
    assert SEED_LOOP not in at.selectbox(key=B_KEY).options


def test_the_loops_token_limit_follows_the_budget_and_a_limit_apart_is_said(configured):
    at = on_page(PAGE, chat())
    at.selectbox(key=B_KEY).set_value(SEED_LOOP).run()
    assert_clean(at)
    assert at.number_input(key=LOOP_LIMIT_KEY).value == 250  # ceil(1,000 characters / 4)
    said = [w.value for w in at.warning if "same budget" in w.value]
    assert said == []
    at.number_input(key=LOOP_LIMIT_KEY).set_value(20_000).run()
    assert_clean(at)
    (said,) = [w.value for w in at.warning if "do not work to the same budget" in w.value]
    assert "works to 1,000 characters (about 250 tokens)" in said
    assert f"{SEED_LOOP} compacts over 20,000 tokens by the estimate" in said
    assert configured.calls == []


def test_the_loop_runs_on_its_button_once_and_draws_like_a_setting(configured):
    at = loop_page(configured)
    assert configured.calls == []  # choosing the loop calls nobody
    assert SEED_LOOP not in set(chart_rows(at, "chars_out")["loop"])
    assert any("Nothing has been sent to the provider" in c.value for c in at.caption)
    at.button(key="replay_loop_run").click().run()
    assert_clean(at)
    calls = len(configured.calls)
    expected = expected_loop(configured, request_of(at))
    compacted = [t for t in expected.turns if t.compacted]
    assert compacted and calls == len(compacted)  # one call per turn over the limit
    turns = chart_rows(at, "chars_out")
    mine = turns[turns["loop"] == SEED_LOOP]
    assert list(mine["chars_out"]) == [t.chars_out for t in expected.turns]
    assert list(mine["compacted"]) == [t.compacted for t in expected.turns]
    assert any(
        c.value.startswith(f"{SEED_LOOP}: over {len(expected.turns)} turns") for c in at.code
    )
    calls = len(configured.calls)  # the page's and the plain loop's
    at.run()  # a rerun (a move elsewhere) does not call again
    assert len(configured.calls) == calls
    assert at.button(key="replay_loop_run").disabled
    assert SEED_LOOP in set(chart_rows(at, "chars_out")["loop"])
    assert SECRET not in page_text(at)


def test_a_failing_provider_makes_the_loop_send_the_last_ten(configured, tmp_path, monkeypatch):
    configured.behaviour.fail_status = 500
    once = providers_toml(configured, tmp_path / "once.toml", max_retries=0)  # no back-off waits
    monkeypatch.setenv(PROVIDERS_ENV, str(once))
    at = loop_page(configured)
    at.button(key="replay_loop_run").click().run()
    assert_clean(at)
    turns = chart_rows(at, "chars_out")
    mine = turns[turns["loop"] == SEED_LOOP]
    assert len(mine) == len(chat()["messages"]) - 1
    assert mine["messages_out"].max() <= 10
    assert (mine.loc[mine["messages_in"] > 10, "messages_out"] == 10).all()
    assert SECRET not in page_text(at)
