"""Bedrock Converse ``messages``: one test per rule that applies (a trigger and a near miss)."""

from __future__ import annotations

import json

from support import dialect_asserts

import inspector


def found(items, code, target=None):
    return dialect_asserts.found(items, code, "bedrock", target)


def absent(items, code):
    dialect_asserts.absent(items, code, "bedrock")


def use(cid, name="get_weather"):
    return {"toolUse": {"toolUseId": cid, "name": name, "input": {"q": cid}}}


def res(cid, text="ok", **extra):
    return {"toolResult": {"toolUseId": cid, "content": [{"text": text}], **extra}}


def user(*blocks):
    return {"role": "user", "content": list(blocks) or [{"text": "weather?"}]}


def asst(*blocks):
    return {"role": "assistant", "content": list(blocks) or [{"text": "done"}]}


def check(msgs):
    return inspector.check(msgs, dialect="bedrock")


CLEAN = [user(), asst({"text": "Looking."}, use("tooluse_a"), use("tooluse_b")),
         user(res("tooluse_a"), res("tooluse_b", status="error")), asst()]


def test_converse_request_is_detected_and_clean():
    body = {"modelId": "anthropic.claude-3", "system": [{"text": "be brief"}], "messages": CLEAN}
    r = inspector.check(json.dumps(body))
    assert (r.dialect, r.target, r.findings) == ("bedrock", "bedrock", [])


def test_tc001_in_bedrock_words():
    f = found([user(), asst(use("tooluse_a"), use("tooluse_b")), user(res("tooluse_a")), asst(), user(), asst()], "TC001")
    assert f.provider_error == "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_b"
    absent(CLEAN, "TC001")


def test_tc002_in_bedrock_words():
    f = found([user(), asst(), user(res("tooluse_zz")), asst()], "TC002")
    assert f.provider_error == ("The number of toolResult blocks at messages.2.content exceeds the number of toolUse "
                                "blocks of previous turn.")
    absent(CLEAN, "TC002")


def test_tc003_result_after_another_message():
    f = found([user(), asst(use("tooluse_a")), user({"text": "hello?"}), asst(), user(res("tooluse_a")), asst()], "TC003")
    assert f.severity == "error"
    absent(CLEAN, "TC003")


def test_tc005_duplicate_result():
    assert found([user(), asst(use("a1")), user(res("a1"), res("a1")), asst()], "TC005").severity == "error"
    absent(CLEAN, "TC005")


def test_tc006_duplicate_id_in_one_message():
    f = found([user(), asst(use("a1"), use("a1")), user(res("a1")), asst()], "TC006")
    # Converse's own words (bvcyber/Cyber-AutoAgent-ng#72, 2026-01-29; double16/Cyber-AutoAgent-ng#27, 2026-03-06)
    assert f.provider_error == "The toolUse blocks at messages.1.content contain duplicate Ids: a1"
    absent(CLEAN, "TC006")


def test_tc008_and_tc009_ids():
    assert found([user(), asst({"toolUse": {"name": "x", "input": {}}}), user(), asst()], "TC008").severity == "error"
    f = found([user(), asst(use("a.1")), user(res("a.1")), asst()], "TC009")
    assert f.provider_error == "messages.1.content.0.toolUse.toolUseId: String should match pattern '^[a-zA-Z0-9_-]+$'"
    absent(CLEAN, "TC008")
    absent(CLEAN, "TC009")


def test_tc012_bad_name():
    found([user(), asst(use("a1", "get weather")), user(res("a1")), asst()], "TC012")
    absent(CLEAN, "TC012")


def test_tc015_results_split():
    f = found([user(), asst(use("a1"), use("a2")), user(res("a1")), user(res("a2")), asst()], "TC015")
    assert f.severity == "error"
    absent(CLEAN, "TC015")


def test_tc016_text_before_result():
    assert found([user(), asst(use("a1")), user({"text": "here"}, res("a1")), asst()], "TC016").severity == "error"
    absent([user(), asst(use("a1")), user(res("a1"), {"cachePoint": {"type": "default"}}), asst()], "TC016")


def test_tc018_empty_text_block_and_empty_content():
    found([user({"text": ""}), asst()], "TC018")
    found([user(), {"role": "assistant", "content": []}, user()], "TC018")
    absent(CLEAN, "TC018")


def test_tc019_consecutive_roles():
    assert found([user(), user(), asst()], "TC019").severity == "error"
    absent(CLEAN, "TC019")


def test_tc022_and_tc024():
    assert found([user(), asst(use("a1"))], "TC022").severity == "warning"
    assert found([{"role": "system", "content": [{"text": "x"}]}, user(), asst()], "TC024").severity == "error"
    absent(CLEAN, "TC022")
    absent(CLEAN, "TC024")
