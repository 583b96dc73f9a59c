"""The Responses editor: raw edits on ``input`` items, never in place.

Each item is one entry of the neutral view, so repair's plan applies as for openai-chat: a
placeholder is an output item of the type that answers the call (``function_call_output`` for a
``function_call``, ``custom_tool_call_output`` for a ``custom_tool_call``, ...). Agents SDK run
items (``{"type": "tool_call_item", "raw_item": {...}}``) are edited inside their ``raw_item``.
Removing a call (``missing=remove_call``) would remove the whole item, which this interface
cannot express, so it is refused with a clear message.
"""

from __future__ import annotations

import json
from typing import Any

from ..dialects.responses import MESSAGE_ROLES, OUTPUT_OF, OUTPUTS
from ..errors import InputError
from ..model import Call, Issue, Result
from ..rules.sequence import text_of
from . import Editor, register


def _inner(raw: dict) -> dict:
    inner = raw.get("raw_item")
    return inner if type(inner) is dict and type(raw.get("type")) is str and raw["type"].endswith("_item") else raw


def _with_inner(raw: dict, inner: dict) -> dict:
    return {**raw, "raw_item": inner} if _inner(raw) is not raw else inner


def _id_key(item: dict) -> str:
    t = item.get("type")
    if t == "mcp_approval_request":
        return "id"
    if t == "mcp_approval_response":
        return "approval_request_id"
    if t == "local_shell_call_output" and "call_id" not in item:
        return "id"
    return "call_id"


class ResponsesEditor(Editor):
    dialect = "openai-responses"

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict:
        kind = OUTPUT_OF.get(getattr(call, "tag", "function_call"), "function_call_output")
        if kind == "mcp_approval_response":
            return {"type": kind, "approval_request_id": call_id, "approve": False, "reason": text}
        if kind == "local_shell_call_output":
            return {"type": kind, "id": call_id, "output": text}
        return {"type": kind, "call_id": call_id, "output": text}

    def set_call_id(self, raw: dict, call: Call, new_id: str) -> dict:
        item = _inner(raw)
        return _with_inner(raw, {**item, _id_key(item): new_id})

    def set_result_id(self, raw: dict, result: Result, new_id: str) -> dict:
        item = _inner(raw)
        return _with_inner(raw, {**item, _id_key(item): new_id})

    def set_result_name(self, raw: dict, result: Result, name: str) -> dict | None:
        item = _inner(raw)
        return _with_inner(raw, {**item, "name": name}) if "name" in item else None

    def drop_calls(self, raw: dict, calls: list[Call]) -> tuple[dict, list[Any]]:
        raise InputError("missing=remove_call is not available for Responses input: a call is a whole item; "
                         "use missing=placeholder")

    def call_item(self, raw: dict, call: Call) -> Any:
        return _inner(raw)

    def has_id_slot(self, raw: dict, call: Call) -> bool:
        return True

    def shape_fix(self, raw: dict, issue: Issue) -> tuple[dict, str] | None:
        item = _inner(raw)
        if issue.code == "TC010" and item.get("type") == "function_call" and type(item.get("arguments")) in (dict, list):
            text = json.dumps(item["arguments"], ensure_ascii=False)
            return _with_inner(raw, {**item, "arguments": text}), "serialised the object arguments as a JSON string"
        return None

    def note_for_orphan(self, raw: dict, result: Result, text: str) -> dict:
        return {"role": "user", "content": text + "\n" + self.text_of(raw)}

    def user_to_result(self, raw: dict, call: Call, call_id: str | None) -> dict:
        item = self.placeholder(call, call_id, self.text_of(raw))
        return item

    def bridge(self, text: str) -> dict:
        return {"role": "assistant", "content": text}

    def role_of(self, item: Any) -> str:
        if type(item) is not dict:
            return "unknown"
        item = _inner(item)
        t = item.get("type")
        if t in OUTPUT_OF:
            return "assistant"
        if t in OUTPUTS:
            return "tool"
        if t == "message" or (t is None and "role" in item):
            return MESSAGE_ROLES.get(item.get("role"), str(item.get("role")))
        return str(t)

    def text_of(self, raw: Any) -> str:
        if type(raw) is not dict:
            return ""
        item = _inner(raw)
        out = item.get("output")
        if type(out) is str:
            return out
        if out is not None:
            return json.dumps(out, ensure_ascii=False)
        return text_of(item)


EDITOR = register(ResponsesEditor())
