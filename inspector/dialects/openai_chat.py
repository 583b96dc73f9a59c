"""OpenAI Chat Completions ``messages``, including the legacy ``function_call`` form.

Also reads the near relatives found in real logs: Inspect AI's tool calls (``function`` is the
name string, ``arguments`` an object), SWE-agent's tool replies with a ``tool_call_ids`` list,
and ToolBench's legacy chains. One pass over the list builds the neutral view and records every
shape issue, so that checking a 100,000-message transcript stays close to the cost of parsing it.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from ..containers import path_text
from ..errors import InputError
from ..model import Call, Issue, Msg, Result

NAME = "openai-chat"
TARGETS = ("openai", "deepseek", "mistral")
BLOCK = "run"
ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
NAME_RE = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_loads = orjson.loads
_JSONError = orjson.JSONDecodeError


def detect(items: list) -> int:
    for m in items[:50]:
        if type(m) is dict and ((type(m.get("role")) is str and m["role"] in ROLES) or "tool_calls" in m):
            return 1
    return 0


def _bad_id(x: Any) -> bool:
    return not x or type(x) is not str or x == "null"


def _type(x: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(x), "a number"
    )


def normalize(items: list, where: tuple, issues: list[Issue]) -> list[Msg]:
    """The neutral view of ``items``; shape issues are appended to ``issues``.

    The common shapes (a tool reply with a string id, a message without calls) take a short
    path; everything unusual goes through the careful helpers below.
    """
    out: list[Msg] = []
    add = out.append
    note = issues.append
    names_ok: set = set()  # tool names already found valid: names repeat, the regex need not
    pending_args: list = []  # calls whose arguments strings are validated as JSON in one go
    # Role order (TC019), as mistral_common and the hosted Mistral API check it: only
    # user -> tool and tool -> user are refused among the roles openai-chat has.
    prev: str | None = None
    # Names assistant messages give themselves (the optional participant ``name``). A tool
    # message carrying one of them names the agent, not the tool, and is no TC013.
    speakers: set = set()
    for i, m in enumerate(items):
        if type(m) is not dict:
            raise InputError(f"expected a message object, got {_type(m)}", f"{path_text(where)}[{i}]")
        role = m.get("role")
        if role == "tool":
            cid = m.get("tool_call_id")
            name = m.get("name")
            if name is not None and type(name) is str and name in speakers:
                name = None  # a participant's name (Letta writes the agent's), not the tool's
            if type(cid) is str and cid and cid != "null":
                res = (Result(cid, name, 0, i),)
            else:
                res = _tool_results(m, i, note, name)
            if m.get("content") is None:
                note(Issue("TC018", i, cid if type(cid) is str and cid else None, field="content", role="tool"))
            add(Msg(i, "tool", (), res, m, False))
            if prev == "user":
                note(Issue("TC019", i, None, i - 1, role="tool", prev="user"))
            prev = "tool"
        elif role == "assistant":
            if m.get("tool_calls") is None and "function_call" not in m:
                calls = ()
                if m.get("content") is None and not m.get("refusal"):
                    note(Issue("TC018", i, None, field="content", role="assistant"))
            else:
                calls = _assistant_calls(m, i, where, note, names_ok, pending_args)
                if not calls and m.get("content") is None and not m.get("refusal") and "function_call" not in m:
                    note(Issue("TC018", i, None, field="content", role="assistant"))
            speaker = m.get("name")
            if speaker is not None and type(speaker) is str:
                speakers.add(speaker)
            add(Msg(i, "assistant", calls, (), m))
            prev = "assistant"  # every role may follow an assistant message
        elif role == "user" or role == "system" or role == "developer":
            if m.get("content") is None:
                note(Issue("TC018", i, None, field="content", role=role))
            kind = "system" if role == "developer" else role
            add(Msg(i, kind, (), (), m))
            if prev == "tool" and kind == "user":
                note(Issue("TC019", i, None, i - 1, role="user", prev="tool"))
            prev = kind
        elif role == "function":
            name = m.get("name")
            add(Msg(i, "function", (), [Result(None, name, 0, i, legacy=True)], m, False))
            if prev == "user":
                note(Issue("TC019", i, None, i - 1, role="tool", prev="user"))
            prev = "tool"
        else:
            note(Issue("TC024", i, None, role=role))
            add(Msg(i, role if type(role) is str else repr(role), (), (), m))
            prev = None
    _validate_arguments(pending_args, note)
    return out


def _validate_arguments(pending: list, note) -> None:
    """TC011 for every arguments string that is not JSON.

    One parse of all of them joined into an array is far cheaper than one parse each; only when
    that fails (or the count differs, as ``1, 2`` would make it) is each string parsed alone.
    """
    if not pending:
        return
    try:
        if len(_loads("[" + ",".join([c.args for c in pending]) + "]")) == len(pending):
            return
    except _JSONError:
        pass
    for c in pending:
        try:
            _loads(c.args)
        except _JSONError:
            note(Issue("TC011", c.msg, c.id, pos=c.pos, name=c.name))


def _tool_results(m: dict, i: int, note, name) -> list[Result]:
    cid = m.get("tool_call_id")
    if cid is None and type(m.get("tool_call_ids")) is list:  # SWE-agent: one reply for several calls
        ids = m["tool_call_ids"]
        if ids:
            return [Result(x if not _bad_id(x) else None, name, p, i) for p, x in enumerate(ids)]
    if _bad_id(cid):
        note(Issue("TC008", i, None, side="result", value=cid))
        return [Result(None, name, 0, i)]
    return [Result(cid, name, 0, i)]


def _assistant_calls(m: dict, i: int, where: tuple, note, names_ok: set, pending_args: list) -> list[Call]:
    calls: list[Call] = []
    tc = m.get("tool_calls")
    if tc is not None:
        if type(tc) is not list:
            raise InputError(f"'tool_calls' must be an array, got {_type(tc)}", f"{path_text(where)}[{i}].tool_calls")
        if not tc:
            note(Issue("TC007", i))
        for j, c in enumerate(tc):
            if type(c) is not dict:
                raise InputError(
                    f"expected a tool call object, got {_type(c)}", f"{path_text(where)}[{i}].tool_calls[{j}]"
                )
            cid = c.get("id")
            fn = c.get("function")
            if type(fn) is dict:
                name = fn.get("name")
                args = fn.get("arguments")
                wire = True
            elif type(fn) is str:  # Inspect AI: function is the name, arguments an object
                name, args, wire = fn, c.get("arguments"), False
            elif c.get("type") == "custom" and type(c.get("custom")) is dict:
                name, args, wire = c["custom"].get("name"), c["custom"].get("input", ""), False
            else:
                name, args, wire = None, None, False
                note(Issue("TC012", i, cid if type(cid) is str else None, pos=j, name=None, missing=True))
            if type(cid) is not str or not cid or cid == "null":
                note(Issue("TC008", i, None, side="call", pos=j, value=cid, name=name))
                cid = None
            if type(name) is str:
                if name not in names_ok:
                    if NAME_RE.fullmatch(name):
                        names_ok.add(name)
                    else:
                        note(Issue("TC012", i, cid, pos=j, name=name))
            elif name is not None:
                note(Issue("TC012", i, cid, pos=j, name=name))
            call = Call(cid, name, args, j, i)
            calls.append(call)
            if wire:
                if type(args) is str:
                    if args:
                        pending_args.append(call)
                elif args is not None:
                    note(Issue("TC010", i, cid, pos=j, name=name, got=_type(args)))
    fc = m.get("function_call")
    if fc is not None and type(fc) is dict:
        calls.append(Call(None, fc.get("name"), fc.get("arguments"), len(calls), i))
    return calls
