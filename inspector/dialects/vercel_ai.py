"""Vercel AI SDK ``ModelMessage[]`` (``CoreMessage`` before AI SDK 5): what ``generateText`` and
``streamText`` take as ``messages`` and give back as ``response.messages``.

Roles ``system``, ``user``, ``assistant``, ``tool``; ``content`` is a string or an array of parts.
An assistant's ``tool-call`` part (``toolCallId``, ``toolName``, ``input``; ``args`` before AI SDK
5) is answered by a ``tool-result`` part (``toolCallId``, ``toolName``, ``output``; ``result``
before AI SDK 5) in a following ``role: "tool"`` message. A call with ``providerExecuted: true``
is run by the provider and answered inside the same assistant message: it is no call to answer.
Tool approval (AI SDK 6): an assistant's ``tool-approval-request`` (``approvalId``, ``toolCallId``)
is answered by a ``tool-approval-response`` (``approvalId``, ``approved``) in a tool message. An
approval is not a result. ``generateText``/``streamText`` run an approved call, or write an
``execution-denied`` result for a denied one, only when the response is in the *last* message
(``collect-tool-approvals.ts``); ``convertToModelMessages`` writes the denied result itself. Further
back, a call with an approval response and no ``tool-result`` is sent without one: the SDK exempts
it from its own check (``convert-to-language-model-prompt.ts``: every call with an approval
response), so the provider refuses the request in its own words ("`tool_use` ids were found
without `tool_result` blocks", "No tool output found for function call"; vercel/ai at ed857f50,
2026-08-22; docs/provider-evidence.md).

The SDK refuses a history where any other call has no result before the next user or system turn,
or by the end of the list, before any provider sees it (``convertToLanguageModelPrompt``):
``MissingToolResultsError`` ("Tool result is missing for tool call X."), the text TC001 gets here
for every target. So a call left open at the end is TC001 here, not a pending TC022 (unless its
approval response ends the list: the SDK runs it next). Pairing is openai-chat's (``Block.RUN``); the file names
no provider, so the default target is the most permissive reading (openai) unless a model name
says otherwise. Schema: vercel/ai ``packages/provider-utils/src/types/*.ts`` and
``packages/ai/src/prompt/missing-tool-results-error.ts`` (docs/formats-research.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model import Call, Issue, Msg, Result
from .base import (
    PERMISSIVE_TARGETS,
    Block,
    Dialect,
    Samples,
    TaggedCall,
    block_call,
    block_result,
    json_text,
    known,
    parts_text,
    run_rules,
    word,
)
from .editing import PartsEditor

if TYPE_CHECKING:
    from ..pairing import Pairing

ROLES = ("system", "user", "assistant", "tool")
OWN_PARTS = frozenset({"tool-call", "tool-result", "tool-approval-request", "tool-approval-response", "reasoning"})
# The AI SDK's ``openai`` provider sends the Responses API by default (AI SDK 5 and later), so that
# API is a target too; ``providerOptions.openai.itemId`` (a Responses item id) says it was used.
SDK_TARGETS = (*PERMISSIVE_TARGETS, "responses")


def missing_results_error(ids: list[str]) -> str:
    """The text of the SDK's own ``MissingToolResultsError`` for these call ids."""
    many = len(ids) > 1
    return (f"Tool result{'s are' if many else ' is'} missing for tool call{'s' if many else ''} "
            f"{', '.join(ids)}.")


def result_text(part: dict[str, Any]) -> str:
    """A tool result's output as text: ``{type: "text"|"json"|"error-text"|..., value}``, or v4's ``result``."""
    out = part.get("output", part.get("result"))
    if type(out) is dict and "value" in out and type(out.get("type")) is str:
        out = out["value"]
    return json_text(out)


class VercelAi(Dialect):
    name = "vercel-ai"
    targets = SDK_TARGETS
    block = Block.RUN

    def detect(self, items: list[Any]) -> int:
        for m in items[:50]:
            if type(m) is dict and type(m.get("content")) is list and "parts" not in m:
                for p in m["content"][:20]:
                    if type(p) is dict and word(p.get("type")) in OWN_PARTS and ("toolCallId" in p or "approvalId" in p):
                        return 3
        return 0

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        out: list[Msg] = []
        add = out.append
        note = issues.append
        for i, m, role in known(items, where, out, note, ROLES):
            content = m.get("content")
            if type(content) is not list:
                if content is None:
                    note(Issue("TC018", i, None, field="content", role=role))
                add(Msg(i, role, (), (), m))
                continue
            calls: list[Call] = []
            results: list[Result] = []
            other = False
            for j, p in enumerate(content):
                kind = p.get("type") if type(p) is dict else None
                if kind == "tool-call" and role == "assistant":
                    if p.get("providerExecuted"):
                        continue  # answered by the provider, in this message
                    c = block_call(i, j, p.get("toolCallId"), p.get("toolName"), p.get("input", p.get("args")), note)
                    # AI SDK 4 names (args/result): a placeholder answers in the same generation's words.
                    calls.append(TaggedCall(c.id, c.name, c.args, j, i, "v4" if "input" not in p and "args" in p else "v5"))
                elif kind == "tool-approval-request":
                    continue  # the SDK asks the user; the call stays open (see ``rules``)
                elif kind == "tool-result" and role == "tool":
                    r = block_result(i, j, p.get("toolCallId"), note)
                    r.name = p.get("toolName")  # for TC013
                    results.append(r)
                elif kind == "tool-approval-response" and role == "tool":
                    continue  # an answer to the approval, not the call's result (see ``rules``)
                elif kind == "tool-result" and role == "assistant":
                    continue  # a provider-executed call's result
                else:
                    other = True
            add(Msg(i, role, calls, results, m, other if role == "tool" else True))
        return out

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        responded = approval_responses(msgs) if pairing.missing else {}
        last = len(msgs) - 1
        resolved = {tid for tid, (at, _) in responded.items() if at == last}
        pending: list[Any] = []
        for iss in pairing.issues:
            if iss.code not in ("TC001", "TC022"):
                continue
            if iss.call_id in resolved:  # generateText runs (or denies) it before it calls the model
                iss.code = "TC022"
                iss.data["kind"] = "approval_pending"
                at, approved = responded[iss.call_id]
                iss.say = (f"calls tool {_name(iss)} (id {iss.call_id}), {'approved' if approved else 'denied'} in "
                           f"message #{at}, the last: the AI SDK {'runs the call' if approved else 'writes the denial'} "
                           "before it calls the model; a pending call.")
                pending.extend(c for c in pairing.missing if c.id == iss.call_id)
                continue
            iss.code = "TC001"  # the SDK checks the end of the list too: nothing else is pending
            if iss.call_id in responded:
                approval_not_result(iss, *responded[iss.call_id])
        pairing.pending[:] = pending
        set_sdk_wording(pairing, exempt=set(responded))
        return run_rules(msgs, pairing, target, self.text)

    def target_from(self, items: list[Any], holder: Any = None) -> tuple[str | None, str]:
        return provider_keys(items, "content", ("providerOptions",))

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """The ``tool-result`` part of this id has ``isError: true`` (AI SDK 4) or an output of
        type ``error-text``/``error-json`` (AI SDK 5)."""
        content = raw.get("content") if type(raw) is dict else None
        for p in content if type(content) is list and result_id is not None else ():
            if type(p) is dict and p.get("type") == "tool-result" and p.get("toolCallId") == result_id:
                out = p.get("output")
                return p.get("isError") is True or (type(out) is dict and out.get("type") in ("error-text", "error-json"))
        return False

    def text(self, raw: Any) -> str:
        if type(raw) is not dict:
            return ""
        content = raw.get("content")
        if type(content) is list:
            out = []
            for p in content:
                if type(p) is dict and p.get("type") == "tool-result":
                    out.append(result_text(p))
                elif type(p) is dict and type(p.get("text")) is str and p.get("type") != "reasoning":
                    out.append(p["text"])
            return "\n".join(t for t in out if t)
        return parts_text(content)


# The keys of ``providerOptions`` / ``providerMetadata``: the AI SDK provider package that wrote them.
PROVIDER_KEYS = {"openai": "openai", "azure": "openai", "anthropic": "anthropic", "google": "gemini",
                 "vertex": "gemini", "bedrock": "bedrock", "mistral": "mistral", "deepseek": "deepseek"}


def provider_keys(items: list[Any], key: str, fields: tuple[str, ...]) -> tuple[str | None, str]:
    """The provider whose metadata the latest assistant message's parts (``key``: ``content`` or
    ``parts``) carry in ``fields`` (``providerOptions``, ``providerMetadata``, ...): the AI SDK
    writes them per provider package (``{"anthropic": {"signature": ...}}``), and an assistant
    part carries the metadata of the provider that wrote it."""
    for m in reversed(items[-500:]):
        parts = m.get(key) if type(m) is dict and m.get("role") == "assistant" else None
        for p in parts if type(parts) is list else ():
            for f in fields:
                meta = p.get(f) if type(p) is dict else None
                if type(meta) is not dict:
                    continue
                for name in meta:
                    t = PROVIDER_KEYS.get(name)
                    if t == "openai" and type(meta[name]) is dict and "itemId" in meta[name]:
                        return "responses", (f"the history's assistant parts carry 'openai' provider metadata with a "
                                             f"Responses itemId ({f})")
                    if t:
                        return t, f"the history's assistant parts carry {name!r} provider metadata ({f})"
    return None, ""


def _name(iss: Issue) -> str:
    name = iss.data.get("name")
    return f"'{name}'" if isinstance(name, str) and name else "(unnamed tool)"


def approval_responses(msgs: list[Msg]) -> dict[str, tuple[int, bool]]:
    """``toolCallId -> (message, approved)`` for each call a ``tool-approval-response`` answers
    (through the ``tool-approval-request`` that names the call)."""
    asked: dict[Any, Any] = {}
    out: dict[str, tuple[int, bool]] = {}
    for m in msgs:
        content = m.raw.get("content") if type(m.raw) is dict else None
        if type(content) is not list:
            continue
        for p in content:
            if type(p) is not dict:
                continue
            if p.get("type") == "tool-approval-request" and m.role == "assistant":
                asked[p.get("approvalId")] = p.get("toolCallId")
            elif p.get("type") == "tool-approval-response" and m.role == "tool":
                tid = asked.get(p.get("approvalId")) if type(p.get("approvalId")) is str else None
                if type(tid) is str:
                    out[tid] = (m.index, p.get("approved") is True)
    return out


def approval_not_result(iss: Issue, at: int | None, approved: bool) -> None:
    """TC001 for a call whose approval was answered but which has no result: the AI SDK leaves it out
    of its own ``MissingToolResultsError`` (``convert-to-language-model-prompt.ts`` exempts every
    call with an approval response) and sends the call without a result, so the provider's own
    words apply (USUAL), not the SDK's."""
    where = f" in message #{at}" if at is not None else ""
    if approved:
        iss.say = (f"calls tool {_name(iss)} (id {iss.call_id}), which the user approved{where}, but it never ran: "
                   "no result follows. An approval is not a result: the AI SDK sends the call without one, "
                   "and the provider refuses it.")
    else:
        iss.say = (f"calls tool {_name(iss)} (id {iss.call_id}), which the user denied{where}, but no "
                   "'execution-denied' result was written for it: the AI SDK sends the call without a result, "
                   "and the provider refuses it.")
    iss.data["kind"] = "approved_not_run" if approved else "denied_no_result"


def set_sdk_wording(pairing: Pairing, exempt: set[Any] | frozenset[Any] = frozenset()) -> None:
    """TC001 in an AI SDK history is the SDK's own ``MissingToolResultsError``, whatever the target,
    except for the calls in ``exempt`` (answered approvals), which the SDK lets through."""
    by_msg: dict[int, list[str]] = {}
    for iss in pairing.issues:
        if iss.code == "TC001" and iss.call_id not in exempt:
            by_msg.setdefault(iss.index, []).append(iss.call_id or "(no id)")
    for iss in pairing.issues:
        if iss.code == "TC001" and iss.call_id not in exempt:
            iss.provider = missing_results_error(by_msg[iss.index]).replace("{", "{{").replace("}", "}}")


class VercelAiEditor(PartsEditor):
    KEY = "content"

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict[str, Any]:
        part = {"type": "tool-result", "toolCallId": call_id, "toolName": call.name}
        if getattr(call, "tag", "v5") == "v4":
            part.update(result=text, isError=True)
        else:
            part["output"] = {"type": "error-text", "value": text}
        return {"role": "tool", "content": [part]}

    def set_call_id(self, raw: dict[str, Any], call: Call, new_id: str) -> dict[str, Any]:
        return self.with_part(raw, call.pos, toolCallId=new_id)

    def set_result_id(self, raw: dict[str, Any], result: Result, new_id: str) -> dict[str, Any]:
        return self.with_part(raw, result.pos, toolCallId=new_id)

    def set_result_name(self, raw: dict[str, Any], result: Result, name: str) -> dict[str, Any] | None:
        return self.with_part(raw, result.pos, toolName=name)

    def shape_fix(self, raw: dict[str, Any], issue: Issue) -> tuple[dict[str, Any], str] | None:
        if issue.code == "TC018" and raw.get("content") is None:
            return {**raw, "content": ""}, "set the null or missing content to an empty string"
        return None

    def note_for_orphan(self, raw: dict[str, Any], result: Result, text: str) -> dict[str, Any]:
        return {"role": "user", "content": text + "\n" + self.text_of(raw)}

    def user_to_result(self, raw: dict[str, Any], call: Call, call_id: str | None) -> dict[str, Any]:
        return {**raw, "role": "tool", "content": [
            {"type": "tool-result", "toolCallId": call_id, "toolName": call.name,
             "output": {"type": "text", "value": self.text_of(raw)}}]}

    def bridge(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": text}


VercelAi.editor_class = VercelAiEditor

_ASK = {"role": "user", "content": [{"type": "text", "text": "Book me a table for two at 8pm."}]}
_CALLS = {"role": "assistant", "content": [
    {"type": "text", "text": "Checking availability."},
    {"type": "tool-call", "toolCallId": "call_9Kx2", "toolName": "findTable", "input": {"people": 2, "time": "20:00"}},
]}
VercelAi.samples = Samples(
    clean=[
        {"role": "system", "content": "You book restaurant tables."},
        _ASK,
        _CALLS,
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "call_9Kx2", "toolName": "findTable",
                                      "output": {"type": "json", "value": {"table": 12}}}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Table 12 is yours at 8pm."}]},
    ],
    broken=[
        {"role": "system", "content": "You book restaurant tables."},
        _ASK,
        _CALLS,
        {"role": "user", "content": [{"type": "text", "text": "Actually make it 8:30."}]},
    ],
    text_at=1,
)

DIALECT = VercelAi()
