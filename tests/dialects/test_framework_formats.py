"""The formats of issue 11 part 2: AG-UI, Vercel AI SDK (ModelMessage and UIMessage), Pydantic AI,
OpenTelemetry GenAI (alone and in OTLP trace exports) and HAR captures: read, checked with the
right words, repaired in place and written back in the same shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector
from inspector import dialects
from inspector.containers import EMBEDDED

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
NEW = {n: dialects.get(n) for n in ("ag-ui", "vercel-ai", "vercel-ui", "pydantic-ai", "otel-genai")}


def codes(report):
    return [(f.code, f.severity, f.message_index) for f in report.findings]


@pytest.mark.parametrize("name", sorted(NEW))
def test_own_samples_detected_clean_broken_and_repaired(name):
    d = NEW[name]
    clean, broken = d.samples.clean, d.samples.broken
    r = inspector.check(clean)
    assert r.dialect == name and not [f for f in r.findings if f.severity in ("error", "warning")]
    assert d.text(clean[d.samples.text_at]).strip()
    r = inspector.check(broken)
    assert r.dialect == name and any(f.severity == "error" for f in r.findings)
    fixed = inspector.repair(json.dumps(broken))
    assert fixed.report.ok and fixed.report.changes
    assert inspector.repair(fixed.output).output == fixed.output  # idempotent
    assert not [f for f in inspector.check(fixed.output, dialect=name).findings if f.severity == "error"]
    text = json.dumps(clean, indent=2) + "\n"
    assert inspector.repair(text).output == text.encode()  # clean: the very same bytes


def test_agui_bedrock_rejection_one_of_two_parallel_calls_unanswered():
    path = SAMPLES / "agui_parallel_half_answered.json"
    r = inspector.check(str(path), target="bedrock")
    assert r.dialect == "ag-ui"
    [f] = [f for f in r.findings if f.severity == "error"]
    assert (f.code, f.message_index, f.tool_call_id) == ("TC001", 2, "tooluse_Zr7m2LwPSl9a")
    assert f.provider_error == "Expected toolResult blocks at messages.3.content for the following Ids: tooluse_Zr7m2LwPSl9a"
    fixed = inspector.repair(str(path), target="bedrock")
    out = fixed.data
    assert [m["id"] for m in out][:5] == [m["id"] for m in json.loads(path.read_text())][:4] + ["tooluse_Zr7m2LwPSl9a-result"]
    assert out[4]["toolCallId"] == "tooluse_Zr7m2LwPSl9a" and out[4]["role"] == "tool"
    assert out[5]["role"] == "activity"  # kept where it was
    assert fixed.report.ok


def test_vercel_model_messages_sdk_wording_provider_executed_and_old_names():
    r = inspector.check(str(SAMPLES / "vercel_ai_missing_tool_result.json"))
    assert r.dialect == "vercel-ai" and r.target == "anthropic"  # the body's model says so
    [f] = r.findings
    assert f.tool_call_id == "toolu_01Hc8Rk3"  # the provider-executed web_search answers itself
    assert f.provider_error == "Tool result is missing for tool call toolu_01Hc8Rk3."
    v4 = [{"role": "user", "content": "hi"},
          {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "c1", "toolName": "f", "args": {}}]},
          {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1", "toolName": "f", "result": 4}]}]
    r = inspector.check(v4)
    assert r.dialect == "vercel-ai" and r.findings == []
    fixed = inspector.repair(v4[:2] + [{"role": "user", "content": "and?"}])
    assert fixed.data[2]["content"][0] == {"type": "tool-result", "toolCallId": "c1", "toolName": "f",
                                           "result": fixed.data[2]["content"][0]["result"], "isError": True}


def test_vercel_approval_response_is_not_the_result():
    msgs = [{"role": "user", "content": "delete it"},
            {"role": "assistant", "content": [
                {"type": "tool-call", "toolCallId": "c1", "toolName": "rm", "input": {}},
                {"type": "tool-approval-request", "approvalId": "a1", "toolCallId": "c1"}]},
            {"role": "tool", "content": [{"type": "tool-approval-response", "approvalId": "a1", "approved": False}]},
            {"role": "user", "content": "ok"}]
    # The SDK writes an execution-denied result for a denial only when the response ends the list
    # (issue 28; tests/check/test_provider_quirks.py): here the call reaches the provider without a result.
    r = inspector.check(msgs)
    assert codes(r) == [("TC001", "error", 1)] and r.findings[0].provider_error.startswith("An assistant message")
    r = inspector.check(msgs[:2] + msgs[3:])
    assert codes(r) == [("TC001", "error", 1)]
    # The SDK checks the end of the list as well: an open call there is refused, not pending.
    r = inspector.check(msgs[:2])
    assert codes(r) == [("TC001", "error", 1)] and r.findings[0].provider_error.startswith("Tool result is missing")
    assert inspector.repair(json.dumps(msgs[:2])).report.ok


def test_vercel_ui_messages_open_parts_are_missing_results_and_repair_fills_them_in_place():
    path = SAMPLES / "vercel_ui_pending_tool_part.json"
    r = inspector.check(str(path))
    assert r.dialect == "vercel-ui"
    assert sorted(f.tool_call_id for f in r.findings) == ["call_de1b9x", "call_n0t1fy"]
    assert r.findings[0].provider_error == "Tool results are missing for tool calls call_de1b9x, call_n0t1fy."
    fixed = inspector.repair(str(path))
    parts = fixed.data[1]["parts"]
    assert len(fixed.data) == 3 and [p.get("state") for p in parts[1:]] == ["output-available", "output-error", "output-error"]
    assert "call_n0t1fy" in parts[3]["errorText"] and parts[3]["input"] == {"channel": "#infra"}
    assert fixed.report.ok
    # At the end of the history the open call is pending, as useChat holds it while the tool runs.
    r = inspector.check(json.loads(path.read_text())[:2])
    assert {f.code for f in r.findings} == {"TC022"}


def test_pydantic_ai_history_retry_prompt_answers_its_call_and_target_from_provider():
    path = SAMPLES / "pydantic_ai_history.json"
    r = inspector.check(str(path))
    assert (r.dialect, r.target, r.findings) == ("pydantic-ai", "openai", [])
    data = json.loads(path.read_text())
    del data[4]  # the tool-return of the second call: the text response follows instead
    r = inspector.check(data)
    assert codes(r) == [("TC001", "error", 3)]
    data[1]["provider_name"], data[1]["model_name"] = "anthropic", "claude-sonnet-4-5"
    for m in data:
        m.pop("provider_name", None) if m is not data[1] else None
    assert inspector.check(data).target == "anthropic"


PYDANTIC_SPLIT = [
    {"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "Weather in Paris and Rome?"}]},
    {"kind": "response", "model_name": "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "parts": [
        {"part_kind": "tool-call", "tool_name": "weather", "args": {"city": "Paris"}, "tool_call_id": "t1"},
        {"part_kind": "tool-call", "tool_name": "weather", "args": {"city": "Rome"}, "tool_call_id": "t2"}]},
    {"kind": "request", "parts": [{"part_kind": "tool-return", "tool_name": "weather", "content": "sunny", "tool_call_id": "t1"}]},
    {"kind": "request", "parts": [{"part_kind": "tool-return", "tool_name": "weather", "content": "rain", "tool_call_id": "t2"}]},
    {"kind": "response", "parts": [{"part_kind": "text", "content": "Sunny in Paris, rain in Rome."}]},
]


def test_pydantic_ai_results_over_two_requests_reach_bedrock_as_one_user_message():
    """Pydantic AI's Bedrock model merges consecutive requests into one user message ("Merge
    together sequential user messages.", pydantic_ai/models/bedrock.py), so results split over two
    requests are no TC015 there: "Bedrock would reject" was a confident wrong answer. Responses are
    not merged, so a response between the requests still splits the results."""
    r = inspector.check(PYDANTIC_SPLIT)
    assert (r.target, r.findings) == ("bedrock", [])  # the model's name says Bedrock
    fixed = inspector.repair(PYDANTIC_SPLIT, target="bedrock")
    assert fixed.report.changes == [] and fixed.data == PYDANTIC_SPLIT
    between = PYDANTIC_SPLIT[:3] + [{"kind": "response", "parts": [{"part_kind": "text", "content": "wait"}]}] + PYDANTIC_SPLIT[3:]
    [f] = inspector.check(between, target="bedrock").findings
    assert (f.code, f.severity) == ("TC003", "error")
    # Converse's words for it (tests/dialects/test_bedrock.py), at the request's own index: nothing merged here
    assert f.provider_error == ("The number of toolResult blocks at messages.4.content exceeds the number of "
                                "toolUse blocks of previous turn.")


def test_pydantic_ai_responses_in_a_row_are_a_bedrock_warning_not_would_accept():
    """The adapter merges requests, not responses: two responses in a row reach Converse as two
    assistant messages, which it refused in reports up to 2025 while Pydantic AI's adapter says
    Bedrock re-merges them. Unknown, so a warning (it was silence); the Messages API combines them."""
    history = PYDANTIC_SPLIT + [{"kind": "response", "parts": [{"part_kind": "text", "content": "Anything else?"}]}]
    r = inspector.check(history, target="bedrock")
    assert [(f.code, f.severity, f.message_index, f.other_index) for f in r.findings] == [("TC019", "warning", 5, 4)]
    assert "merges consecutive requests but not responses" in r.findings[0].text
    assert inspector.check(history, target="anthropic").findings == []
    fixed = inspector.repair(history, target="bedrock")
    assert len(fixed.data) == 5 and [p["content"] for p in fixed.data[4]["parts"]] == [
        "Sunny in Paris, rain in Rome.", "Anything else?"]
    assert inspector.check(fixed.data, target="bedrock").findings == []


def test_otlp_trace_one_transcript_per_chat_span_and_repair_writes_the_attribute_back():
    path = SAMPLES / "otel_trace_export.json"
    doc = inspector.load(str(path))
    assert [t.label for t in doc.transcripts] == ["span chat claude-sonnet-4-5 (a1b2c3d4e5f60718)",
                                                  "span chat claude-sonnet-4-5 (c3d4e5f60718293a)"]
    assert doc.transcripts[1].path[-1] is EMBEDDED
    r = inspector.check(str(path))
    assert (r.dialect, r.target) == ("otel-genai", "anthropic")  # gen_ai.provider.name
    # The first span's output (the model asking for two tools) follows its input: pending calls.
    assert [(f.transcript, f.code, f.message_index) for f in r.findings] == [
        (0, "TC022", 2), (0, "TC022", 2), (1, "TC001", 2)]
    fixed = inspector.repair(str(path))
    span = fixed.data["resourceSpans"][0]["scopeSpans"][0]["spans"][2]
    attr = next(a for a in span["attributes"] if a["key"] == "gen_ai.input.messages")
    msgs = json.loads(attr["value"]["stringValue"])
    assert [p["id"] for p in msgs[4]["parts"]] == ["toolu_01Bf7Ym"] and msgs[4]["role"] == "tool"
    assert msgs[5]["role"] == "user" and len(msgs) == 6
    before = json.loads(path.read_text())
    assert fixed.data["resourceSpans"][0]["scopeSpans"][0]["spans"][:2] == before["resourceSpans"][0]["scopeSpans"][0]["spans"][:2]
    assert [f.code for f in inspector.check(fixed.output).findings] == ["TC022", "TC022"]  # left, as asked


def _span_attr(doc, span, key):
    attrs = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][span]["attributes"]
    return next(a for a in attrs if a["key"] == key)["value"]


def test_otlp_output_messages_follow_the_input_and_go_back_to_their_own_attribute():
    trace = json.loads((SAMPLES / "otel_trace_export.json").read_text())
    doc = inspector.load(json.dumps(trace))
    first = doc.transcripts[0].items
    assert [m["role"] for m in first] == ["system", "user", "assistant"]
    assert first[2]["finish_reason"] == "tool_call" and [p["id"] for p in first[2]["parts"]] == [
        "toolu_01Ad4Xq", "toolu_01Bf7Ym"]
    # The second span answered in text; its input lost a result: repair fixes the input only.
    answer = [{"role": "assistant", "parts": [{"type": "text", "content": "Order 7731 ships Friday."}],
               "finish_reason": "stop"}]
    spans = trace["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans[2]["attributes"].append({"key": "gen_ai.output.messages", "value": {"stringValue": json.dumps(answer)}})
    r = inspector.check(json.dumps(trace))
    assert [m["role"] for m in inspector.load(json.dumps(trace)).transcripts[1].items][-1] == "assistant"
    assert [(f.transcript, f.code) for f in r.findings if f.severity == "error"] == [(1, "TC001")]
    fixed = inspector.repair(json.dumps(trace))
    assert _span_attr(fixed.data, 2, "gen_ai.output.messages") == {"stringValue": json.dumps(answer)}
    inputs = json.loads(_span_attr(fixed.data, 2, "gen_ai.input.messages")["stringValue"])
    assert len(inputs) == 6 and inputs[4]["role"] == "tool"
    assert _span_attr(fixed.data, 0, "gen_ai.output.messages") == _span_attr(trace, 0, "gen_ai.output.messages")
    # Closing the first span's pending calls answers them after the output, in the output.
    closed = inspector.repair(json.dumps(trace), options={"pending": "close"})
    assert _span_attr(closed.data, 0, "gen_ai.input.messages") == _span_attr(trace, 0, "gen_ai.input.messages")
    out = json.loads(_span_attr(closed.data, 0, "gen_ai.output.messages")["stringValue"])
    assert out[0] == json.loads(_span_attr(trace, 0, "gen_ai.output.messages")["stringValue"])[0]
    assert [p["id"] for m in out[1:] for p in m["parts"]] == ["toolu_01Ad4Xq", "toolu_01Bf7Ym"]
    assert inspector.check(closed.output).findings == []


def test_findings_in_otlp_output_messages_name_the_output_attribute(capsys):
    """A finding on an output message points at gen_ai.output.messages and the index there, not
    at the input attribute with an index past its end."""
    from inspector.cli import main

    path = str(SAMPLES / "otel_trace_export.json")
    assert main(["check", path]) == 1
    out = capsys.readouterr().out
    first_span = "$.resourceSpans[0].scopeSpans[0].spans[0]"
    pending = [line for line in out.splitlines() if "TC022" in line]
    assert len(pending) == 2
    assert all(line.startswith(f"{path}:{first_span}.attributes[4].value.stringValue(json):0: ") for line in pending)
    main(["check", path, "--format", "github"])
    gh = [line for line in capsys.readouterr().out.splitlines() if "TC022" in line]
    assert gh and all(f"::{first_span}.attributes[4].value.stringValue(json)[0]: " in line for line in gh)


def test_otel_messages_alone_and_older_result_field():
    msgs = [{"role": "user", "parts": [{"type": "text", "content": "2+2?"}]},
            {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "add", "arguments": {"a": 2}}]},
            {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "result": 4}]},
            {"role": "assistant", "parts": [{"type": "server_tool_call", "id": "s1", "name": "web_search",
                                             "server_tool_call": {"type": "web_search"}},
                                            {"type": "text", "content": "4"}]}]
    r = inspector.check(msgs)
    assert (r.dialect, r.findings) == ("otel-genai", [])


def test_har_every_chat_entry_is_a_transcript_labelled_and_the_error_is_kept():
    path = SAMPLES / "har_capture_openai_400.har"
    doc = inspector.load(str(path))
    assert [t.label for t in doc.transcripts] == ["POST https://api.openai.com/v1/chat/completions → 200",
                                                  "POST https://api.openai.com/v1/chat/completions → 400"]
    assert "preceeding message with 'tool_calls'" in doc.transcripts[1].extra["response_error"]
    assert "response_error" not in doc.transcripts[0].extra
    r = inspector.check(str(path))
    assert [(f.transcript, f.code, f.message_index) for f in r.findings if f.severity == "error"] == [(1, "TC002", 3)]
    from inspector.provider_errors import parse_error

    assert 3 in parse_error(doc.transcripts[1].extra["response_error"]).indexes
    fixed = inspector.repair(str(path))
    entry = fixed.data["log"]["entries"][2]
    body = json.loads(entry["request"]["postData"]["text"])
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"] and body["tools"]
    assert fixed.data["log"]["entries"][:2] == json.loads(path.read_text())["log"]["entries"][:2]


def test_har_error_body_recorded_as_base64_is_read():
    import base64

    har = json.loads((SAMPLES / "har_capture_openai_400.har").read_text())
    content = har["log"]["entries"][2]["response"]["content"]
    content["text"], content["encoding"] = base64.b64encode(content["text"].encode()).decode(), "base64"
    doc = inspector.load(json.dumps(har))
    assert "preceeding message" in doc.transcripts[1].extra["response_error"]


@pytest.mark.parametrize("url,want", [
    ("https://api.anthropic.com/v1/messages", "anthropic"),
    ("https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse", "bedrock"),
    ("https://api.openai.com/v1/responses", "responses"),
    ("http://localhost:8080/chat", None),
])
def test_target_from_url(url, want):
    from inspector.targets import target_from_url

    assert target_from_url(url) == want


def test_har_entry_to_a_proxy_takes_the_target_from_the_bodys_model():
    har = json.loads((SAMPLES / "har_capture_openai_400.har").read_text())
    for e in har["log"]["entries"]:
        e["request"]["url"] = "http://localhost:4000/v1/chat/completions"  # a LiteLLM proxy
        if "postData" in e["request"]:
            body = json.loads(e["request"]["postData"]["text"])
            e["request"]["postData"]["text"] = json.dumps({**body, "model": "mistral-large-latest"})
    r = inspector.check(json.dumps(har))
    assert r.target == "mistral" and "mistral-large-latest" in r.target_reason


def _app_with_sample(name: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(SAMPLES.parent / "app.py"), default_timeout=60)
    at.run()
    at.button(key=f"sample:{name}").click().run()
    assert not at.exception
    return at


def test_app_takes_the_target_the_trace_names():
    at = _app_with_sample("otel_trace_export.json")
    assert at.selectbox(key="target").value == "anthropic"


def test_app_opens_a_har_capture_on_the_refused_request_with_its_error_read():
    at = _app_with_sample("har_capture_openai_400.har")
    assert at.selectbox(key="transcript").value == 1
    assert "preceeding message with 'tool_calls'" in at.text_area(key="pasted_error").value
    assert at.session_state["sel"] == 3  # the message the error names


def test_har_entries_to_different_apis_keep_their_own_dialect():
    from inspector.checking import dialects_for
    from inspector.errors import InputError

    har = json.loads((SAMPLES / "har_capture_openai_400.har").read_text())
    e = json.loads(json.dumps(har["log"]["entries"][1]))
    e["request"]["url"] = "https://api.anthropic.com/v1/messages"
    e["request"]["postData"]["text"] = json.dumps({"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]})
    har["log"]["entries"].append(e)
    doc = inspector.load(json.dumps(har))
    assert [d.name for d in dialects_for(doc)] == ["openai-chat", "openai-chat", "anthropic"]
    # Each request is judged by the API it went to (issue 28: this was refused with exit 2).
    report = inspector.check(json.dumps(har))
    assert report.transcript_targets == ["openai", "openai", "anthropic"]
    assert report.transcript_target_reasons[2] == "the request went to api.anthropic.com"
    # A target named for the file that fits none of its formats is still refused, naming one.
    # (gemini fits openai-chat through a gateway since issue 31: responses fits neither format)
    with pytest.raises(InputError, match=r"target 'responses' does not fit the openai-chat dialect of transcript 1"):
        inspector.check(json.dumps(har), target="responses")
