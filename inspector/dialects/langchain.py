"""Serialized LangChain messages, in the three shapes people save them in:

- ``messages_to_dict``: ``{"type": "ai", "data": {"content": ..., "tool_calls": [...]}}``;
- ``dumpd`` / ``lc`` dumps: ``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}``;
- ``model_dump`` / plain dicts: ``{"type": "ai", "content": ..., "tool_calls": [...]}``.

``AIMessage.tool_calls`` holds ``{"name", "args" (an object), "id"}``; ``invalid_tool_calls`` the
calls whose arguments did not parse (TC011); a ``ToolMessage`` answers by ``tool_call_id``. The
provider adapters send a run of ToolMessages after the AIMessage, so pairing is openai-chat's.
"""

from __future__ import annotations

from ..model import Call, Issue, Msg, Result  # noqa: F401
from .openai_chat import NAME_RE, _bad_id
from .shared_rules import TaggedCall, objects, unknown_role, user_as_result

NAME = "langchain"
TARGETS = ("openai", "deepseek", "mistral", "anthropic", "bedrock", "gemini")
BLOCK = "run"
KINDS = {
    "ai": "assistant", "AIMessage": "assistant", "AIMessageChunk": "assistant",
    "human": "user", "HumanMessage": "user", "HumanMessageChunk": "user",
    "system": "system", "SystemMessage": "system", "SystemMessageChunk": "system",
    "tool": "tool", "ToolMessage": "tool", "ToolMessageChunk": "tool",
    "function": "function", "FunctionMessage": "function", "FunctionMessageChunk": "function",
    "chat": "chat", "ChatMessage": "chat", "ChatMessageChunk": "chat",
}
CHAT_ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system", "tool": "tool"}


def detect(items: list) -> int:
    for m in items[:50]:
        if type(m) is not dict:
            continue
        if m.get("lc") == 1 and type(m.get("id")) is list:
            return 3
        t = m.get("type")
        if t in KINDS and (type(m.get("data")) is dict or "role" not in m) and t not in ("function",):
            return 3
    return 0


def shape(m: dict) -> str:
    """``lc`` (a dumpd dump), ``data`` (messages_to_dict) or ``plain`` (model_dump)."""
    if m.get("lc") == 1 and type(m.get("id")) is list and m["id"]:
        return "lc"
    if type(m.get("data")) is dict and "type" in m:
        return "data"
    return "plain"


def unwrap(m: dict) -> tuple[object, dict]:
    """(kind, fields) of one serialized message, whatever of the three shapes it has."""
    s = shape(m)
    if s == "lc":
        kw = m.get("kwargs")
        return m["id"][-1], kw if type(kw) is dict else {}
    if s == "data":
        return m["type"], m["data"]
    return m.get("type"), m


def rewrap(m: dict, fields: dict) -> dict:
    """``m`` with its fields replaced by ``fields``, in the shape ``m`` has."""
    s = shape(m)
    if s == "lc":
        return {**m, "kwargs": fields}
    if s == "data":
        return {**m, "data": fields}
    return fields


def normalize(items: list, where: tuple, issues: list[Issue]) -> list[Msg]:
    """The neutral view of ``items``; shape issues are appended to ``issues``."""
    out: list[Msg] = []
    add = out.append
    note = issues.append
    for i, m in objects(items, where):
        kind, d = unwrap(m)
        role = KINDS.get(kind) if type(kind) is str else None
        if role == "chat":
            role = CHAT_ROLES.get(d.get("role"))
        if role is None:
            add(unknown_role(i, kind, m, note))
            continue
        if d.get("content") is None and role != "assistant":
            note(Issue("TC018", i, None, role=role))
        if role == "assistant":
            calls = _calls(d, i, note, shape(m))
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


def _calls(d: dict, i: int, note, form: str) -> list[Call]:
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
        if name is not None and (type(name) is not str or not NAME_RE.fullmatch(name)):
            note(Issue("TC012", i, cid, pos=j, name=name))
        if j >= n_valid:
            note(Issue("TC011", i, cid, pos=j, name=name))
        calls.append(TaggedCall(cid, name, c.get("args"), j, i, form))
    return calls


def dialect_issues(msgs: list[Msg], pairing, target: str) -> list[Issue]:
    """The openai-chat order rules (TC019 for strict targets) and tool output sent as user text (TC020)."""
    from ..rules.sequence import _role_order as role_order
    from ..rules.sequence import text_of

    issues: list[Issue] = []
    note = issues.append
    role_order(msgs, note)
    user_as_result(msgs, pairing, note, lambda raw: text_of(unwrap(raw)[1]))
    return issues
