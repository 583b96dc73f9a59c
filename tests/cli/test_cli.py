"""The CLI as scripts and CI use it: exit codes, text and JSON output, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_process import run

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"


def test_clean_file_exits_0():
    p = run("check", str(SAMPLES / "clean_parallel_calls.json"))
    assert p.returncode == 0, p.stderr
    assert b"0 errors" in p.stdout


def test_broken_file_exits_1_with_linter_lines():
    path = SAMPLES / "orphan_tool_reply.json"
    p = run("check", str(path))
    assert p.returncode == 1
    first = p.stdout.decode().splitlines()[0]
    assert first.startswith(f"{path}:2: TC002 error orphan_tool_result: ")
    assert "\x1b[" not in p.stdout.decode()  # no colour when not on a terminal


def test_json_output_shape_is_the_contract():
    p = run("check", str(SAMPLES / "parallel_half_answered.json"), "--format", "json")
    assert p.returncode == 1
    out = json.loads(p.stdout)
    assert {"dialect", "target", "transcripts", "message_count", "findings"} <= set(out)
    assert (out["dialect"], out["target"], out["transcripts"], out["message_count"]) == ("openai-chat", "openai", 1, 6)
    f = out["findings"][0]
    assert set(f) >= {"code", "rule", "severity", "message_index", "tool_call_id", "other_index", "text",
                      "provider_error", "hint"}
    assert [(x["code"], x["tool_call_id"]) for x in out["findings"] if x["code"] == "TC001"] == [
        ("TC001", "call_wx_tokyo_02"), ("TC001", "call_book_03")]


def test_target_changes_severity_and_text():
    p = run("check", str(SAMPLES / "orphan_tool_reply.json"), "--target", "mistral", "--format", "json")
    out = json.loads(p.stdout)
    orphan = next(f for f in out["findings"] if f["code"] == "TC002")
    assert orphan["provider_error"] == "Unexpected tool call id call_wx_paris_01 in tool results"
    assert out["target"] == "mistral"


def test_stdin_and_request_body_and_jsonl():
    msgs = json.loads((SAMPLES / "clean_parallel_calls.json").read_text())
    body = json.dumps({"model": "gpt-4o", "messages": msgs, "tools": []}).encode()
    assert run("check", "-", stdin=body).returncode == 0
    jsonl = b"\n".join(json.dumps(m).encode() for m in msgs) + b"\n"
    p = run("check", "-", "--format", "json", stdin=b"\xef\xbb\xbf" + jsonl)
    assert p.returncode == 0 and json.loads(p.stdout)["message_count"] == len(msgs)


BAD = [
    (b"", "the input is empty"),
    (b"   \n", "the input is empty"),
    (b'[{"role": "user", "content": "hi"}\n  {"role": "tool"}]', "line 2 column 3: Expecting ',' delimiter"),
    (b'{"messages": [{"role": "user", "content": "x"}, 3]}', "$.messages[1]: expected a message object, got a number"),
    (b"\x00\x01\x02binary\xff", "binary"),
    (b"\xff\xfe{\"a\": 1}", "not valid UTF-8"),
    (b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
    (b'[{"role": "user", "content": NaN}]', "NaN"),
    (b'"just a string"', "no conversation found"),
    (b"42", "no conversation found"),
    (b'{"messages": [{"role": "assistant", "tool_calls": {"id": 1}}]}', "$.messages[0].tool_calls: 'tool_calls' must be an array"),
    (b'{"messages": [{"role": "assistant", "tool_calls": [7]}]}', "$.messages[0].tool_calls[0]: expected a tool call object"),
]


@pytest.mark.parametrize("data,expected", BAD, ids=[e for _, e in BAD])
def test_unreadable_input_exits_2_with_one_line(data, expected):
    p = run("check", "-", stdin=data)
    err = p.stderr.decode()
    assert p.returncode == 2, (p.stdout, err)
    assert err.count("\n") == 1 and "Traceback" not in err
    assert expected in err


@pytest.mark.parametrize("field", ["role", "content", "tool_calls", "tool_call_id", "name", "function_call"])
@pytest.mark.parametrize("value", [None, 1, 1.5, True, "x", [], {}, [1, "a"], {"a": [None]}])
def test_wrong_types_in_every_field_never_crash(field, value):
    base = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "ok"},
    ]
    for m in base:
        m[field] = value
    p = run("check", "-", "--format", "json", stdin=json.dumps(base).encode())
    assert p.returncode in (0, 1, 2), p.stderr
    assert b"Traceback" not in p.stderr
    if p.returncode == 2:
        assert p.stderr.decode().count("\n") == 1
    else:
        json.loads(p.stdout)


def test_missing_file_and_directory():
    p = run("check", "/nonexistent/x.json")
    assert p.returncode == 2 and p.stderr.decode() == "inspector: /nonexistent/x.json: no such file\n"

def test_directory_without_transcripts_exits_2_with_one_line(tmp_path):
    (tmp_path / "notes.txt").write_text("not a transcript")
    p = run("check", str(tmp_path))
    assert p.returncode == 2 and b"is a directory" in p.stderr
    assert p.stderr.decode().count("\n") == 1


# What the core and the CLI never import: the app's packages, and the guard's (issue 26: the
# proxy's server, the framework hooks' frameworks) unless the guard is used.
HEAVY = ("streamlit", "pandas", "starlette", "uvicorn", "litellm", "langchain", "langchain_core", "httpx",
         "httpx2", "yaml")


def test_core_and_cli_never_import_streamlit_pandas_or_the_guards_frameworks():
    code = (
        "import sys, inspector, inspector.cli; from inspector.cli import main;"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['check', {!r}])\n"
        "    try:\n"
        "        main(['proxy', '--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in {!r}]\n"
        "assert not heavy, heavy"
    ).format(str(SAMPLES / "clean_parallel_calls.json"), HEAVY)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr.decode()
