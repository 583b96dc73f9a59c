"""Anthropic Messages: one test per rule that applies (a trigger and a near miss), detection, the
request-body container, and Claude Code session logs."""

from __future__ import annotations

import json

import pytest
from support import dialect_asserts

import inspector
from inspector.dialects.claude_code import groups


def found(items, code, target=None):
    return dialect_asserts.found(items, code, "anthropic", target)


def absent(items, code):
    dialect_asserts.absent(items, code, "anthropic")


def tu(cid, name="get_weather", **inp):
    return {"type": "tool_use", "id": cid, "name": name, "input": inp or {"q": cid}}


def tr(cid, content="ok", **extra):
    return {"type": "tool_result", "tool_use_id": cid, "content": content, **extra}


def text(t="hi"):
    return {"type": "text", "text": t}


def user(*blocks):
    return {"role": "user", "content": list(blocks) if blocks else "weather?"}


def asst(*blocks):
    return {"role": "assistant", "content": list(blocks) if blocks else [text("done")]}


def check(msgs, target=None, **kw):
    return inspector.check(msgs, target=target, dialect=kw.get("dialect", "anthropic"))


CLEAN = [user(), asst(text("Looking."), tu("toolu_a"), tu("toolu_b")), user(tr("toolu_a"), tr("toolu_b")), asst()]


def test_clean_transcript_is_detected_and_has_no_findings():
    r = inspector.check(CLEAN)
    assert (r.dialect, r.target, r.findings) == ("anthropic", "anthropic", [])


def test_request_body_with_system_outside_the_list():
    body = {"model": "claude-sonnet-4-5", "system": "be brief", "max_tokens": 10, "messages": CLEAN}
    r = inspector.check(json.dumps(body))
    assert r.dialect == "anthropic" and r.findings == [] and r.message_count == 4


def test_is_error_and_images_inside_results_are_fine():
    img = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    msgs = [user(), asst(tu("toolu_a")), user(tr("toolu_a", [text("see"), img], is_error=True), img), asst()]
    assert check(msgs).findings == []


def test_tc001_missing_result_in_anthropic_words():
    msgs = [user(), asst(tu("toolu_a"), tu("toolu_b")), user(tr("toolu_a")), asst(), user(text("next")), asst()]
    f = found(msgs, "TC001")
    assert (f.message_index, f.tool_call_id, f.severity) == (1, "toolu_b", "error")
    assert f.provider_error.startswith("messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b.")
    absent(CLEAN, "TC001")


def test_tc002_orphan_names_the_content_position():
    msgs = [user(), asst(tu("toolu_a")), user(tr("toolu_a"), tr("toolu_zz")), asst()]
    f = found(msgs, "TC002")
    assert f.provider_error.startswith("messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_zz.")
    absent(CLEAN, "TC002")


def test_tc003_result_after_an_intervening_message():
    msgs = [user(), asst(tu("toolu_a")), user(text("still there?")), asst(), user(tr("toolu_a")), asst()]
    f = found(msgs, "TC003")
    assert (f.message_index, f.other_index, f.severity) == (4, 1, "error")
    absent(CLEAN, "TC003")


def test_tc004_result_before_its_call():
    msgs = [user(), asst(), user(tr("toolu_a")), asst(tu("toolu_a")), user(text("x")), asst()]
    assert found(msgs, "TC004").message_index == 2
    absent(CLEAN, "TC004")


def test_tc005_two_results_for_one_call():
    msgs = [user(), asst(tu("toolu_a")), user(tr("toolu_a"), tr("toolu_a", "again")), asst()]
    f = found(msgs, "TC005")
    assert f.provider_error.startswith("each tool_use must have a single result")
    absent(CLEAN, "TC005")


def test_tc006_same_id_twice_in_one_message():
    msgs = [user(), asst(tu("toolu_a"), tu("toolu_a")), user(tr("toolu_a")), asst()]
    f = found(msgs, "TC006")
    assert f.provider_error == "messages.1.content.1: `tool_use` ids must be unique"
    absent(CLEAN, "TC006")


def test_tc008_call_without_id():
    msgs = [user(), asst({"type": "tool_use", "name": "x", "input": {}}), user(text("?")), asst()]
    assert found(msgs, "TC008").severity == "error"
    absent(CLEAN, "TC008")


def test_tc009_id_outside_the_charset():
    msgs = [user(), asst(tu("functions.edit:2")), user(tr("functions.edit:2")), asst()]
    f = found(msgs, "TC009")
    assert f.provider_error == "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
    absent(CLEAN, "TC009")


def test_tc012_bad_tool_name():
    msgs = [user(), asst(tu("toolu_a", name="get weather")), user(tr("toolu_a")), asst()]
    assert found(msgs, "TC012").severity == "error"
    absent(CLEAN, "TC012")


def test_tc014_results_in_another_order():
    msgs = [user(), asst(tu("toolu_a"), tu("toolu_b")), user(tr("toolu_b"), tr("toolu_a")), asst()]
    assert found(msgs, "TC014").severity == "info"
    absent(CLEAN, "TC014")


def test_results_split_over_two_user_messages_are_one_turn_for_the_messages_api():
    # The Messages API combines consecutive user messages into one turn (docs/provider-evidence.md):
    # results split over two of them are all in the turn after the calls. No TC015, no error.
    msgs = [user(), asst(tu("toolu_a"), tu("toolu_b")), user(tr("toolu_a")), user(tr("toolu_b")), asst()]
    report = check(msgs)
    assert report.ok, [(f.code, f.message_index, f.severity) for f in report.findings]
    assert [(f.code, f.message_index, f.severity) for f in report.findings] == [("TC019", 3, "info")]
    # Results in a later user turn (an assistant turn between) are still displaced.
    late = [user(), asst(tu("toolu_a"), tu("toolu_b")), user(tr("toolu_a")), asst(), user(tr("toolu_b")), asst()]
    f = found(late, "TC003")
    assert (f.message_index, f.other_index, f.severity) == (4, 1, "error")
    absent(CLEAN, "TC015")


def test_tc016_text_before_the_tool_result():
    msgs = [user(), asst(tu("toolu_a")), user(text("here:"), tr("toolu_a")), asst()]
    assert found(msgs, "TC016").severity == "error"
    absent([user(), asst(tu("toolu_a")), user(tr("toolu_a"), text("and more")), asst()], "TC016")


def test_tc018_empty_content_but_not_a_final_prefill():
    f = found([user(), {"role": "assistant", "content": ""}, user(text("x")), asst()], "TC018")
    assert f.message_index == 1 and f.severity == "error"
    found([user(text("")), asst()], "TC018")  # an empty text block
    absent([user(), {"role": "assistant", "content": ""}], "TC018")


def test_tc019_same_role_twice_is_a_note_the_api_combines_them():
    # "Consecutive user or assistant turns in your request will be combined into a single turn."
    f = found([user(), user(text("again")), asst()], "TC019")
    assert (f.severity, f.provider_error, f.provider_index) == ("info", None, "messages.0")
    assert "combines messages #0 and #1 into one user turn" in f.text
    absent(CLEAN, "TC019")


def test_tc020_tool_output_sent_as_user_text():
    msgs = [user(), asst(tu("toolu_a")), user(text('{"temp": 21}')), asst()]
    codes = [f.code for f in check(msgs).findings]
    assert "TC020" in codes and "TC001" in codes
    absent([user(), asst(tu("toolu_a")), user(text("never mind, stop")), asst()], "TC020")


SIGNED = {"type": "thinking", "thinking": "hmm", "signature": "c2ln"}


def test_tc021_thinking_without_signature():
    unsigned = {"type": "thinking", "thinking": "hmm"}
    f = found([user(), asst(unsigned, tu("toolu_a")), user(tr("toolu_a")), asst()], "TC021")
    # An error since issue 28: refused in 2026 reports (docs/provider-evidence.md, "Rules that moved").
    assert f.severity == "error" and "signature" in f.text and "2026" in f.text
    absent([user(), asst(SIGNED, tu("toolu_a")), user(tr("toolu_a")), asst()], "TC021")


def test_tc021_open_tool_loop_must_start_with_thinking():
    msgs = [user(), asst(SIGNED, tu("toolu_a")), user(tr("toolu_a")), asst(tu("toolu_b")), user(tr("toolu_b"))]
    f = found(msgs, "TC021")
    assert f.message_index == 3 and "thinking" in f.text
    ok = [user(), asst(SIGNED, tu("toolu_a")), user(tr("toolu_a")), asst(SIGNED, tu("toolu_b")), user(tr("toolu_b"))]
    absent(ok, "TC021")


def test_tc022_pending_trailing_call():
    f = found([user(), asst(tu("toolu_a"))], "TC022")
    assert f.severity == "warning"
    absent(CLEAN, "TC022")


def test_tc023_id_reused_in_a_later_message():
    msgs = [user(), asst(tu("toolu_a")), user(tr("toolu_a")), asst(tu("toolu_a")), user(tr("toolu_a")), asst()]
    assert found(msgs, "TC023").severity == "error"
    absent(CLEAN, "TC023")


def test_tc024_system_role_inside_messages():
    # With no model named, a warning naming which models take it (rules.md 2026-11-27); an error on a
    # model that refuses it, and TC019 on one that takes it when misplaced (tests/rules/test_provider_drift.py).
    f = found([{"role": "system", "content": "be brief"}] + CLEAN, "TC024")
    assert f.message_index == 0 and f.severity == "warning"
    old = inspector.check({"model": "claude-3-7-sonnet-20250219", "messages": [{"role": "system", "content": "x"}] + CLEAN})
    assert [(x.code, x.severity) for x in old.findings] == [("TC024", "error")]
    absent(CLEAN, "TC024")


def test_from_override_and_bad_shapes_are_input_errors():
    assert inspector.check([user(), asst()], dialect="anthropic").dialect == "anthropic"
    with pytest.raises(inspector.InputError, match=r"\$\[1\]\.content\[0\]"):
        check([user(), {"role": "assistant", "content": ["not a block"]}])


# --- Claude Code session logs -----------------------------------------------------------------


def entry(kind, message, **extra):
    return {"type": kind, "sessionId": "s1", "uuid": extra.pop("uuid", "u"), "timestamp": "t", "message": message, **extra}


def a_msg(mid, *blocks):
    return {"id": mid, "type": "message", "role": "assistant", "content": list(blocks)}


def jsonl(entries):
    return "\n".join(json.dumps(e) for e in entries) + "\n"


def test_claude_code_entries_of_one_reply_are_one_message():
    log = [
        entry("user", {"role": "user", "content": "list and read"}),
        entry("assistant", a_msg("msg_1", text("Sure."))),
        entry("assistant", a_msg("msg_1", tu("toolu_a", "LS"))),
        entry("user", {"role": "user", "content": [tr("toolu_a", "a.py")]}),
        entry("assistant", a_msg("msg_1", tu("toolu_b", "Read"))),
        entry("user", {"role": "user", "content": [tr("toolu_b", "print(1)")]}),
        {"type": "summary", "summary": "read files", "leafUuid": "u"},
        entry("assistant", a_msg("msg_2", text("Done."))),
    ]
    r = inspector.check(jsonl(log))
    assert (r.dialect, r.target, r.findings) == ("claude-code", "anthropic", [])
    msgs, ents = groups(log)
    assert [m["role"] for m in msgs] == ["user", "assistant", "user", "assistant"]
    assert ents == [[0], [1, 2, 4], [3, 5], [7]]
    assert [b.get("id") for b in msgs[1]["content"]] == [None, "toolu_a", "toolu_b"]
    assert log[1]["message"]["content"] == [text("Sure.")]  # the input is never changed


def test_claude_code_missing_result_uses_the_api_message_index():
    log = [
        entry("user", {"role": "user", "content": "go"}),
        entry("assistant", a_msg("msg_1", tu("toolu_a", "Bash"))),
        entry("assistant", a_msg("msg_1", tu("toolu_b", "Bash"))),
        entry("user", {"role": "user", "content": [tr("toolu_a")]}),
        entry("user", {"role": "user", "content": "[Request interrupted by user for tool use]"}),
        entry("assistant", a_msg("msg_2", text("Stopped."))),
    ]
    r = inspector.check(jsonl(log))
    f = [x for x in r.findings if x.code == "TC001"]
    assert [x.tool_call_id for x in f] == ["toolu_b"]
    assert f[0].provider_error.startswith("messages.1: `tool_use` ids were found without `tool_result` blocks")


def test_claude_code_export_and_sidechains():
    lines = [
        {"type": "user", "timestamp": "t", "message": {"role": "user", "content": "hi"}},
        {"type": "assistant", "timestamp": "t", "isSidechain": True, "message": a_msg("m9", tu("toolu_x"))},
        {"type": "assistant", "timestamp": "t", "message": a_msg("m1", text("hello"))},
    ]
    doc = inspector.load({"loglines": lines})
    assert doc.transcripts[0].container == "Claude Code session export"
    r = inspector.check({"loglines": lines})
    # The sidechain stays out of the main conversation; it is a transcript of its own (issue 11).
    assert r.dialect == "claude-code" and [f for f in r.findings if f.transcript == 0] == []
    assert r.transcripts == 2 and r.transcript_labels[1].startswith("sub-agent")
