"""Generated openai-chat transcripts with one real break, and writers that put an openai-chat
transcript into each other dialect's own shape (the property tests of repair, fit and the
differential suite share them)."""

from __future__ import annotations

import json

from hypothesis import strategies as st

from support.transcripts import valid_transcripts


@st.composite
def broken_chats(draw):
    msgs = draw(valid_transcripts(max_rounds=4))
    tools = [k for k, m in enumerate(msgs) if m["role"] == "tool"]
    k = draw(st.sampled_from(tools))
    how = draw(st.sampled_from(["drop", "duplicate", "move", "orphan"]))
    m = msgs[k]
    if how == "drop":
        del msgs[k]
    elif how == "duplicate":
        msgs.insert(k + 1, dict(m, content=m["content"] + " (again)"))
    elif how == "move":
        del msgs[k]
        at = next((j for j in range(k, len(msgs)) if msgs[j]["role"] == "assistant" and not msgs[j].get("tool_calls")), None)
        msgs.insert(len(msgs) if at is None else at + 1, m)
    else:
        msgs.insert(k + 1, {"role": "tool", "tool_call_id": "stray01", "content": "stray output"})
    return msgs


def _runs(chat):
    """openai-chat messages as (kind, payload): a run of tool messages is one 'results' entry."""
    out = []
    for m in chat:
        if m["role"] == "tool":
            if out and out[-1][0] == "results":
                out[-1][1].append(m)
            else:
                out.append(("results", [m]))
        elif m["role"] != "system":
            out.append((m["role"], m))
    return out


def to_anthropic(chat):
    msgs = []
    for kind, p in _runs(chat):
        if kind == "results":
            msgs.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": r["tool_call_id"], "content": r["content"]} for r in p]})
        elif kind == "user":
            msgs.append({"role": "user", "content": p["content"]})
        else:
            blocks = [{"type": "text", "text": p["content"]}] if p.get("content") else []
            blocks += [{"type": "tool_use", "id": c["id"], "name": c["function"]["name"],
                        "input": json.loads(c["function"]["arguments"])} for c in p.get("tool_calls", [])]
            msgs.append({"role": "assistant", "content": blocks})
    return {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": msgs}


def to_bedrock(chat):
    msgs = []
    for kind, p in _runs(chat):
        if kind == "results":
            msgs.append({"role": "user", "content": [
                {"toolResult": {"toolUseId": r["tool_call_id"], "content": [{"text": r["content"] or "-"}]}} for r in p]})
        elif kind == "user":
            msgs.append({"role": "user", "content": [{"text": p["content"]}]})
        else:
            blocks = [{"text": p["content"]}] if p.get("content") else []
            blocks += [{"toolUse": {"toolUseId": c["id"], "name": c["function"]["name"],
                                    "input": json.loads(c["function"]["arguments"])}} for c in p.get("tool_calls", [])]
            msgs.append({"role": "assistant", "content": blocks})
    return {"modelId": "anthropic.claude-3", "messages": msgs}


def to_gemini(chat):
    names = {c["id"]: c["function"]["name"] for m in chat for c in m.get("tool_calls", [])}
    contents = []
    for kind, p in _runs(chat):
        if kind == "results":
            contents.append({"role": "user", "parts": [
                {"functionResponse": {"id": r["tool_call_id"], "name": names.get(r["tool_call_id"], "lost_tool"),
                                      "response": {"output": r["content"]}}} for r in p]})
        elif kind == "user":
            contents.append({"role": "user", "parts": [{"text": p["content"]}]})
        else:
            parts = [{"text": p["content"]}] if p.get("content") else []
            parts += [{"functionCall": {"id": c["id"], "name": c["function"]["name"],
                                        "args": json.loads(c["function"]["arguments"])}} for c in p.get("tool_calls", [])]
            contents.append({"role": "model", "parts": parts})
    return {"contents": contents}


def to_responses(chat):
    items = []
    for m in chat:
        if m["role"] == "tool":
            items.append({"type": "function_call_output", "call_id": m["tool_call_id"], "output": m["content"]})
        elif m["role"] == "assistant" and m.get("tool_calls"):
            items.extend({"type": "function_call", "call_id": c["id"], "name": c["function"]["name"],
                          "arguments": c["function"]["arguments"]} for c in m["tool_calls"])
        else:
            items.append({"role": m["role"], "content": m["content"]})
    return {"model": "gpt-5", "input": items}


def to_langchain(chat):
    kind = {"user": "human", "assistant": "ai", "system": "system", "tool": "tool"}
    out = []
    for m in chat:
        d = {"type": kind[m["role"]], "content": m.get("content") or ""}
        if m["role"] == "assistant":
            d["tool_calls"] = [{"name": c["function"]["name"], "args": json.loads(c["function"]["arguments"]),
                                "id": c["id"], "type": "tool_call"} for c in m.get("tool_calls", [])]
        if m["role"] == "tool":
            d["tool_call_id"] = m["tool_call_id"]
        out.append({"type": d["type"], "data": d})
    return {"messages": out}


def to_claude_code(chat):
    """Session log entries as Claude Code writes them: one per content block of a reply (one
    message id), one per tool result; the results of parallel calls interleaved with the calls
    when the reply has an even number of them, as Claude Code sometimes writes them."""
    out = []

    def add(role, content, mid=None):
        message = {"role": role, "content": content}
        if mid:
            message = {"id": mid, "type": "message", **message}
        out.append({"parentUuid": out[-1]["uuid"] if out else None, "isSidechain": False, "sessionId": "s1",
                    "type": role, "message": message, "uuid": f"e{len(out)}", "timestamp": f"t{len(out)}"})

    runs = _runs(chat)
    k = 0
    while k < len(runs):
        kind, p = runs[k]
        if kind == "user":
            add("user", p["content"])
        elif kind == "assistant":
            mid = f"msg_{k}"
            if p.get("content"):
                add("assistant", [{"type": "text", "text": p["content"]}], mid)
            calls = p.get("tool_calls", [])
            results = runs[k + 1][1] if k + 1 < len(runs) and runs[k + 1][0] == "results" else []
            by_id = {r["tool_call_id"]: r for r in results}
            interleave = len(calls) % 2 == 0 and len(results) == len(calls) and all(c["id"] in by_id for c in calls)
            for c in calls:
                add("assistant", [{"type": "tool_use", "id": c["id"], "name": c["function"]["name"],
                                   "input": json.loads(c["function"]["arguments"])}], mid)
                if interleave:
                    r = by_id[c["id"]]
                    add("user", [{"type": "tool_result", "tool_use_id": r["tool_call_id"], "content": r["content"]}])
            if interleave:
                k += 1
        else:
            for r in p:
                add("user", [{"type": "tool_result", "tool_use_id": r["tool_call_id"], "content": r["content"]}])
        k += 1
    return out


def to_codex(chat):
    """A Codex CLI rollout: its metadata lines, then one ``response_item`` line per Responses item."""
    meta = {"timestamp": "t0", "type": "session_meta", "payload": {"id": "s1", "timestamp": "t0", "cwd": "/p",
                                                                    "originator": "codex_cli_rs", "cli_version": "0.46.0"}}
    context = {"timestamp": "t0", "type": "turn_context", "payload": {"cwd": "/p", "model": "gpt-5-codex"}}
    items = to_responses(chat)["input"]
    return [meta, context, *({"timestamp": f"t{k + 1}", "type": "response_item",
                              "payload": ({"type": "message", **i} if "role" in i else i)} for k, i in enumerate(items))]


def to_gemini_cli(chat):
    """A Gemini CLI session (JSON Lines): a metadata line, then one record per message, each tool
    call's result inside its call; a result no call before it takes is not written (the format
    has no place for it), a second result for a call neither."""
    out = [{"sessionId": "s1", "projectHash": "h", "startTime": "t0", "lastUpdated": "t0", "kind": "main"}]
    calls = {}
    for kind, p in _runs(chat):
        n = len(out)
        if kind == "user":
            out.append({"id": f"m{n}", "timestamp": f"t{n}", "type": "user", "content": [{"text": p["content"]}]})
        elif kind == "assistant":
            tcs = [{"id": c["id"], "name": c["function"]["name"], "args": json.loads(c["function"]["arguments"]),
                    "status": "executing"} for c in p.get("tool_calls", [])]
            calls.update({tc["id"]: tc for tc in tcs})
            out.append({"id": f"m{n}", "timestamp": f"t{n}", "type": "gemini", "content": p.get("content") or "",
                        "toolCalls": tcs, "model": "gemini-2.5-pro"})
        else:
            for r in p:
                tc = calls.get(r["tool_call_id"])
                if tc is not None and "result" not in tc:
                    tc.update(status="success", result=[{"functionResponse": {
                        "id": tc["id"], "name": tc["name"], "response": {"output": r["content"]}}}])
    return out


WRITERS = {"anthropic": to_anthropic, "bedrock": to_bedrock, "gemini": to_gemini, "openai-responses": to_responses,
           "langchain": to_langchain, "claude-code": to_claude_code}
# Session logs whose repair is an append or a rewrite of lines (the log-replay property runs on them too).
LOG_WRITERS = {**WRITERS, "codex": to_codex, "gemini-cli": to_gemini_cli}


def as_text(data, dialect):
    if dialect in ("claude-code", "codex", "gemini-cli"):  # a log: one entry per line
        return "".join(json.dumps(e) + "\n" for e in data)
    return json.dumps(data)


