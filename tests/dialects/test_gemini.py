"""Gemini ``contents``: one test per rule that applies (a trigger and a near miss), pairing with
and without ids, snake_case keys, thought signatures."""

from __future__ import annotations

import json

from support import dialect_asserts

import inspector


def found(items, code, target=None):
    return dialect_asserts.found(items, code, "gemini", target)


def absent(items, code):
    dialect_asserts.absent(items, code, "gemini")


def call(name="get_weather", cid=None, sig=None, **args):
    fc = {"name": name, "args": args or {"q": name}}
    if cid:
        fc["id"] = cid
    part = {"functionCall": fc}
    if sig:
        part["thoughtSignature"] = sig
    return part


def resp(name="get_weather", cid=None, value="ok"):
    fr = {"name": name, "response": {"result": value}}
    if cid:
        fr["id"] = cid
    return {"functionResponse": fr}


def user(*parts):
    return {"role": "user", "parts": list(parts) or [{"text": "weather?"}]}


def model(*parts):
    return {"role": "model", "parts": list(parts) or [{"text": "done"}]}


def check(contents, **kw):
    return inspector.check(contents, dialect="gemini", **kw)


CLEAN = [user(), model(call("a", "c1"), call("b", "c2")), user(resp("a", "c1"), resp("b", "c2")), model()]
IDLESS = [user(), model(call("a"), call("b")), user(resp("a"), resp("b")), model()]


def test_request_body_is_detected_and_clean():
    body = {"contents": CLEAN, "systemInstruction": {"parts": [{"text": "be brief"}]}}
    r = inspector.check(json.dumps(body))
    assert (r.dialect, r.target, r.findings) == ("gemini", "gemini", [])


def test_idless_parts_pair_by_name_and_position():
    assert check(IDLESS).findings == []
    swapped = [user(), model(call("a"), call("b")), user(resp("b"), resp("a")), model()]
    assert [f.code for f in check(swapped).findings] == ["TC014"]


def test_snake_case_keys_from_the_python_sdk():
    contents = [user(), {"role": "model", "parts": [{"function_call": {"name": "a", "args": {}}}]},
                {"role": "user", "parts": [{"function_response": {"name": "a", "response": {}}}]}, model()]
    assert check(contents).findings == []


def test_tc001_fewer_responses_than_calls():
    f = found([user(), model(call("a"), call("b")), user(resp("a")), model(), user(), model()], "TC001")
    assert f.provider_error == ("Please ensure that the number of function response parts is equal to the number of "
                                "function call parts of the function call turn.")
    absent(IDLESS, "TC001")


def test_tc002_response_without_a_call_turn():
    f = found([user(), model(), user(resp("a", "c9")), model()], "TC002")
    assert f.provider_error == "Please ensure that function response turn comes immediately after a function call turn."
    absent(CLEAN, "TC002")


def test_tc005_is_a_warning_for_gemini_unless_it_breaks_the_count():
    # a second response for a call in a later response turn that still counts one response per call:
    # a warning, as rules.md rates TC005 for gemini (the call it leaves unanswered is TC001's)
    f = found([user(), model(call("a", "c1")), user(resp("a", "c1")), model(call("b", "c2")),
               user(resp("a", "c1")), model()], "TC005")
    assert f.severity == "warning"
    # in the turn right after the call turn it makes more responses than calls: Gemini's count check
    # refuses it (issue 31; google-gemini/gemini-cli#3814, microsoft/vscode#299295)
    f = found([user(), model(call("a", "c1")), user(resp("a", "c1"), resp("a", "c1")), model()], "TC005")
    assert f.severity == "error" and f.provider_error.startswith("Please ensure that the number of function response")
    absent(CLEAN, "TC005")


def test_tc008_mixed_ids_is_a_note():
    f = found([user(), model(call("a", "c1"), call("b")), user(resp("a", "c1"), resp("b")), model()], "TC008")
    assert f.severity == "info"
    absent(IDLESS, "TC008")


def test_tc012_bad_function_name():
    found([user(), model(call("9lives")), user(resp("9lives")), model()], "TC012")
    absent([user(), model(call("default_api:shell")), user(resp("default_api:shell")), model()], "TC012")


def test_tc013_response_names_another_tool():
    f = found([user(), model(call("a", "c1")), user(resp("b", "c1")), model()], "TC013")
    assert f.severity == "warning"
    absent(CLEAN, "TC013")


def test_tc015_responses_split_over_two_turns():
    f = found([user(), model(call("a"), call("b")), user(resp("a")), user(resp("b")), model()], "TC015")
    assert (f.message_index, f.severity) == (3, "error")  # rules.md 2026-11-23: Gemini rejects it
    assert f.provider_error == ("Please ensure that the number of function response parts is equal to the number "
                                "of function call parts of the function call turn.")
    absent(IDLESS, "TC015")


def test_tc018_turn_without_parts():
    assert found([user(), {"role": "model", "parts": []}, user()], "TC018").severity == "warning"
    absent([user({"text": ""}), model()], "TC018")  # an empty text part is accepted


def test_tc019_call_turn_must_follow_a_user_or_response_turn():
    f = found([user(), model(), model(call("a")), user(resp("a")), model()], "TC019")
    assert f.message_index == 2 and f.severity == "error"
    assert f.provider_error.startswith("Please ensure that function call turn comes immediately after a user turn")
    found([model(call("a")), user(resp("a")), model()], "TC019")
    absent(CLEAN, "TC019")


def test_tc021_thought_signature_in_the_current_turn():
    contents = [user(), model(call("a", sig="c2ln")), user(resp("a")), model(call("b")), user(resp("b"))]
    f = found(contents, "TC021")
    assert f.message_index == 3 and "thoughtSignature" in f.text
    # parallel calls: only the first part carries the signature
    absent([user(), model(call("a", sig="c2ln"), call("b")), user(resp("a"), resp("b"))], "TC021")
    # an earlier turn (before the last user text) is not checked
    absent([user(), model(call("a")), user(resp("a")), model(), user(), model(call("b", sig="c2ln")), user(resp("b"))], "TC021")


def test_tc022_pending_call():
    assert found([user(), model(call("a"))], "TC022").severity == "warning"
    absent(IDLESS, "TC022")


def test_tc024_assistant_is_not_a_gemini_role():
    f = found([user(), {"role": "assistant", "parts": [{"text": "hi"}]}], "TC024")
    assert f.severity == "error"
    absent(CLEAN, "TC024")
