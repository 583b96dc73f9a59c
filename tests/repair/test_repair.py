"""Repair, one action at a time: what each rule's fix and each option does, and what it reports."""

from __future__ import annotations

import json

import orjson
import pytest
from support.transcripts import asst, call, reply, system, tool, user

import inspector
from inspector import InputError
from inspector.repairing import DEFAULT_BRIDGE, RepairOptions, options_from_settings


def roles(msgs):
    return [m["role"] for m in msgs]


def ids_of(msgs):
    out = []
    for m in msgs:
        out.extend(c["id"] for c in m.get("tool_calls") or [])
        if m.get("tool_call_id"):
            out.append(m["tool_call_id"])
    return out


def fixed(msgs, target="openai", **options):
    result = inspector.repair(msgs, target=target, options=options or None)
    return result.data, result.report


BASE = [system(), user("weather?"), asst(call("call_a1", "get_weather"), call("call_a2", "search_web")),
        tool("call_a1", "sunny"), tool("call_a2", "found"), reply("It is sunny."), user("thanks")]


def base():
    return json.loads(json.dumps(BASE))


# --- results: missing, duplicates, displaced, early, orphans ------------------------------------

def test_missing_result_gets_a_placeholder_after_the_blocks_results():
    msgs = base()
    del msgs[3]
    out, rep = fixed(msgs)
    assert roles(out) == roles(BASE)
    ph = out[4]
    assert ph["tool_call_id"] == "call_a1" and "No result was recorded for tool call call_a1 (get_weather)" in ph["content"]
    [c] = rep.changes
    assert (c.action, c.code, c.tool_call_id, c.index_before, c.index_after) == ("insert_placeholder", "TC001", "call_a1", None, 4)
    assert rep.findings_before["error"] == 1 and rep.findings_after["error"] == 0 and rep.ok


def test_placeholder_text_is_configurable():
    msgs = base()
    del msgs[3]
    out, _ = fixed(msgs, placeholder="[lost: {name} {id}]")
    assert out[4]["content"] == "[lost: get_weather call_a1]"


def test_remove_call_option_takes_the_unanswered_call_out_into_the_quarantine():
    msgs = base()
    del msgs[3]
    out, rep = fixed(msgs, missing="remove_call")
    assert [c["id"] for c in out[2]["tool_calls"]] == ["call_a2"]
    [q] = rep.quarantine
    assert q.index == 2 and q.code == "TC001" and q.content == BASE[2]["tool_calls"][0]
    assert rep.changes[0].action == "remove_call"


def test_removing_every_call_leaves_no_empty_array_and_a_string_content():
    msgs = [user("q"), asst(call("call_x")), user("again")]
    out, _rep = fixed(msgs, missing="remove_call")
    assert "tool_calls" not in out[1] and out[1]["content"] == ""
    assert inspector.check(out).ok


def test_pending_trailing_call_is_left_unless_asked():
    msgs = base()[:3]
    out, rep = fixed(msgs)
    assert out == msgs and rep.changes == [] and rep.ok
    out, rep = fixed(msgs, pending="close")
    assert roles(out)[-2:] == ["tool", "tool"] and {c.code for c in rep.changes} == {"TC022"}


def test_pending_call_left_for_mistral_goes_to_the_quarantine_by_default():
    """Issue 34: Mistral refuses a request ending on unanswered calls ("Expected last role User or
    Tool ... but got assistant"): the trailing call message goes whole to the quarantine, and the
    request can be sent; ``--set TC022=placeholder`` answers it instead."""
    msgs = [user("q"), asst(call("abcdefghi"))]
    out, rep = fixed(msgs, "mistral")
    assert rep.ok and roles(out) == ["user"]
    [q] = rep.quarantine
    assert (q.index, q.code, q.content) == (1, "TC022", msgs[1])
    assert [(c.action, c.code) for c in rep.changes] == [("quarantine_message", "TC022")]
    assert inspector.check(out, target="mistral").ok
    out, rep = fixed(msgs, "mistral", pending="placeholder")
    assert rep.ok and roles(out) == ["user", "assistant", "tool"] and rep.quarantine == []
    _, rep = fixed(msgs, "mistral", pending="leave")
    assert rep.ok  # leave: where the target refuses it, the default takes the call out all the same


def test_pending_call_left_for_deepseek_goes_to_the_quarantine_as_for_mistral():
    """DeepSeek refuses a request ending on unanswered calls too (modelscope/ms-agent#909): the
    repaired history, about to be sent, loses the trailing call message to the quarantine."""
    msgs = [user("q"), asst(call("call_1"))]
    out, rep = fixed(msgs, "deepseek")
    assert rep.ok and roles(out) == ["user"]
    [q] = rep.quarantine
    assert (q.index, q.code, q.content) == (1, "TC022", msgs[1])
    assert inspector.check(out, target="deepseek").ok
    out, rep = fixed(msgs, "deepseek", pending="placeholder")
    assert rep.ok and roles(out) == ["user", "assistant", "tool"] and rep.quarantine == []
    out, rep = fixed(msgs, "openai")  # not recorded as refused there: left, as before
    assert out == msgs and rep.quarantine == []


@pytest.mark.parametrize("target", ["mistral", "deepseek"])
def test_a_run_of_trailing_call_messages_goes_to_the_quarantine_in_one_pass(target):
    """Found by test_repair_fuzz: each message of a run of assistant messages with calls at the end
    ends the request on calls once the ones after it are out. Taken out one per pass, the run
    outlasted repair's passes ("did not settle") and repairing the output changed it again."""
    msgs = [user("q"), asst(call("abcdefgh1")), asst(call("abcdefgh2")), asst(call("abcdefgh3"))]
    out, rep = fixed(msgs, target)
    assert rep.ok and roles(out) == ["user"], rep.unfixed
    assert [(q.index, q.code) for q in rep.quarantine] == [(3, "TC022"), (2, "TC022"), (1, "TC022")]
    assert [q.content for q in rep.quarantine] == msgs[:0:-1]  # nothing lost
    assert "once the messages after it are taken out" in rep.changes[1].text
    again, rep2 = fixed(out, target)
    assert again == out and rep2.changes == []


def test_identical_duplicate_is_removed_and_logged():
    msgs = base()
    msgs.insert(4, dict(msgs[3]))
    out, rep = fixed(msgs)
    assert out == BASE
    [c] = rep.changes
    assert c.action == "remove_duplicate" and c.index_before == 4 and rep.quarantine == []


def test_differing_duplicate_keeps_the_real_looking_result():
    msgs = base()
    msgs.insert(3, tool("call_a1", "Tool call was cancelled."))
    out, rep = fixed(msgs)
    assert [m["content"] for m in out if m.get("tool_call_id") == "call_a1"] == ["sunny"]
    [q] = rep.quarantine
    assert q.content["content"] == "Tool call was cancelled." and q.index == 3 and q.code == "TC005"


def test_differing_duplicates_keep_the_last_by_default_and_first_or_last_on_request():
    msgs = base()
    msgs.insert(4, tool("call_a1", "sunny, 21C"))
    assert [m["content"] for m in fixed(msgs)[0] if m.get("tool_call_id") == "call_a1"] == ["sunny, 21C"]
    assert [m["content"] for m in fixed(msgs, duplicate="first")[0] if m.get("tool_call_id") == "call_a1"] == ["sunny"]
    out, _rep = fixed(msgs, duplicate="last")
    assert [m["content"] for m in out if m.get("tool_call_id") == "call_a1"] == ["sunny, 21C"]
    assert inspector.check(out).ok


def test_displaced_result_moves_into_its_block_and_the_skipped_message_follows():
    msgs = base()
    msgs.insert(3, user("hurry up"))
    out, rep = fixed(msgs)
    assert roles(out)[2:6] == ["assistant", "tool", "tool", "user"]
    assert out[5]["content"] == "hurry up"
    assert {(c.action, c.code) for c in rep.changes} == {("move_result", "TC003")}


def test_early_result_moves_after_its_call():
    msgs = base()
    msgs.insert(2, msgs.pop(3))  # the result of call_a1 now comes before the call
    out, rep = fixed(msgs)
    assert roles(out) == roles(BASE)
    assert [c.code for c in rep.changes] == ["TC004"]
    assert rep.changes[0].index_before == 2 and out[rep.changes[0].index_after]["tool_call_id"] == "call_a1"


def test_orphan_is_quarantined_with_its_index_by_default():
    msgs = base()
    msgs.insert(6, tool("ghost", "boo"))
    out, rep = fixed(msgs)
    assert out == BASE
    [q] = rep.quarantine
    assert q.index == 6 and q.content == {"role": "tool", "tool_call_id": "ghost", "content": "boo"}


def test_orphan_note_option_quotes_it_in_a_user_message():
    msgs = base()
    msgs.insert(6, tool("ghost", "boo"))
    out, rep = fixed(msgs, orphan="note")
    note = out[6]
    assert note["role"] == "user" and "ghost" in note["content"] and note["content"].endswith("boo")
    assert rep.changes[0].action == "orphan_to_note" and rep.quarantine[0].index == 6


def test_orphan_keep_option_leaves_it_and_says_so():
    msgs = base()
    msgs.insert(6, tool("ghost", "boo"))
    out, rep = fixed(msgs, orphan="keep")
    assert out == msgs and not rep.ok and "orphan=keep" in rep.unfixed[0]


def test_stripped_tool_calls_quarantine_the_results():
    msgs = base()
    del msgs[2]["tool_calls"]
    out, rep = fixed(msgs)
    assert roles(out) == ["system", "user", "assistant", "assistant", "user"]
    assert out[2]["content"] == ""
    assert [q.index for q in rep.quarantine] == [3, 4]


# --- shapes -------------------------------------------------------------------------------------

def test_empty_tool_calls_array_is_dropped():
    msgs = [user("q"), {"role": "assistant", "content": "hello", "tool_calls": []}, user("x")]
    out, rep = fixed(msgs)
    assert out[1] == {"role": "assistant", "content": "hello"}
    assert rep.changes[0].action == "drop_empty_tool_calls"


def test_object_arguments_become_a_json_string():
    msgs = base()
    msgs[2]["tool_calls"][0]["function"]["arguments"] = {"city": "Zürich"}
    out, rep = fixed(msgs)
    assert out[2]["tool_calls"][0]["function"]["arguments"] == '{"city": "Zürich"}'
    assert rep.changes[0].code == "TC010"


def test_null_content_becomes_an_empty_string():
    msgs = base()
    msgs[3]["content"] = None
    out, rep = fixed(msgs)
    assert out[3]["content"] == "" and rep.changes[0].action == "fill_null_content"


def test_result_name_is_set_to_the_calls_name():
    msgs = base()
    msgs[3]["name"] = "weather"
    out, rep = fixed(msgs)
    assert out[3]["name"] == "get_weather"
    assert "'weather'" in rep.changes[0].text


def test_unknown_role_is_quarantined_or_kept():
    msgs = base() + [{"role": "observation", "content": "submitted"}]
    out, rep = fixed(msgs)
    assert out == BASE and rep.quarantine[0].content["role"] == "observation"
    out, rep = fixed(msgs, unknown_role="keep")
    assert out == msgs and not rep.ok
    # a harness's exit record: a note in a log (left alone), an error in a request (quarantined)
    harness = base() + [{"role": "exit", "content": "submitted"}]
    assert inspector.repair(harness).data == harness
    as_sent = inspector.repair(harness, as_request=True)
    assert as_sent.data == BASE and as_sent.report.quarantine[0].content["role"] == "exit"


def test_invalid_function_name_is_reported_not_renamed():
    msgs = base()
    msgs[2]["tool_calls"][0]["function"]["name"] = "get weather!"
    out, rep = fixed(msgs)
    assert out == msgs and not rep.ok and "does not rename tools" in rep.unfixed[0]


# --- ids ----------------------------------------------------------------------------------------

def test_ids_are_renamed_for_mistral_with_an_id_map():
    out, rep = fixed(base(), "mistral")
    new = ids_of(out)
    assert all(len(i) == 9 and i.isalnum() for i in new)
    assert rep.id_map == {"call_a1": new[0], "call_a2": new[1]}
    assert new[2:] == new[:2]  # results rebound
    assert inspector.check(out, target="mistral").ok


def test_long_ids_are_renamed_for_openai_and_kept_for_deepseek():
    msgs = base()
    long = "call_" + "x" * 50
    msgs[2]["tool_calls"][0]["id"] = msgs[3]["tool_call_id"] = long
    out, rep = fixed(msgs)
    assert len(out[2]["tool_calls"][0]["id"]) <= 40 and out[3]["tool_call_id"] == out[2]["tool_calls"][0]["id"]
    assert long in rep.id_map
    out, rep = fixed(msgs, "deepseek")  # an info for deepseek: nothing to do
    assert out == msgs


def test_rename_ids_false_reports_instead():
    _, rep = fixed(base(), "mistral", rename_ids=False)
    assert not rep.ok and "rename_ids=false" in rep.unfixed[0]


def test_duplicate_call_id_in_one_message_renames_the_second_and_its_result():
    msgs = [user("q"), asst(call("call_d", "a"), call("call_d", "b")), tool("call_d", "1"), tool("call_d", "2"), user("x")]
    out, rep = fixed(msgs)
    first, second = [c["id"] for c in out[1]["tool_calls"]]
    assert first == "call_d" and second != "call_d"
    assert [out[2]["tool_call_id"], out[3]["tool_call_id"]] == [first, second]
    assert rep.changes[0].code == "TC006" and rep.changes[0].new_id == second


def test_same_id_reused_across_rounds_maps_to_one_new_id():
    msgs = [user("q"), asst(call("search:0")), tool("search:0"), user("again"), asst(call("search:0")),
            tool("search:0"), user("ok")]
    out, rep = fixed(msgs, "mistral")
    assert len(set(ids_of(out))) == 1 and rep.id_map == {"search:0": ids_of(out)[0]}


def test_missing_ids_are_given_when_the_block_pairs_unambiguously():
    msgs = [user("q"), asst(call("x", "f"), call("y", "g")), tool("x"), tool("y"), user("z")]
    del msgs[1]["tool_calls"][0]["id"]
    del msgs[1]["tool_calls"][1]["id"]
    del msgs[2]["tool_call_id"]
    del msgs[3]["tool_call_id"]
    out, rep = fixed(msgs)
    a, b = [c["id"] for c in out[1]["tool_calls"]]
    assert a != b and out[2]["tool_call_id"] == a and out[3]["tool_call_id"] == b
    assert inspector.check(out).ok and {c.code for c in rep.changes} == {"TC008"}


def test_missing_ids_stay_when_names_disagree():
    msgs = [user("q"), asst(call("x", "f"), call("y", "g")),
            {"role": "tool", "name": "g", "content": "1"}, {"role": "tool", "name": "f", "content": "2"}, user("z")]
    for c in msgs[1]["tool_calls"]:
        del c["id"]
    _, rep = fixed(msgs)
    assert not rep.ok and "unambiguously" in rep.unfixed[0]


def test_result_without_id_takes_its_calls_id():
    msgs = [user("q"), asst(call("call_k", "f")), {"role": "tool", "content": "1"}, user("z")]
    out, rep = fixed(msgs)
    assert out[2]["tool_call_id"] == "call_k" and rep.ok


# --- role order and options ---------------------------------------------------------------------

def test_mistral_user_after_tool_gets_a_marked_bridge():
    msgs = [user("q"), asst(call("abcdefghi")), tool("abcdefghi"), user("next")]
    out, rep = fixed(msgs, "mistral")
    assert roles(out) == ["user", "assistant", "tool", "assistant", "user"]
    assert out[3]["content"] == DEFAULT_BRIDGE
    assert rep.changes[0].action == "insert_bridge" and rep.changes[0].index_after == 3
    out, _ = fixed(msgs, "mistral", bridge="(no reply)")
    assert out[3]["content"] == "(no reply)"
    assert fixed(msgs, "openai")[0] == msgs  # openai accepts that order


def test_mistral_system_notice_after_a_tool_result_moves_up():
    msgs = [user("q"), asst(call("abcdefghi")), tool("abcdefghi"), system("note"), reply("r"), user("z")]
    out, rep = fixed(msgs, "mistral")
    assert roles(out) == ["user", "system", "assistant", "tool", "assistant", "user"]
    assert rep.changes[0].action == "move_message" and rep.changes[0].index_before == 3


def test_mistral_transcript_ending_with_an_assistant_reply_is_unfixed():
    msgs = [user("q"), reply("r")]
    out, rep = fixed(msgs, "mistral")
    assert out == msgs and not rep.ok and "last message" in rep.unfixed[0]


def test_user_as_result_option_converts_tool_output_sent_as_user_text():
    msgs = [user("q"), asst(call("call_u", "run_shell")), user("Observation: 3 files"), reply("ok"), user("z")]
    out, rep = fixed(msgs)
    assert roles(out)[:3] == ["user", "assistant", "tool"] and out[2]["content"] == "No result was recorded for tool call call_u (run_shell); its outcome is unknown."
    out, rep = fixed(msgs, user_as_result=True)
    assert out[2] == {"role": "tool", "tool_call_id": "call_u", "content": "Observation: 3 files"}
    assert rep.changes[0].action == "user_to_result" and inspector.check(out).ok


def test_options_from_settings_accepts_codes_and_names():
    o = options_from_settings(["TC001=remove_call", "orphan=note", "TC009=keep", "tc020=convert", "TC022=close"])
    assert (o.missing, o.orphan, o.rename_ids, o.user_as_result, o.pending) == ("remove_call", "note", False, True, "close")
    for bad in (["TC001"], ["TC999=x"], ["TC001=nope"], ["rename_ids=maybe"]):
        with pytest.raises(InputError):
            options_from_settings(bad)
    with pytest.raises(ValueError):  # pydantic's ValidationError
        RepairOptions(placeholder="{")


# --- output shape -------------------------------------------------------------------------------

def test_request_body_keeps_its_wrapper_unknown_fields_and_key_order():
    msgs = base()
    del msgs[3]
    msgs[5]["x_meta"] = {"keep": [1, 2]}
    body = {"model": "gpt-4o", "temperature": 0.2, "messages": msgs, "tools": [{"type": "function"}], "zz": None}
    result = inspector.repair(json.dumps(body, indent=2))
    out = orjson.loads(result.output)
    assert list(out) == list(body) and out["tools"] == body["tools"] and out["zz"] is None
    assert out["messages"][6]["x_meta"] == {"keep": [1, 2]}
    assert result.output.startswith(b"{\n  ")  # indented in, indented out


def test_jsonl_comes_back_as_jsonl():
    msgs = base()
    del msgs[3]
    data = b"\n".join(orjson.dumps(m) for m in msgs) + b"\n"
    result = inspector.repair(data)
    lines = result.output.splitlines()
    assert len(lines) == len(BASE) and all(orjson.loads(ln) for ln in lines)
    assert inspector.repair(result.output).output == result.output


def test_unchanged_input_gives_back_the_very_same_bytes():
    data = json.dumps(BASE, indent=4).encode()
    assert inspector.repair(data).output == data


def test_repair_unpacks_and_is_callable_from_the_package():
    data, report = inspector.repair(base())
    assert data == BASE and report.ok
    assert inspector.RepairReport is type(report)


def test_unsupported_dialect_is_an_input_error(monkeypatch):
    from inspector import dialects

    monkeypatch.setattr(dialects.get("openai-chat"), "editor", None)
    with pytest.raises(InputError, match="repair is not available for dialect 'openai-chat' yet"):
        inspector.repair(base())


def test_several_transcripts_in_one_file_are_each_repaired():
    bad = base()
    del bad[3]
    log = {"eval": {"task": "t"}, "samples": [{"id": 1, "messages": bad}, {"id": 2, "messages": base()}]}
    result = inspector.repair(log)
    out = result.data
    assert out["samples"][0]["messages"] == BASE or roles(out["samples"][0]["messages"]) == roles(BASE)
    assert out["samples"][1]["messages"] == BASE and out["eval"] == {"task": "t"}
    assert [c.transcript for c in result.report.changes] == [0]


def test_call_without_id_answered_by_a_legacy_function_message_gets_no_id():
    msgs = [asst(call("x", "g")), {"role": "function", "name": "g", "content": "r"}, user("z")]
    del msgs[0]["tool_calls"][0]["id"]
    out, rep = fixed(msgs)
    assert out == msgs and not rep.ok
    assert "legacy function message #1" in rep.unfixed[0]
    assert inspector.repair(out).output == inspector.repair(msgs).output


def test_reply_answering_several_calls_is_kept_whole_when_one_of_its_ids_is_unknown():
    msgs = [user("q"), asst(call("c1", "f")), {"role": "tool", "tool_call_ids": ["c1", "ghost"], "content": "both"},
            user("z")]
    out, rep = fixed(msgs)
    assert out == msgs and rep.quarantine == []
    assert "answers several calls" in rep.unfixed[0]


def test_legacy_function_call_without_a_name_gets_no_placeholder():
    msgs = [user("q"), {"role": "assistant", "content": None, "function_call": {"name": None, "arguments": "{}"}},
            user("z")]
    out, rep = fixed(msgs)
    assert out[:2] == msgs[:2] and not rep.ok and "no name a placeholder could answer" in rep.unfixed[0]


def test_legacy_function_call_with_a_name_gets_a_function_placeholder():
    msgs = [user("q"), {"role": "assistant", "content": None, "function_call": {"name": "lookup", "arguments": "{}"}},
            user("z")]
    out, rep = fixed(msgs)
    assert out[2] == {"role": "function", "name": "lookup",
                      "content": "No result was recorded for tool call (no id) (lookup); its outcome is unknown."}
    assert rep.ok


def test_developer_message_becomes_system_for_mistral():
    msgs = [{"role": "developer", "content": "Answer in French."}, {"role": "user", "content": "hi"}]
    result = inspector.repair(msgs, target="mistral")
    assert json.loads(result.output) == [{"role": "system", "content": "Answer in French."},
                                         {"role": "user", "content": "hi"}]
    assert [c.action for c in result.report.changes] == ["rename_role"] and not result.report.quarantine
    assert inspector.check(result.output, target="mistral").ok
    assert json.loads(inspector.repair(msgs, target="openai").output) == msgs  # openai has the role


def test_a_history_ending_in_a_pending_call_gets_one_reason_for_mistral_in_every_langchain_shape():
    """What a call is, the dialect says (repair once read OpenAI's ``tool_calls`` key off the raw
    message, and told a LangChain ``dumpd`` history it ended with a plain assistant message)."""
    pending = {"name": "f", "args": {}, "id": "call_1", "type": "tool_call"}
    plain = [{"type": "human", "content": "hi"}, {"type": "ai", "content": "", "tool_calls": [pending]}]
    dumpd = [{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", cls], "kwargs": m}
             for cls, m in zip(("HumanMessage", "AIMessage"), plain)]
    for items in (plain, dumpd):
        # Mistral refuses a request ending on the pending call: it goes to the quarantine (issue 34),
        # and only that one message: the dialect says it holds a call.
        rep = inspector.repair(items, target="mistral").report
        assert rep.ok and rep.unfixed == [], rep.unfixed
        assert [(c.action, c.code, c.index_before) for c in rep.changes] == [("quarantine_message", "TC022", 1)]
        assert [q.content for q in rep.quarantine] == [items[1]]
