"""Vercel AI SDK ``UIMessage[]``: what ``useChat`` holds and posts to the route handler.

``{id, role, parts: [...]}``. A tool call and its outcome are one part: ``tool-<name>`` (static
tools) or ``dynamic-tool`` (with ``toolName``), carrying ``toolCallId``, ``input`` and a ``state``:
``input-streaming`` and ``input-available`` (the call, no outcome yet), ``approval-requested``
(waiting for the user), ``approval-responded`` (the user answered), ``output-available``,
``output-error``, ``output-denied``. AI SDK 4 wrote
``{type: "tool-invocation", toolInvocation: {state: "partial-call"|"call"|"result", ...}}``.

A part still without an outcome is an unanswered call: followed by a later message, the SDK's
``convertToModelMessages`` gives a tool call without a result and the request fails with
``MissingToolResultsError``; as the last message it is pending (TC022). An approval is not a
result: ``convertToModelMessages`` (vercel/ai ``packages/ai/src/ui/convert-to-model-messages.ts``)
turns an ``approval-responded`` part with ``approval.approved: true`` into the call and a
``tool-approval-response``, with no result (the SDK runs the call next only when that response ends
the list); with ``approved: false`` it writes an ``execution-denied`` result itself. So an approved
call with anything after it is TC001, in the provider's words: the SDK exempts it from
``MissingToolResultsError`` and sends it without a result (``vercel_ai.approval_not_result``). Answered parts are
complete in themselves and pair with nothing else. Repair answers a call in place, the way the
SDK records a failed tool: the part gets ``state: "output-error"`` and an ``errorText``.
Schema: vercel/ai ``packages/ai/src/ui/ui-messages.ts`` (docs/formats-research.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model import Call, Issue, Msg, Result
from .base import Block, Dialect, Samples, TaggedCall, block_call, json_text, known, word
from .editing import PartsEditor
from .vercel_ai import SDK_TARGETS, approval_not_result, provider_keys, set_sdk_wording

if TYPE_CHECKING:
    from ..pairing import Pairing

ROLES = ("system", "user", "assistant")
OPEN_STATES = frozenset({"input-streaming", "input-available", "approval-requested", "partial-call", "call"})


def tool_part(p: Any) -> dict[str, Any] | None:
    """The fields of a tool part (the ``toolInvocation`` object for AI SDK 4), or None."""
    if type(p) is not dict or type(p.get("type")) is not str:
        return None
    t = p["type"]
    if t == "tool-invocation" and type(p.get("toolInvocation")) is dict:
        fields: dict[str, Any] = p["toolInvocation"]
        return fields
    if t == "dynamic-tool" or (t.startswith("tool-") and "toolCallId" in p):
        return p
    return None


def tool_name(p: dict[str, Any], fields: dict[str, Any]) -> Any:
    return fields.get("toolName") if "toolName" in fields else p["type"][5:]


class VercelUi(Dialect):
    name = "vercel-ui"
    targets = SDK_TARGETS
    block = Block.RUN

    def detect(self, items: list[Any]) -> int:
        for m in items[:50]:
            if type(m) is dict and type(m.get("parts")) is list and word(m.get("role")) in ROLES:
                for p in m["parts"][:20]:
                    # Gemini parts have no "type"; OpenTelemetry text parts hold "content", not "text".
                    if type(p) is dict and type(p.get("type")) is str and (
                            tool_part(p) is not None or p["type"] in ("step-start", "source-url", "file")
                            or (p["type"] in ("text", "reasoning") and "text" in p)):
                        return 4
        return 0

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        out: list[Msg] = []
        note = issues.append
        for i, m, role in known(items, where, out, note, ROLES):
            parts: list[Any] = m["parts"] if type(m.get("parts")) is list else []
            calls: list[Call] = []
            for j, p in enumerate(parts):
                f = tool_part(p)
                if f is None or role != "assistant" or f.get("providerExecuted"):
                    continue
                state = f.get("state")
                answer = f["approval"].get("approved") if type(f.get("approval")) is dict else None
                # An answered approval: approved, the call is still open; denied, the SDK writes its result.
                if state not in OPEN_STATES and not (state == "approval-responded" and answer is not False):
                    continue
                approved = state == "approval-responded" and answer is True
                c = block_call(i, j, f.get("toolCallId"), tool_name(p, f), f.get("input", f.get("args")), note)
                # "approved", and whether a later step of the message follows it (then it is no longer the end).
                tag = ("approved-then" if _later_step(parts, j) else "approved") if approved else ""
                calls.append(TaggedCall(c.id, c.name, c.args, j, i, tag))
            out.append(Msg(i, role, calls, (), m))
        return out

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        approved = {(c.msg, c.pos): c for c in pairing.missing if isinstance(c, TaggedCall) and c.tag.startswith("approved")}
        exempt = set()
        for iss in pairing.issues:
            pos = iss.data.get("pos")
            c = approved.get((iss.index, pos)) if iss.code in ("TC001", "TC022") and pos is not None else None
            if c is None:
                continue
            if iss.code == "TC022" and c.tag == "approved":
                continue  # the list ends with it: the SDK runs the approved call next
            if iss.code == "TC022":  # a later step of the same message follows it
                iss.code = "TC001"
                pairing.pending[:] = [x for x in pairing.pending if x is not c]
            approval_not_result(iss, None, True)
            exempt.add(iss.call_id)
        set_sdk_wording(pairing, exempt)
        return []

    def target_from(self, items: list[Any], holder: Any = None) -> tuple[str | None, str]:
        return provider_keys(items, "parts", ("providerMetadata", "callProviderMetadata"))

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """The tool part of this call id is in state ``output-error`` (AI SDK 5's failed tool)."""
        parts = raw.get("parts") if type(raw) is dict else None
        return result_id is not None and type(parts) is list and any(
            type(p) is dict and p.get("toolCallId") == result_id and p.get("state") == "output-error" for p in parts)

    def text(self, raw: Any) -> str:
        if type(raw) is not dict or type(raw.get("parts")) is not list:
            return ""
        out = []
        for p in raw["parts"]:
            f = tool_part(p)
            if f is not None:
                out.append(json_text(f.get("output", f.get("result", f.get("errorText")))))
            elif type(p) is dict and p.get("type") == "text" and type(p.get("text")) is str:
                out.append(p["text"])
        return "\n".join(t for t in out if t)


def _later_step(parts: list[Any], j: int) -> bool:
    """True when a ``step-start`` with parts after it follows part ``j``: the SDK's next step."""
    for k in range(j + 1, len(parts) - 1):
        if type(parts[k]) is dict and parts[k].get("type") == "step-start":
            return True
    return False


class VercelUiEditor(PartsEditor):
    """Edits parts in place; a missing result is written into the call's own part."""

    def answer_in_place(self, raw: dict[str, Any], call: Call, text: str) -> dict[str, Any]:
        p = raw["parts"][call.pos]
        if p.get("type") == "tool-invocation":  # AI SDK 4
            return self.with_part(raw, call.pos, toolInvocation={**p["toolInvocation"], "state": "result",
                                                                 "result": {"error": text}})
        return self.with_part(raw, call.pos, state="output-error", errorText=text)

    def placeholder(self, call: Call, call_id: str | None, text: str) -> Any:
        raise NotImplementedError("UIMessage results live in the call's part: answer_in_place")

    def set_call_id(self, raw: dict[str, Any], call: Call, new_id: str) -> dict[str, Any]:
        p = raw["parts"][call.pos]
        if p.get("type") == "tool-invocation":
            return self.with_part(raw, call.pos, toolInvocation={**p["toolInvocation"], "toolCallId": new_id})
        return self.with_part(raw, call.pos, toolCallId=new_id)

    def set_result_id(self, raw: dict[str, Any], result: Result, new_id: str) -> dict[str, Any]:
        return raw  # UIMessages have no result parts of their own

    def set_result_name(self, raw: dict[str, Any], result: Result, name: str) -> None:
        return None

    def note_for_orphan(self, raw: dict[str, Any], result: Result, text: str) -> dict[str, Any]:
        return {"id": f"{raw.get('id', 'orphan')}-note", "role": "user", "parts": [self.text_part(text)]}

    def user_to_result(self, raw: dict[str, Any], call: Call, call_id: str | None) -> dict[str, Any]:
        return raw  # never asked: this dialect reports no TC020

    def bridge(self, text: str) -> dict[str, Any]:
        return {"id": "repair-bridge", "role": "assistant", "parts": [self.text_part(text)]}


VercelUi.editor_class = VercelUiEditor

_ASK = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "What's the weather in Oslo?"}]}
VercelUi.samples = Samples(
    clean=[
        _ASK,
        {"id": "a1", "role": "assistant", "parts": [
            {"type": "step-start"},
            {"type": "tool-getWeather", "toolCallId": "call_oslo_1", "state": "output-available",
             "input": {"city": "Oslo"}, "output": {"tempC": -3}},
            {"type": "text", "text": "It is -3 C in Oslo.", "state": "done"}]},
    ],
    broken=[
        _ASK,
        {"id": "a1", "role": "assistant", "parts": [
            {"type": "step-start"},
            {"type": "tool-getWeather", "toolCallId": "call_oslo_1", "state": "input-available",
             "input": {"city": "Oslo"}}]},
        {"id": "u2", "role": "user", "parts": [{"type": "text", "text": "Hello?"}]},
    ],
)

DIALECT = VercelUi()
