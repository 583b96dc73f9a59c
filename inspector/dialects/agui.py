"""AG-UI protocol messages (CopilotKit, Microsoft Agent Framework, the LangGraph and Pydantic AI
AG-UI adapters): camelCase Chat Completions.

``{id, role: "assistant", content?, toolCalls: [{id, type: "function", function: {name,
arguments}}]}`` and ``{id, role: "tool", content, toolCallId, error?}``, with roles ``developer``,
``system``, ``user``, ``activity`` (UI state, never sent to a model) and ``reasoning``. Every
message has its own ``id``. The adapters turn a run of tool messages into the provider's results
for the assistant message before it, so pairing is openai-chat's (``Block.RUN``), and the file
names no provider: the default target is the most permissive reading (openai) unless the request
body around it names a model, and the user can pick the provider the agent talks to (a Bedrock rejection was
reported on exactly such a history, with one of two parallel ``toolCalls`` unanswered).
Schema: ag-ui-protocol ``sdks/typescript/packages/core/src/types.ts`` (docs/formats-research.md).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..model import Call, Issue, Msg, Note, Result
from ..target_from_model import model_named
from .base import (
    PERMISSIVE_TARGETS,
    Block,
    Dialect,
    Samples,
    block_call,
    block_result,
    known,
    parts_text,
    run_rules,
    string_args,
    tool_message_failed,
    type_name,
)
from .editing import Editor

if TYPE_CHECKING:
    from ..pairing import Pairing

ROLES = {"developer": "system", "system": "system", "user": "user", "assistant": "assistant", "tool": "tool",
         "activity": "activity", "reasoning": "reasoning"}


class AgUi(Dialect):
    name = "ag-ui"
    targets = PERMISSIVE_TARGETS
    block = Block.RUN

    def detect(self, items: list[Any]) -> int:
        for m in items[:50]:
            if type(m) is dict and ("toolCalls" in m or "toolCallId" in m or m.get("role") == "activity"):
                return 3
        return 0

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        out: list[Msg] = []
        add = out.append
        note = issues.append
        for i, m, role in known(items, where, out, note, ROLES):
            if role == "assistant":
                add(Msg(i, "assistant", self._calls(m, i, note), (), m))
            elif role == "tool":
                r = block_result(i, 0, m.get("toolCallId"), note)
                if m.get("content") is None:
                    note(Issue("TC018", i, r.id, field="content", role="tool"))
                add(Msg(i, "tool", (), (r,), m, False))
            else:
                add(Msg(i, role, (), (), m))
        return out

    @staticmethod
    def _calls(m: dict[str, Any], i: int, note: Note) -> list[Call]:
        tc = m.get("toolCalls")
        if type(tc) is not list:
            return []
        if not tc:
            note(Issue("TC007", i))
        calls = []
        for j, c in enumerate(tc):
            if type(c) is not dict:
                continue
            fn: dict[str, Any] = c["function"] if type(c.get("function")) is dict else {}
            call = block_call(i, j, c.get("id"), fn.get("name"), fn.get("arguments"), note)
            if call.args is not None and type(call.args) is not str:
                note(Issue("TC010", i, call.id, pos=j, name=call.name, got=type_name(call.args)))
            string_args(call, note)
            calls.append(call)
        return calls

    def target_from(self, items: list[Any], holder: Any = None) -> tuple[str | None, str]:
        """The model a run input forwards to the agent (``forwardedProps.model``): AG-UI has no
        field of its own for it (a top-level ``model`` is read as any request body's)."""
        props = holder.get("forwardedProps", holder.get("forwarded_props")) if type(holder) is dict else None
        if type(props) is not dict:
            return None, ""
        return model_named(props.get("model"), "the run input's forwardedProps.model is")

    def model_from(self, items: list[Any], holder: Any = None) -> str | None:
        """``forwardedProps.model`` of the run input."""
        props = holder.get("forwardedProps", holder.get("forwarded_props")) if type(holder) is dict else None
        model = props.get("model") if type(props) is dict else None
        return model.strip() if type(model) is str and model.strip() else None

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        return run_rules(msgs, pairing, target, self.text)

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """A tool message with an ``error`` field (AG-UI's ``ToolMessage.error``)."""
        return tool_message_failed(raw)

    def text(self, raw: Any) -> str:
        if type(raw) is not dict:
            return ""
        content = raw.get("content")
        if type(content) in (str, list):
            return parts_text(content)
        return json.dumps(content, ensure_ascii=False) if content is not None else ""


class AgUiEditor(Editor):
    """New messages get ids derived from what they answer (``<call id>-result``), so that a
    repaired file keeps AG-UI's one-id-per-message rule and the same input gives the same bytes."""

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict[str, Any]:
        return {"id": f"{call_id or 'call'}-result", "role": "tool", "toolCallId": call_id, "content": text,
                "error": text}

    def set_call_id(self, raw: dict[str, Any], call: Call, new_id: str) -> dict[str, Any]:
        calls = list(raw["toolCalls"])
        calls[call.pos] = {**calls[call.pos], "id": new_id}
        return {**raw, "toolCalls": calls}

    def set_result_id(self, raw: dict[str, Any], result: Result, new_id: str) -> dict[str, Any]:
        return {**raw, "toolCallId": new_id}

    def set_result_name(self, raw: dict[str, Any], result: Result, name: str) -> None:
        return None  # AG-UI tool messages carry no tool name

    def drop_calls(self, raw: dict[str, Any], calls: list[Call]) -> tuple[dict[str, Any], list[Any]]:
        drop = {c.pos for c in calls}
        tc = raw.get("toolCalls") or []
        kept = [c for j, c in enumerate(tc) if j not in drop]
        out = {**raw, "toolCalls": kept} if kept else {k: v for k, v in raw.items() if k != "toolCalls"}
        if not kept and not out.get("content"):
            out["content"] = "[tool call removed by repair: no result was recorded]"
        return out, [c for j, c in enumerate(tc) if j in drop]

    def call_item(self, raw: dict[str, Any], call: Call) -> Any:
        return raw["toolCalls"][call.pos]

    def has_id_slot(self, raw: dict[str, Any], call: Call) -> bool:
        return True

    def shape_fix(self, raw: dict[str, Any], issue: Issue) -> tuple[dict[str, Any], str] | None:
        if issue.code == "TC007" and raw.get("toolCalls") == []:
            return {k: v for k, v in raw.items() if k != "toolCalls"}, "removed the empty 'toolCalls' array"
        if issue.code == "TC010":
            j = issue.data.get("pos", 0)
            calls = list(raw.get("toolCalls") or [])
            fn = calls[j].get("function") if j < len(calls) and type(calls[j]) is dict else None
            if type(fn) is not dict or type(fn.get("arguments")) in (str, type(None)):
                return None
            calls[j] = {**calls[j], "function": {**fn, "arguments": json.dumps(fn["arguments"], ensure_ascii=False)}}
            return {**raw, "toolCalls": calls}, f"serialised the object arguments of call {j} as a JSON string"
        if issue.code == "TC018" and raw.get("content") is None:
            return {**raw, "content": ""}, "set the null or missing content to an empty string"
        return None

    def note_for_orphan(self, raw: dict[str, Any], result: Result, text: str) -> dict[str, Any]:
        return {"id": f"{raw.get('id', 'orphan')}-note", "role": "user", "content": text + "\n" + self.text_of(raw)}

    def user_to_result(self, raw: dict[str, Any], call: Call, call_id: str | None) -> dict[str, Any]:
        rest = {k: v for k, v in raw.items() if k not in ("role", "id")}
        return {"id": raw.get("id"), "role": "tool", "toolCallId": call_id, **rest}

    def bridge(self, text: str) -> dict[str, Any]:
        return {"id": "repair-bridge", "role": "assistant", "content": text}

    def role_of(self, item: Any) -> str:
        role = item.get("role") if type(item) is dict else None
        return ROLES.get(role, str(role)) if type(role) is str else str(role)


def _call(cid: str, name: str, args: str) -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}


AgUi.editor_class = AgUiEditor
AgUi.samples = Samples(
    clean=[
        {"id": "m1", "role": "user", "content": "Is the 9:40 to Lyon on time, and is there a seat?"},
        {"id": "m2", "role": "assistant", "content": "",
         "toolCalls": [_call("tc_status", "train_status", '{"train": "TGV 6611"}')]},
        {"id": "m3", "role": "tool", "toolCallId": "tc_status", "content": '{"delay_min": 0}'},
        {"id": "m4", "role": "assistant", "content": "It is on time."},
    ],
    broken=[
        {"id": "m1", "role": "user", "content": "Is the 9:40 to Lyon on time, and is there a seat?"},
        {"id": "m2", "role": "assistant",
         "toolCalls": [_call("tc_status", "train_status", '{"train": "TGV 6611"}'),
                       _call("tc_seats", "seat_map", '{"train": "TGV 6611"}')]},
        {"id": "m3", "role": "tool", "toolCallId": "tc_status", "content": '{"delay_min": 0}'},
        {"id": "m4", "role": "user", "content": "And the return?"},
    ],
)

DIALECT = AgUi()
