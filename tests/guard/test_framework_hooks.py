"""The framework hooks on the guard's core: LiteLLM (a real ``litellm.acompletion`` against the
loopback stand-in provider) and LangChain v1 agent middleware. Each framework is optional: its
tests skip when it is not installed."""

from __future__ import annotations

import json

import pytest
from support import guard_fixtures
from support.guard_fixtures import forget, run_coroutine, seen

from inspector.guard import RejectedRequest
from inspector.guard.recorder import Recorder

upstream = guard_fixtures.upstream

BROKEN = [
    {"role": "user", "content": "weather in Paris?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
    {"role": "user", "content": "and?"},
]


def test_litellm_acompletion_raise_mode_sends_nothing(upstream):
    litellm = pytest.importorskip("litellm")
    from inspector.guard.litellm import InspectorGuard

    forget(upstream)
    litellm.callbacks = [InspectorGuard(mode="raise", recorder=Recorder(enabled=False))]
    try:
        with pytest.raises(RejectedRequest) as info:
            run_coroutine(litellm.acompletion(model="openai/gpt-4o", messages=BROKEN, api_base=upstream.url + "/v1",
                                            api_key="sk-test-0000000000000000000000"))
    finally:
        litellm.callbacks = []
    assert seen(upstream) == []
    assert info.value.index == 1 and [f["code"] for f in info.value.findings] == ["TC001"]
    assert info.value.provider_error.startswith("An assistant message with 'tool_calls' must be followed by tool messages")


def test_litellm_acompletion_repair_mode_sends_the_repaired_messages(upstream):
    litellm = pytest.importorskip("litellm")
    from inspector.guard.litellm import InspectorGuard

    forget(upstream)
    litellm.callbacks = [InspectorGuard(mode="repair", recorder=Recorder(enabled=False))]
    try:
        with pytest.raises(Exception):  # noqa: B017 - the stand-in provider recorded no answer for it (404)
            run_coroutine(litellm.acompletion(model="openai/gpt-4o", messages=BROKEN, api_base=upstream.url + "/v1",
                                            api_key="sk-test-0000000000000000000000", num_retries=0))
    finally:
        litellm.callbacks = []
    sent = json.loads(seen(upstream)[0]["body"])["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "tool", "user"]
    assert sent[2]["tool_call_id"] == "call_1"


def _lc_history():
    from langchain_core.messages import AIMessage, HumanMessage

    return [HumanMessage("weather in Paris?"),
            AIMessage("", tool_calls=[{"name": "get_weather", "args": {}, "id": "call_1"}]),
            HumanMessage("and?")]


def test_langchain_agent_step_raise_mode():
    pytest.importorskip("langchain")
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from inspector.guard.langchain import InspectorGuard

    model = GenericFakeChatModel(messages=iter([AIMessage("sunny")]))
    agent = create_agent(model, tools=[], middleware=[InspectorGuard(mode="raise", recorder=Recorder(enabled=False))])
    with pytest.raises(RejectedRequest) as info:
        agent.invoke({"messages": _lc_history()})
    assert info.value.index == 1 and [f["code"] for f in info.value.findings] == ["TC001"]
    # the same list, checked as a saved LangChain history, gets the same verdict
    import inspector

    report = inspector.check([m.model_dump(mode="json") for m in _lc_history()], dialect="langchain")
    assert [f.code for f in report.findings if f.severity == "error"] == ["TC001"]


def test_langchain_agent_step_repair_mode_gives_the_model_the_repaired_messages():
    pytest.importorskip("langchain")
    from langchain.agents import create_agent
    from langchain.agents.middleware import wrap_model_call
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from inspector.guard.langchain import InspectorGuard

    seen_by_model = []

    @wrap_model_call
    def spy(request, handler):
        seen_by_model.append(list(request.messages))
        return handler(request)

    model = GenericFakeChatModel(messages=iter([AIMessage("sunny")]))
    agent = create_agent(model, tools=[], middleware=[InspectorGuard(mode="repair", recorder=Recorder(enabled=False)),
                                                      spy])
    out = agent.invoke({"messages": _lc_history()})
    assert out["messages"][-1].content == "sunny"
    (msgs,) = seen_by_model
    assert [m.type for m in msgs] == ["human", "ai", "tool", "human"]
    assert msgs[2].tool_call_id == "call_1"
