"""LangChain: shrink reads and writes LangChain messages, and ShrinkMiddleware drives a real
create_agent loop with a fake chat model from langchain_core, over several turns with a tool:
the model is sent only the shrunk history, with every tool call beside its result."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("langchain.agents")

from langchain.agents import create_agent  # noqa: E402
from langchain.agents.middleware import AgentMiddleware  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import (  # noqa: E402
    AIMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    messages_to_dict,
)
from langchain_core.messages.utils import convert_to_openai_messages  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402

from compactor import shrink, shrink_with_report  # noqa: E402
from compactor.integrations import Setting, ShrinkMiddleware  # noqa: E402
from tests.compactor.integrations.conftest import SAMPLES, written_as  # noqa: E402
from tests.compactor.integrations.test_shrink import SETTING, pipeline  # noqa: E402

AGENT_SETTING = Setting(budget_chars=900, params={"keep_last_n": 3, "max_message_chars": 200})
CITIES = ["Porto", "Lyon", "Oslo", "Graz", "Turku"]


def as_langchain(openai_messages: list[dict[str, Any]]) -> list[Any]:
    from langchain_core.messages.utils import convert_to_messages

    out = convert_to_messages(openai_messages)
    for k, message in enumerate(out):
        message.id = f"m{k}"
    return out


@pytest.mark.parametrize("slug", ["support-chat", "coding-agent", "pins-and-ids"])
def test_shrink_reads_and_writes_langchain_messages(slug):
    openai = written_as(SAMPLES[slug], "openai")
    messages = as_langchain(openai)
    out = shrink(messages, SETTING)
    assert all(isinstance(m, type(messages[0]).__mro__[1]) for m in out)  # BaseMessage
    assert convert_to_openai_messages(out) == convert_to_openai_messages(
        as_langchain(pipeline(convert_to_openai_messages(messages), SETTING, "openai"))
    )
    ids = {m.id for m in messages}
    assert {m.id for m in out} <= ids  # each keeps the id of the message it comes from
    assert shrink(messages_to_dict(messages), SETTING) == messages_to_dict(out)


def test_the_ids_follow_the_messages_they_come_from():
    messages = [
        SystemMessage("You are a weather bot.", id="s"),
        HumanMessage("Weather in Porto? " * 30, id="h1"),
        AIMessage(
            "", tool_calls=[{"name": "weather", "args": {"city": "Porto"}, "id": "c1"}], id="a1"
        ),
        ToolMessage("18 °C, light rain", tool_call_id="c1", id="t1"),
        AIMessage("It is 18 °C in Porto.", id="a2"),
        HumanMessage("Thanks!", id="h2"),
    ]
    shrunk = shrink_with_report(messages, Setting(budget_chars=200, params={"keep_last_n": 4}))
    assert [m.id for m in shrunk.messages] == ["s", "a1", "t1", "a2", "h2"]
    assert shrunk.report.removed == (1,)
    assert shrunk.messages[1].tool_calls[0]["id"] == "c1"


@tool
def weather(city: str) -> str:
    """The weather report of a city."""
    return f"{city}: " + "light rain, 18 °C, wind from the west at 20 km/h. " * 4


class ToolCallingFake(GenericFakeChatModel):
    """langchain_core's GenericFakeChatModel, with the tools bound (it answers from its list
    whatever the tools) and each message list it is sent kept."""

    sent: list[list[Any]] = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> ToolCallingFake:
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.sent.append(list(messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


class StateBeforeShrink(AgentMiddleware):
    """Keeps the state's messages as they are before ShrinkMiddleware runs (it comes first)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[list[Any]] = []

    def before_model(self, state, runtime):
        self.seen.append(list(state["messages"]))
        return None


def answers() -> list[AIMessage]:
    out = []
    for turn, city in enumerate(CITIES):
        call = {"name": "weather", "args": {"city": city}, "id": f"call_{turn}"}
        out.append(AIMessage("", tool_calls=[call]))
        out.append(AIMessage(f"In {city} it is 18 °C with light rain (turn {turn})."))
    return out


def paired(messages: list[Any]) -> bool:
    """Every tool call answered right after its message, and every result after its call."""
    open_calls: set[str] = set()
    for message in messages:
        if isinstance(message, ToolMessage):
            if message.tool_call_id not in open_calls:
                return False
            open_calls.discard(message.tool_call_id)
            continue
        if open_calls:
            return False
        if isinstance(message, AIMessage):
            open_calls = {c["id"] for c in message.tool_calls}
    return not open_calls


def test_create_agent_sends_the_model_only_shrunk_valid_histories():
    model = ToolCallingFake(messages=iter(answers()))
    model.sent = []
    before = StateBeforeShrink()
    shrinker = ShrinkMiddleware(AGENT_SETTING)
    agent = create_agent(
        model,
        tools=[weather],
        system_prompt="You are a weather bot.",
        middleware=[before, shrinker],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "t"}}
    for city in CITIES:
        agent.invoke({"messages": [HumanMessage(f"And the weather in {city}?")]}, config)

    assert len(model.sent) == 2 * len(CITIES)  # a tool call and an answer each turn
    for state, sent in zip(before.seen, model.sent, strict=True):
        assert isinstance(sent[0], SystemMessage)  # the agent's prompt, never compacted
        history = sent[1:]
        expected = shrink(state, AGENT_SETTING, lossy_fixes=True)
        assert convert_to_openai_messages(history) == convert_to_openai_messages(expected)
        assert paired(history)
        assert sum(len(m.text) for m in history) <= sum(len(m.text) for m in state)
    # later turns have more than the budget to send: shrink removed and cut some of it
    assert any(len(s) > len(m) - 1 for s, m in zip(before.seen, model.sent, strict=True))
    last = shrinker.last_report
    assert last is not None and last.removed and last.budget_met
    final = agent.get_state(config).values["messages"]
    assert paired(final) and isinstance(final[-1], AIMessage)
    assert final[-1].text == "In Turku it is 18 °C with light rain (turn 4)."


def test_a_missing_extra_names_the_command(monkeypatch):
    import sys

    from compactor import integrations

    monkeypatch.delitem(sys.modules, "compactor.integrations._langchain_middleware")
    monkeypatch.delattr(integrations, "_langchain_middleware", raising=False)
    monkeypatch.setitem(sys.modules, "langchain.agents.middleware", None)
    with pytest.raises(ImportError, match=r'\.venv/bin/pip install -e "\.\[langchain\]"'):
        integrations.ShrinkMiddleware  # noqa: B018


WEDDING = "The wedding is in Porto, at the old chapel by the river."
QUOKKA = "The quokka photo was filed as QK-7781 on Rottnest."
FOCUS_SETTING = Setting(strategy="focus", budget_chars=260, params={"keep_last_n": 1})


def test_focus_in_the_middleware_reads_the_latest_user_input():
    history = []
    for k, text in enumerate(
        [WEDDING, QUOKKA, *(f"Tulips or roses for bed {j}?" for j in range(8))]
    ):
        history += [HumanMessage(text), AIMessage(f"Noted {k}.")]
    asks = ["Which city is the wedding in?", "Where was the quokka photo QK-7781 taken?"]
    model = ToolCallingFake(messages=iter([AIMessage("Porto."), AIMessage("Rottnest.")]))
    model.sent = []
    agent = create_agent(
        model, tools=[], middleware=[ShrinkMiddleware(FOCUS_SETTING)], checkpointer=InMemorySaver()
    )
    for thread, ask in enumerate(asks):  # one thread a question, each after the same history
        config = {"configurable": {"thread_id": f"focus-{thread}"}}
        agent.invoke({"messages": [*history, HumanMessage(ask)]}, config)
    wedding, quokka = ([m.text for m in sent] for sent in model.sent)
    # asked about the wedding, the model gets its evidence, and not the photo's, whose words
    # only the other question holds; keep-last at that size would have kept neither
    assert WEDDING in wedding and QUOKKA not in wedding and wedding[-1] == asks[0]
    assert QUOKKA in quokka and WEDDING not in quokka and quokka[-1] == asks[1]
    assert sum(map(len, wedding)) <= FOCUS_SETTING.budget_chars
