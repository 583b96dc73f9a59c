"""``inspector proxy`` as a real uvicorn process on 127.0.0.1, driven by the real OpenAI and Anthropic
SDK clients, in front of a loopback stand-in provider replaying recorded answers verbatim."""

from __future__ import annotations

import json
import signal
import threading

import anthropic
import httpx
import openai
import pytest
from support import guard_fixtures
from support.guard_fixtures import ANTHROPIC_200, DEEPSEEK_400, OPENAI_SSE, forget, guardserver, recorded, seen

from inspector.sharing.store import Store

KEY = "sk-test-proxy-key-0123456789abcdefghij"


upstream = guard_fixtures.upstream  # the stand-in provider process (a fixture)


@pytest.fixture(scope="module")
def inbox_path(tmp_path_factory):
    return tmp_path_factory.mktemp("inbox") / "inbox.sqlite3"


def _proxy(upstream, inbox_path, mode, prefix=""):
    return guardserver.start_proxy(upstream.url, mode=mode, record=True, prefix=prefix,
                                   env={"INSPECTOR_STORE_PATH": str(inbox_path)})


@pytest.fixture(scope="module")
def observe(upstream, inbox_path):
    p = _proxy(upstream, inbox_path, "observe")
    yield p
    p.stop()


@pytest.fixture(scope="module")
def block(upstream, inbox_path):
    p = _proxy(upstream, inbox_path, "block")
    yield p
    p.stop()


def _records(inbox_path):
    store = Store(f"sqlite:///{inbox_path}")
    try:
        return store, store.records()
    finally:
        store.close()


def _oa(proxy):
    return openai.OpenAI(base_url=proxy.url + "/v1", api_key=KEY, max_retries=0)


def test_health(observe):
    r = httpx.get(observe.url + "/health")
    assert r.json() == {"status": "ok", "mode": "observe", "recording": True}


def test_observe_forwards_and_the_providers_400_reaches_the_sdk_and_the_inbox(observe, upstream, inbox_path):
    body, it = recorded(DEEPSEEK_400)
    forget(upstream)
    with pytest.raises(openai.BadRequestError) as info:
        _oa(observe).responses.create(**body)
    assert info.value.response.content == it.response  # the recorded body, byte for byte
    (got,) = seen(upstream)
    assert got["path"] == "/v1/responses" and got["authorization"] == f"Bearer {KEY}"  # untouched
    assert json.loads(got["body"]) == body
    _, rows = _records(inbox_path)
    row = next(r for r in rows if r["verdict"] == "rejected" and r["provider"] == "deepseek")
    assert row["source"] == "proxy" and row["status"] == 400 and row["culprit"] == 4
    assert row["provider_error"] == "No tool output found for tool call call-a."
    store = Store(f"sqlite:///{inbox_path}")
    _, data = store.record(row["id"])
    store.close()
    assert KEY.encode() not in data and b"Bearer" not in data
    assert KEY not in observe.output()  # never logged either


def test_block_answers_400_in_openais_shape_without_sending(block, upstream):
    body, _ = recorded(DEEPSEEK_400)
    forget(upstream)
    with pytest.raises(openai.BadRequestError) as info:
        _oa(block).responses.create(**body)
    assert seen(upstream) == []
    err = info.value.response.json()
    assert err["error"]["message"].startswith("No tool output found for tool call call-a. (inspector guard")
    assert err["error"]["type"] == "invalid_request_error" and err["error"]["param"] == "input.[4]"
    assert [f["code"] for f in err["inspector"]["findings"]] == ["TC003"]


def test_block_answers_400_in_anthropics_shape(block, upstream):
    body, _ = recorded(ANTHROPIC_200, 1)
    broken = dict(body, messages=[body["messages"][0], body["messages"][2]])
    forget(upstream)
    client = anthropic.Anthropic(base_url=block.url, api_key=KEY, max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as info:
        client.messages.create(**broken)
    assert seen(upstream) == []
    err = info.value.response.json()
    assert err["type"] == "error" and err["error"]["type"] == "invalid_request_error"
    assert "tool_use_id" in err["error"]["message"] or "tool_result" in err["error"]["message"]


def test_an_accepted_anthropic_request_passes_block_mode(block, upstream):
    body, it = recorded(ANTHROPIC_200, 1)
    forget(upstream)
    msg = anthropic.Anthropic(base_url=block.url, api_key=KEY, max_retries=0).messages.create(**body)
    assert msg.id == json.loads(it.response)["id"]
    (got,) = seen(upstream)
    assert got["path"] == "/v1/messages" and json.loads(got["body"]) == body


def test_gemini_route_in_block_mode(block, upstream):
    contents = [{"role": "user", "parts": [{"text": "hi"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "a", "args": {}}},
                                            {"functionCall": {"name": "b", "args": {}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "a", "response": {}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "b", "response": {}}}]}]
    forget(upstream)
    r = httpx.post(block.url + "/v1beta/models/gemini-2.5-flash:generateContent?key=AIzaNotARealKey",
                   json={"contents": contents})
    assert r.status_code == 400 and seen(upstream) == []
    assert r.json()["error"]["status"] == "INVALID_ARGUMENT"
    assert r.json()["error"]["message"].startswith("Please ensure that the number of function response parts")


def test_sse_passes_through_event_by_event(observe, upstream):
    body, it = recorded(OPENAI_SSE, 1)
    forget(upstream)
    stream = _oa(observe).chat.completions.create(**body)
    chunks = list(stream)
    expected = [e for e in it.response.split(b"\n\n") if e.strip() and e.strip() != b"data: [DONE]"]
    assert len(chunks) == len(expected)
    assert [c.model_dump(mode="json", exclude_unset=True)["id"] for c in chunks] == [
        json.loads(e[len(b"data: "):])["id"] for e in expected]
    with httpx.stream("POST", observe.url + "/v1/chat/completions", json=body, headers={"authorization": "Bearer x"}) as r:
        raw = b"".join(r.iter_raw())
    assert raw == b"".join(e + b"\n\n" for e in it.response.split(b"\n\n") if e.strip())


def test_a_stream_cut_half_way_is_cut_for_the_client_too(upstream, inbox_path):
    cut = _proxy(upstream, inbox_path, "observe", prefix="/cut")
    try:
        body, _ = recorded(OPENAI_SSE, 1)
        got = []
        with pytest.raises(httpx.HTTPError), httpx.stream("POST", cut.url + "/v1/chat/completions", json=body) as r:
            for chunk in r.iter_raw():
                got.append(chunk)  # noqa: PERF402 - kept as they arrive, until the cut
        assert got and b"[DONE]" not in b"".join(got)  # some events arrived, the end never did
        assert httpx.get(cut.url + "/health").status_code == 200  # the proxy lives on
        log = cut.output()
    finally:
        cut.stop()
    assert "closed the stream early (RemoteProtocolError); the client's stream is cut too" in log  # one line
    assert "Traceback" not in log  # said in a line, not as a crash (issue 33)


def test_an_upstream_that_hangs_times_the_client_out_and_the_proxy_lives_on(upstream, inbox_path):
    hang = _proxy(upstream, inbox_path, "observe", prefix="/hang")
    try:
        body, _ = recorded(ANTHROPIC_200, 1)
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(hang.url + "/v1/messages", json=body, timeout=2)
        assert httpx.get(hang.url + "/health").status_code == 200
    finally:
        hang.stop()


@pytest.mark.parametrize("content", [b"{not json", b'{"prompt": "no messages here"}', b"\xff\xfe\x00garbage"])
def test_unreadable_bodies_forwarded_unchanged_in_observe_refused_in_block(observe, block, upstream, content):
    forget(upstream)
    r = httpx.post(observe.url + "/v1/chat/completions", content=content, headers={"content-type": "application/json"})
    (got,) = seen(upstream)
    assert got["body"].encode("utf-8") == content.decode("utf-8", "replace").encode("utf-8")
    assert r.status_code in (200, 404)  # whatever the stand-in provider answers
    forget(upstream)
    r = httpx.post(block.url + "/v1/chat/completions", content=content)
    assert r.status_code == 400 and seen(upstream) == []
    assert "the guard cannot read this request" in r.json()["error"]["message"]


def test_a_50_mb_body_is_checked_and_answered(observe, block, upstream):
    big = "x" * 50_000_000
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": big},
                                            {"role": "tool", "tool_call_id": "call_1", "content": "orphan"}]}
    data = json.dumps(body).encode()
    r = httpx.post(block.url + "/v1/chat/completions", content=data, timeout=120)
    assert r.status_code == 400 and "preceeding message with 'tool_calls'" in r.json()["error"]["message"]
    forget(upstream)
    r = httpx.post(observe.url + "/v1/chat/completions", content=data, timeout=120)
    # the stand-in provider's own answer (it recorded no such request): the body went through whole
    assert r.status_code == 404 and r.json()["error"]["message"] == "nothing recorded for /v1/chat/completions"
    assert len(seen(upstream)[0]["body"]) == len(data)
    forget(upstream)


def test_concurrent_requests_never_share_a_record(observe, inbox_path, upstream):
    def send(marker: str):
        body = {"model": "gpt-4o", "messages": [{"role": "user", "content": marker},
                                                {"role": "tool", "tool_call_id": f"call_{marker}", "content": marker}]}
        httpx.post(observe.url + "/v1/chat/completions", json=body, timeout=60)

    markers = [f"marker{k:02d}" for k in range(12)]
    threads = [threading.Thread(target=send, args=(m,)) for m in markers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store = Store(f"sqlite:///{inbox_path}")
    try:
        for row in store.records(limit=1000):
            _, data = store.record(row["id"])
            inside = {m for m in markers if m.encode() in data}
            assert len(inside) <= 1, inside  # one request's text, never another's
        found = {m for row in store.records(limit=1000) for m in markers if m in (row["first_finding"] or "")}
        assert found == set(markers)
    finally:
        store.close()
    forget(upstream)


def test_sigterm_shuts_down_gracefully(upstream, inbox_path):
    p = _proxy(upstream, inbox_path, "observe")
    p.proc.send_signal(signal.SIGTERM)
    # uvicorn finishes the requests in flight, runs the lifespan's end (our client closes), then
    # re-raises the signal it caught so the process ends the way it was asked to
    assert p.proc.wait(timeout=30) in (0, -signal.SIGTERM)
    out = p.output()
    assert "Application shutdown complete" in out and "Traceback" not in out
    p.stop()


def test_repair_mode_sends_the_repaired_body_says_so_and_records_it(upstream, tmp_path):
    """``--mode repair``: the provider gets what ``inspector repair`` writes for the body (which
    checks clean), the client learns it from the header, and the inbox keeps the request as sent
    by the client with the repair report."""
    import inspector
    from inspector.checking import check_plain

    store = tmp_path / "inbox.sqlite3"
    p = guardserver.start_proxy(upstream.url, mode="repair", record=True, env={"INSPECTOR_STORE_PATH": str(store)})
    body = {"model": "gpt-4o", "messages": [
        {"role": "user", "content": "weather in Oslo?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_oslo", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "user", "content": "and in Bergen?"}]}
    try:
        forget(upstream)
        r = httpx.post(p.url + "/v1/chat/completions", json=body, headers={"authorization": f"Bearer {KEY}"}, timeout=60)
        (got,) = seen(upstream)
    finally:
        p.stop()
    assert r.headers["x-inspector-guard"] == "repaired; TC001 x1"
    assert got["authorization"] == f"Bearer {KEY}"
    sent = json.loads(got["body"])
    assert sent == json.loads(inspector.repair(json.dumps(body).encode(), dialect="openai-chat").output)
    report, _ = check_plain(inspector.load(got["body"].encode()))
    assert [f["code"] for f in report["findings"] if f["severity"] == "error"] == []
    s = Store(f"sqlite:///{store}")
    try:
        (row,) = s.records()
        _, data = s.record(row["id"])
    finally:
        s.close()
    assert row["verdict"] == "repaired" and row["source"] == "proxy" and [f["code"] for f in row["findings"]] == ["TC001"]
    entry = json.loads(data)["log"]["entries"][0]
    assert json.loads(entry["request"]["postData"]["text"]) == body  # what the client sent
    assert [c["code"] for c in entry["_inspector"]["repair"]["changes"]] == ["TC001"]


def test_gemini_stream_route_is_checked_and_forwarded_with_its_query(observe, block, upstream):
    path = "/v1beta/models/gemini-3-flash:streamGenerateContent"
    orphan = {"contents": [{"role": "user", "parts": [{"text": "hi"}]},
                           {"role": "user", "parts": [{"functionResponse": {"name": "lookup", "response": {}}}]}]}
    forget(upstream)
    r = httpx.post(block.url + path + "?alt=sse", json=orphan, timeout=60)
    assert r.status_code == 400 and seen(upstream) == []
    assert r.json()["error"]["status"] == "INVALID_ARGUMENT" and r.json()["inspector"]["findings"]
    httpx.post(observe.url + path + "?alt=sse", json=orphan, timeout=60)
    (got,) = seen(upstream)
    assert (got["path"], got["query"]) == (path, "alt=sse") and json.loads(got["body"]) == orphan
    forget(upstream)
