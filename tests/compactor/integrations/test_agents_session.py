"""OpenAI Agents SDK: ShrinkingSession around a real SQLiteSession on a temporary file, driven by
the SDK's own Runner over several runs with a function tool. The model is a scripted
implementation of the SDK's Model interface (no network): it is sent only shrunk histories,
with every function call beside its output, while the SQLite store keeps every item."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import (  # noqa: E402
    Agent,
    ModelResponse,
    RunConfig,
    Runner,
    SQLiteSession,
    Usage,
    function_tool,
)
from agents.models.interface import Model  # noqa: E402
from openai.types.responses import (  # noqa: E402
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from compactor import shrink_with_report  # noqa: E402
from compactor.integrations import Setting, ShrinkingSession  # noqa: E402
from compactor.integrations._shrink import RESPONSES  # noqa: E402

SETTING = Setting(budget_chars=700, params={"keep_last_n": 3, "max_message_chars": 200})
CITIES = ["Porto", "Lyon", "Oslo", "Graz", "Turku"]


@function_tool
def weather(city: str) -> str:
    """The weather report of a city."""
    return f"{city}: " + "light rain, 18 °C, wind from the west at 20 km/h. " * 4


class ScriptedModel(Model):
    """Calls the weather tool for the city in the last user message, then answers; keeps every
    input it is sent."""

    def __init__(self) -> None:
        self.inputs: list[list[Any]] = []

    async def get_response(
        self,
        system_instructions,
        input,
        model_settings,
        tools,
        output_schema,
        handoffs,
        tracing,
        **kwargs,
    ) -> ModelResponse:
        items = [dict(i) for i in input] if isinstance(input, list) else input
        self.inputs.append(items)
        last = items[-1]
        if last.get("type") == "function_call_output":
            city = last["output"].split(":")[0]
            text = ResponseOutputText(
                annotations=[], text=f"In {city} it is 18 °C.", type="output_text"
            )
            output = ResponseOutputMessage(
                id=f"msg_{len(self.inputs)}",
                content=[text],
                role="assistant",
                status="completed",
                type="message",
            )
        else:
            city = str(last["content"]).rsplit(" ", 1)[-1].rstrip("?")
            output = ResponseFunctionToolCall(
                arguments=f'{{"city": "{city}"}}',
                call_id=f"call_{len(self.inputs)}",
                name="weather",
                type="function_call",
                id=f"fc_{len(self.inputs)}",
            )
        return ModelResponse(output=[output], usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):  # pragma: no cover - not streamed here
        raise NotImplementedError


def sent_of(stored: list[Any]) -> list[Any]:
    """What the session documents it returns: the stored items shrunk, or as stored when the
    setting removes, cuts and drops nothing."""
    shrunk = shrink_with_report(stored, SETTING, format=RESPONSES, lossy_fixes=True)
    r = shrunk.report
    return shrunk.messages if (r.removed or r.cut or r.replaced) else stored


def paired(items: list[dict[str, Any]]) -> bool:
    """Every function call's output right after the calls, and every output after its call."""
    open_calls: set[str] = set()
    for item in items:
        kind = item.get("type")
        if kind == "function_call":
            open_calls.add(item["call_id"])
        elif kind == "function_call_output":
            if item["call_id"] not in open_calls:
                return False
            open_calls.discard(item["call_id"])
        elif open_calls:
            return False
    return not open_calls


async def conversation(tmp_path) -> tuple[ScriptedModel, list[list[Any]], ShrinkingSession]:
    model = ScriptedModel()
    agent = Agent(
        name="weather bot", instructions="You are a weather bot.", model=model, tools=[weather]
    )
    store = SQLiteSession("user-42", tmp_path / "chats.db")
    session = ShrinkingSession(store, SETTING)
    stored_before = []
    for city in CITIES:
        stored_before.append(await store.get_items())
        await Runner.run(
            agent,
            f"And the weather in {city}?",
            session=session,
            run_config=RunConfig(tracing_disabled=True),
        )
    return model, stored_before, session


def test_runner_sends_the_model_only_shrunk_valid_histories(tmp_path):
    model, stored_before, session = asyncio.run(conversation(tmp_path))
    assert len(model.inputs) == 2 * len(CITIES)  # a call and an answer each run
    for run, stored in enumerate(stored_before):
        first = model.inputs[2 * run]  # the history the run started from, then the question
        history, question = first[:-1], first[-1]
        assert question == {"content": f"And the weather in {CITIES[run]}?", "role": "user"}
        assert history == sent_of(stored)
        assert all(paired(i) for i in model.inputs[2 * run : 2 * run + 2])
    # the store keeps every item: 4 a run (question, call, output, answer)
    everything = asyncio.run(SQLiteSession("user-42", tmp_path / "chats.db").get_items())
    assert len(everything) == 4 * len(CITIES)
    # the later runs were sent less than the store holds
    assert len(model.inputs[-2]) < len(everything)
    report = session.last_report
    assert report is not None and report.removed and report.budget_met
    assert report.format == "responses"


def test_a_limit_returns_the_stored_tail(tmp_path):
    async def run() -> tuple[list[Any], list[Any]]:
        store = SQLiteSession("s", tmp_path / "s.db")
        await store.add_items(
            [{"role": "user", "content": f"question {i} " * 40} for i in range(6)]
        )
        session = ShrinkingSession(store, SETTING)
        return await session.get_items(limit=2), await store.get_items(limit=2)

    tail, stored = asyncio.run(run())
    assert tail == stored


def test_pop_and_clear_go_to_the_store(tmp_path):
    async def run() -> tuple[Any, list[Any]]:
        store = SQLiteSession("s", tmp_path / "s.db")
        session = ShrinkingSession(store, SETTING)
        await session.add_items(
            [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]
        )
        popped = await session.pop_item()
        left = await store.get_items()
        await session.clear_session()
        return popped, left, await store.get_items()

    popped, left, cleared = asyncio.run(run())
    assert popped == {"role": "user", "content": "b"}
    assert left == [{"role": "user", "content": "a"}] and cleared == []


def test_a_missing_extra_names_the_command(monkeypatch):
    import sys

    from compactor import integrations

    monkeypatch.delitem(sys.modules, "compactor.integrations._agents_session")
    monkeypatch.delattr(integrations, "_agents_session", raising=False)
    monkeypatch.setitem(sys.modules, "agents.memory", None)
    with pytest.raises(ImportError, match=r'\.venv/bin/pip install -e "\.\[agents\]"'):
        integrations.ShrinkingSession  # noqa: B018


WEDDING = "The wedding is in Porto, at the old chapel by the river."
QUOKKA = "The quokka photo was filed as QK-7781 on Rottnest."
FOCUS_SETTING = Setting(strategy="focus", budget_chars=300, params={"keep_last_n": 1})


class Answering(ScriptedModel):
    """Answers every input with a short message (no tool), keeping each input it is sent."""

    async def get_response(self, system_instructions, input, *args, **kwargs) -> ModelResponse:
        self.inputs.append([dict(i) for i in input] if isinstance(input, list) else input)
        text = ResponseOutputText(annotations=[], text="Noted.", type="output_text")
        output = ResponseOutputMessage(
            id=f"msg_{len(self.inputs)}",
            content=[text],
            role="assistant",
            status="completed",
            type="message",
        )
        return ModelResponse(output=[output], usage=Usage(), response_id=None)


def test_focus_reads_the_new_input_when_the_session_shrinks_it_with_the_history(tmp_path):
    asks = ["Which city is the wedding in?", "Where was the quokka photo QK-7781 taken?"]

    async def run(ask: str, thread: int, with_new_input: bool) -> list[str]:
        store = SQLiteSession(f"s{thread}", tmp_path / "focus.db")
        turns = [WEDDING, QUOKKA, *(f"Tulips or roses for bed {k}?" for k in range(8))]
        for k, text in enumerate(turns):
            await store.add_items(
                [{"role": "user", "content": text}, {"role": "assistant", "content": f"Ok {k}."}]
            )
        session = ShrinkingSession(store, FOCUS_SETTING, with_new_input=with_new_input)
        model = Answering()
        agent = Agent(name="planner", instructions="You plan.", model=model)
        config = RunConfig(tracing_disabled=True, session_input_callback=session.input_callback)
        await Runner.run(agent, ask, session=session, run_config=config)
        stored = await store.get_items()
        assert len(stored) == 2 * len(turns) + 2  # the store keeps every item, the new too
        return [str(item.get("content")) for item in model.inputs[0]]

    wedding = asyncio.run(run(asks[0], 0, True))
    quokka = asyncio.run(run(asks[1], 1, True))
    assert wedding[-1] == asks[0] and quokka[-1] == asks[1]
    # each question gets its own evidence, and never the other's, which it cannot know of
    assert WEDDING in wedding and QUOKKA not in wedding
    assert QUOKKA in quokka and WEDDING not in quokka
    # without it, get_items shrinks before the question arrives: focus reads the stored turns
    before = asyncio.run(run(asks[0], 2, False))
    assert before[-1] == asks[0] and WEDDING not in before
