"""Serialized LangChain messages, in the three shapes people save them in:

- ``messages_to_dict``: ``{"type": "ai", "data": {"content": ..., "tool_calls": [...]}}``;
- ``dumpd`` / ``lc`` dumps: ``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}``;
- ``model_dump`` / plain dicts: ``{"type": "ai", "content": ..., "tool_calls": [...]}``.

``AIMessage.tool_calls`` holds ``{"name", "args" (an object), "id"}``; ``invalid_tool_calls`` the
calls whose arguments did not parse (TC011); a ``ToolMessage`` answers by ``tool_call_id``. The
provider adapters send a run of ToolMessages after the AIMessage, so pairing is openai-chat's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..model import Call, Issue, Msg, Note, Result
from ..target_from_model import model_named
from .base import (
    NAME_RE,
    PERMISSIVE_TARGETS,
    Block,
    Dialect,
    Samples,
    TaggedCall,
    objects,
    parts_text,
    reports_error,
    role_order,
    unknown_role,
    user_as_result,
    word,
)
from .base import bad_id as _bad_id
from .editing import Editor

if TYPE_CHECKING:
    from ..pairing import Pairing

KINDS = {
    "ai": "assistant", "AIMessage": "assistant", "AIMessageChunk": "assistant",
    "human": "user", "HumanMessage": "user", "HumanMessageChunk": "user",
    "system": "system", "SystemMessage": "system", "SystemMessageChunk": "system",
    "tool": "tool", "ToolMessage": "tool", "ToolMessageChunk": "tool",
    "function": "function", "FunctionMessage": "function", "FunctionMessageChunk": "function",
    "chat": "chat", "ChatMessage": "chat", "ChatMessageChunk": "chat",
}
# ``response_metadata.model_provider`` (LangChain 1.x): the chat model integration's provider name.
PROVIDERS = {"openai": "openai", "azure_openai": "openai", "anthropic": "anthropic", "google_genai": "gemini",
             "google_vertexai": "gemini", "google_anthropic_vertex": "anthropic", "bedrock": "bedrock",
             "bedrock_converse": "bedrock", "mistralai": "mistral", "deepseek": "deepseek"}
CHAT_ROLES: dict[Any, str] = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system", "tool": "tool"}


def detect(items: list[Any]) -> int:
    for m in items[:50]:
        if type(m) is not dict:
            continue
        if m.get("lc") == 1 and type(m.get("id")) is list:
            return 3
        t = word(m.get("type"))
        if t in KINDS and (type(m.get("data")) is dict or "role" not in m) and t not in ("function",):
            return 3
    return 0


def shape(m: dict[str, Any]) -> str:
    """``lc`` (a dumpd dump), ``data`` (messages_to_dict) or ``plain`` (model_dump)."""
    return _opened(m)[0]


def unwrap(m: dict[str, Any]) -> tuple[object, dict[str, Any]]:
    """(kind, fields) of one serialized message, whatever of the three shapes it has."""
    _, kind, fields = _opened(m)
    return kind, fields


def _opened(m: dict[str, Any]) -> tuple[str, object, dict[str, Any]]:
    """``(shape, kind, fields)``: ``shape`` and ``unwrap`` in one look (the reader needs both for
    every message)."""
    if m.get("lc") == 1 and type(m.get("id")) is list and m["id"]:
        kw = m.get("kwargs")
        return "lc", m["id"][-1], kw if type(kw) is dict else {}
    data = m.get("data")
    if type(data) is dict and "type" in m:
        return "data", m["type"], data
    return "plain", m.get("type"), m


def rewrap(m: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """``m`` with its fields replaced by ``fields``, in the shape ``m`` has."""
    s = shape(m)
    if s == "lc":
        return {**m, "kwargs": fields}
    if s == "data":
        return {**m, "data": fields}
    return fields


def normalize(items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
    """The neutral view of ``items``; shape issues are appended to ``issues``."""
    out: list[Msg] = []
    add = out.append
    note = issues.append
    names_ok: set[Any] = set()  # call names already found valid: names repeat, the regex need not
    for i, m in objects(items, where):
        form, kind, d = _opened(m)
        role = KINDS.get(kind) if type(kind) is str else None
        if role == "chat":
            role = CHAT_ROLES.get(d.get("role"))
        if role is None:
            add(unknown_role(i, kind, m, note))
            continue
        if d.get("content") is None and role != "assistant":
            note(Issue("TC018", i, None, role=role))
        if role == "assistant":
            calls = _calls(d, i, note, form, names_ok)
            if not calls and d.get("content") is None:
                note(Issue("TC018", i, None, role=role))
            add(Msg(i, "assistant", calls, (), m))
        elif role == "tool":
            cid = d.get("tool_call_id")
            if _bad_id(cid):
                note(Issue("TC008", i, None, side="result", value=cid))
                cid = None
            add(Msg(i, "tool", (), [Result(cid, d.get("name"), 0, i)], m, False))
        elif role == "function":
            add(Msg(i, "function", (), [Result(None, d.get("name"), 0, i, legacy=True)], m, False))
        else:
            add(Msg(i, role, (), (), m))
    return out


def _calls(d: dict[str, Any], i: int, note: Note, form: str, names_ok: set[Any]) -> list[Call]:
    calls: list[Call] = []
    tc = d.get("tool_calls")
    if tc is None:  # older dumps keep the provider's own calls in additional_kwargs
        ak = d.get("additional_kwargs")
        raw = ak.get("tool_calls") if type(ak) is dict else None
        tc = [
            {"id": c.get("id"), "name": (c.get("function") or {}).get("name"), "args": (c.get("function") or {}).get("arguments")}
            for c in raw if type(c) is dict
        ] if type(raw) is list else []
    bad = d.get("invalid_tool_calls")
    every = (tc if type(tc) is list else []) + (bad if type(bad) is list else [])
    n_valid = len(tc) if type(tc) is list else 0
    for j, c in enumerate(every):
        if type(c) is not dict:
            continue
        cid = c.get("id")
        name = c.get("name")
        if _bad_id(cid):
            note(Issue("TC008", i, None, side="call", pos=j, value=cid, name=name))
            cid = None
        if name is not None and (type(name) is not str or name not in names_ok):
            if type(name) is str and NAME_RE.fullmatch(name):
                names_ok.add(name)
            else:
                note(Issue("TC012", i, cid, pos=j, name=name))
        if j >= n_valid:
            note(Issue("TC011", i, cid, pos=j, name=name))
        calls.append(TaggedCall(cid, name, c.get("args"), j, i, form))
    return calls


def text(raw: Any) -> str:
    """The text of a serialized message's content (a string, text parts, else its JSON)."""
    if type(raw) is not dict:
        return ""
    content = unwrap(raw)[1].get("content")
    if content is not None and type(content) not in (str, list):
        return json.dumps(content, ensure_ascii=False)
    return parts_text(content)


# --- repair --------------------------------------------------------------------------------------

LC_PATH = ["langchain", "schema", "messages"]


def _message(kind: str, form: str, fields: dict[str, Any]) -> dict[str, Any]:
    """A new message of ``kind`` (``tool``, ``human``, ``ai``) in serialization shape ``form``."""
    if form == "lc":
        cls = {"tool": "ToolMessage", "human": "HumanMessage", "ai": "AIMessage"}[kind]
        return {"lc": 1, "type": "constructor", "id": [*LC_PATH, cls], "kwargs": {**fields, "type": kind}}
    if form == "data":
        return {"type": kind, "data": {**fields, "type": kind}}
    return {**fields, "type": kind}


class LangChainEditor(Editor):
    """Raw edits on serialized messages, in the shape each message has: edits go to its fields
    and it is wrapped back the same way. New ToolMessages take the shape of the AIMessage whose
    call they answer and carry ``status: "error"`` (LangChain's own flag for a failed tool) when
    they are placeholders."""

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict[str, Any]:
        form = getattr(call, "tag", "plain")
        return _message("tool", form, {"content": text, "tool_call_id": call_id, "name": call.name, "status": "error"})

    def _call_slot(self, d: dict[str, Any], pos: int) -> tuple[str, list[Any], int]:
        """Which list holds call ``pos``: tool_calls, invalid_tool_calls, or additional_kwargs.tool_calls."""
        tc = d.get("tool_calls")
        if tc is None:
            return "additional_kwargs", list(d["additional_kwargs"]["tool_calls"]), pos
        if pos < len(tc):
            return "tool_calls", list(tc), pos
        return "invalid_tool_calls", list(d.get("invalid_tool_calls") or []), pos - len(tc)

    def set_call_id(self, raw: dict[str, Any], call: Call, new_id: str) -> dict[str, Any]:
        _, d = unwrap(raw)
        key, lst, k = self._call_slot(d, call.pos)
        lst[k] = {**lst[k], "id": new_id}
        if key == "additional_kwargs":
            return rewrap(raw, {**d, "additional_kwargs": {**d["additional_kwargs"], "tool_calls": lst}})
        return rewrap(raw, {**d, key: lst})

    def set_result_id(self, raw: dict[str, Any], result: Result, new_id: str) -> dict[str, Any]:
        _, d = unwrap(raw)
        return rewrap(raw, {**d, "tool_call_id": new_id})

    def set_result_name(self, raw: dict[str, Any], result: Result, name: str) -> dict[str, Any] | None:
        _, d = unwrap(raw)
        return rewrap(raw, {**d, "name": name}) if "name" in d else None

    def drop_calls(self, raw: dict[str, Any], calls: list[Call]) -> tuple[dict[str, Any], list[Any]]:
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

    def call_item(self, raw: dict[str, Any], call: Call) -> Any:
        _, d = unwrap(raw)
        _, lst, k = self._call_slot(d, call.pos)
        return lst[k]

    def has_id_slot(self, raw: dict[str, Any], call: Call) -> bool:
        return True

    def shape_fix(self, raw: dict[str, Any], issue: Issue) -> tuple[dict[str, Any], str] | None:
        _, d = unwrap(raw)
        if issue.code == "TC018" and d.get("content") is None:
            return rewrap(raw, {**d, "content": ""}), "set the null or missing content to an empty string"
        return None

    def note_for_orphan(self, raw: dict[str, Any], result: Result, text: str) -> dict[str, Any]:
        return _message("human", shape(raw), {"content": text + "\n" + self.text_of(raw)})

    def user_to_result(self, raw: dict[str, Any], call: Call, call_id: str | None) -> dict[str, Any]:
        _, d = unwrap(raw)
        return _message("tool", shape(raw), {"content": d.get("content", ""), "tool_call_id": call_id, "name": call.name})

    def bridge(self, text: str) -> dict[str, Any]:
        return {"type": "ai", "content": text}

    def role_of(self, item: Any) -> str:
        if type(item) is not dict:
            return "unknown"
        kind, d = unwrap(item)
        role = KINDS.get(kind) if type(kind) is str else None
        if role == "chat":
            role = CHAT_ROLES.get(d.get("role"))
        return role or str(kind)


class LangChain(Dialect):
    """Serialized LangChain messages (``messages_to_dict``, ``dumpd``, ``model_dump``)."""

    name = "langchain"
    targets = PERMISSIVE_TARGETS
    tool_fields = frozenset({"tool_calls", "tool_call_id", "function_call", "call_id", "tool_call", "toolCall"})
    block = Block.RUN
    editor_class = LangChainEditor
    samples = Samples(
        clean=[{"type": "human", "data": {"content": "Weather in Paris?"}},
               {"type": "ai", "data": {"content": "", "tool_calls": [
                   {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1", "type": "tool_call"}]}},
               {"type": "tool", "data": {"content": "18C", "tool_call_id": "call_1", "name": "get_weather"}},
               {"type": "ai", "data": {"content": "It is 18C in Paris."}}],
        broken=[{"type": "human", "data": {"content": "Weather in Paris?"}},
                {"type": "ai", "data": {"content": "", "tool_calls": [
                    {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1", "type": "tool_call"}]}},
                {"type": "human", "data": {"content": "Never mind."}}],
    )

    detect = staticmethod(detect)
    read = staticmethod(normalize)

    def target_from(self, items: list[Any], holder: Any = None) -> tuple[str | None, str]:
        """The provider the latest AI message's ``response_metadata`` names: ``model_provider``
        (LangChain 1.x), else its model (``model_name``, ``model``, ``model_id``)."""
        for m in reversed(items[-500:]):
            if type(m) is not dict:
                continue
            kind, fields = unwrap(m)
            meta = fields.get("response_metadata") if type(kind) is str and KINDS.get(kind) == "assistant" else None
            if type(meta) is not dict:
                continue
            p = meta.get("model_provider")
            t = PROVIDERS.get(p) if type(p) is str else None
            if t:
                return t, f"the history's AI messages came from model provider {p!r} (response_metadata)"
            for key in ("model_name", "model", "model_id"):
                t, why = model_named(meta.get(key), "the history's AI messages name model")
                if t:
                    return t, f"{why} (response_metadata.{key})"
        return None, ""

    def model_from(self, items: list[Any], holder: Any = None) -> str | None:
        """The model the latest AI message's ``response_metadata`` names (``model_name``, ``model``,
        ``model_id``)."""
        for m in reversed(items[-500:]):
            if type(m) is not dict:
                continue
            kind, fields = unwrap(m)
            meta = fields.get("response_metadata") if type(kind) is str and KINDS.get(kind) == "assistant" else None
            for key in ("model_name", "model", "model_id"):
                v = meta.get(key) if type(meta) is dict else None
                if type(v) is str and v.strip():
                    return v.strip()
        return None

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        """The openai-chat order rules (TC019 for strict targets) and tool output sent as user text (TC020)."""
        issues: list[Issue] = []
        note = issues.append
        role_order(msgs, note)
        user_as_result(msgs, pairing, note, self.text)
        return issues

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """A tool message with ``status: "error"`` (LangChain's flag for a failed tool), in any of
        the three serialized shapes."""
        if type(raw) is not dict:
            return False
        kind, fields = unwrap(raw)
        return (KINDS.get(kind) if type(kind) is str else None) in ("tool", "function") and reports_error(fields)

    text = staticmethod(text)


DIALECT = LangChain()
