"""AWS Bedrock Converse ``messages``: ``toolUse`` blocks in assistant messages, ``toolResult``
blocks in the next user message.

Converse content blocks are keyed by kind (``{"text": ...}``, ``{"toolUse": {...}}``), not by a
``type`` field. The pairing and order rules are Anthropic's (the next message holds the results,
results first, roles alternate), so the rules are shared with ``anthropic``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from ..containers import path_text
from ..errors import InputError
from ..model import Call, Issue, Msg, Result
from ..model_families import CAPABILITIES, accepts
from .anthropic import ROLES, Anthropic, thinking_required
from .base import Samples, block_call, block_failed, block_result, blocks_after_calls, objects, unknown_role
from .base import type_name as _type
from .editing import BlockEditor, Raw


def detect(items: list[Any]) -> int:
    for m in items[:50]:
        if type(m) is dict and type(m.get("content")) is list:
            for b in m["content"]:
                if type(b) is dict and ("toolUse" in b or "toolResult" in b or "reasoningContent" in b):
                    return 3
                if type(b) is dict and "type" not in b and ("text" in b or "image" in b or "document" in b):
                    return 2
    return 0


def normalize(items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
    """The neutral view of ``items``; shape issues are appended to ``issues``."""
    out: list[Msg] = []
    add = out.append
    note = issues.append
    for i, m in objects(items, where):
        role = m.get("role")
        content = m.get("content")
        if role not in ROLES:
            add(unknown_role(i, role, m, note))
            continue
        if not content and (content is None or type(content) is list):
            note(Issue("TC018", i, None, role=role, say=f"({role}) has no content blocks."))
            add(Msg(i, role, (), (), m))
            continue
        if type(content) is not list:
            raise InputError(f"'content' must be an array of blocks, got {_type(content)}", f"{path_text(where)}[{i}].content")
        calls: list[Call] = []
        results: list[Result] = []
        other = misplaced = empty_text = False
        for j, b in enumerate(content):
            if type(b) is not dict:
                raise InputError(f"expected a content block object, got {_type(b)}", f"{path_text(where)}[{i}].content[{j}]")
            tu = b.get("toolUse")
            if type(tu) is dict and role == "assistant":
                calls.append(block_call(i, j, tu.get("toolUseId"), tu.get("name"), tu.get("input"), note))
                continue
            tr = b.get("toolResult")
            if type(tr) is dict:
                r = block_result(i, j, tr.get("toolUseId"), note)
                if other and not misplaced:
                    misplaced = True
                    note(mixed_turn(i, r.id, j, before=True))
                results.append(r)
                continue
            if "cachePoint" in b:  # a marker, not content
                continue
            if results and not misplaced:
                misplaced = True
                note(mixed_turn(i, results[0].id, results[0].pos, before=False))
            other = True
            if "text" in b and not b["text"]:
                empty_text = True
        if empty_text:
            note(Issue("TC018", i, None, role=role, kind="empty_text",
                       say="has an empty text block; Bedrock rejects empty text blocks."))
        if calls and len(content) - calls[0].pos != len(calls):  # calls not all last: see anthropic.read_blocks
            blocks_after_calls(i, content, is_tool_use, note, ignore=lambda b: type(b) is dict and "cachePoint" in b)
        add(Msg(i, role, calls, results, m, other))
    return out


# Recorded Bedrock Converse rejections (langchain-ai/langchain-aws#141, BerriAI/litellm#6053,
# strands-agents/harness-sdk#1223): a user message that holds toolResult blocks and any other
# block (text, image, document), in either order, is refused, whatever the model.
MIXED_TURN = "messages.{i}.content: Conversation blocks and tool result blocks cannot be provided in the same turn."


def mixed_turn(i: int, rid: str | None, pos: int, before: bool) -> Issue:
    """TC016 for Converse: tool results share the message with other blocks (one per message)."""
    where = "before its tool results" if before else "after its tool results"
    iss = Issue("TC016", i, rid, pos=pos, kind="mixed_turn",
                say=f"has text or other blocks {where}; Bedrock's Converse API refuses tool result blocks and "
                    "other blocks in the same message (the results need a message of their own).")
    iss.provider = MIXED_TURN
    return iss


def _result_text(tr: dict[str, Any]) -> str:
    c = tr.get("content")
    if type(c) is not list:
        return ""
    return "\n".join(x["text"] if type(x.get("text")) is str else json.dumps(x.get("json"))
                     for x in c if type(x) is dict)


def text(raw: Any) -> str:
    """The text of a message: its ``text`` blocks and the content of its ``toolResult`` blocks."""
    content = raw.get("content") if type(raw) is dict else None
    if type(content) is not list:
        return content if type(content) is str else ""
    out = []
    for b in content:
        if type(b) is dict:
            if type(b.get("text")) is str:
                out.append(b["text"])
            elif type(b.get("toolResult")) is dict:
                out.append(_result_text(b["toolResult"]))
    return "\n".join(x for x in out if x)


# --- repair --------------------------------------------------------------------------------------


class BedrockEditor(BlockEditor):
    """Raw edits on Converse messages: blocks keyed by kind (``{"toolResult": {...}}``)."""

    RESULTS_ALONE = True

    def is_result(self, block: Any) -> bool:
        return type(block) is dict and type(block.get("toolResult")) is dict

    def is_call(self, block: Any) -> bool:
        return is_tool_use(block)

    def text_block(self, text: str) -> Raw:
        return {"text": text}

    def result_block(self, call: Call, call_id: str | None, text: str, error: bool) -> Raw:
        r = {"toolUseId": call_id, "content": [{"text": text}]}
        if error:
            r["status"] = "error"
        return {"toolResult": r}

    def with_call_id(self, block: Raw, new_id: str) -> Raw:
        return {**block, "toolUse": {**block["toolUse"], "toolUseId": new_id}}

    def with_result_id(self, block: Raw, new_id: str) -> Raw:
        return {**block, "toolResult": {**block["toolResult"], "toolUseId": new_id}}


class Bedrock(Anthropic):
    """AWS Bedrock Converse ``messages``: Anthropic's order rules (``rules`` is Anthropic's;
    Converse has no thinking blocks for it to find: its ``reasoningContent`` blocks are read by
    ``request_rules`` when the body turns Claude's thinking on). Unlike the Messages API, Converse does not
    combine consecutive messages of one role: it refuses them ("A conversation must alternate
    between user and assistant roles", docs/provider-evidence.md), so TC019 stays an error here."""

    name = "bedrock"
    targets = ("bedrock",)
    tool_fields = frozenset({"toolUseId"})
    merges: ClassVar[Mapping[str, frozenset[str]]] = {}
    editor_class = BedrockEditor
    samples = Samples(
        clean=[{"role": "user", "content": [{"text": "Weather in Paris?"}]},
               {"role": "assistant", "content": [
                   {"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": {"city": "Paris"}}}]},
               {"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "18C"}]}}]},
               {"role": "assistant", "content": [{"text": "It is 18C in Paris."}]}],
        broken=[{"role": "user", "content": [{"text": "Weather in Paris?"}]},
                {"role": "assistant", "content": [
                    {"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": {"city": "Paris"}}}]},
                {"role": "user", "content": [{"text": "Never mind."}]},
                {"role": "assistant", "content": [{"text": "OK."}]}],
    )

    detect = staticmethod(detect)
    read = staticmethod(normalize)

    def names_list(self, key: str | None, request: Mapping[str, Any] | None, target: str | None) -> bool:
        """Nothing in a Converse body names it (an ``anthropic_version`` body is Anthropic's)."""
        return False

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """The ``toolResult`` of this id has ``status: "error"``."""
        return block_failed(raw.get("content") if type(raw) is dict else None, result_id, "toolUseId", "toolResult")

    text = staticmethod(text)

    def request_rules(self, msgs: list[Msg], request: Mapping[str, Any], issues: list[Issue]) -> None:
        """TC021 ``thinking_required``: ``additionalModelRequestFields.thinking`` turns Claude's
        thinking on, and Bedrock passes on Anthropic's refusal after its own words
        (langchain-ai/langchain-aws#844, ConverseStream, 2026-01-22; aws-samples/bedrock-engineer#43, 2025-03-15)."""
        fields = request.get("additionalModelRequestFields")
        thinking_required(msgs, fields.get("thinking") if type(fields) is dict else None, issues, first_block_type,
                          "additionalModelRequestFields.thinking", "The model returned the following errors: ")

    def model_rules(self, msgs: list[Msg], issues: list[Issue], target: str, model: str | None) -> None:
        """Anthropic's (mid-conversation system messages), and an assistant turn holding only
        reasoning, which Sonnet 5 and Fable 5.1 refuse on Converse (``model_families.reasoning_only_turn``)."""
        super().model_rules(msgs, issues, target, model)
        reasoning_only_turns(msgs, issues, model)


def reasoning_only_turns(msgs: list[Msg], issues: list[Issue], model: str | None) -> None:
    """TC021 on each assistant turn whose content is only ``reasoningContent`` blocks: an error on a
    model that refuses it (``reasoning_only``, Bedrock's words), nothing on one that takes it, and a
    warning naming both sides where the model is not named or not placed (``reasoning_only_unsure``)."""
    ok = accepts("reasoning_only_turn", model)
    if ok is True:
        return
    cap = CAPABILITIES["reasoning_only_turn"]
    for m in msgs:
        c = m.raw.get("content") if m.role == "assistant" and type(m.raw) is dict else None
        if type(c) is not list or not c or not all(type(b) is dict and "reasoningContent" in b for b in c):
            continue
        if ok is False:
            say = (f"holds only reasoning (reasoningContent, no text and no toolUse), which Converse refuses as an "
                   f"assistant prefill on model {model!r}, even with a user message after it. Leave the turn out of "
                   "the history.")
            issues.append(Issue("TC021", m.index, None, kind="reasoning_only", count=len(c), say=say))
        else:
            named = f"names model {model!r}, which is not placed, so" if model else "names no model, so"
            say = (f"holds only reasoning (reasoningContent, no text and no toolUse). {cap.accepting} take such a "
                   f"turn; {cap.refusing} refuse it. The request {named} the answer depends on the model.")
            issues.append(Issue("TC021", m.index, None, kind="reasoning_only_unsure", count=len(c), say=say))


# A Converse block's kind as the Messages API names it (its ``reasoningContent`` is a thinking block).
_KINDS = {"reasoningContent": "thinking", "text": "text", "toolUse": "tool_use", "toolResult": "tool_result",
          "image": "image", "document": "document"}


def first_block_type(raw: dict[str, Any]) -> str | None:
    c = raw.get("content")
    if type(c) is list and c and type(c[0]) is dict:
        b = c[0]
        if type(b.get("reasoningContent")) is dict and "redactedContent" in b["reasoningContent"]:
            return "redacted_thinking"
        return next((kind for key, kind in _KINDS.items() if key in b), None)
    return None


DIALECT = Bedrock()


def is_tool_use(b: Any) -> bool:
    return type(b) is dict and type(b.get("toolUse")) is dict
