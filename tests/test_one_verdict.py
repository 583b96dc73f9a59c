"""One input, one verdict (issue 28): ``check``, ``scan``, ``repair`` (whole file and streamed
dataset) read the same file the same way. Each test below is a shape on which two of them
disagreed, with the words of the provider that refuses it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import inspector

OPENAI_ORPHAN = "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"


def run(*args, stdin: bytes | None = None):
    env = {**os.environ, "INSPECTOR_DEBUG": "1"}
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, args)], input=stdin, capture_output=True,
                          timeout=300, env=env)


# --- OpenAI Batch JSON Lines whose body lists ``tools`` before ``messages`` -------------------------

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
         {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object"}}}]
CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}
ORPHAN = {"role": "tool", "tool_call_id": "call_9", "content": "sunny"}


def batch_line(cid: str, messages: list) -> dict:
    # the key order many writers produce: tools, then messages
    return {"custom_id": cid, "method": "POST", "url": "/v1/chat/completions",
            "body": {"model": "gpt-4o", "tools": TOOLS, "messages": messages}}


BATCH = [
    batch_line("req-1", [{"role": "user", "content": "hi"}]),
    batch_line("req-2", [{"role": "user", "content": "weather?"}, ORPHAN]),
    batch_line("req-3", [{"role": "user", "content": "weather?"}, CALL,
                         {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}]),
]


def test_batch_lines_with_tools_before_messages_read_alike_in_check_scan_and_repair(tmp_path):
    path = tmp_path / "batch.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in BATCH))

    report = inspector.check(path)
    errors = [(f.transcript, f.message_index, f.code) for f in report.findings if f.severity == "error"]
    assert errors == [(1, 1, "TC002")]
    assert OPENAI_ORPHAN in next(f.provider_error for f in report.findings if f.code == "TC002")

    # scan reads each line on its own, and must read its messages, not its tools
    p = run("scan", path, "--format", "jsonl")
    rows = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert [(r["line"], r["messages"]) for r in rows] == [(1, 1), (2, 2), (3, 3)]
    for k, r in enumerate(rows):  # the findings check gives, to the letter
        mine = [f.model_dump(include=set(r["findings"][0])) for f in report.findings if f.transcript == k] \
            if r["findings"] else []
        assert r["findings"] == mine
    assert [r["errors"] for r in rows] == [0, 1, 0]
    assert b"3 transcripts scanned (6 messages); OpenAI would reject 1 (33.3%)" in p.stderr

    # repair, whole file and streamed dataset: the orphan goes, the tool declarations stay
    fixed = inspector.repair(path)
    out = [json.loads(x) for x in fixed.output.decode().splitlines()]
    assert [o["body"]["tools"] for o in out] == [TOOLS] * 3
    assert [q.content for q in fixed.report.quarantine] == [ORPHAN]
    assert fixed.report.ok
    p = run("repair", path, "-o", tmp_path / "out.jsonl", "--report", tmp_path / "rep.jsonl")
    assert p.returncode == 0, p.stderr
    assert b"3 records: 1 repaired, 2 already clean, 0 not fixed safely" in p.stderr
    out = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [o["body"]["tools"] for o in out] == [TOOLS] * 3
    (rep,) = [json.loads(x) for x in (tmp_path / "rep.jsonl").read_text().splitlines()]
    assert [q["content"] for q in rep["quarantine"]] == [ORPHAN]


def test_one_batch_line_alone_is_read_as_the_batch_reads_it():
    """A line on its own (what scan and dataset repair read) is the batch request it holds,
    named by its custom_id, whatever the order of its body's keys."""
    report = inspector.check(BATCH[1])
    assert report.transcripts == 1 and report.message_count == 2
    assert report.transcript_labels[0].startswith("req-2 ")
    assert [f.code for f in report.findings if f.severity == "error"] == ["TC002"]


def test_a_list_of_tool_declarations_is_no_message_list():
    from inspector.containers import looks_like_messages

    assert not looks_like_messages(TOOLS)
    assert looks_like_messages(BATCH[2]["body"]["messages"])


# --- Mistral: a system message right after a tool message, or after an assistant message -----------

def _mistral_refuses(msgs: list) -> str:
    """mistral-common's own validator (serving mode, v11 and v13): its words, or "" when it accepts."""
    from mistral_common.exceptions import MistralCommonException
    from support.validators import mistral_accepts

    try:
        mistral_accepts(msgs)
    except MistralCommonException as exc:
        return str(exc)
    return ""


def _tool_round(cid: str = "abcdefghi") -> list:
    return [{"role": "user", "content": "weather?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": cid, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": cid, "content": "sunny"}]


REMINDER = {"role": "system", "content": "Reminder: answer briefly."}


import pytest


@pytest.mark.parametrize("after", ["tool", "assistant"])
def test_mistral_system_message_after_a_tool_or_assistant_message_is_reported_as_mistral_refuses_it(after):
    msgs = _tool_round()
    if after == "assistant":
        msgs += [{"role": "assistant", "content": "It is sunny."}, REMINDER, {"role": "user", "content": "thanks"}]
    else:
        msgs += [REMINDER, {"role": "assistant", "content": "It is sunny."}, {"role": "user", "content": "thanks"}]
    words = f"Unexpected role 'system' after role '{after}'"
    assert words in _mistral_refuses(msgs)  # the validator is the judge

    report = inspector.check(msgs, target="mistral")
    (f,) = [f for f in report.findings if f.severity == "error"]
    assert (f.code, f.message_index, f.provider_error) == ("TC019", msgs.index(REMINDER), words)
    assert "Mistral would reject" in inspector.verdict(report)

    # repair acts on that finding, and only for the target that refuses it
    fixed = inspector.repair(msgs, target="mistral")
    assert [(c.code, c.index_before) for c in fixed.report.changes] == [("TC019", msgs.index(REMINDER))]
    assert fixed.report.ok and _mistral_refuses(fixed.data) == ""
    assert inspector.check(msgs, target="openai").ok
    assert inspector.repair(msgs, target="openai").report.changes == []


# --- A HAR capture holding an OpenAI and an Anthropic request --------------------------------------

ANTHROPIC_ORPHAN = "unexpected `tool_use_id` found in `tool_result` blocks"


def _har(*entries) -> dict:
    def entry(url, body, status):
        return {"startedDateTime": "2026-03-02T11:20:04.512Z", "time": 1,
                "request": {"method": "POST", "url": url, "httpVersion": "HTTP/2", "headers": [], "queryString": [],
                            "cookies": [], "headersSize": -1, "bodySize": 1,
                            "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
                "response": {"status": status, "statusText": "", "httpVersion": "HTTP/2", "headers": [], "cookies": [],
                             "content": {"size": 2, "mimeType": "application/json", "text": "{}"},
                             "redirectURL": "", "headersSize": -1, "bodySize": 2},
                "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
    return {"log": {"version": "1.2", "creator": {"name": "devtools", "version": "1"},
                    "entries": [entry(*e) for e in entries]}}


OPENAI_BODY = {"model": "gpt-4.1-mini", "messages": [
    {"role": "user", "content": "Summarise ticket 118"}, ORPHAN]}
ANTHROPIC_BODY = {"model": "claude-sonnet-4-5", "max_tokens": 512, "messages": [
    {"role": "user", "content": "Summarise ticket 118"},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_09", "content": "Printer jams."}]}]}
MIXED_HAR = _har(("https://api.openai.com/v1/chat/completions", OPENAI_BODY, 400),
                 ("https://api.anthropic.com/v1/messages", ANTHROPIC_BODY, 400))


def test_a_har_capture_of_two_apis_checks_each_request_for_its_own_provider(tmp_path):
    path = tmp_path / "session.har"
    path.write_text(json.dumps(MIXED_HAR))
    report = inspector.check(path)
    assert report.transcript_dialects == ["openai-chat", "anthropic"]
    assert report.transcript_targets == ["openai", "anthropic"]
    errors = {f.transcript: f for f in report.findings if f.severity == "error"}
    assert errors[0].code == "TC002" and OPENAI_ORPHAN in errors[0].provider_error
    assert errors[1].code == "TC002" and ANTHROPIC_ORPHAN in errors[1].provider_error

    p = run("check", path)
    assert p.returncode == 1, p.stderr
    out = p.stdout.decode()
    assert f"    openai says: Invalid parameter: {OPENAI_ORPHAN}" in out and "    anthropic says: " in out
    assert "targets openai (1 transcript), anthropic (1)" in out

    # scan and repair read it the same way
    rows = [json.loads(x) for x in run("scan", path, "--format", "jsonl").stdout.decode().splitlines()]
    assert [(r["dialect"], r["target"], r["codes"]) for r in rows] == [
        ("openai-chat", "openai", sorted({f.code for f in report.findings if f.transcript == 0})),
        ("anthropic", "anthropic", sorted({f.code for f in report.findings if f.transcript == 1}))]
    p = run("repair", path, "-o", tmp_path / "fixed.har")
    assert p.returncode == 0, p.stderr
    fixed = inspector.check(tmp_path / "fixed.har")
    assert fixed.ok and fixed.transcript_targets == ["openai", "anthropic"]

    # a target named for the whole file applies where it fits; the other request keeps its own, saying why
    named = inspector.check(path, target="mistral")
    assert named.transcript_targets == ["mistral", "anthropic"]
    assert "does not fit its anthropic format" in named.transcript_target_reasons[1]


# --- Repair output reads back as written, and a repair that leaves no message is no success --------

def test_a_repair_that_would_leave_no_message_is_not_fixed(tmp_path):
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "?"}]}]}
    report = inspector.check(body)
    assert report.dialect == "anthropic" and ANTHROPIC_ORPHAN in report.findings[0].provider_error
    fixed = inspector.repair(body)
    assert not fixed.report.ok
    assert any("would leave no message" in u for u in fixed.report.unfixed)
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body))
    p = run("repair", path, "-o", tmp_path / "out.json")
    assert p.returncode == 1 and b"would leave no message" in p.stderr


# --- An empty message list: nothing to check, or a request the provider refuses (issue 31) ---------

OPENAI_EMPTY = "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead."


@pytest.mark.parametrize("body, said", [
    ([], "$: nothing to check: the message list is empty"),
    ({"messages": []}, "$.messages: nothing to check: the message list is empty"),
    ({"model": "gpt-4o", "messages": []}, f'$.messages: the request\'s message list is empty: OpenAI refuses it: "{OPENAI_EMPTY}"'),
    ({"model": "anthropic/claude-sonnet-4-5", "messages": []},
     '$.messages: the request\'s message list is empty: Anthropic refuses it: "messages: at least one message is required"'),
    ({"contents": []}, "$.contents: nothing to check: the message list is empty"),
])
def test_an_empty_message_list_gets_one_answer_from_every_door_and_never_would_accept(tmp_path, body, said):
    # Old code: check, scan, repair and fit said "would accept" (exit 0) and explain "no message
    # matches it" (exit 1). A request with no message is refused by the provider (its words); a
    # log with none has nothing to check. Every door says the same line and exits 2.
    from inspector import InputError
    from inspector.guard import inspect_request

    path = tmp_path / "empty.json"
    path.write_text(json.dumps(body))
    with pytest.raises(InputError) as got:
        inspector.check(body)
    assert str(got.value).startswith(said)
    doors = [["scan"]] if body not in ([], {"model": "gpt-4o", "messages": []}) else [["check"], ["scan"],
             ["repair", "-o", tmp_path / "out.json"], ["fit", "--max-tokens", "1000"],
             ["explain", "--error", "[] is too short - 'messages'"]]
    for args in doors:  # every door of the CLI on a log and on a request; the others through scan
        p = run(args[0], path, *args[1:])
        assert p.returncode == 2 and said.encode() in p.stderr and b"would accept" not in p.stdout + p.stderr, (args, p.stderr)
    with pytest.raises(InputError, match=r"message list is empty"):
        inspector.repair(body)
    with pytest.raises(InputError, match=r"message list is empty"):
        inspector.fit(body, 1000)
    if type(body) is dict and "messages" in body:  # the guard, given it as a Chat Completions request
        ins = inspect_request("http://127.0.0.1:9/v1/chat/completions", path.read_bytes())
        assert ins is not None and ins.report is None and "message list is empty" in (ins.unreadable or "")
        assert "would accept" not in ins.unreadable


# --- Gemini through a gateway (issue 31): one dataset of request bodies for gemini/… models ----------

_ASK = {"role": "user", "content": "list the files"}
_TWO = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}},
    {"id": "call_2", "type": "function", "function": {"name": "pwd", "arguments": "{}"}}]}
_LS = {"role": "tool", "tool_call_id": "call_1", "content": "a.py"}
_PWD = {"role": "tool", "tool_call_id": "call_2", "content": "/work"}
_DONE = {"role": "assistant", "content": "There is a.py."}
GEMINI_BODIES = [
    {"model": "gemini/gemini-2.5-pro", "messages": [_ASK, _TWO, _LS, _PWD, _DONE]},  # clean
    {"model": "gemini/gemini-2.5-pro", "messages": [_ASK, _TWO, _LS, _DONE]},  # half-answered parallel calls
    {"model": "vertex_ai/gemini-2.5-pro", "messages": [_ASK, {**ORPHAN, "tool_call_id": "call_9"}, _DONE]},  # LiteLLM refuses
    {"model": "gemini/gemini-2.5-pro", "messages": [_ASK, _TWO, _LS, _PWD, {**_LS, "content": "again"}, _DONE]},  # 3 for 2
]
GEMINI_COUNT = ("Please ensure that the number of function response parts is equal to the number of function call "
                "parts of the function call turn.")


def test_gemini_through_a_gateway_reads_alike_in_check_scan_repair_and_the_guard(tmp_path):
    from inspector.guard import inspect_request

    path = tmp_path / "gemini-gateway.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in GEMINI_BODIES))
    report = inspector.check(path)
    assert set(report.transcript_targets) == {"gemini"}
    errors = [(f.transcript, f.message_index, f.code, f.tool_call_id, f.provider_error)
              for f in report.findings if f.severity == "error"]
    assert errors == [(1, 1, "TC001", "call_2", GEMINI_COUNT),
                      (2, 1, "TC002", "call_9", "Missing corresponding tool call for tool response message."),
                      (3, 4, "TC005", "call_1", GEMINI_COUNT)]

    p = run("scan", path, "--format", "jsonl")
    rows = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert [r["target"] for r in rows] == ["gemini"] * 4
    for k, r in enumerate(rows):  # the findings check gives, to the letter
        mine = [f.model_dump(include=set(r["findings"][0])) for f in report.findings if f.transcript == k] \
            if r["findings"] else []
        assert r["findings"] == mine
    assert [r["errors"] for r in rows] == [0, 1, 1, 1]

    # the guard sees each body as the request it is, through LiteLLM's OpenAI-compatible endpoint
    for k, body in enumerate(GEMINI_BODIES):
        ins = inspect_request("http://127.0.0.1:9/v1/chat/completions", json.dumps(body).encode())
        assert ins is not None and ins.report is not None
        assert ins.report["target"] == "gemini"
        assert [(f["message_index"], f["code"]) for f in ins.report["findings"] if f["severity"] == "error"] == \
            [(i, c) for t, i, c, _, _ in errors if t == k]

    # repair acts on those findings only, and what it writes checks clean for Gemini through the gateway
    fixed = inspector.repair(path)
    acted = {(f.transcript, f.code) for f in report.findings if f.severity in ("error", "warning")}
    assert fixed.report.changes and all((c.transcript, c.code) in acted for c in fixed.report.changes)
    assert fixed.report.ok
    (tmp_path / "fixed.jsonl").write_bytes(fixed.output)
    back = inspector.check(tmp_path / "fixed.jsonl")
    assert back.transcript_targets == report.transcript_targets
    assert not [f for f in back.findings if f.severity == "error"]


# --- a conversation kept as a folder (OpenHands V1: one file per event) ---------------------------

def test_an_openhands_conversation_folder_reads_alike_in_check_scan_repair_and_the_app(tmp_path):
    """``check`` and ``scan`` read the folder as one conversation (never its event files one by
    one), the app gives the same findings on the same events, and ``repair`` writes a new folder
    that checks clean."""
    from inspector.checking import check_document
    from inspector.dialects import get
    from inspector.reading import read_folder
    from inspector.scan import sources
    from inspector.scan.work import ScanOptions, scan_part
    from inspector.ui.analysis import Checked
    from inspector.ui.findings import findings_frame

    folder = tmp_path / "conversation" / "events"
    folder.mkdir(parents=True)
    for n, e in enumerate(get("openhands").samples.broken):
        (folder / f"event-{n:05d}-{e['id']}.json").write_text(json.dumps(e))
    folder = folder.parent
    (folder / "base_state.json").write_text(json.dumps({"id": "c1", "agent": {"llm": {
        "model": "anthropic/claude-sonnet-4-5-20250929"}, "kind": "Agent"}}))
    got = run("check", folder, "--format", "json")
    assert got.returncode == 1, got.stderr
    report = json.loads(got.stdout)
    want = [(f["message_index"], f["code"], f["tool_call_id"]) for f in report["findings"]]
    assert report["dialect"] == "openhands" and ("TC001" in {c for _, c, _ in want})
    assert report["target"] == "anthropic"  # the model base_state.json names, through LiteLLM
    [part] = sources.plan(sources.expand([str(folder)]))
    [row] = scan_part(part, ScanOptions(), 0)[0]
    assert [(f["message_index"], f["code"], f["tool_call_id"]) for f in row["findings"]] == want
    assert row["target"] == "anthropic"
    doc = inspector.load(read_folder(str(folder)), name="events.json")
    app_report, analyses = check_document(doc)
    table = findings_frame(Checked(doc, app_report, analyses).findings(0)).to_dict("records")
    assert [(r["message"], r["code"]) for r in table] == [(i, c) for i, c, _ in want]
    assert app_report.target == "anthropic"
    out = tmp_path / "repaired"
    fixed = run("repair", folder, "-o", out)
    assert fixed.returncode == 0, fixed.stderr
    assert run("check", out).returncode == 0
    assert (out / "base_state.json").read_text() == (folder / "base_state.json").read_text()


# --- SQLite session stores found by walking a folder (scan DIR) ------------------------------------

def test_scan_of_a_folder_reads_each_session_store_in_it_as_check_reads_the_database(tmp_path):
    """``scan DIR`` takes the ``*.db`` / ``*.sqlite`` files under DIR: each session of an Agents SDK
    or ADK store is a row with check's findings for that session; a database that is no session
    store is one row saying so, and the scan goes on with the rest."""
    import shutil
    import sqlite3
    from pathlib import Path

    from inspector.checking import check_plain
    from inspector.scan import sources
    from inspector.scan.work import FINDING_FIELDS, ScanOptions, scan_part

    samples = Path(__file__).resolve().parents[1] / "sample_logs"
    (tmp_path / "deep").mkdir()
    shutil.copy(samples / "agents_sdk_sqlite_session.db", tmp_path / "deep" / "history.sqlite3")
    shutil.copy(samples / "adk_sqlite_session.db", tmp_path / "adk.db")
    con = sqlite3.connect(tmp_path / "other.db")
    con.execute("CREATE TABLE users(id, name)")
    con.commit()
    con.close()
    files = sources.expand([str(tmp_path)])
    assert sorted(Path(f).name for f in files) == ["adk.db", "history.sqlite3", "other.db"]
    rows = [r for part in sources.plan(files) for r in scan_part(part, ScanOptions(), 0)[0]]
    for name in ("adk.db", "deep/history.sqlite3"):
        path = str(tmp_path / name)
        report, analyses = check_plain(inspector.load(path))
        mine = [r for r in rows if r["source"] == path]
        assert len(mine) == report["transcripts"] >= 2
        for k, r in enumerate(mine):
            assert r["problem"] is None
            assert (r["dialect"], r["target"], r["messages"]) == (
                report["transcript_dialects"][k], report["transcript_targets"][k], len(analyses[k].msgs))
            assert r["findings"] == [{n: f[n] for n in FINDING_FIELDS} for f in report["findings"]
                                     if f["transcript"] == k]
    [other] = [r for r in rows if r["source"].endswith("other.db")]
    assert "SQLite database with tables users: not a session store the inspector reads" in other["problem"]
    checked = run("check", tmp_path / "other.db")
    assert checked.returncode == 2 and b"not a session store the inspector reads" in checked.stderr


# --- a Chat Completions file: one reading (the typed one, issue 37) at every door -----------------

def test_a_chat_completions_file_is_read_typed_and_judged_alike_by_check_scan_repair_fit_and_the_app(
        tmp_path, monkeypatch):
    """Every door reads the message array through the engine's one typed reading (none reads it as
    dicts its own way) and says the same: check's findings are scan's, the app's worker counts
    them, repair acts on them only and fit keeps them."""
    from inspector import reading
    from inspector.scan import sources
    from inspector.scan.work import ScanOptions, scan_part
    from inspector.ui import workers

    msgs = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "weather?"}, CALL,
            {"role": "assistant", "content": "It is sunny."}, ORPHAN]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(msgs, indent=2))
    read_typed, doors = reading.typed_document, []

    def spy(data, label):
        doc = read_typed(data, label)
        doors[-1][1].append(doc is not None)
        return doc

    monkeypatch.setattr(reading, "typed_document", spy)
    monkeypatch.setattr(reading, "TYPED_FROM_BYTES", 0)  # a small file too (the doors' own: from 1 MB)

    def door(name):
        doors.append((name, []))

    door("check")
    report = inspector.check(path)
    errors = [(f.message_index, f.code) for f in report.findings if f.severity == "error"]
    assert errors == [(2, "TC001"), (4, "TC002")]
    door("scan")
    [row] = scan_part(sources.plan([str(path)])[0], ScanOptions())[0]
    assert [(f["message_index"], f["code"]) for f in row["findings"]] == [(f.message_index, f.code) for f in report.findings]
    door("the app's check job")
    assert workers._check(path.read_bytes(), "chat.json") == len(report.findings)
    door("repair")
    fixed = inspector.repair(path)
    assert fixed.report.ok and {c.code for c in fixed.report.changes} <= {c for _, c in errors}
    door("fit")
    fitted = inspector.fit(str(path), 10**9)
    assert fitted.report["errors_before"] == len(errors) and fitted.report["removed"] == []
    assert all(taken and taken[0] for _, taken in doors), [name for name, taken in doors if not (taken and taken[0])]


# --- a clean Chat Completions file: the clean proof (issue 37) at every door ----------------------

@pytest.mark.parametrize("pieces", [False, True], ids=["read whole", "read in pieces"])
def test_a_clean_chat_completions_file_is_proved_clean_and_judged_alike_by_every_door(tmp_path, monkeypatch,
                                                                                     capsysbinary, pieces):
    """A clean list read typed is proved clean (``clean_proof.transcript_clean``) at every door that
    goes through ``check_plain`` (check, explain, the API, scan, the app's check job, the guard),
    and each says what the general path says with the proof turned off; read whole (a small file)
    and in pieces of a message and up, proved clean as it is read (a big file,
    ``openai_typed._in_pieces``)."""
    from inspector import clean_proof, reading
    from inspector.cli.parser import main
    from inspector.dialects import openai_typed
    from inspector.guard import inspect, inspect_request
    from inspector.jsonio import dumps
    from inspector.scan import sources
    from inspector.scan.work import ScanOptions, scan_part
    from inspector.ui import workers

    msgs = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "weather?"}, CALL,
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
            {"role": "assistant", "content": "It is sunny."}]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(msgs, indent=2))
    body = json.dumps({"model": "gpt-4o", "tools": TOOLS, "messages": msgs}).encode()
    monkeypatch.setattr(inspect, "TYPED_BODY_BYTES", 0)  # the guard reads this small body typed too
    monkeypatch.setattr(reading, "TYPED_FROM_BYTES", 0, raising=False)  # and every door this small file
    if pieces:
        monkeypatch.setattr(openai_typed, "_FIRST_PIECE", 1)
        monkeypatch.setattr(openai_typed, "_PIECE", 256)
    read = reading.load_bytes(path.read_bytes(), "chat.json").root
    assert read.structs_held is not pieces and read.clean is (True if pieces else None)
    real = clean_proof.transcript_clean

    def cli(*argv: str) -> tuple:
        code = main([*argv])
        return (code, *capsysbinary.readouterr())

    def doors() -> dict:
        return {
            "check": cli("check", str(path), "--format", "json"),
            "explain": cli("explain", str(path), "--error", OPENAI_ORPHAN, "--format", "json"),
            "the API": inspector.check(path).model_dump(),
            "scan": scan_part(sources.plan([str(path)])[0], ScanOptions())[0],
            "the app's check job": workers._check(path.read_bytes(), "chat.json"),
            "the guard": dumps(inspect_request("http://127.0.0.1:9/v1/chat/completions", body).report),
        }

    taken: list[bool] = []
    monkeypatch.setattr(clean_proof, "transcript_clean", lambda *a, **k: taken.append(real(*a, **k)) or taken[-1])
    proved = doors()
    assert taken == [True] * 6, taken
    monkeypatch.setattr(clean_proof, "transcript_clean", lambda *a, **k: False)
    assert doors() == proved
    code, out, _ = proved["check"]
    report = json.loads(out)
    assert code == 0 and report["findings"] == [] and report["loops"] == [] and report["message_count"] == 5
    assert json.loads(proved["the guard"])["findings"] == [] and proved["the app's check job"] == 0
    assert proved["explain"][0] in (0, 1) and proved["explain"][1]
