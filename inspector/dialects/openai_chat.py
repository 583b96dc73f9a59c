"""OpenAI Chat Completions ``messages``, including the legacy ``function_call`` form.

Also reads the near relatives found in real logs: Inspect AI's tool calls (``function`` is the
name string, ``arguments`` an object), SWE-agent's tool replies with a ``tool_call_ids`` list,
and ToolBench's legacy chains. One pass over the list builds the neutral view and records every
shape issue, so that checking a 100,000-message transcript stays close to the cost of parsing it.

The file holds the whole format: the reader, the rules only Chat Completions has (reasoning
state, Mistral's roles), the text of a message and the repair editor.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..containers import path_text
from ..errors import InputError
from ..model import Call, Deferred, Issue, Msg, Note, Result, TypedMsgs
from ..model_families import CAPABILITIES, accepts
from .base import (
    NAME_RE,
    Block,
    Dialect,
    JSONError,
    Samples,
    loads,
    no_name,
    parts_text,
    role_order,
    tool_message_failed,
    user_as_result,
)
from .base import bad_id as _bad_id
from .base import type_name as _type
from .editing import Editor
from .gateway import DESTINATION_DIALECT, GATEWAY_TARGETS, gateway_target, translate

if TYPE_CHECKING:
    from ..pairing import Pairing

ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
_loads = loads
_JSONError = JSONError


def detect(items: list[Any]) -> int:
    """1 for role messages (every chat format looks like this), 2 with Chat Completions' own tool
    shapes: a ``tool_calls`` entry with a ``function`` object, or a ``tool`` message with a
    ``tool_call_id``. The 2 makes a file's openai-chat lines count as evidence of their own, so a
    JSON Lines file that mixes them with LangChain lines does not read them as LangChain."""
    score = 0
    for m in items[:50]:
        if type(m) is not dict:
            continue
        role = m.get("role")
        if type(role) is str and role in ROLES or "tool_calls" in m:
            score = 1
            calls = m.get("tool_calls")
            if type(role) is str and type(calls) is list and any(
                    type(c) is dict and type(c.get("function")) is dict for c in calls[:8]):
                return 2
            if role == "tool" and isinstance(m.get("tool_call_id"), str):
                return 2
    return score


def normalize(items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
    """The neutral view of ``items``; shape issues are appended to ``issues``.

    The common shapes (a tool reply with a string id, a message without calls) take a short
    path; everything unusual goes through the careful helpers below. A list read as typed
    structs (``openai_typed``) is read from them, to the same messages and issues.
    """
    if isinstance(items, Deferred):  # a list read typed: ``openai_typed.TypedItems`` (imported only then)
        from .openai_typed import read as read_typed

        return read_typed(items, where, issues)  # type: ignore[arg-type]
    out: list[Msg] = []
    add = out.append
    note = issues.append
    names_ok: set[Any] = set()  # tool names already found valid: names repeat, the regex need not
    # Role order (TC019), as mistral_common and the hosted Mistral API check it: only
    # user -> tool and tool -> user are refused among the roles openai-chat has.
    prev: str | None = None
    # Names assistant messages give themselves (the optional participant ``name``). A tool
    # message carrying one of them names the agent, not the tool, and is no TC013.
    speakers: set[Any] = set()
    for i, m in enumerate(items):
        if type(m) is not dict:
            raise InputError(f"expected a message object, got {_type(m)}", f"{path_text(where)}[{i}]")
        role = m.get("role")
        if role == "tool":
            cid = m.get("tool_call_id")
            name = m.get("name")
            if name is not None and type(name) is str and name in speakers:
                name = None  # a participant's name (Letta writes the agent's), not the tool's
            res: Sequence[Result]
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
            calls: Sequence[Call]
            if m.get("tool_calls") is None and "function_call" not in m:
                calls = ()
                if m.get("content") is None and not m.get("refusal"):
                    note(Issue("TC018", i, None, field="content", role="assistant"))
            else:
                calls = _assistant_calls(m, i, where, note, names_ok)
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
    return out


def _tool_results(m: dict[str, Any], i: int, note: Note, name: Any) -> list[Result]:
    cid = m.get("tool_call_id")
    if cid is None and type(m.get("tool_call_ids")) is list:  # SWE-agent: one reply for several calls
        ids = m["tool_call_ids"]
        if ids:
            return [Result(x if not _bad_id(x) else None, name, p, i) for p, x in enumerate(ids)]
    if _bad_id(cid):
        note(Issue("TC008", i, None, side="result", value=cid))
        return [Result(None, name, 0, i)]
    return [Result(cid, name, 0, i)]


def _assistant_calls(m: dict[str, Any], i: int, where: tuple[Any, ...], note: Note, names_ok: set[Any]) -> list[Call]:
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
            custom = type(fn) not in (dict, str) and c.get("type") == "custom" and type(c.get("custom")) is dict
            if type(fn) is dict:
                name = fn.get("name")
                args = fn.get("arguments")
                wire = True
            elif type(fn) is str:  # Inspect AI: function is the name, arguments an object
                name, args, wire = fn, c.get("arguments"), False
            elif custom:
                name, args, wire = c["custom"].get("name"), c["custom"].get("input", ""), False
            else:
                name, args, wire = None, None, False
                note(Issue("TC012", i, cid if type(cid) is str else None, pos=j, name=None, kind="missing_name"))
            if type(cid) is not str or not cid or cid == "null":
                note(Issue("TC008", i, None, side="call", pos=j, value=cid, name=name))
                cid = None
            if type(name) is str:
                if name not in names_ok:
                    if NAME_RE.fullmatch(name):
                        names_ok.add(name)
                    else:
                        note(Issue("TC012", i, cid, pos=j, name=name))
            elif name is not None or wire or custom:  # a name of another type, or none where one belongs
                note(no_name(Issue("TC012", i, cid, pos=j, name=name)))
            call = Call(cid, name, args, j, i)
            calls.append(call)
            if wire:
                if type(args) is str:
                    # Each string parsed on its own: joined into one array, '1,2', '[3' and '4]'
                    # would read as three valid values.
                    if args:
                        try:
                            _loads(args)
                        except _JSONError:
                            note(Issue("TC011", i, cid, pos=j, name=name))
                elif args is not None:
                    note(Issue("TC010", i, cid, pos=j, name=name, got=_type(args)))
    fc = m.get("function_call")
    if fc is not None and type(fc) is dict:
        calls.append(Call(None, fc.get("name"), fc.get("arguments"), len(calls), i))
    return calls


def text(raw: Any) -> str:
    """The text of a message: its content string, or the text of its content parts."""
    return parts_text(raw.get("content")) if type(raw) is dict else ""


def reasoning(msgs: list[Msg], target: str, note: Note) -> None:
    """``reasoning_content`` sent back (TC021): DeepSeek's thinking mode wants it on every call
    message, other targets ignore it."""
    if type(msgs) is TypedMsgs:
        return  # a typed reading has none: its shape has no such field (no walk)
    with_rc = [m for m in msgs if m.role == "assistant" and not isinstance(m.source, Deferred)
               and "reasoning_content" in m.raw]
    if not with_rc:
        return
    if target == "deepseek":
        # Thinking mode wants reasoning_content on every assistant message that made tool calls.
        lacking = [m for m in msgs if m.role == "assistant" and m.calls and "reasoning_content" not in m.raw]
        for m in lacking:
            note(Issue("TC021", m.index, None, None, kind="missing_reasoning"))
        if lacking:
            return
    note(Issue("TC021", with_rc[0].index, None, None, kind="reasoning_content", count=len(with_rc)))


# --- repair --------------------------------------------------------------------------------------


def _call_list(raw: dict[str, Any]) -> list[Any]:
    tc = raw.get("tool_calls")
    return tc if type(tc) is list else []


def _is_legacy(raw: dict[str, Any], call: Call) -> bool:
    return call.pos >= len(_call_list(raw)) and type(raw.get("function_call")) is dict


def _content_text(content: Any) -> str:
    if type(content) is str:
        return content
    if content is None:
        return ""
    return json.dumps(content, ensure_ascii=False)


class OpenAIChatEditor(Editor):
    """Raw edits on Chat Completions messages, never in place: ``tool_calls`` with ``function``
    objects, Inspect AI calls, custom tool calls, the legacy ``function_call`` / ``role:"function"``
    pair, and SWE-agent replies with ``tool_call_ids``."""

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict[str, Any]:
        if call_id is None:  # legacy function_call: answered by a role "function" message
            return {"role": "function", "name": call.name, "content": text}
        return {"role": "tool", "tool_call_id": call_id, "content": text}

    def set_call_id(self, raw: dict[str, Any], call: Call, new_id: str) -> dict[str, Any]:
        calls = list(_call_list(raw))
        calls[call.pos] = {**calls[call.pos], "id": new_id}
        return {**raw, "tool_calls": calls}

    def set_result_id(self, raw: dict[str, Any], result: Result, new_id: str) -> dict[str, Any]:
        if raw.get("tool_call_id") is None and type(raw.get("tool_call_ids")) is list and result.pos < len(raw["tool_call_ids"]):
            ids = list(raw["tool_call_ids"])
            ids[result.pos] = new_id
            return {**raw, "tool_call_ids": ids}
        return {**raw, "tool_call_id": new_id}

    def set_result_name(self, raw: dict[str, Any], result: Result, name: str) -> dict[str, Any] | None:
        if "name" not in raw:
            return None
        return {**raw, "name": name}

    def drop_calls(self, raw: dict[str, Any], calls: list[Call]) -> tuple[dict[str, Any], list[Any]]:
        out = dict(raw)
        removed: list[Any] = []
        positions = {c.pos for c in calls}
        tc = _call_list(raw)
        if any(p < len(tc) for p in positions):
            kept: list[Any] = []
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

    def call_item(self, raw: dict[str, Any], call: Call) -> Any:
        if _is_legacy(raw, call):
            return raw["function_call"]
        return _call_list(raw)[call.pos]

    def has_id_slot(self, raw: dict[str, Any], call: Call) -> bool:
        return not _is_legacy(raw, call)

    def shape_fix(self, raw: dict[str, Any], issue: Issue) -> tuple[dict[str, Any], str] | None:
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

    def note_for_orphan(self, raw: dict[str, Any], result: Result, text: str) -> dict[str, Any]:
        return {"role": "user", "content": text + "\n" + _content_text(raw.get("content"))}

    def user_to_result(self, raw: dict[str, Any], call: Call, call_id: str | None) -> dict[str, Any]:
        rest = {k: v for k, v in raw.items() if k != "role"}
        if call_id is None:
            return {"role": "function", "name": call.name, **rest}
        return {"role": "tool", "tool_call_id": call_id, **rest}

    def bridge(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": text}

    def add_reasoning(self, raw: dict[str, Any], text: str) -> dict[str, Any] | None:
        if "reasoning_content" in raw:
            return None
        return {**raw, "reasoning_content": text}

    def rename_call(self, raw: dict[str, Any], call: Call, name: str) -> dict[str, Any] | None:
        calls = list(_call_list(raw))
        c = calls[call.pos] if call.pos < len(calls) else None
        fn = c.get("function") if type(c) is dict else None
        if type(c) is not dict or type(fn) is not dict or _is_legacy(raw, call):
            return None
        calls[call.pos] = {**c, "function": {**fn, "name": name}}
        return {**raw, "tool_calls": calls}

    def user_text(self, text: str) -> dict[str, Any]:
        return {"role": "user", "content": text}

    def role_of(self, item: Any) -> str:
        role = item.get("role") if type(item) is dict else None
        return "system" if role == "developer" else str(role)


def _call(cid: str, name: str, args: str = "{}") -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}


_READ_ORDER = frozenset({("user", "tool"), ("tool", "user")})  # the role pairs ``normalize`` notes


class OpenAIChat(Dialect):
    """OpenAI Chat Completions ``messages`` (and Mistral's and DeepSeek's, which share the shape)."""

    name = "openai-chat"
    targets = ("openai", "deepseek", "mistral")
    tool_fields = frozenset({"tool_calls", "tool_call_id", "function_call", "call_id"})
    block = Block.RUN
    editor_class = OpenAIChatEditor
    samples = Samples(
        clean=[{"role": "user", "content": "Weather in Paris?"},
               {"role": "assistant", "content": None, "tool_calls": [_call("call_1", "get_weather", '{"city": "Paris"}')]},
               {"role": "tool", "tool_call_id": "call_1", "content": "18C, clear"},
               {"role": "assistant", "content": "It is 18C and clear in Paris."}],
        broken=[{"role": "user", "content": "Weather in Paris?"},
                {"role": "assistant", "content": None, "tool_calls": [_call("call_1", "get_weather", '{"city": "Paris"}')]},
                {"role": "user", "content": "Never mind."}],
    )

    detect = staticmethod(detect)
    read = staticmethod(normalize)

    def is_message(self, item: Any) -> bool:
        """Any object with a role: the reader reads every role (one it does not know is TC024,
        mini-swe-agent's ``exit`` say), so a list of them is a message list to report on."""
        return type(item) is dict and ("role" in item or detect([item]) > 0)

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        """Tool output sent as user text (TC020), reasoning state (TC021), Mistral's roles (TC024)."""
        issues: list[Issue] = []
        note = issues.append
        user_as_result(msgs, pairing, note, text)
        reasoning(msgs, target, note)
        if target in ("mistral", "deepseek"):
            # Mistral's roles are system, user, assistant and tool; DeepSeek's add latest_reminder
            # (decolua/9router#773, 2026-05): OpenAI's "developer" is unknown to both.
            for m in msgs:
                if m.role == "system" and m.raw.get("role") == "developer":
                    note(Issue("TC024", m.index, None, role="developer", kind="developer_role"))
        if target == "mistral":
            # The rest of mistral_common's role order (a system message after a tool or assistant
            # message, a tool message after a system one): "Unexpected role 'system' after role
            # 'tool'". The reader notes user -> tool and tool -> user itself, for every target.
            role_order(msgs, lambda iss: None if (iss.data["prev"], iss.data["role"]) in _READ_ORDER else note(iss))
        return issues

    gateway_targets = GATEWAY_TARGETS

    def through_gateway(self, items: list[Any], target: str, model: str | None = None,
                        issues: list[Issue] | None = None) -> tuple[Dialect, list[Any], list[list[int]]] | None:
        """LiteLLM's translation of the history for Claude, Bedrock or Gemini (``gateway``)."""
        if target not in GATEWAY_TARGETS:
            return None
        from . import get

        translated, origin = translate(items, target, model, issues)
        return get(DESTINATION_DIALECT[target]), translated, origin

    def gateway_for(self, model: Any) -> str | None:
        return gateway_target(model)

    def request_rules(self, msgs: list[Msg], request: Mapping[str, Any], issues: list[Issue]) -> None:
        """DeepSeek V4 accepts a tool-call turn without ``reasoning_content`` when the body turns
        thinking off (``"thinking": {"type": "disabled"}``: deepseek-ai/DeepSeek-V3#1376,
        2026-08-03, 5 of 5 runs): no TC021 ``missing_reasoning`` then."""
        setting = request.get("thinking")
        if type(setting) is dict and setting.get("type") == "disabled":
            issues[:] = [x for x in issues if not (x.code == "TC021" and x.data.get("kind") == "missing_reasoning")]

    def model_rules(self, msgs: list[Msg], issues: list[Issue], target: str, model: str | None) -> None:
        """The legacy ``role: "function"`` message: OpenAI's reasoning models refuse it outright, older
        models take it (``model_families.function_role``)."""
        if target == "openai":
            function_role(msgs, issues, model)

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """A tool message with an ``error`` field (Inspect's) or a failed ``status``."""
        return tool_message_failed(raw)

    text = staticmethod(text)


def function_role(msgs: list[Msg], issues: list[Issue], model: str | None) -> None:
    """TC024 on each legacy ``role: "function"`` message for a model that refuses the role (error, in
    its words), and for a request that names no model (or one not placed): a warning naming both
    sides. A model that takes the role leaves the message to the pairing rules (TC017)."""
    ok = accepts("function_role", model)
    if ok is True or type(msgs) is TypedMsgs:  # (a typed reading has no such role: no walk)
        return
    cap = CAPABILITIES["function_role"]
    for m in msgs:
        if m.role != "function":
            continue
        if ok is False:
            say = (f"is a legacy function message (role 'function'), which model {model!r} refuses; only "
                   f"{cap.accepting} take the role. Send the call as tool_calls and its result as a 'tool' message.")
            issues.append(Issue("TC024", m.index, None, role="function", kind="function_role_refused", say=say))
        else:
            named = f"names model {model!r}, which is not placed, so" if model else "names no model, so"
            say = (f"is a legacy function message (role 'function'). {cap.accepting} take the role; {cap.refusing} "
                   f"refuse it. The request {named} the answer depends on the model.")
            issues.append(Issue("TC024", m.index, None, role="function", kind="function_model_unknown", say=say))


DIALECT = OpenAIChat()
