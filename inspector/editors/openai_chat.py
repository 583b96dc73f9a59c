"""The openai-chat editor: raw edits on Chat Completions messages, never in place.

Covers the shapes ``dialects.openai_chat`` reads: ``tool_calls`` with ``function`` objects,
Inspect AI calls (``function`` is the name string), custom tool calls, the legacy
``function_call`` / ``role:"function"`` pair, and SWE-agent replies with ``tool_call_ids``.
"""

from __future__ import annotations

import json
from typing import Any

from ..model import Call, Issue, Result
from ..rules.sequence import text_of
from . import Editor


def _call_list(raw: dict) -> list:
    tc = raw.get("tool_calls")
    return tc if type(tc) is list else []


def _is_legacy(raw: dict, call: Call) -> bool:
    return call.pos >= len(_call_list(raw)) and type(raw.get("function_call")) is dict


def _content_text(content: Any) -> str:
    if type(content) is str:
        return content
    if content is None:
        return ""
    return json.dumps(content, ensure_ascii=False)


class OpenAIChatEditor(Editor):
    dialect = "openai-chat"

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict:
        if call_id is None:  # legacy function_call: answered by a role "function" message
            return {"role": "function", "name": call.name, "content": text}
        return {"role": "tool", "tool_call_id": call_id, "content": text}

    def set_call_id(self, raw: dict, call: Call, new_id: str) -> dict:
        calls = list(_call_list(raw))
        calls[call.pos] = {**calls[call.pos], "id": new_id}
        return {**raw, "tool_calls": calls}

    def set_result_id(self, raw: dict, result: Result, new_id: str) -> dict:
        if raw.get("tool_call_id") is None and type(raw.get("tool_call_ids")) is list and result.pos < len(raw["tool_call_ids"]):
            ids = list(raw["tool_call_ids"])
            ids[result.pos] = new_id
            return {**raw, "tool_call_ids": ids}
        return {**raw, "tool_call_id": new_id}

    def set_result_name(self, raw: dict, result: Result, name: str) -> dict | None:
        if "name" not in raw:
            return None
        return {**raw, "name": name}

    def drop_calls(self, raw: dict, calls: list[Call]) -> tuple[dict, list[Any]]:
        out = dict(raw)
        removed = []
        positions = {c.pos for c in calls}
        tc = _call_list(raw)
        if any(p < len(tc) for p in positions):
            kept = []
            for j, c in enumerate(tc):
                (removed if j in positions else kept).append(c)
            if kept:
                out["tool_calls"] = kept
            else:
                out.pop("tool_calls", None)
                out.pop("parallel_tool_calls", None)
        if any(_is_legacy(raw, c) for c in calls):
            removed.append(out.pop("function_call"))
        if out.get("content") is None and "tool_calls" not in out and "function_call" not in out:
            out["content"] = ""
        return out, removed

    def call_item(self, raw: dict, call: Call) -> Any:
        if _is_legacy(raw, call):
            return raw["function_call"]
        return _call_list(raw)[call.pos]

    def has_id_slot(self, raw: dict, call: Call) -> bool:
        return not _is_legacy(raw, call)

    def shape_fix(self, raw: dict, issue: Issue) -> tuple[dict, str] | None:
        code = issue.code
        if code == "TC007" and raw.get("tool_calls") == []:
            out = {k: v for k, v in raw.items() if k != "tool_calls"}
            out.pop("parallel_tool_calls", None)
            if out.get("content") is None and "function_call" not in out:
                out["content"] = ""
                return out, "removed the empty 'tool_calls' array and set the null content to an empty string"
            return out, "removed the empty 'tool_calls' array"
        if code == "TC010":
            j = issue.data.get("pos", 0)
            calls = list(_call_list(raw))
            fn = calls[j].get("function") if j < len(calls) and type(calls[j]) is dict else None
            if type(fn) is not dict or type(fn.get("arguments")) in (str, type(None)):
                return None
            text = json.dumps(fn["arguments"], ensure_ascii=False)
            calls[j] = {**calls[j], "function": {**fn, "arguments": text}}
            return {**raw, "tool_calls": calls}, f"serialised the {issue.data.get('got', 'object')} arguments of call {j} as a JSON string"
        if code == "TC018" and raw.get("content") is None:
            if raw.get("role") == "assistant" and (raw.get("tool_calls") or raw.get("function_call")):
                return None
            return {**raw, "content": ""}, "set the null or missing content to an empty string"
        return None

    def note_for_orphan(self, raw: dict, result: Result, text: str) -> dict:
        return {"role": "user", "content": text + "\n" + _content_text(raw.get("content"))}

    def user_to_result(self, raw: dict, call: Call, call_id: str | None) -> dict:
        rest = {k: v for k, v in raw.items() if k != "role"}
        if call_id is None:
            return {"role": "function", "name": call.name, **rest}
        return {"role": "tool", "tool_call_id": call_id, **rest}

    def bridge(self, text: str) -> dict:
        return {"role": "assistant", "content": text}

    def role_of(self, item: Any) -> str:
        role = item.get("role") if type(item) is dict else None
        return "system" if role == "developer" else str(role)

    def text_of(self, raw: Any) -> str:
        return text_of(raw) if type(raw) is dict else ""


EDITOR = OpenAIChatEditor()
