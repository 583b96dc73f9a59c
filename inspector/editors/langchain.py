"""The LangChain editor: raw edits on serialized messages, in the shape each message has.

A message may be a ``dumpd`` dump (fields under ``kwargs``), a ``messages_to_dict`` entry
(fields under ``data``) or a plain ``model_dump``; edits go to its fields and it is wrapped back
the same way. New ToolMessages take the shape of the AIMessage whose call they answer and carry
``status: "error"`` (LangChain's own flag for a failed tool) when they are placeholders.
"""

from __future__ import annotations

import json
from typing import Any

from ..dialects.langchain import CHAT_ROLES, KINDS, rewrap, shape, unwrap
from ..model import Call, Issue, Result
from ..rules.sequence import text_of
from . import Editor, register

LC_PATH = ["langchain", "schema", "messages"]


def _message(kind: str, form: str, fields: dict) -> dict:
    """A new message of ``kind`` (``tool``, ``human``, ``ai``) in serialization shape ``form``."""
    if form == "lc":
        cls = {"tool": "ToolMessage", "human": "HumanMessage", "ai": "AIMessage"}[kind]
        return {"lc": 1, "type": "constructor", "id": [*LC_PATH, cls], "kwargs": {**fields, "type": kind}}
    if form == "data":
        return {"type": kind, "data": {**fields, "type": kind}}
    return {**fields, "type": kind}


class LangChainEditor(Editor):
    dialect = "langchain"

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict:
        form = getattr(call, "tag", "plain")
        return _message("tool", form, {"content": text, "tool_call_id": call_id, "name": call.name, "status": "error"})

    def _call_slot(self, d: dict, pos: int) -> tuple[str, list, int]:
        """Which list holds call ``pos``: tool_calls, invalid_tool_calls, or additional_kwargs.tool_calls."""
        tc = d.get("tool_calls")
        if tc is None:
            return "additional_kwargs", list(d["additional_kwargs"]["tool_calls"]), pos
        if pos < len(tc):
            return "tool_calls", list(tc), pos
        return "invalid_tool_calls", list(d.get("invalid_tool_calls") or []), pos - len(tc)

    def set_call_id(self, raw: dict, call: Call, new_id: str) -> dict:
        _, d = unwrap(raw)
        key, lst, k = self._call_slot(d, call.pos)
        lst[k] = {**lst[k], "id": new_id}
        if key == "additional_kwargs":
            return rewrap(raw, {**d, "additional_kwargs": {**d["additional_kwargs"], "tool_calls": lst}})
        return rewrap(raw, {**d, key: lst})

    def set_result_id(self, raw: dict, result: Result, new_id: str) -> dict:
        _, d = unwrap(raw)
        return rewrap(raw, {**d, "tool_call_id": new_id})

    def set_result_name(self, raw: dict, result: Result, name: str) -> dict | None:
        _, d = unwrap(raw)
        return rewrap(raw, {**d, "name": name}) if "name" in d else None

    def drop_calls(self, raw: dict, calls: list[Call]) -> tuple[dict, list[Any]]:
        _, d = unwrap(raw)
        d = dict(d)
        removed: list[Any] = []
        by_key: dict[str, set[int]] = {}
        for c in calls:
            key, _, k = self._call_slot(d, c.pos)
            by_key.setdefault(key, set()).add(k)
        for key, drop in by_key.items():
            src = d["additional_kwargs"]["tool_calls"] if key == "additional_kwargs" else d.get(key) or []
            kept = [c for j, c in enumerate(src) if j not in drop]
            removed.extend(c for j, c in enumerate(src) if j in drop)
            if key == "additional_kwargs":
                d["additional_kwargs"] = {**d["additional_kwargs"], "tool_calls": kept}
            else:
                d[key] = kept  # LangChain's own default is an empty list
        if d.get("content") is None:
            d["content"] = ""
        return rewrap(raw, d), removed

    def call_item(self, raw: dict, call: Call) -> Any:
        _, d = unwrap(raw)
        _, lst, k = self._call_slot(d, call.pos)
        return lst[k]

    def has_id_slot(self, raw: dict, call: Call) -> bool:
        return True

    def shape_fix(self, raw: dict, issue: Issue) -> tuple[dict, str] | None:
        _, d = unwrap(raw)
        if issue.code == "TC018" and d.get("content") is None:
            return rewrap(raw, {**d, "content": ""}), "set the null or missing content to an empty string"
        return None

    def note_for_orphan(self, raw: dict, result: Result, text: str) -> dict:
        return _message("human", shape(raw), {"content": text + "\n" + self.text_of(raw)})

    def user_to_result(self, raw: dict, call: Call, call_id: str | None) -> dict:
        _, d = unwrap(raw)
        return _message("tool", shape(raw), {"content": d.get("content", ""), "tool_call_id": call_id, "name": call.name})

    def bridge(self, text: str) -> dict:
        return {"type": "ai", "content": text}

    def role_of(self, item: Any) -> str:
        if type(item) is not dict:
            return "unknown"
        kind, d = unwrap(item)
        role = KINDS.get(kind) if type(kind) is str else None
        if role == "chat":
            role = CHAT_ROLES.get(d.get("role"))
        return role or str(kind)

    def text_of(self, raw: Any) -> str:
        if type(raw) is not dict:
            return ""
        content = unwrap(raw)[1].get("content")
        if content is not None and type(content) not in (str, list):
            return json.dumps(content, ensure_ascii=False)
        return text_of(unwrap(raw)[1])


EDITOR = register(LangChainEditor())
