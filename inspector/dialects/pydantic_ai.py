"""Pydantic AI message history, as ``ModelMessagesTypeAdapter`` dumps it (``result.all_messages_json()``).

A list of ``{"kind": "request", "parts": [...]}`` (what the agent sent) and ``{"kind": "response",
"parts": [...]}`` (what the model answered), parts told apart by ``part_kind``: ``system-prompt``,
``user-prompt``, ``tool-return`` and ``retry-prompt`` in requests; ``text``, ``thinking``,
``tool-call`` (``tool_name``, ``args`` as a JSON string or an object, ``tool_call_id``),
``builtin-tool-call`` and ``builtin-tool-return`` in responses. A ``tool-return`` answers its call
by ``tool_call_id``; so does a ``retry-prompt`` that names a tool (Pydantic AI sends it to the
model as that call's result; without ``tool_name`` it is a user message). Built-in tool calls are
run by the provider and answered inside the same response: they are no calls to answer.

Pydantic AI's model adapters send the results of a response's calls from the *next* request, so a
call block is the response and the next message (``Block.NEXT``); results in a later request are
TC015, a user prompt before a tool return in one request TC016. The history names its model and
provider (``model_name``, ``provider_name`` on responses): the default target comes from them,
else the most permissive reading (openai). Schema: pydantic-ai ``pydantic_ai_slim/pydantic_ai/
messages.py`` (docs/formats-research.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..model import Call, Issue, Msg, Result
from ..target_from_model import model_named
from ..targets import target_from_provider
from ..turns import MERGED_ROLES
from .anthropic import merged_turn_order
from .base import (
    PERMISSIVE_TARGETS,
    Block,
    Dialect,
    Samples,
    block_call,
    block_result,
    json_text,
    known,
    string_args,
    unknown_role,
    user_as_result,
    word,
)
from .editing import BlockEditor

if TYPE_CHECKING:
    from ..pairing import Pairing

KINDS: dict[Any, str] = {"request": "user", "response": "assistant"}
OWN_PARTS = frozenset({"system-prompt", "user-prompt", "tool-return", "retry-prompt", "tool-call", "text", "thinking",
                       "builtin-tool-call", "builtin-tool-return", "file"})


def is_result(part: Any) -> bool:
    """A part that answers a call: a tool return, or a retry prompt naming the tool it answers."""
    if type(part) is not dict:
        return False
    k = part.get("part_kind")
    return k == "tool-return" or (k == "retry-prompt" and part.get("tool_name") is not None)


class PydanticAi(Dialect):
    name = "pydantic-ai"
    targets = PERMISSIVE_TARGETS
    block = Block.NEXT
    # Pydantic AI's Anthropic model sends each request as a user message and each response as an
    # assistant message, and the Messages API combines consecutive ones into one turn; its Bedrock
    # model merges consecutive requests into one user message itself ("Merge together sequential
    # user messages."), but not responses (docs/provider-evidence.md). The history's indexes are
    # not the API's, so none is given.
    merges: ClassVar[Mapping[str, frozenset[str]]] = {"anthropic": MERGED_ROLES, "bedrock": frozenset({"user"})}

    def detect(self, items: list[Any]) -> int:
        for m in items[:50]:
            if type(m) is dict and word(m.get("kind")) in KINDS and type(m.get("parts")) is list:
                for p in m["parts"][:20]:
                    if type(p) is dict and word(p.get("part_kind")) in OWN_PARTS:
                        return 4
        return 0

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        out: list[Msg] = []
        add = out.append
        note = issues.append
        for i, m, role in known(items, where, out, note, KINDS, "kind"):
            parts = m.get("parts")
            if type(parts) is not list:
                add(unknown_role(i, m["kind"], m, note))
                continue
            calls: list[Call] = []
            results: list[Result] = []
            other = misplaced = False
            for j, p in enumerate(parts):
                if type(p) is not dict:
                    other = True
                    continue
                kind = p.get("part_kind")
                if kind == "tool-call" and role == "assistant":
                    call = block_call(i, j, p.get("tool_call_id"), p.get("tool_name"), p.get("args"), note)
                    string_args(call, note)
                    calls.append(call)
                elif role == "user" and is_result(p):
                    r = block_result(i, j, p.get("tool_call_id"), note)
                    r.name = p.get("tool_name")  # for TC013
                    if other and not misplaced:
                        misplaced = True
                        note(Issue("TC016", i, r.id, pos=j))
                    results.append(r)
                elif kind not in ("builtin-tool-call", "builtin-tool-return"):
                    other = True
            add(Msg(i, role, calls, results, m, other))
        return out

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        issues: list[Issue] = []
        if pairing.turns is not None:  # the order rules on the turns the API combines
            merged_turn_order(msgs, pairing.turns, issues.append)
        if target == "bedrock":  # its adapter merges requests, not responses
            for a, b in itertools.pairwise(msgs):
                if a.role == b.role == "assistant":
                    issues.append(Issue(
                        "TC019", b.index, None, a.index, role="assistant", prev="assistant", kind="responses_in_a_row",
                        say=f"(a response) directly follows response #{a.index}. Pydantic AI's Bedrock model merges "
                            "consecutive requests but not responses, so Converse gets two assistant messages in a "
                            "row, which it refused in reports up to 2025."))
        user_as_result(msgs, pairing, issues.append, self.text)
        return issues

    def text(self, raw: Any) -> str:
        if type(raw) is not dict or type(raw.get("parts")) is not list:
            return ""
        out = []
        for p in raw["parts"]:
            if type(p) is dict and p.get("part_kind") not in ("tool-call", "builtin-tool-call", "thinking"):
                c = p.get("content")
                if type(c) is list:  # a user prompt's multimodal content
                    c = "\n".join(x if type(x) is str else json_text(x) for x in c)
                t = json_text(c)
                if t:
                    out.append(t)
        return "\n".join(out)

    def target_from(self, items: list[Any], holder: Any = None) -> tuple[str | None, str]:
        """The provider the history's responses name (``provider_name``, else ``model_name``), and why."""
        for m in items[:200]:
            if type(m) is dict and m.get("kind") == "response":
                p = m.get("provider_name")
                t = target_from_provider(p)
                if t:
                    return t, f"the history's responses came from provider {p!r}"
                t, why = model_named(m.get("model_name"), "the history's responses came from model")
                if t:
                    return t, why
        return None, ""

    def model_from(self, items: list[Any], holder: Any = None) -> str | None:
        """The ``model_name`` of the history's latest response."""
        for m in reversed(items[-500:]):
            if type(m) is dict and m.get("kind") == "response" and type(m.get("model_name")) is str \
                    and m["model_name"].strip():
                return str(m["model_name"]).strip()
        return None


class PydanticAiEditor(BlockEditor):
    """Result parts are blocks of the next request: repair explodes and joins them like Anthropic's."""

    KEY = "parts"

    def is_result(self, block: Any) -> bool:
        return is_result(block)

    def result_block(self, call: Call, call_id: str | None, text: str, error: bool) -> dict[str, Any]:
        # A tool return, also for a placeholder: a retry prompt would ask the model to call again.
        return {"part_kind": "tool-return", "tool_name": call.name, "content": text, "tool_call_id": call_id}

    def join(self, raws: list[dict[str, Any]]) -> dict[str, Any]:
        """Results first, then the other parts; the message keeps every field any piece had
        (a placeholder joined into a request takes on that request's fields)."""
        merged: dict[str, Any] = {}
        for r in raws:
            for k, v in r.items():
                merged.setdefault(k, v)
        parts = [b for r in raws for b in self._blocks(r)]
        return {**merged, "parts": [b for b in parts if is_result(b)] + [b for b in parts if not is_result(b)]}

    def with_call_id(self, block: dict[str, Any], new_id: str) -> dict[str, Any]:
        return {**block, "tool_call_id": new_id}

    def with_result_id(self, block: dict[str, Any], new_id: str) -> dict[str, Any]:
        return {**block, "tool_call_id": new_id}

    def text_block(self, text: str) -> dict[str, Any]:
        return {"part_kind": "user-prompt", "content": text}

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict[str, Any]:
        return {"kind": "request", "parts": [self.result_block(call, call_id, text, True)]}

    def drop_calls(self, raw: dict[str, Any], calls: list[Call]) -> tuple[dict[str, Any], list[Any]]:
        drop = {c.pos for c in calls}
        blocks = self._blocks(raw)
        kept = [b for j, b in enumerate(blocks) if j not in drop]
        if not kept:
            kept = [{"part_kind": "text", "content": "[tool call removed by repair: no result was recorded]"}]
        return {**raw, "parts": kept}, [b for j, b in enumerate(blocks) if j in drop]

    def note_for_orphan(self, raw: dict[str, Any], result: Result, text: str) -> dict[str, Any]:
        return {"kind": "request", "parts": [self.text_block(text + "\n" + self.text_of(raw))]}

    def user_to_result(self, raw: dict[str, Any], call: Call, call_id: str | None) -> dict[str, Any]:
        return {**raw, "kind": "request", "parts": [self.result_block(call, call_id, self.text_of(raw), False)]}

    def bridge(self, text: str) -> dict[str, Any]:
        return {"kind": "response", "parts": [{"part_kind": "text", "content": text}]}

    def role_of(self, item: Any) -> str:
        return KINDS.get(item.get("kind"), "unknown") if type(item) is dict else "unknown"


PydanticAi.editor_class = PydanticAiEditor


def _request(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "request", "parts": list(parts), "instructions": None}


def _response(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "response", "parts": list(parts), "model_name": "gpt-4o-2024-08-06", "provider_name": "openai",
            "timestamp": "2026-03-02T09:14:03.218Z"}


_ASK = {"part_kind": "user-prompt", "content": "What is the weather in Lisbon?", "timestamp": "2026-03-02T09:14:02Z"}
_CALL = {"part_kind": "tool-call", "tool_name": "get_weather", "args": '{"city": "Lisbon"}',
         "tool_call_id": "call_Wq3xV8bA"}
PydanticAi.samples = Samples(
    clean=[
        _request(_ASK),
        _response(_CALL),
        _request({"part_kind": "tool-return", "tool_name": "get_weather", "content": "19 C, clear",
                  "tool_call_id": "call_Wq3xV8bA", "timestamp": "2026-03-02T09:14:04Z"}),
        _response({"part_kind": "text", "content": "It is 19 C and clear in Lisbon."}),
    ],
    broken=[
        _request(_ASK),
        _response(_CALL),
        _request({"part_kind": "user-prompt", "content": "Never mind, what about Porto?",
                  "timestamp": "2026-03-02T09:15:00Z"}),
    ],
)

DIALECT = PydanticAi()
