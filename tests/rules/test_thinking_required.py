"""An Anthropic request body that turns thinking on (``"thinking": {"type": "enabled", ...}``) and
whose open tool loop's last assistant turn does not start with a thinking block is refused (issue
28). The words are Anthropic's (HTTP 400, through the API, Vertex and Bedrock alike):
mastra-ai/mastra#7799 (2025-09-12), znlsl/Antigravity2Api#11 (2026-01-06), Kilo-Org/kilocode#5219
(2026-01-20). Without that setting the body does not say, and it stays a warning. check, scan and
repair say the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import inspector

REFUSAL = ("messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When "
           "`thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the "
           "lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from "
           "previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at "
           "https://docs.claude.com/en/docs/build-with-claude/extended-thinking")
SIGNED = {"type": "thinking", "thinking": "plan", "signature": "EqQB"}
CALL = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
LOOP = [{"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": [CALL]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C"}]}]


def body(messages, thinking=None):
    b = {"model": "claude-sonnet-4-5", "max_tokens": 2048, "messages": messages}
    if thinking is not None:
        b["thinking"] = thinking
    return b


def tc021(report):
    return [f for f in report.findings if f.code == "TC021"]


def test_thinking_enabled_makes_a_turn_without_its_thinking_block_an_error_in_anthropics_words():
    r = inspector.check(json.dumps(body(LOOP, {"type": "enabled", "budget_tokens": 1024})))
    (f,) = tc021(r)
    assert not r.ok and f.severity == "error" and f.message_index == 1
    assert f.provider_error == REFUSAL
    assert '"type": "enabled"' in f.text and "repair cannot make up its signature" in f.hint


def test_a_body_for_bedrock_invoke_model_gets_bedrocks_words_before_anthropics():
    b = {"anthropic_version": "bedrock-2023-05-31", **body(LOOP, {"type": "enabled", "budget_tokens": 1024})}
    (f,) = tc021(inspector.check(b))
    assert f.severity == "error" and f.provider_error == "The model returned the following errors: " + REFUSAL


def test_the_provider_index_is_the_combined_turn_and_names_the_first_block():
    # Two user messages in a row are one turn to the API: the assistant message is its messages.2.
    msgs = [{"role": "user", "content": "hi"}, {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": [{"type": "text", "text": "Looking."}, CALL]}, LOOP[2]]
    (f,) = tc021(inspector.check(body(msgs, {"type": "enabled", "budget_tokens": 1024})))
    assert f.severity == "error" and f.message_index == 2
    assert f.provider_error.startswith("messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, "
                                       "but found `text`.")


def test_without_the_setting_it_stays_a_warning():
    for b in (body(LOOP), LOOP, body(LOOP, {"type": "adaptive"}), body(LOOP, {"type": "disabled"})):
        # The warning is there when thinking blocks elsewhere show thinking was on; none here.
        assert tc021(inspector.check(b)) == []
    earlier = [LOOP[0], {"role": "assistant", "content": [SIGNED, {**CALL, "id": "toolu_0"}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_0", "content": "?"}]},
               LOOP[1], LOOP[2]]
    for b in (body(earlier), body(earlier, {"type": "adaptive"})):
        (f,) = tc021(inspector.check(b))
        assert f.severity == "warning" and f.message_index == 3 and f.provider_error is None
    (f,) = tc021(inspector.check(body(earlier, {"type": "enabled", "budget_tokens": 1024})))
    assert f.severity == "error" and f.provider_error == REFUSAL.replace("messages.1.", "messages.3.")


def test_a_turn_that_starts_with_its_thinking_block_is_accepted():
    ok = [LOOP[0], {"role": "assistant", "content": [SIGNED, CALL]}, LOOP[2]]
    assert inspector.check(body(ok, {"type": "enabled", "budget_tokens": 1024})).findings == []
    redacted = [LOOP[0], {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "EmwK"}, CALL]},
                LOOP[2]]
    assert inspector.check(body(redacted, {"type": "enabled", "budget_tokens": 1024})).findings == []
    # Two assistant messages in a row are one turn to the API, which starts with the first one's thinking.
    split = [LOOP[0], {"role": "assistant", "content": [SIGNED, {"type": "text", "text": "Looking."}]},
             {"role": "assistant", "content": [CALL]}, LOOP[2]]
    assert tc021(inspector.check(body(split, {"type": "enabled", "budget_tokens": 1024}))) == []
    # A closed loop (the assistant answered after the results) asks nothing of earlier turns.
    closed = [*LOOP, {"role": "assistant", "content": "It is 18C."}, {"role": "user", "content": "Thanks"}]
    assert inspector.check(body(closed, {"type": "enabled", "budget_tokens": 1024})).findings == []


def run(*args):
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, args)], capture_output=True, timeout=300,
                          env={**os.environ, "INSPECTOR_DEBUG": "1"})


def test_check_scan_and_repair_agree(tmp_path):
    thinking = {"type": "enabled", "budget_tokens": 1024}
    path = tmp_path / "bodies.jsonl"
    path.write_text(json.dumps(body(LOOP, thinking)) + "\n" + json.dumps(body(LOOP)) + "\n")
    report = inspector.check(path)
    assert [(f.transcript, f.severity) for f in tc021(report)] == [(0, "error")]

    p = run("scan", path, "--format", "jsonl")
    rows = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert [r["errors"] for r in rows] == [1, 0]
    assert [f["provider_error"] for f in rows[0]["findings"] if f["code"] == "TC021"] == [REFUSAL]

    # repair cannot make up a signed thinking block: it says so and changes nothing
    fixed = inspector.repair(path)
    assert not fixed.report.ok and fixed.report.changes == []
    assert any("TC021" in u for u in fixed.report.unfixed)
    p = run("repair", path, "-o", tmp_path / "out.jsonl")
    assert p.returncode == 1 and b"not fixed" in p.stderr


# --- Bedrock Converse: additionalModelRequestFields.thinking -----------------------------------------
# langchain-ai/langchain-aws#844 (ConverseStream, 2026-01-22): "ValidationException ... The model
# returned the following errors: messages.1.content.0.type: Expected `thinking` or `redacted_thinking`,
# but found `text`. When `thinking` is enabled, ..."

CONVERSE_LOOP = [
    {"role": "user", "content": [{"text": "Weather in Paris?"}]},
    {"role": "assistant", "content": [{"text": "Looking."},
                                      {"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather",
                                                   "input": {"city": "Paris"}}}]},
    {"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "18C"}]}}]}]
REASONING = {"reasoningContent": {"reasoningText": {"text": "plan", "signature": "EqQB"}}}


def converse(messages, thinking=None):
    b = {"modelId": "anthropic.claude-sonnet-4-5", "messages": messages}
    if thinking is not None:
        b["additionalModelRequestFields"] = {"thinking": thinking}
    return b


def test_converse_with_thinking_enabled_is_refused_in_bedrocks_words():
    (f,) = tc021(inspector.check(converse(CONVERSE_LOOP, {"type": "enabled", "budget_tokens": 1024})))
    assert f.severity == "error" and f.message_index == 1
    assert f.provider_error == "The model returned the following errors: " + REFUSAL.replace(
        "but found `tool_use`", "but found `text`")
    assert tc021(inspector.check(converse(CONVERSE_LOOP))) == []
    assert tc021(inspector.check(converse(CONVERSE_LOOP, {"type": "adaptive"}))) == []
    ok = [CONVERSE_LOOP[0], {**CONVERSE_LOOP[1], "content": [REASONING, *CONVERSE_LOOP[1]["content"]]},
          CONVERSE_LOOP[2]]
    assert inspector.check(converse(ok, {"type": "enabled", "budget_tokens": 1024})).findings == []
