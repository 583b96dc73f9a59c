"""Transcripts for the loop tests: real loops and legitimate repeats, in OpenAI Chat Completions."""

from __future__ import annotations

import json

TABLES = '["customers", "orders", "products"]'


def call(cid: str, name: str, args: dict | str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": cid, "type": "function",
         "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}]}


def result(cid: str, content: str) -> dict:
    return {"role": "tool", "tool_call_id": cid, "content": content}


def rig_loop(n: int = 6) -> list[dict]:
    """The Rig shape (0xPlaygrounds/rig#1130): each ``list_tables_tool`` result is sent back as a
    user message, so the model never sees an answer and calls the tool again, six times."""
    out: list[dict] = [{"role": "user", "content": "Which tables does the database have?"}]
    for k in range(n):
        out.append(call(f"call_{k}", "list_tables_tool", {}))
        out.append({"role": "user", "content": TABLES})
    out.append({"role": "assistant", "content": "I could not list the tables."})
    return out


def same_result_loop(n: int = 4, spellings: tuple[str, ...] = ('{"path": "src/app.py", "lines": 40}',)) -> list[dict]:
    """``read_file`` of one path, answered with the same text every time; the k-th call's
    arguments are written as ``spellings[k % len(spellings)]``."""
    out: list[dict] = [{"role": "user", "content": "Fix the bug."}]
    for k in range(n):
        out += [call(f"call_{k}", "read_file", spellings[k % len(spellings)]),
                result(f"call_{k}", "def main():\n    pass\n")]
    out.append({"role": "assistant", "content": "Done."})
    return out


def error_loop(n: int = 3) -> list[dict]:
    """A tool that fails every time (an ``error`` field on the tool message)."""
    out: list[dict] = [{"role": "user", "content": "Deploy."}]
    for k in range(n):
        out += [call(f"call_{k}", "deploy", {"env": "prod"}),
                {**result(f"call_{k}", f"attempt {k}: permission denied"), "error": "permission denied"}]
    out.append({"role": "assistant", "content": "It keeps failing."})
    return out


def job_poll(n: int = 5) -> list[dict]:
    """A job-status poll whose results change: no loop."""
    states = ["queued", "running 20%", "running 60%", "running 90%", "done"]
    out: list[dict] = [{"role": "user", "content": "Run the export and tell me when it is done."}]
    for k in range(n):
        out += [call(f"call_{k}", "job_status", {"job_id": "job-42"}),
                result(f"call_{k}", json.dumps({"job_id": "job-42", "state": states[k % len(states)]}))]
    out.append({"role": "assistant", "content": "The export is done."})
    return out


def paginated_search(n: int = 5) -> list[dict]:
    """A search paged through: the same tool, other arguments each time: no repeat."""
    out: list[dict] = [{"role": "user", "content": "Find every invoice from 2024."}]
    for k in range(n):
        out += [call(f"call_{k}", "search", {"query": "invoice 2024", "page": k + 1}),
                result(f"call_{k}", json.dumps({"page": k + 1, "hits": [f"inv-{k}-a", f"inv-{k}-b"]}))]
    out.append({"role": "assistant", "content": "Found ten invoices."})
    return out


def anthropic_rig_loop(n: int = 6) -> list[dict]:
    """The Rig shape in Anthropic Messages: results as plain user text, not tool_result blocks."""
    out: list[dict] = [{"role": "user", "content": "Which tables does the database have?"}]
    for k in range(n):
        out.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"toolu_{k:02d}", "name": "list_tables_tool", "input": {}}]})
        out.append({"role": "user", "content": [{"type": "text", "text": TABLES}]})
    out.append({"role": "assistant", "content": [{"type": "text", "text": "I could not list the tables."}]})
    return out
