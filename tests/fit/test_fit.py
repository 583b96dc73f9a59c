"""Fit to a token budget: whole units only, clean output, the wrapper kept, a report that loses
nothing, and the token counts behind it (exact and offline for OpenAI encodings)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.transcripts import asst, call, reply, system, tool, user

import inspector
from inspector.tokens import Counter, count_messages, counter_for

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"


def run(*args, stdin: bytes | None = None):
    env = {**os.environ, "INSPECTOR_DEBUG": "1"}
    return subprocess.run([sys.executable, "-m", "inspector", *args], input=stdin, capture_output=True,
                          timeout=120, env=env)


def long(word: str, n: int = 60) -> str:
    return " ".join(f"{word}{k}" for k in range(n))


def chat() -> list[dict]:
    return [
        system("you are a careful agent"),
        user(long("first")),
        asst(call("call_a", "search_web"), call("call_b", "read_file")),
        tool("call_a", long("alpha")),
        tool("call_b", long("beta")),
        reply(long("answer")),
        user("and now?"),
        asst(call("call_c", "run_shell")),
        tool("call_c", "ok"),
        reply("done"),
    ]


def tokens_of(items, target="openai") -> int:
    return sum(count_messages(items, counter_for(target)))


def errors(source, target=None):
    return [f for f in inspector.check(source, target).findings if f.severity == "error"]


def test_the_tokenizer_counts_exactly_like_openai_encodings():
    # Values from OpenAI's cookbook (How to count tokens with tiktoken).
    assert Counter("cl100k_base").count_texts(["tiktoken is great!", "お誕生日おめでとう"]) == [6, 9]
    assert Counter("o200k_base").count_texts(["お誕生日おめでとう", "hello world"]) == [8, 2]
    est = Counter("estimate")
    assert not est.exact and "estimate" in est.label
    assert est.count_text("tiktoken is great!") >= 6


def test_counting_needs_no_network_and_no_cached_files(tmp_path):
    code = (
        "import socket\n"
        "def refuse(*a, **k): raise OSError('network used')\n"
        "socket.socket.connect = refuse; socket.create_connection = refuse; socket.getaddrinfo = refuse\n"
        "from inspector.tokens import Counter\n"
        "print(Counter('o200k_base').count_text('hello world'), Counter('cl100k_base').count_text('hello world'))\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path), "TIKTOKEN_CACHE_DIR": str(tmp_path),
           "DATA_GYM_CACHE_DIR": str(tmp_path)}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, env=env, cwd=ROOT)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout.split() == [b"2", b"2"]
    assert list(tmp_path.iterdir()) == []  # nothing was cached either


def test_import_and_a_plain_check_never_load_the_tokenizer():
    code = (
        "import sys, contextlib, io, inspector\n"
        "from inspector.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['check', %r])\n"
        "assert 'toktok' not in sys.modules, 'tokenizer loaded by a plain check'\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['check', '--tokens', %r])\n"
        "assert 'toktok' in sys.modules\n"
    ) % ((str(ROOT / "sample_logs" / "clean_parallel_calls.json"),) * 2)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0, p.stderr.decode()


def test_check_json_gains_totals_and_per_message_counts_behind_a_flag():
    path = str(ROOT / "sample_logs" / "clean_parallel_calls.json")
    plain = json.loads(run("check", "--format", "json", path).stdout)
    assert "tokens" not in plain
    rep = json.loads(run("check", "--format", "json", "--tokens", path).stdout)
    t = rep["tokens"]
    assert t["counter"] == "o200k_base" and t["exact"] is True
    assert len(t["transcripts"][0]["per_message"]) == rep["message_count"]
    assert t["total"] == sum(t["transcripts"][0]["per_message"]) > 0
    est = json.loads(run("check", "--format", "json", "--tokenizer", "estimate", path).stdout)["tokens"]
    assert est["counter"] == "estimate" and est["exact"] is False and "estimate" in est["label"]


def test_drop_oldest_removes_whole_call_blocks_and_never_leaves_a_leading_result():
    msgs = chat()
    total = tokens_of(msgs)
    r = inspector.fit(msgs, total - 10)
    kinds = [(u["kind"], u["first"], u["last"]) for u in r.report["removed"]]
    assert kinds == [("message", 0, 0)]  # the system message alone was enough
    # Just under the first block: the user message goes, then the call block with both results.
    budget = total - tokens_of(msgs[:2]) - 5
    r = inspector.fit(msgs, budget)
    assert [(u["kind"], u["messages"]) for u in r.report["removed"]] == [
        ("message", [0]), ("message", [1]), ("call block", [2, 3, 4])]
    assert r.data[0]["role"] == "assistant" and "tool_calls" not in r.data[0]
    assert r.report["tokens_after"] <= budget and not errors(r.data)


def test_a_displaced_result_goes_with_its_call_wherever_it_is():
    msgs = [user("q"), asst(call("call_a")), user("interjection " * 40), tool("call_a", "late"), reply("ok"),
            user("last")]
    assert [f.code for f in inspector.check(msgs).findings if f.severity == "error"] == ["TC003"]
    r = inspector.fit(msgs, tokens_of(msgs) - tokens_of(msgs[:1]) - 1)
    gone = [u for u in r.report["removed"] if u["kind"] == "call block"]
    assert gone and gone[0]["messages"] == [1, 3]
    assert not any(m.get("role") == "tool" for m in r.data)


def test_protected_messages_stay_and_too_small_a_budget_raises():
    msgs = chat()
    r = inspector.fit(msgs, 60, options={"keep_system": True, "keep_first_user": False, "keep_last": 2})
    assert r.data[0] == msgs[0] and r.data[-2:] == msgs[-2:]
    # keep_last 2 protects the whole last call block (its result is among the last two messages).
    assert msgs[7] in r.data
    with pytest.raises(inspector.FitError, match=r"protected messages alone need \d+ tokens, \d+ more than the budget of 5"):
        inspector.fit(msgs, 5, options={"keep_system": True})


def test_drop_middle_keeps_the_head_and_the_tail():
    msgs = chat() + [user(long("later")), reply(long("final"))]
    r = inspector.fit(msgs, tokens_of(msgs) // 2, options={"strategy": "drop-middle"})
    assert r.data[0] == msgs[0] and r.data[-1] == msgs[-1]
    assert r.report["tokens_after"] <= tokens_of(msgs) // 2 and not errors(r.data)


def test_responses_reasoning_goes_with_its_call():
    items = [
        {"role": "user", "content": long("question")},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": long("think")}]},
        {"type": "function_call", "call_id": "call_1", "name": "search", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": long("found")},
        {"role": "assistant", "content": "answer"},
        {"role": "user", "content": "thanks"},
    ]
    body = {"model": "gpt-5", "input": items}
    r = inspector.fit(body, tokens_of(items, "responses") - tokens_of(items[:1], "responses") - 1)
    assert [u["messages"] for u in r.report["removed"]] == [[0], [1, 2, 3]]
    assert r.data["model"] == "gpt-5" and r.data["input"] == items[4:]
    assert not errors(r.data)


def anthropic_chat() -> dict:
    tu = lambda cid: {"type": "tool_use", "id": cid, "name": "search", "input": {"q": cid}}
    tr = lambda cid: {"type": "tool_result", "tool_use_id": cid, "content": long("out")}
    return {"model": "claude-sonnet-4-5", "max_tokens": 100, "system": "be brief", "messages": [
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": [tu("toolu_1")]},
        {"role": "user", "content": [tr("toolu_1")]},
        {"role": "assistant", "content": long("reply")},
        {"role": "user", "content": "second"},
        {"role": "assistant", "content": [tu("toolu_2")]},
        {"role": "user", "content": [tr("toolu_2")]},
        {"role": "assistant", "content": "end"},
    ]}


def test_anthropic_role_alternation_holds_at_the_seam():
    body = anthropic_chat()
    msgs = body["messages"]
    # Dropping the first block and the reply would put "first" next to "second" (two user turns):
    # the seam check takes "second" out too, so the output still alternates.
    budget = tokens_of(msgs, "anthropic") - tokens_of(msgs[1:4], "anthropic") - 1
    r = inspector.fit(body, budget, options={"keep_first_user": True})
    roles = [m["role"] for m in r.data["messages"]]
    assert roles == ["user", "assistant", "user", "assistant"]
    assert r.data["system"] == "be brief" and not errors(r.data)
    assert r.report["counter"]["exact"] is False


def test_mistral_keeps_its_role_order():
    msgs = [system("s"), user(long("u")), asst(call("abcdefgh1")), tool("abcdefgh1", long("t")),
            user("next"), reply("r")]
    msgs.insert(4, reply("bridge"))
    assert not errors(msgs, "mistral")
    for budget in range(0, tokens_of(msgs, "mistral"), 7):
        try:
            r = inspector.fit(msgs, budget, "mistral", {"keep_system": True})
        except inspector.FitError:
            continue
        assert not errors(r.data, "mistral"), (budget, r.data)


def test_output_and_report_hold_every_input_item_and_a_second_fit_changes_nothing():
    msgs = chat()
    r = inspector.fit(msgs, 120, options={"keep_system": True})
    back = {it["index"]: it["content"] for u in r.report["removed"] for it in u["items"]}
    kept = iter(r.data)
    rebuilt = [back[k] if k in back else next(kept) for k in range(len(msgs))]
    assert rebuilt == msgs
    again = inspector.fit(r.output, 120, options={"keep_system": True})
    assert again.output == r.output and again.report["removed"] == []


def test_claude_code_logs_lose_whole_entries():
    path = next(iter(sorted((CORPUS / "anthropic").glob("*claude*code*"))), None) if CORPUS.exists() else None
    entries = []
    for k in range(3):
        entries += [
            {"type": "user", "uuid": f"u{k}", "sessionId": "s", "message": {"role": "user", "content": long(f"ask{k}")}},
            {"type": "assistant", "uuid": f"a{k}", "sessionId": "s",
             "message": {"id": f"msg_{k}", "role": "assistant", "content": [{"type": "text", "text": "let me look"}]}},
            {"type": "assistant", "uuid": f"b{k}", "sessionId": "s",
             "message": {"id": f"msg_{k}", "role": "assistant",
                         "content": [{"type": "tool_use", "id": f"toolu_{k}", "name": "Read", "input": {}}]}},
            {"type": "user", "uuid": f"r{k}", "sessionId": "s", "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"toolu_{k}", "content": long("file")}]}},
            {"type": "assistant", "uuid": f"c{k}", "sessionId": "s",
             "message": {"id": f"msg_{k}b", "role": "assistant", "content": [{"type": "text", "text": "seen"}]}},
        ]
    text = "".join(json.dumps(e) + "\n" for e in entries)
    before = inspector.check(text)
    assert before.dialect == "claude-code" and not errors(text)
    r = inspector.fit(text, 400)
    assert r.output.count(b"\n") == len(r.data)  # still JSON Lines
    kept = {e["uuid"] for e in r.data}
    gone = {it["content"]["uuid"] for u in r.report["removed"] for it in u["items"]}
    assert kept | gone == {e["uuid"] for e in entries} and not kept & gone
    assert {"a2", "b2"} <= kept or {"a2", "b2"} <= gone  # both entries of one message go together
    assert not errors(r.output)
    del path


def test_cli_fit_writes_the_file_and_the_report(tmp_path):
    body = {"model": "gpt-4o", "temperature": 0, "messages": chat()}
    src = tmp_path / "in.json"
    src.write_text(json.dumps(body, indent=2))
    out, rep = tmp_path / "out.json", tmp_path / "report.json"
    p = run("fit", str(src), "--max-tokens", "150", "--keep-system", "-o", str(out), "--report", str(rep))
    assert p.returncode == 0, p.stderr
    assert p.stderr.decode().count("\n") == 1 and "units removed" in p.stderr.decode()
    data = json.loads(out.read_text())
    assert data["model"] == "gpt-4o" and data["temperature"] == 0 and data["messages"][0] == body["messages"][0]
    report = json.loads(rep.read_text())
    assert report["tokens_after"] <= 150 and report["counter"]["name"] == "o200k_base"
    assert all({"first", "last", "tokens", "kind", "items"} <= set(u) for u in report["removed"])
    assert run("check", str(out)).returncode == 0


def test_cli_fit_exits_1_with_one_line_when_protected_messages_exceed_the_budget(tmp_path):
    src = tmp_path / "in.json"
    src.write_text(json.dumps(chat()))
    p = run("fit", str(src), "--max-tokens", "3", "--keep-system", "--keep-first-user")
    assert p.returncode == 1 and p.stdout == b""
    lines = p.stderr.decode().splitlines()
    assert len(lines) == 1 and "more than the budget of 3" in lines[0]
    p = run("fit", str(src), "--max-tokens", "-4")
    assert p.returncode == 2 and len(p.stderr.decode().splitlines()) == 1


def test_cli_fit_keeps_json_lines():
    text = "".join(json.dumps(m) + "\n" for m in chat()).encode()
    p = run("fit", "-", "--max-tokens", "100", "--no-keep-first-user", stdin=text)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.decode().splitlines()
    assert lines and all(json.loads(x)["role"] for x in lines)


def test_cli_fit_keeps_the_system_prompt_and_the_task_by_default(tmp_path):
    src = tmp_path / "in.json"
    src.write_text(json.dumps(chat()))
    p = run("fit", str(src), "--max-tokens", "200")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out[0] == chat()[0] and out[1] == chat()[1]  # the system prompt and the first user message
    p = run("fit", str(src), "--max-tokens", "200", "--no-keep-system", "--no-keep-first-user")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)[0]["role"] != "system"


def broken_chat() -> list[dict]:
    """``chat()`` with call_b's result lost: OpenAI rejects it (TC001), and no fit removes that."""
    return [m for m in chat() if m.get("tool_call_id") != "call_b"]


def test_cli_fit_never_writes_a_file_the_target_rejects(tmp_path):
    src, out, rep = tmp_path / "in.json", tmp_path / "out.json", tmp_path / "report.json"
    src.write_text(json.dumps(broken_chat()))
    budget = tokens_of(broken_chat()) * 2  # fits as it is: the fit removes nothing, the error stays
    p = run("fit", str(src), "--max-tokens", str(budget), "-o", str(out), "--report", str(rep))
    assert p.returncode == 1 and not out.exists(), p.stderr
    line = p.stderr.decode()
    assert line.count("\n") == 1 and "1 error(s)" in line and "--repair" in line
    assert json.loads(rep.read_text())["errors_after"] == 1


def test_cli_fit_repair_repairs_then_fits_in_one_step(tmp_path):
    src, out, rep = tmp_path / "in.json", tmp_path / "out.json", tmp_path / "report.json"
    src.write_text(json.dumps(broken_chat()))
    p = run("fit", str(src), "--max-tokens", "150", "--repair", "-o", str(out), "--report", str(rep))
    assert p.returncode == 0, p.stderr
    assert run("check", str(out)).returncode == 0  # the target accepts the fitted file
    data = json.loads(out.read_text())
    assert data[0] == chat()[0] and data[1] == chat()[1]
    report = json.loads(rep.read_text())
    assert report["errors_before"] == 1 and report["errors_after"] == 0 and report["tokens_after"] <= 150
    assert report["repair"]["changes"] and "repaired first: 1 error(s) before" in p.stderr.decode()


@pytest.mark.skipif(not (CORPUS / "trajectories").exists(), reason="needs ../shared/corpus")
@pytest.mark.parametrize("path", sorted((CORPUS / "trajectories").glob("*.json")) if (CORPUS / "trajectories").exists() else [],
                         ids=lambda p: p.name[:40])
def test_real_trajectories_fit_to_half_their_size(path):
    before = inspector.check(path)
    n_before = len(errors(path))
    total = sum(count_messages([m for t in inspector.load(path).transcripts for m in t.items], Counter("o200k_base")))
    r = inspector.fit(str(path), total // 2, options={"keep_system": True, "keep_first_user": True})
    assert r.report["tokens_after"] <= total // 2
    assert len(errors(r.output)) <= n_before
    assert before.dialect == inspector.check(r.output).dialect


def test_a_seam_between_protected_messages_is_refused_not_written():
    # Bedrock's Converse API refuses two user messages in a row (the Messages API combines them).
    body = {"messages": [{"role": "user", "content": [{"text": "first"}]},
                         {"role": "assistant", "content": [{"text": long("reply")}]},
                         {"role": "user", "content": [{"text": "last"}]}]}
    with pytest.raises(inspector.FitError, match=r"TC019 .* units on both sides of it are protected"):
        inspector.fit(body, 20, "bedrock", {"keep_first_user": True, "keep_last": 1}, dialect="bedrock")
