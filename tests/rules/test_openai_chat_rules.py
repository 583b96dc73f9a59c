"""One test per openai-chat rule: a transcript that must trigger it and a near miss that must not."""

from __future__ import annotations

import pytest
from support.transcripts import asst, call, reply, system, tool, user

import inspector


def codes(msgs, target=None):
    return [(f.code, f.message_index) for f in inspector.check(msgs, target=target).findings]


def finding(msgs, code, target=None):
    found = [f for f in inspector.check(msgs, target=target).findings if f.code == code]
    assert found, f"{code} not reported: {codes(msgs, target)}"
    return found[0]


def absent(msgs, code, target=None):
    assert code not in [c for c, _ in codes(msgs, target)], codes(msgs, target)


BASE = [system(), user("weather?")]


def test_clean_transcript_has_no_findings():
    msgs = BASE + [asst(call("a1"), call("a2")), tool("a1"), tool("a2"), reply()]
    assert inspector.check(msgs).findings == []


def test_tc001_missing_result():
    msgs = BASE + [asst(call("a1"), call("a2")), tool("a1"), user("next"), reply()]
    f = finding(msgs, "TC001")
    assert (f.message_index, f.tool_call_id, f.severity) == (2, "a2", "error")
    assert "The following tool_call_ids did not have response messages: a2" in f.provider_error
    absent(BASE + [asst(call("a1"), call("a2")), tool("a1"), tool("a2"), user("next")], "TC001")


def test_tc001_lists_every_unanswered_id_in_the_provider_text():
    msgs = BASE + [asst(call("a1"), call("a2"), call("a3")), tool("a2"), user("x"), reply()]
    errs = [f for f in inspector.check(msgs).findings if f.code == "TC001"]
    assert [f.tool_call_id for f in errs] == ["a1", "a3"]
    assert errs[0].provider_error.endswith("a1, a3")


def test_tc002_orphan_with_hint_when_tool_calls_were_dropped():
    msgs = BASE + [reply("I'll look"), tool("zz"), reply()]
    f = finding(msgs, "TC002")
    assert f.message_index == 3 and f.tool_call_id == "zz" and f.severity == "error"
    assert "preceeding message with 'tool_calls'" in f.provider_error
    assert "tool_calls" in f.hint and "dropped" in f.hint
    absent(BASE + [asst(call("zz")), tool("zz"), reply()], "TC002")


def test_tc002_provider_text_per_target():
    msgs = BASE + [reply(), tool("zz"), reply()]
    assert finding(msgs, "TC002", "mistral").provider_error == "Unexpected tool call id zz in tool results"
    assert finding(msgs, "TC002", "deepseek").provider_error.startswith("Messages with role 'tool' must be")


def test_restarting_ids_are_not_orphans():
    # Models that restart ids every round (search_web:0) must pair within their own block.
    msgs = BASE + [asst(call("search_web:0")), tool("search_web:0"), reply(), user("more"),
                   asst(call("search_web:0")), tool("search_web:0"), reply()]
    got = codes(msgs)
    assert not any(c in ("TC002", "TC005", "TC001", "TC003") for c, _ in got), got
    assert ("TC023", 6) in got  # reused id: worth seeing, not an error for openai
    assert finding(msgs, "TC023").severity == "info"


def test_tc003_displaced_result_and_no_tc001_for_its_call():
    msgs = BASE + [asst(call("a1")), system("[notice] context trimmed"), tool("a1"), reply()]
    f = finding(msgs, "TC003")
    assert (f.message_index, f.other_index, f.severity) == (4, 2, "error")
    assert "system message" in f.hint
    absent(msgs, "TC001")
    absent(msgs, "TC002")


def test_tc004_result_before_call():
    msgs = BASE + [tool("a1"), asst(call("a1")), reply()]
    f = finding(msgs, "TC004")
    assert (f.message_index, f.other_index) == (2, 3)
    absent(msgs, "TC001")
    absent(BASE + [asst(call("a1")), tool("a1"), reply()], "TC004")


def test_tc005_duplicate_result():
    msgs = BASE + [asst(call("a1")), tool("a1", "aborted"), tool("a1", "42"), reply()]
    f = finding(msgs, "TC005")
    assert (f.message_index, f.other_index) == (4, 3)
    assert f.provider_error == "Invalid parameter: Duplicate value for 'tool_call_id' of 'a1', in messages[3] and messages[4]."
    absent(BASE + [asst(call("a1"), call("a2")), tool("a1"), tool("a2"), reply()], "TC005")


def test_tc005_duplicate_far_from_its_block():
    msgs = BASE + [asst(call("a1")), tool("a1"), reply(), user(), tool("a1"), reply()]
    f = finding(msgs, "TC005")
    assert (f.message_index, f.other_index) == (6, 3)


def test_tc006_duplicate_id_in_one_message():
    msgs = BASE + [asst(call("a1"), call("a1", "search_web")), tool("a1"), tool("a1"), reply()]
    f = finding(msgs, "TC006", "mistral")
    assert f.message_index == 2
    assert f.provider_error == "Duplicate tool call id a1 in assistant message"
    absent(BASE + [asst(call("a1"), call("a2")), tool("a1"), tool("a2"), reply()], "TC006")


def test_tc007_empty_tool_calls():
    m = asst(content="hello")
    m["tool_calls"] = []
    f = finding(BASE + [m], "TC007")
    assert f.provider_error.startswith("Invalid 'messages[2].tool_calls': empty array.")
    assert finding(BASE + [m], "TC007", "mistral").severity == "warning"
    absent(BASE + [asst(content="hello")], "TC007")


def test_tc008_missing_ids_on_both_sides():
    c = call("x")
    del c["id"]
    t = tool("x")
    del t["tool_call_id"]
    msgs = BASE + [asst(c), t, reply()]
    found = [f for f in inspector.check(msgs, "mistral").findings if f.code == "TC008"]
    assert [f.message_index for f in found] == [2, 3]
    assert found[0].provider_error == "Tool call id has to be defined."
    # the id-less result pairs with the id-less call by position: no orphan, no missing result
    absent(msgs, "TC001")
    absent(msgs, "TC002")
    null_id = tool("null")
    assert [f.code for f in inspector.check(BASE + [asst(call("a")), null_id, reply()]).findings if f.code == "TC008"]
    absent(BASE + [asst(call("a")), tool("a"), reply()], "TC008")


def test_tc009_id_format_per_target():
    long_id = "call_" + "x" * 40
    msgs = BASE + [asst(call(long_id)), tool(long_id), reply()]
    f = finding(msgs, "TC009")
    assert f.severity == "warning"
    m = finding(msgs, "TC009", "mistral")
    # a warning naming both sides (rules.md note 1): La Plateforme took other ids on 2026-10-04,
    # self-hosted mistral-common still refuses them
    assert m.severity == "warning"
    assert "La Plateforme" in m.text and "mistral-common" in m.text
    ok9 = BASE + [asst(call("abcDEF123")), tool("abcDEF123"), reply()]
    absent(ok9, "TC009", "mistral")
    absent(ok9, "TC009")
    assert finding(BASE + [asst(call("call_1")), tool("call_1"), reply()], "TC009", "mistral")


def test_tc010_arguments_object():
    c = call("a1")
    c["function"]["arguments"] = {"city": "Paris"}
    f = finding(BASE + [asst(c), tool("a1"), reply()], "TC010")
    assert f.provider_error == (
        "Invalid type for 'messages[2].tool_calls[0].function.arguments': expected a string, but got an object instead."
    )
    absent(BASE + [asst(call("a1")), tool("a1"), reply()], "TC010")


def test_tc011_arguments_invalid_json():
    c = call("a1")
    c["function"]["arguments"] = '{"city": "Par'
    assert finding(BASE + [asst(c), tool("a1"), reply()], "TC011").severity == "warning"
    c2 = call("a1")
    c2["function"]["arguments"] = ""  # no-argument calls are commonly sent as ""
    absent(BASE + [asst(c2), tool("a1"), reply()], "TC011")


def test_tc012_invalid_function_name():
    f = finding(BASE + [asst(call("a1", "")), tool("a1"), reply()], "TC012")
    assert "empty string" in f.provider_error
    bad = finding(BASE + [asst(call("a1", "get weather!")), tool("a1"), reply()], "TC012")
    assert bad.severity == "error" and bad.provider_error is None  # no known OpenAI text for this case
    m = finding(BASE + [asst(call("a1", "get weather!")), tool("a1"), reply()], "TC012", "mistral")
    assert m.provider_error.startswith("Function name was get weather! but must be")
    absent(BASE + [asst(call("a1", "get-weather_2")), tool("a1"), reply()], "TC012")


def test_tc013_result_name_mismatch():
    t = tool("a1")
    t["name"] = "search_web"
    f = finding(BASE + [asst(call("a1", "get_weather")), t, reply()], "TC013")
    assert f.severity == "warning" and f.other_index == 2
    t2 = tool("a1")
    t2["name"] = "get_weather"
    absent(BASE + [asst(call("a1", "get_weather")), t2, reply()], "TC013")


def test_tc014_results_out_of_order():
    msgs = BASE + [asst(call("a1"), call("a2")), tool("a2"), tool("a1"), reply()]
    f = finding(msgs, "TC014")
    assert f.severity == "info" and f.other_index == 2
    absent(BASE + [asst(call("a1"), call("a2")), tool("a1"), tool("a2"), reply()], "TC014")


def test_tc017_legacy_function_pairing():
    fc = {"role": "assistant", "content": None, "function_call": {"name": "get_weather", "arguments": "{}"}}
    good = BASE + [fc, {"role": "function", "name": "get_weather", "content": "18C"}, reply()]
    assert inspector.check({"model": "gpt-4o", "messages": good}).findings == []
    # with no model named: older models take the role, OpenAI's reasoning models refuse it (a warning)
    assert [(f.code, f.severity) for f in inspector.check(good).findings] == [("TC024", "warning")]
    nameless = BASE + [fc, {"role": "function", "content": "18C"}, reply()]
    f = finding(nameless, "TC017", "deepseek")
    assert f.message_index == 3
    assert f.provider_error == "Missing parameter 'name': messages with role 'function' must have a 'name'."
    wrong = BASE + [fc, {"role": "function", "name": "search_web", "content": "x"}, reply()]
    assert finding(wrong, "TC017", "deepseek").severity == "error"


def test_tc018_null_content():
    msgs = BASE + [{"role": "assistant", "content": None}]
    f = finding(msgs, "TC018")
    assert f.provider_error == "Invalid value for 'content': expected a string, got null."
    t = tool("a1")
    t["content"] = None
    assert finding(BASE + [asst(call("a1")), t, reply()], "TC018").message_index == 3
    absent(BASE + [asst(call("a1")), tool("a1", ""), reply("")], "TC018")  # "" is a value


def test_tc019_role_order_is_an_error_for_mistral_only():
    msgs = BASE + [asst(call("a1")), tool("a1"), user("thanks")]
    assert finding(msgs, "TC019").severity == "info"
    f = finding(msgs, "TC019", "mistral")
    assert f.severity == "error" and f.message_index == 4
    assert f.provider_error == "Unexpected role 'user' after role 'tool'"
    absent(BASE + [asst(call("a1")), tool("a1"), reply(), user("thanks")], "TC019", "mistral")


def test_tc020_tool_output_sent_as_user_text():
    msgs = BASE + [asst(call("a1", "get_weather")), user('{"temp_c": 18}'), reply()]
    f = finding(msgs, "TC020")
    assert (f.message_index, f.other_index, f.tool_call_id) == (3, 2, "a1")
    assert finding(msgs, "TC001").message_index == 2  # always together with the TC001 it causes
    absent(BASE + [asst(call("a1")), user("never mind, stop"), reply()], "TC020")


def test_tc021_reasoning_content():
    m = asst(call("a1"))
    m["reasoning_content"] = "thinking..."
    msgs = BASE + [m, tool("a1"), reply()]
    assert finding(msgs, "TC021").severity == "info"
    # DeepSeek's thinking mode ignores it outside tool-call turns (issue 28, docs/provider-evidence.md).
    assert finding(msgs, "TC021", "deepseek").severity == "info"
    lacking = BASE + [m, tool("a1"), reply(), user(), asst(call("b1")), tool("b1"), reply()]
    f = finding(lacking, "TC021", "deepseek")
    assert f.message_index == 6 and f.severity == "error"
    assert f.provider_error == "The `reasoning_content` in the thinking mode must be passed back to the API."
    absent(BASE + [asst(call("a1")), tool("a1"), reply()], "TC021")


def test_tc022_pending_trailing_call():
    msgs = BASE + [asst(call("a1"))]
    f = finding(msgs, "TC022")
    assert f.severity == "warning" and f.message_index == 2
    absent(msgs, "TC001")
    # not pending when anything follows
    absent(BASE + [asst(call("a1")), user("?")], "TC022")


def test_tc023_reused_id_across_messages():
    msgs = BASE + [asst(call("a1")), tool("a1"), asst(call("a1")), tool("a1"), reply()]
    f = finding(msgs, "TC023", "mistral")
    assert f.severity == "warning" and (f.message_index, f.other_index) == (4, 2)
    absent(msgs, "TC005")


def test_tc024_unknown_role():
    msgs = BASE + [{"role": "bogus", "content": "bye"}]
    f = finding(msgs, "TC024")
    assert f.severity == "error" and f.message_index == 2
    # a harness's own record (mini-swe-agent's exit) is a note in a log, an error in a request
    harness = BASE + [{"role": "exit", "content": "bye"}]
    assert finding(harness, "TC024").severity == "info"
    assert [f.severity for f in inspector.check(harness, as_request=True).findings if f.code == "TC024"] == ["error"]
    absent(BASE + [{"role": "developer", "content": "x"}], "TC024")
    # Mistral has no developer role
    assert finding(BASE + [{"role": "developer", "content": "x"}], "TC024", "mistral").message_index == 2


@pytest.mark.parametrize("target", ["openai", "deepseek", "mistral"])
def test_every_error_has_a_sentence_and_severity(target):
    msgs = BASE + [tool("zz"), asst(call("a1")), user("x"), {"role": "bogus"}]
    for f in inspector.check(msgs, target).findings:
        assert f.text and f.rule and f.severity in ("error", "warning", "info")


def test_tc013_not_for_a_participant_name():
    # Letta writes the agent's own name on its messages, tool results included.
    a = asst(call("a1", "send_message"))
    a["name"] = "memgpt_agent"
    t = tool("a1")
    t["name"] = "memgpt_agent"
    absent(BASE + [a, t, reply()], "TC013")


def test_arguments_strings_that_join_into_valid_json_are_each_still_broken():
    # '1,2', '[3' and '4]' joined with commas make a valid array of three values: each string is
    # still no JSON object text, and each call gets its own TC011
    broken = ["1,2", "[3", "4]"]
    msgs = [{"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{k}", "type": "function", "function": {"name": "f", "arguments": a}}
                for k, a in enumerate(broken + ['{"ok": true}'])]}]
    msgs += [{"role": "tool", "tool_call_id": f"call_{k}", "content": "r"} for k in range(4)]
    found = sorted(f.tool_call_id for f in inspector.check(msgs, target="openai").findings if f.code == "TC011")
    assert found == ["call_0", "call_1", "call_2"]
