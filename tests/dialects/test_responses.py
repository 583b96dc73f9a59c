"""OpenAI Responses ``input`` items: one test per rule that applies (a trigger and a near miss),
the other call/output pairs, reasoning items, and Agents SDK run items."""

from __future__ import annotations

import json

from support import dialect_asserts

import inspector


def found(items, code, target=None):
    return dialect_asserts.found(items, code, "openai-responses", target)


def absent(items, code):
    dialect_asserts.absent(items, code, "openai-responses")


def fc(cid, name="get_weather", args='{"q": 1}', **extra):
    return {"type": "function_call", "call_id": cid, "name": name, "arguments": args, **extra}


def out(cid, output="ok", kind="function_call_output"):
    return {"type": kind, "call_id": cid, "output": output}


def user(t="weather?"):
    return {"role": "user", "content": t}


def say(t="done", **extra):
    return {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": t}], **extra}


def rs(rid="rs_1"):
    return {"type": "reasoning", "id": rid, "summary": [], "encrypted_content": "gAAA"}


def check(items, **kw):
    return inspector.check(items, dialect="openai-responses", **kw)


CLEAN = [user(), rs(), fc("call_a"), fc("call_b"), out("call_a"), out("call_b"), say()]


def test_clean_input_is_detected_and_has_no_findings():
    body = {"model": "gpt-5", "input": CLEAN}
    r = inspector.check(json.dumps(body))
    assert (r.dialect, r.target, r.findings) == ("openai-responses", "responses", [])


def test_tc001_call_without_output():
    f = found([user(), fc("call_a"), fc("call_b"), out("call_a"), user("next"), say()], "TC001")
    assert (f.message_index, f.tool_call_id) == (2, "call_b")
    assert f.provider_error == "No tool output found for function call call_b."
    absent(CLEAN, "TC001")


def test_tc002_output_without_call():
    f = found([user(), out("call_zz"), say()], "TC002")
    assert f.provider_error == "No tool call found for function call output with call_id call_zz."
    absent(CLEAN, "TC002")


def test_tc003_message_between_call_and_output_is_a_warning():
    f = found([user(), fc("call_a"), say("thinking aloud"), fc("call_b"), out("call_a"), out("call_b")], "TC003")
    assert (f.message_index, f.other_index, f.severity) == (4, 1, "warning")
    absent(CLEAN, "TC003")


def test_tc004_output_before_call():
    assert found([user(), out("call_a"), fc("call_a"), user("x")], "TC004").message_index == 1
    absent(CLEAN, "TC004")


def test_tc005_two_outputs_for_one_call():
    f = found([user(), fc("call_a"), out("call_a"), out("call_a", "again"), say()], "TC005")
    assert f.message_index == 3 and f.severity == "error"
    absent(CLEAN, "TC005")


def test_tc008_call_without_call_id():
    f = found([user(), {"type": "function_call", "name": "x", "arguments": "{}"}, user("?")], "TC008")
    assert f.severity == "error"
    absent(CLEAN, "TC008")


def test_tc009_call_id_longer_than_64():
    long_id = "call_" + "x" * 70
    f = found([user(), fc(long_id), out(long_id), say()], "TC009")
    assert f.provider_error == (f"Invalid 'input[1].call_id': string too long. Expected a string with maximum length 64, "
                                f"but got a string with length {len(long_id)} instead.")
    absent(CLEAN, "TC009")


def test_tc010_and_tc011_arguments():
    assert found([user(), fc("call_a", args={"q": 1}), out("call_a"), say()], "TC010").severity == "error"
    assert found([user(), fc("call_a", args='{"q": '), out("call_a"), say()], "TC011").severity == "warning"
    absent(CLEAN, "TC010")
    absent(CLEAN, "TC011")


def test_tc012_bad_function_name():
    assert found([user(), fc("call_a", name="get weather"), out("call_a"), say()], "TC012").severity == "error"
    absent(CLEAN, "TC012")


def test_tc014_outputs_in_another_order():
    assert found([user(), fc("call_a"), fc("call_b"), out("call_b"), out("call_a"), say()], "TC014").severity == "info"
    absent(CLEAN, "TC014")


def test_tc020_tool_output_sent_as_user_text():
    items = [user(), fc("call_a"), user('{"temp": 21}'), say()]
    assert found(items, "TC020").message_index == 2
    absent([user(), fc("call_a"), user("stop"), say()], "TC020")


def test_tc021_reasoning_item_needs_its_following_item():
    f = found([user(), rs("rs_9"), {"role": "assistant", "content": "42"}, user("more?")], "TC021")
    assert f.message_index == 1 and f.severity == "error" and "rs_9" in f.text
    assert f.provider_error == "Item 'rs_9' of type 'reasoning' was provided without its required following item."
    found([user(), rs()], "TC021")  # at the end of the input
    absent([user(), rs(), say("42", id="msg_1"), user("more?")], "TC021")
    absent(CLEAN, "TC021")


def test_tc022_pending_call():
    assert found([user(), fc("call_a")], "TC022").severity == "warning"
    absent(CLEAN, "TC022")


def test_tc023_call_id_reused():
    items = [user(), fc("call_a"), out("call_a"), fc("call_a"), out("call_a"), say()]
    assert found(items, "TC023").severity == "error"
    absent(CLEAN, "TC023")


def test_tc024_unknown_item_type():
    f = found([user(), {"type": "function_cal", "call_id": "x"}, say()], "TC024")
    assert "function_cal" in f.text
    absent(CLEAN, "TC024")


def test_other_call_and_output_pairs():
    items = [
        user(),
        {"type": "custom_tool_call", "call_id": "c1", "name": "apply", "input": "diff"},
        {"type": "computer_call", "call_id": "c2", "action": {"type": "click"}},
        {"type": "local_shell_call", "call_id": "c3", "action": {"command": ["ls"]}},
        out("c1", kind="custom_tool_call_output"),
        out("c2", kind="computer_call_output"),
        {"type": "local_shell_call_output", "call_id": "c3", "output": "a.py"},
        say(),
    ]
    assert check(items).findings == []
    missing = items[:5] + items[6:]
    f = [x for x in check(missing).findings if x.code == "TC001"]
    assert [x.tool_call_id for x in f] == ["c2"]
    # keyed by ``id`` only, the output answers nothing: the API pairs by call_id (openai-agents-python#1855)
    by_id = items[:6] + [{"type": "local_shell_call_output", "id": "c3", "output": "a.py"}, say()]
    (bad,) = [x for x in check(by_id).findings if x.code == "TC008"]
    assert (bad.severity, bad.provider_error) == ("error", "No tool output found for local shell call c3.")


def test_hosted_tools_and_reasoning_stay_inside_a_call_run():
    items = [user(), rs(), fc("call_a"), {"type": "web_search_call", "id": "ws_1", "status": "completed"}, rs("rs_2"),
             fc("call_b"), out("call_a"), out("call_b"), say()]
    assert check(items).findings == []


def test_agents_sdk_run_items_are_unwrapped():
    call = fc("call_a", id="fc_1")
    state = {"$schemaVersion": "1.13", "generated_items": [
        {"type": "tool_call_item", "raw_item": call},
        {"type": "tool_approval_item", "raw_item": call},
    ]}
    r = inspector.check(state)
    assert r.dialect == "openai-responses" and [f.code for f in r.findings] == ["TC022"]


def test_deepseek_responses_endpoint_refuses_interleaving_in_its_own_words():
    items = [{"role": "assistant", "content": "<think>a</think>"}, fc("call-a"), {"role": "assistant", "content": "<think>b</think>"},
             fc("call-b"), out("call-a"), out("call-b"), user("done?")]
    f = found(items, "TC003", target="deepseek")
    assert (f.severity, f.provider_error) == ("error", "No tool output found for tool call call-a.")
    assert found(items, "TC003").severity == "warning"  # OpenAI pairs by call_id
    fixed = inspector.repair(items, target="deepseek")
    assert inspector.check(fixed.output, target="deepseek").ok
    assert [i.get("call_id", i.get("role")) for i in fixed.data] == [
        "assistant", "call-a", "call-a", "assistant", "call-b", "call-b", "user"]


def test_leading_output_says_it_may_continue_a_previous_response():
    f = found([out("call_prev"), user("go on")], "TC002")
    assert "previous_response_id" in f.text and f.severity == "error"
    assert "previous_response_id" not in found([user(), fc("call_a"), out("call_a"), out("call_zz")], "TC002").text


def test_a_batch_line_continuing_a_stored_response_has_no_orphans():
    """The body that says so may sit inside a Batch line: the Responses dialect reads the body
    holding the list wherever it is (it was the top-level body only, and this line got TC002)."""
    body = {"model": "gpt-5", "previous_response_id": "resp_123", "input": [out("call_a"), user("and now?")]}
    line = {"custom_id": "r1", "method": "POST", "url": "/v1/responses", "body": body}
    report = inspector.check((json.dumps(line) + "\n").encode())
    assert report.dialect == "openai-responses" and report.ok, [f.text for f in report.findings]
    line["body"] = {k: v for k, v in body.items() if k != "previous_response_id"}
    assert [f.code for f in inspector.check((json.dumps(line) + "\n").encode()).findings] == ["TC002"]


def test_outputs_continuing_a_stored_response_are_not_orphans():
    # With previous_response_id the calls live server-side; the input starts with their outputs.
    body = {"model": "gpt-5", "previous_response_id": "resp_123", "input": [out("call_a"), user("and now?")]}
    report = inspector.check(body)
    assert report.dialect == "openai-responses" and report.ok, [f.text for f in report.findings]
    fixed = inspector.repair(body)
    assert json.loads(fixed.output) == body  # repair keeps them: nothing to fix
    # the same input without the continuation is an orphan
    assert any(f.code == "TC002" for f in inspector.check({"model": "gpt-5", "input": body["input"]}).findings)
    # an output after the first call item still needs its call in the input
    later = {"model": "gpt-5", "previous_response_id": "resp_123",
             "input": [user(), fc("call_b"), out("call_b"), out("call_zz")]}
    assert [f.code for f in inspector.check(later).findings if f.severity == "error"] == ["TC002"]
