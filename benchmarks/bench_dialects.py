"""Check speed per dialect, side by side in one process, on a 100,000-message transcript each.

The same synthetic conversation (``gen.build_transcript``: parallel calls, long contents) is
written in every dialect, and for each the full ``inspector.check`` of the bytes (parse, find
the list, read, pair, rules, report) is timed against a bare ``orjson`` parse of the same bytes
(line by line for JSON Lines). Goal: at most 3x the parse for every dialect. Times are CPU
times of this process, best of five, parse and check alternating, the garbage collector off
during the parse as ``inspector.check`` turns it off during the check.

Run: ``make bench`` (with ``bench_check`` and ``bench_repair``), or alone after ``make install``:
``.venv/bin/python benchmarks/bench_dialects.py [N_MESSAGES]``.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen import build_transcript

import inspector


def best_times(parse, check, repeat: int) -> tuple[float, float, float]:
    """Best CPU times of: the parse as any program runs it (collector on), the parse with the
    collector off (as ``inspector.check`` runs), and the check. Measured in turns, so that a busy
    machine slows all three alike."""
    best = [float("inf")] * 3
    clock = time.process_time
    for _ in range(repeat):
        for k, (fn, collector) in enumerate(((parse, True), (parse, False), (check, True))):
            gc.collect()
            if not collector:
                gc.disable()
            t = clock()
            fn()
            best[k] = min(best[k], clock() - t)
            gc.enable()
    return best[0], best[1], best[2]


def rounds(chat: list[dict]):
    """(kind, payload) events of an openai-chat transcript: text turns, call turns, result runs."""
    k = 0
    while k < len(chat):
        m = chat[k]
        if m["role"] == "assistant" and m.get("tool_calls"):
            calls = m["tool_calls"]
            results = []
            k += 1
            while k < len(chat) and chat[k]["role"] == "tool":
                results.append(chat[k])
                k += 1
            yield "calls", calls
            if results:
                yield "results", results
            continue
        if m["role"] != "system":
            yield m["role"], m["content"]
        k += 1


def to_anthropic(chat):
    out = []
    for kind, p in rounds(chat):
        if kind == "calls":
            out.append({"role": "assistant", "content": [
                {"type": "tool_use", "id": c["id"], "name": c["function"]["name"], "input": json.loads(c["function"]["arguments"])}
                for c in p]})
        elif kind == "results":
            out.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": r["tool_call_id"], "content": r["content"]} for r in p]})
        elif kind == "user":
            out.append({"role": "user", "content": p})
        else:
            out.append({"role": "assistant", "content": [{"type": "text", "text": p}]})
    return {"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "bench", "messages": out}


def to_bedrock(chat):
    out = []
    for kind, p in rounds(chat):
        if kind == "calls":
            out.append({"role": "assistant", "content": [
                {"toolUse": {"toolUseId": c["id"], "name": c["function"]["name"], "input": json.loads(c["function"]["arguments"])}}
                for c in p]})
        elif kind == "results":
            out.append({"role": "user", "content": [
                {"toolResult": {"toolUseId": r["tool_call_id"], "content": [{"text": r["content"]}]}} for r in p]})
        else:
            out.append({"role": "user" if kind == "user" else "assistant", "content": [{"text": p}]})
    return {"modelId": "anthropic.claude-3-5-sonnet", "messages": out}


def to_gemini(chat):
    out = []
    for kind, p in rounds(chat):
        if kind == "calls":
            out.append({"role": "model", "parts": [
                {"functionCall": {"id": c["id"], "name": c["function"]["name"], "args": json.loads(c["function"]["arguments"])}}
                for c in p]})
        elif kind == "results":
            names = {}
            out.append({"role": "user", "parts": [
                {"functionResponse": {"id": r["tool_call_id"], "name": names.get(r["tool_call_id"], "tool"),
                                      "response": {"result": r["content"]}}} for r in p]})
        else:
            out.append({"role": "user" if kind == "user" else "model", "parts": [{"text": p}]})
    # functionResponse names: the call's name
    last = {}
    for c in out:
        for part in c["parts"]:
            if "functionCall" in part:
                last[part["functionCall"]["id"]] = part["functionCall"]["name"]
            elif "functionResponse" in part:
                part["functionResponse"]["name"] = last[part["functionResponse"]["id"]]
    return {"contents": out, "systemInstruction": {"parts": [{"text": "bench"}]}}


def to_responses(chat):
    out = []
    n = 0
    for kind, p in rounds(chat):
        if kind == "calls":
            out.extend({"type": "function_call", "call_id": c["id"], "name": c["function"]["name"],
                        "arguments": c["function"]["arguments"]} for c in p)
        elif kind == "results":
            out.extend({"type": "function_call_output", "call_id": r["tool_call_id"], "output": r["content"]} for r in p)
        elif kind == "user":
            out.append({"role": "user", "content": p})
        else:
            n += 1
            out.append({"type": "message", "id": f"msg_{n}", "role": "assistant",
                        "content": [{"type": "output_text", "text": p}]})
    return {"model": "gpt-5", "input": out}


def to_langchain(chat):
    out = []
    for m in chat:
        if m["role"] == "assistant":
            calls = [{"name": c["function"]["name"], "args": json.loads(c["function"]["arguments"]), "id": c["id"],
                      "type": "tool_call"} for c in m.get("tool_calls", [])]
            out.append({"type": "ai", "data": {"content": m["content"] or "", "tool_calls": calls,
                                               "invalid_tool_calls": [], "additional_kwargs": {}}})
        elif m["role"] == "tool":
            out.append({"type": "tool", "data": {"content": m["content"], "tool_call_id": m["tool_call_id"]}})
        else:
            out.append({"type": {"user": "human"}.get(m["role"], m["role"]), "data": {"content": m["content"]}})
    return {"messages": out}


def to_claude_code(chat):
    """JSON Lines entries: one per content block, as Claude Code writes them."""
    out = []
    n = 0

    def entry(kind, message):
        return {"type": kind, "sessionId": "bench", "uuid": f"u{len(out)}", "timestamp": "2025-01-01T00:00:00Z",
                "message": message}

    for kind, p in rounds(chat):
        if kind == "calls":
            n += 1
            for c in p:
                out.append(entry("assistant", {"id": f"msg_{n}", "type": "message", "role": "assistant", "content": [
                    {"type": "tool_use", "id": c["id"], "name": c["function"]["name"],
                     "input": json.loads(c["function"]["arguments"])}]}))
        elif kind == "results":
            for r in p:
                out.append(entry("user", {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": r["tool_call_id"], "content": r["content"]}]}))
        elif kind == "user":
            out.append(entry("user", {"role": "user", "content": p}))
        else:
            n += 1
            out.append(entry("assistant", {"id": f"msg_{n}", "type": "message", "role": "assistant",
                                           "content": [{"type": "text", "text": p}]}))
    return out


def _cut(doc, key, n):
    if key is None:
        return doc[:n]
    doc[key] = doc[key][:n]
    return doc


DIALECTS = [
    # name, converter, key of the list (None: the root is the list), JSON Lines?
    ("openai-chat", lambda chat: {"model": "gpt-4o", "messages": chat}, "messages", False),
    ("anthropic", to_anthropic, "messages", False),
    ("openai-responses", to_responses, "input", False),
    ("gemini", to_gemini, "contents", False),
    ("bedrock", to_bedrock, "messages", False),
    ("langchain", to_langchain, "messages", False),
    ("claude-code", to_claude_code, None, True),
]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    # Dialects that put all results of a call in one message need a longer chat for n messages.
    chat = build_transcript(int(n * 1.7))
    files = []
    for name, convert, key, lines in DIALECTS:
        doc = _cut(convert(chat), key, n)
        count = len(doc) if key is None else len(doc[key])
        data = b"".join(orjson.dumps(e) + b"\n" for e in doc) if lines else orjson.dumps(doc)
        files.append((name, count, data, lines))
    del chat, doc  # only the bytes stay alive: the parse baseline must not pay for our own garbage
    gc.collect()
    print("CPU ms, best of 5. parse = a plain orjson.loads (collector on);")
    print("parse/nogc = orjson with the collector off (as inspector.check runs). Goal: check <= 3x parse.")
    print(f"{'dialect':18} {'messages':>9} {'MB':>6} {'parse':>7} {'nogc':>7} {'check':>7} {'ratio':>6} {'vs nogc':>8}")
    worst = 0.0
    for name, count, data, lines in files:
        if lines:
            def parse(data=data):
                return [orjson.loads(x) for x in data.splitlines() if x]
        else:
            def parse(data=data):
                return orjson.loads(data)
        report = inspector.check(data)
        assert report.dialect == name, (name, report.dialect)
        t_parse, t_nogc, t_check = best_times(parse, lambda data=data: inspector.check(data), 5)
        ratio = t_check / t_parse
        worst = max(worst, ratio)
        print(f"{name:18} {count:9,} {len(data) / 1e6:6.1f} {t_parse * 1000:7.0f} {t_nogc * 1000:7.0f} "
              f"{t_check * 1000:7.0f} {ratio:5.2f}x {t_check / t_nogc:7.2f}x")
    print(f"worst ratio {worst:.2f}x {'(within the 3x goal)' if worst <= 3 else '(OVER the 3x goal)'}")


if __name__ == "__main__":
    main()
