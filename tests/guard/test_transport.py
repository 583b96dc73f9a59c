"""The guard as an httpx transport, under the real OpenAI and Anthropic SDK clients, in front of a
real loopback server replaying recorded provider answers verbatim."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import anthropic
import httpx
import openai
import pytest
from support import guard_fixtures
from support.guard_fixtures import ANTHROPIC_200, DEEPSEEK_400, OPENAI_SSE, forget, recorded, run_coroutine, seen

import inspector.guard
from inspector.guard import RejectedRequest
from inspector.guard.recorder import Recorder
from inspector.sharing.store import Store

upstream = guard_fixtures.upstream  # the stand-in provider process (a fixture)
guard_store = guard_fixtures.guard_store


def _openai(upstream, mode, recorder=None):
    http = inspector.guard.client(mode=mode, recorder=recorder or Recorder(enabled=False))
    return openai.OpenAI(base_url=upstream.url + "/v1", api_key="sk-test-not-a-real-key-000000", http_client=http,
                         max_retries=0)


def _check_json(tmp_path, body: dict) -> dict:
    """``inspector check --format json`` on the same body, as a user would run it."""
    f = tmp_path / "body.json"
    f.write_text(json.dumps(body))
    p = subprocess.run([sys.executable, "-m", "inspector", "check", "--format", "json", str(f)], capture_output=True)
    return json.loads(p.stdout)


def test_raise_mode_refuses_before_any_network_call_with_the_providers_words(upstream, tmp_path):
    body, it = recorded(DEEPSEEK_400)
    forget(upstream)
    client = _openai(upstream, "raise")
    with pytest.raises(RejectedRequest) as info:
        client.responses.create(**body)
    err = info.value
    assert seen(upstream) == []  # nothing left the machine, not even a retry
    # the provider's own words, as DeepSeek recorded them in its 400
    assert err.provider_error == "No tool output found for tool call call-a."
    assert json.loads(it.response)["error"]["message"] == err.provider_error
    assert err.index == 4 and err.target == "deepseek"
    # one input, one verdict: the findings are what `inspector check` says of the same body
    cli = _check_json(tmp_path, body)
    assert err.findings == [f for f in cli["findings"] if f["severity"] == "error"]


def test_observe_mode_sends_it_and_the_provider_400_is_recorded(upstream, guard_store, caplog):
    body, _ = recorded(DEEPSEEK_400)
    forget(upstream)
    rec = Recorder(enabled=True)
    client = _openai(upstream, "observe", rec)
    with caplog.at_level(logging.WARNING, logger="inspector.guard"), pytest.raises(openai.BadRequestError) as info:
        client.responses.create(**body)
    assert "No tool output found for tool call call-a." in str(info.value)  # the SDK read the recorded body
    assert len(seen(upstream)) == 1
    assert any("DeepSeek would reject this request" in r.getMessage() for r in caplog.records)
    (row,) = Store(guard_store).records()
    assert row["verdict"] == "rejected" and row["source"] == "sdk" and row["status"] == 400
    assert row["provider_error"] == "No tool output found for tool call call-a."
    assert row["provider"] == "deepseek" and row["model"] == "deepseek-v4-flash" and row["culprit"] == 4
    _, data = Store(guard_store).record(row["id"])
    assert b"sk-test-not-a-real-key" not in data and b"authorization" not in data.lower()


def test_repair_mode_sends_the_repaired_body_and_says_so(upstream, tmp_path):
    body, _ = recorded(DEEPSEEK_400)
    forget(upstream)
    client = _openai(upstream, "repair")
    raw = client.responses.with_raw_response.create(**body)
    assert raw.headers["x-inspector-guard"] == "repaired; TC003 x1"
    (got,) = seen(upstream)
    sent = json.loads(got["body"])
    assert sent != body
    assert not [f for f in _check_json(tmp_path, sent)["findings"] if f["severity"] == "error"]
    # lossless: every item of the original is still in the repaired input
    for item in body["input"]:
        assert item in sent["input"]


def test_anthropic_sdk_through_the_transport_gets_the_recorded_200(upstream):
    body, it = recorded(ANTHROPIC_200, 1)
    forget(upstream)
    http = inspector.guard.client(mode="raise", recorder=Recorder(enabled=False))
    client = anthropic.Anthropic(base_url=upstream.url, api_key="sk-ant-test-000000000000000000", http_client=http,
                                 max_retries=0)
    msg = client.messages.create(**body)
    assert msg.model_dump(mode="json")["id"] == json.loads(it.response)["id"]
    (got,) = seen(upstream)
    assert json.loads(got["body"]) == body  # a request the target accepts goes out as it was
    # the key reaches the provider untouched (this SDK version sends it as a bearer token)
    assert "sk-ant-test-000000000000000000" in (got["x-api-key"] or got["authorization"])


def test_anthropic_sdk_raise_mode_on_a_result_without_its_call(upstream):
    body, _ = recorded(ANTHROPIC_200, 1)
    broken = dict(body, messages=[body["messages"][0], body["messages"][2]])  # the tool_use turn dropped
    http = inspector.guard.client(mode="raise", recorder=Recorder(enabled=False))
    client = anthropic.Anthropic(base_url=upstream.url, api_key="x", http_client=http, max_retries=0)
    forget(upstream)
    with pytest.raises(RejectedRequest) as info:
        client.messages.create(**broken)
    assert info.value.target == "anthropic" and info.value.findings
    assert seen(upstream) == []


def test_async_transport_with_the_async_sdk(upstream):
    body, _ = recorded(DEEPSEEK_400)
    forget(upstream)

    async def run():
        http = inspector.guard.async_client(mode="raise", recorder=Recorder(enabled=False))
        client = openai.AsyncOpenAI(base_url=upstream.url + "/v1", api_key="x", http_client=http, max_retries=0)
        async with client:
            await client.responses.create(**body)

    with pytest.raises(RejectedRequest) as info:
        run_coroutine(run())
    assert info.value.provider_error == "No tool output found for tool call call-a."
    assert seen(upstream) == []


def _events(sse: bytes) -> list[bytes]:
    return [e for e in sse.split(b"\n\n") if e.strip() and e.strip() != b"data: [DONE]"]


@pytest.mark.parametrize("mode", ["observe", "raise", "repair"])
def test_a_stream_passes_the_transport_event_by_event_and_a_cut_reaches_the_sdk(upstream, mode):
    """SSE through the SDK path end to end: the guard checks the request, then hands the stream
    back untouched; a stream the provider cuts half-way is an error in the SDK, never a short answer."""
    body, it = recorded(OPENAI_SSE, 1)
    expected = [json.loads(e[len(b"data: "):])["id"] for e in _events(it.response)]
    forget(upstream)
    stream = _openai(upstream, mode).chat.completions.create(**body)
    assert [c.id for c in stream] == expected
    assert stream.response.headers["x-inspector-guard"] == "ok"
    assert json.loads(seen(upstream)[0]["body"]) == body  # the request went as the SDK wrote it

    http = inspector.guard.client(mode=mode, recorder=Recorder(enabled=False))
    cut = openai.OpenAI(base_url=upstream.url + "/cut/v1", api_key="x", http_client=http, max_retries=0)
    got = []
    with pytest.raises(openai.APIConnectionError):  # the SDK's word for a connection lost mid-answer
        for chunk in cut.chat.completions.create(**body):
            got.append(chunk.id)  # kept as they arrive, until the cut
    assert 0 < len(got) < len(expected) and got == expected[: len(got)]


def test_requests_that_are_no_chat_request_pass_untouched():
    calls = []

    def handler(request):
        calls.append(request.content)
        return httpx.Response(200, json={"data": []})

    c = httpx.Client(transport=inspector.guard.GuardTransport(httpx.MockTransport(handler), mode="raise",
                                                              recorder=Recorder(enabled=False)))
    r = c.post("http://127.0.0.1:1/v1/embeddings", json={"input": "x", "model": "m"})
    assert r.status_code == 200 and "x-inspector-guard" not in r.headers and len(calls) == 1


def test_unreadable_body_is_forwarded_unchanged_in_observe_and_refused_in_raise():
    calls = []

    def handler(request):
        calls.append(request.content)
        return httpx.Response(200, json={})

    for mode in ("observe", "repair"):
        c = httpx.Client(transport=inspector.guard.GuardTransport(httpx.MockTransport(handler), mode=mode,
                                                                  recorder=Recorder(enabled=False)))
        c.post("http://127.0.0.1:1/v1/chat/completions", content=b"{not json")
    assert calls == [b"{not json", b"{not json"]
    c = httpx.Client(transport=inspector.guard.GuardTransport(httpx.MockTransport(handler), mode="raise",
                                                              recorder=Recorder(enabled=False)))
    with pytest.raises(RejectedRequest) as info:
        c.post("http://127.0.0.1:1/v1/chat/completions", content=b"{not json")
    assert "cannot read" in str(info.value) and info.value.unreadable and len(calls) == 2


def test_a_bad_mode_is_refused_with_its_name():
    with pytest.raises(ValueError, match="observe, raise, repair"):
        inspector.guard.client(mode="loud")


def test_an_api_key_in_the_url_never_reaches_a_log_line_a_refusal_or_a_record(guard_store, caplog, monkeypatch):
    """Gemini's ``?key=``: sent to the provider untouched, absent from what the guard keeps or says."""
    monkeypatch.setenv("INSPECTOR_RECORD", "1")
    key = "AIzaSyTransportKey0123456789abcdefghijk"
    url = f"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent?key={key}"
    body = {"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]}]}
    sent = []

    def provider(request):
        sent.append(str(request.url))
        return httpx.Response(200, json={"candidates": []})

    caplog.set_level(logging.DEBUG, logger="inspector.guard")
    observe = httpx.Client(transport=inspector.guard.GuardTransport(httpx.MockTransport(provider), mode="observe"))
    assert observe.post(url, json=body).headers["x-inspector-guard"].startswith("would_reject")
    assert sent == [url]  # the provider got its key
    refuse = httpx.Client(transport=inspector.guard.GuardTransport(httpx.MockTransport(provider), mode="raise"))
    with pytest.raises(RejectedRequest) as info:
        refuse.post(url, json=body)
    assert key not in str(info.value) and key not in info.value.url and key not in info.value.inspection.url
    assert "would_reject" in caplog.text or "sent anyway" in caplog.text  # the guard did log
    assert key not in caplog.text
    store = Store(guard_store)
    try:
        rows = store.records()
        assert len(rows) == 2 and all(key.encode() not in store.record(r["id"])[1] for r in rows)
        assert all(key not in json.dumps(r, default=str) for r in rows)
    finally:
        store.close()
