"""OpenAI Responses API ``input`` items: call items and their outputs, linked by ``call_id``.

Every item is one entry of the neutral view: a call item (``function_call``, ``custom_tool_call``,
``shell_call``, ``computer_call``, ...) carries one call, an output item one result, a message its
role. A run of call items is one call block (``BLOCK = "items"``), answered by the outputs that
follow it; ``reasoning`` items and hosted-tool items between the calls stay in the block. Items
wrapped by the OpenAI Agents SDK (``{"type": "tool_call_item", "raw_item": {...}}``) are read
through their ``raw_item``. A ``reasoning`` item must be followed by the item it produced (TC021).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..containers import Path, path_text
from ..errors import InputError
from ..lazy_patterns import lazy
from ..model import Call, Issue, Msg, Note, Result
from ..model_families import accepts
from .base import (
    NAME_RE,
    Block,
    Dialect,
    Samples,
    TaggedCall,
    no_name,
    parts_text,
    reports_error,
    unknown_role,
    user_as_result,
    word,
)
from .base import JSONError as _JSONError
from .base import bad_id as _bad_id
from .base import loads as _loads
from .base import type_name as _type
from .editing import Editor

if TYPE_CHECKING:
    from ..pairing import Pairing

# call item type -> its output item type (openai-agents-python ``_TOOL_CALL_TO_OUTPUT_TYPE``)
OUTPUT_OF = {
    "function_call": "function_call_output",
    "custom_tool_call": "custom_tool_call_output",
    "shell_call": "shell_call_output",
    "local_shell_call": "local_shell_call_output",
    "computer_call": "computer_call_output",
    "apply_patch_call": "apply_patch_call_output",
    "tool_search_call": "tool_search_output",
    "program": "program_output",
    "mcp_approval_request": "mcp_approval_response",
}
OUTPUTS = frozenset(OUTPUT_OF.values())
# Tools the server runs itself: the item holds its own result.
HOSTED = frozenset({"web_search_call", "file_search_call", "code_interpreter_call", "image_generation_call",
                    "mcp_call", "mcp_list_tools"})
MESSAGE_ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
# Agents SDK run items that only mark a state (the call itself is in another item).
MARKERS = frozenset({"tool_approval_item"})
# A ``compaction`` item (``{type, id, encrypted_content}``, made by ``/v1/responses/compact`` or the
# server's own compaction) stands for the conversation it replaced, calls among them: like an
# ``item_reference``, the outputs right after it may answer calls it holds, and are no orphans.
REFERENCES = frozenset({"item_reference", "compaction"})
OWN_TYPES = OUTPUTS | HOSTED | frozenset(OUTPUT_OF) | {"reasoning"} | REFERENCES
OWN_PARTS = frozenset({"input_text", "output_text", "input_image", "input_file", "refusal"})


def detect(items: list[Any]) -> int:
    for m in items[:50]:
        if type(m) is not dict:
            continue
        raw = m.get("raw_item")
        if type(raw) is dict:
            m = raw
        if word(m.get("type")) in OWN_TYPES:
            return 3
        c = m.get("content")
        if type(c) is list and "tool_calls" not in m:
            for p in c[:5]:
                if type(p) is dict and word(p.get("type")) in OWN_PARTS:
                    return 3
    return 0


def _call_id(m: dict[str, Any], t: str) -> Any:
    # mcp approvals link by the request's own id; local shell outputs carry the call's id in "id".
    if t == "mcp_approval_request":
        return m.get("id")
    if t == "mcp_approval_response":
        return m.get("approval_request_id")
    return m.get("call_id")  # a local_shell_call_output too: one keyed by ``id`` only is TC008 (rules.md 2026-11-27)


# The Responses API's answer to a local_shell_call_output that carries the call's id in ``id``
# rather than ``call_id`` (openai/openai-agents-python#1855).
LOCAL_SHELL_UNANSWERED = "No tool output found for local shell call {id}."


def normalize(items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
    """The neutral view of ``items``; shape issues are appended to ``issues``."""
    out: list[Msg] = []
    add = out.append
    note = issues.append
    fullmatch = NAME_RE.fullmatch
    for i, m in enumerate(items):
        if type(m) is not dict:
            raise InputError(f"expected an input item object, got {_type(m)}", f"{path_text(where)}[{i}]")
        t = m.get("type")
        if type(t) is str and t[-5:] == "_item" and type(m.get("raw_item")) is dict:  # Agents SDK run item
            if t in MARKERS:
                add(Msg(i, "approval", (), (), m, False))
                continue
            m = m["raw_item"]
            t = m.get("type")
        if t is not None and type(t) is not str:
            t = repr(t)  # not a type the API has: read below as an unknown item
        # The two commonest items first; every other type is read below.
        if t == "function_call_output":
            cid = m.get("call_id")
            if not cid or type(cid) is not str or cid == "null":
                note(Issue("TC008", i, None, side="result", value=cid))
                cid = None
            add(Msg(i, "tool", (), [Result(cid, m.get("name"), 0, i)], m, False))
        elif t == "function_call" or t == "custom_tool_call":
            cid = m.get("call_id")
            name = m.get("name")
            if type(name) is not str or not fullmatch(name):
                note(no_name(Issue("TC012", i, cid if type(cid) is str else None, name=name)))
            if not cid or type(cid) is not str or cid == "null":
                note(Issue("TC008", i, None, side="call", value=cid, name=name))
                cid = None
            if t == "function_call":
                args = m.get("arguments")
                if type(args) is str:
                    if args:
                        try:
                            _loads(args)
                        except _JSONError:
                            note(Issue("TC011", i, cid, name=name))
                elif args is not None:
                    note(Issue("TC010", i, cid, name=name, got=_type(args)))
            else:
                args = m.get("input")
            # pos is the item's own index: the calls of one run then compare in input order (TC014).
            add(Msg(i, "assistant", [TaggedCall(cid, name, args, i, i, t)], (), m, False))
        elif t in OUTPUT_OF:  # shell, computer, apply_patch, ... calls: the item type names the tool
            cid = _call_id(m, t)
            if _bad_id(cid):
                note(Issue("TC008", i, None, side="call", value=cid, name=t))
                cid = None
            add(Msg(i, "assistant", [TaggedCall(cid, t, m.get("arguments", m.get("action")), i, i, t)], (), m, False))
        elif t in OUTPUTS:
            cid = _call_id(m, t)
            if _bad_id(cid):
                iss = Issue("TC008", i, None, side="result", value=cid)
                keyed = m.get("id")
                if t == "local_shell_call_output" and not _bad_id(keyed):
                    iss.call_id = keyed
                    iss.data["kind"] = "local_shell"
                    iss.say = (f"is a local_shell_call_output that names its call ({keyed}) in 'id', not "
                               "'call_id'; the API pairs outputs by 'call_id' only.")
                    iss.provider = LOCAL_SHELL_UNANSWERED
                note(iss)
                cid = None
            add(Msg(i, "tool", (), [Result(cid, m.get("name"), 0, i)], m, False))
        elif t == "reasoning":
            add(Msg(i, "reasoning", (), (), m))
        elif t in HOSTED:
            add(Msg(i, "hosted", (), (), m))
        elif t == "message" or (t is None and "role" in m):
            raw_role = m.get("role")
            role = MESSAGE_ROLES.get(raw_role) if type(raw_role) is str else None
            if role is None:
                add(unknown_role(i, m.get("role"), m, note))
            else:
                add(Msg(i, role, (), (), m))
        elif t in REFERENCES:
            add(Msg(i, "reference", (), (), m))
        else:
            add(unknown_role(i, t, m, note, say=f"is an item of type {t!r}, which the Responses API does not have."))
    return out


def continuation(msgs: list[Msg], pairing_issues: list[Issue]) -> None:
    """Outputs before any call item are how a request continues an earlier response
    (``previous_response_id``): the call is stored server-side. The input alone cannot tell, so
    the finding says so."""
    first_call = next((m.index for m in msgs if m.calls), len(msgs))
    for iss in pairing_issues:
        if iss.code == "TC002" and iss.index < first_call:
            iss.say = (f"is an output for call {iss.call_id or '(no id)'}, but no call item in this input has "
                               "that id; that is only fine when the request continues an earlier response "
                               "(previous_response_id or conversation), which holds the call.")


# DeepSeek's /v1/responses answers an output that does not follow its call's run with this
# (recorded in the corpus: broken/pydantic-ai_deepseek_responses_rejects_interleaved_function_calls);
# its Chat Completions texts would be the wrong words here, and other texts are not known.
DEEPSEEK_NO_OUTPUT = "No tool output found for tool call {id}."


def deepseek_words(pairing_issues: list[Issue]) -> None:
    for iss in pairing_issues:
        iss.provider = DEEPSEEK_NO_OUTPUT if iss.code in ("TC001", "TC003") else None


# The items of one response share the first 16 hex digits of their ids after the type prefix
# (``rs_0a4d512680f81369006a5364c4…`` and ``fc_0a4d512680f81369006a5364c6…``, cline/cline#12242,
# 2026-07-12; the same in continuedev/continue#10018 and #10880, mastra-ai/mastra#8738,
# VRSEN/agency-swarm#367): the response a call or reasoning item came from.
_ITEM_ID = lazy(r"(fc|rs)_([0-9a-f]{16})[0-9a-f]{24,}")  # 40+ hex digits: the API's own (see _API_CALL_ID)


def response_of(raw: Any, kind: str) -> str | None:
    """The response an output item's ``id`` says it came from (``kind``: ``fc`` or ``rs``), or None."""
    rid = raw.get("id") if type(raw) is dict else None
    m = _ITEM_ID.fullmatch(rid) if type(rid) is str else None
    return m.group(2) if m is not None and m.group(1) == kind else None


def reasoning_binding(msgs: list[Msg], note: Callable[[Issue], None]) -> None:
    """A reasoning item followed by a function call another response made (TC021
    ``reasoning_binding``): its encrypted reasoning is bound to the call it was produced with, which
    is not after it, so the API finds it without its required following item. Ids that do not have
    the API's shape say nothing. (A call without its response's reasoning item is
    ``reasoning_dropped``, issue 31.)"""
    for k, m in enumerate(msgs):
        if m.role == "reasoning":
            key = response_of(m.raw, "rs")
            if key is None:
                continue
            nxt = msgs[k + 1] if k + 1 < len(msgs) else None
            got = response_of(nxt.raw, "fc") if nxt is not None and nxt.calls else None
            if nxt is not None and got is not None and got != key:
                rid = m.raw.get("id")
                note(Issue("TC021", m.index, None, nxt.index, kind="reasoning_binding", item=rid,
                           say=f"is a reasoning item ({rid}) followed by function call {nxt.raw.get('id')}, which "
                               "another response made: the call it was produced with is not after it, and its "
                               "encrypted reasoning is bound to that call."))


def reasoning(msgs: list[Msg], note: Note) -> None:
    """A run of reasoning items must be followed by the item the model produced with it: a call
    item or an assistant message item that carries its ``id`` (a bare ``{"role": "assistant"}``
    message cannot be tied back to it)."""
    n = len(msgs)
    k = 0
    while k < n:
        if msgs[k].role != "reasoning":
            k += 1
            continue
        start = k
        while k < n and msgs[k].role == "reasoning":
            k += 1
        nxt = msgs[k] if k < n else None
        ok = nxt is not None and (nxt.calls or nxt.role == "hosted" or (nxt.role == "assistant" and nxt.raw.get("id")))
        if not ok:
            rid = msgs[start].raw.get("id")
            what = "the end of the input" if nxt is None else f"message #{nxt.index} ({nxt.role})"
            note(Issue("TC021", start, None, k if nxt is not None else None, kind="reasoning_item", item=rid,
                       say=f"is a reasoning item ({rid or 'no id'}) followed by {what}, not by the call or "
                           "message it produced; OpenAI rejects a reasoning item without its required following item."))


# The Responses API's words for a function call item replayed without the reasoning item it was
# produced with (VRSEN/agency-swarm#367, 2025-09-24; mastra-ai/mastra#8738, 2025-10-11;
# continuedev/continue#10018, 2026-01-29; #10880, 2026-02-27; cline/cline#12242, gpt-5.5, 2026-07-12).
# The reasoning item's id is the one that was dropped: not in the input, so not given here.
SERVER_CALL_PREFIX = "fc_"
# An id OpenAI's Responses API gave (``fc_`` and 50 hex digits in every dated report above, the
# response's first): a made-up ``fc_2`` is not looked up, nor the 32-hex-digit ids of other
# implementations of the API, which do not bind a call to a reasoning item that way (Amazon
# Bedrock's OpenAI-compatible endpoint accepted such a call replayed without one: the shared
# corpus's responses/pydantic-ai_bedrock_mantle_reused_tool_call_ids.request.json, expected clean).
_API_CALL_ID = lazy(r"fc_[0-9a-f]{40,}")


def dropped_reasoning(msgs: list[Msg], note: Note) -> None:
    """TC021 ``reasoning_dropped``: a ``function_call`` item that keeps the id the API gave it
    (``fc_…``) is looked up with the response it came from, and a reasoning model's response put a
    reasoning item (``rs_…``) before its calls: replayed without that item, the API refuses it. The
    calls of one response are the model's items between two input items (a user message, an
    output); a reasoning item (or an ``item_reference`` / ``compaction`` that may stand for one)
    among them before the call keeps it. When the input holds reasoning items elsewhere, the
    conversation reasons and the missing one was dropped: an error. Otherwise whether the model
    reasons is not known from the input (``reasoning_dropped_unsure``, a warning; the request's
    model settles it in ``model_rules``)."""
    reasons = any(m.role == "reasoning" for m in msgs)
    kept = False  # a reasoning item (or what may stand for one) in the response being read
    for m in msgs:
        if m.role in ("reasoning", "reference"):
            kept = True
            continue
        if m.role in ("assistant", "hosted"):
            fc = m.raw.get("id") if m.calls and m.raw.get("type") == "function_call" else None
            if not kept and type(fc) is str and _API_CALL_ID.fullmatch(fc):
                c = m.calls[0]
                note(Issue("TC021", m.index, c.id, name=c.name, item=fc,
                           kind="reasoning_dropped" if reasons else "reasoning_dropped_unsure",
                           say=f"is a function call item ({fc}) that keeps the id the API gave it, with no reasoning "
                               "item before it in its response: a reasoning model's response put one there, and the "
                               "Responses API refuses the call item without it."
                           + ("" if reasons else " (Whether this model reasons is not known from the input.)")))
            continue
        kept = False  # an input item: the next model items are another response's


def _inner(raw: dict[str, Any]) -> dict[str, Any]:
    """The item itself: an Agents SDK run item's ``raw_item``, or the item."""
    inner = raw.get("raw_item")
    return inner if type(inner) is dict and type(raw.get("type")) is str and raw["type"].endswith("_item") else raw


def text(raw: Any) -> str:
    """The text of an item: an output's ``output``, or a message's content text."""
    if type(raw) is not dict:
        return ""
    item = _inner(raw)
    out = item.get("output")
    if type(out) is str:
        return out
    if out is not None:
        return json.dumps(out, ensure_ascii=False)
    return parts_text(item.get("content"))


def agents_run_state(root: Any, fmt: str) -> list[tuple[Path, str]]:
    """OpenAI Agents SDK run states: ``generated_items`` are Responses items wrapped as run items."""
    if type(root) is dict and "$schemaVersion" in root and type(root.get("generated_items")) is list:
        return [(("generated_items",), "OpenAI Agents SDK run state")]
    return []


# --- repair --------------------------------------------------------------------------------------


def _with_inner(raw: dict[str, Any], inner: dict[str, Any]) -> dict[str, Any]:
    return {**raw, "raw_item": inner} if _inner(raw) is not raw else inner


def _id_key(item: dict[str, Any]) -> str:
    t = item.get("type")
    if t == "mcp_approval_request":
        return "id"
    if t == "mcp_approval_response":
        return "approval_request_id"
    return "call_id"


class ResponsesEditor(Editor):
    """Raw edits on ``input`` items, never in place. Each item is one entry of the neutral view,
    so repair's plan applies as for openai-chat: a placeholder is an output item of the type that
    answers the call. Agents SDK run items are edited inside their ``raw_item``. Removing a call
    (``missing=remove_call``) would remove the whole item, which is refused with a clear message."""

    def placeholder(self, call: Call, call_id: str | None, text: str) -> dict[str, Any]:
        kind = OUTPUT_OF.get(getattr(call, "tag", "function_call"), "function_call_output")
        if kind == "mcp_approval_response":
            return {"type": kind, "approval_request_id": call_id, "approve": False, "reason": text}
        return {"type": kind, "call_id": call_id, "output": text}

    def set_call_id(self, raw: dict[str, Any], call: Call, new_id: str) -> dict[str, Any]:
        item = _inner(raw)
        return _with_inner(raw, {**item, _id_key(item): new_id})

    def set_result_id(self, raw: dict[str, Any], result: Result, new_id: str) -> dict[str, Any]:
        item = _inner(raw)
        return _with_inner(raw, {**item, _id_key(item): new_id})

    def set_result_name(self, raw: dict[str, Any], result: Result, name: str) -> dict[str, Any] | None:
        item = _inner(raw)
        return _with_inner(raw, {**item, "name": name}) if "name" in item else None

    def drop_calls(self, raw: dict[str, Any], calls: list[Call]) -> tuple[dict[str, Any], list[Any]]:
        raise InputError("missing=remove_call is not available for Responses input: a call is a whole item; "
                         "use missing=placeholder")

    def call_item(self, raw: dict[str, Any], call: Call) -> Any:
        return _inner(raw)

    def has_id_slot(self, raw: dict[str, Any], call: Call) -> bool:
        return True

    def shape_fix(self, raw: dict[str, Any], issue: Issue) -> tuple[dict[str, Any], str] | None:
        item = _inner(raw)
        if issue.code == "TC010" and item.get("type") == "function_call" and type(item.get("arguments")) in (dict, list):
            text = json.dumps(item["arguments"], ensure_ascii=False)
            return _with_inner(raw, {**item, "arguments": text}), "serialised the object arguments as a JSON string"
        return None

    def note_for_orphan(self, raw: dict[str, Any], result: Result, text: str) -> dict[str, Any]:
        return {"role": "user", "content": text + "\n" + self.text_of(raw)}

    def user_to_result(self, raw: dict[str, Any], call: Call, call_id: str | None) -> dict[str, Any]:
        return self.placeholder(call, call_id, self.text_of(raw))

    def bridge(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": text}

    def role_of(self, item: Any) -> str:
        if type(item) is not dict:
            return "unknown"
        item = _inner(item)
        t = item.get("type")
        if t in OUTPUT_OF:
            return "assistant"
        if t in OUTPUTS:
            return "tool"
        if t == "message" or (t is None and "role" in item):
            return MESSAGE_ROLES.get(item.get("role"), str(item.get("role")))
        return str(t)


class Responses(Dialect):
    """OpenAI Responses API ``input`` items (and the Agents SDK's run items around them)."""

    name = "openai-responses"
    targets = ("responses", "deepseek")  # DeepSeek serves /v1/responses too, with its stricter adjacency
    tool_fields = frozenset({"call_id", "tool_calls", "tool_call_id"})
    block = Block.ITEMS
    recognisers = (agents_run_state,)
    editor_class = ResponsesEditor
    samples = Samples(
        clean=[{"role": "user", "content": "Weather in Paris?"},
               {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'},
               {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
               {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "It is 18C."}]}],
        broken=[{"role": "user", "content": "Weather in Paris?"},
                {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'},
                {"role": "user", "content": "Never mind."}],
    )

    detect = staticmethod(detect)
    read = staticmethod(normalize)

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        """Tool output sent as user text (TC020) and reasoning items cut off from their item (TC021);
        the words of continuation and DeepSeek findings."""
        issues: list[Issue] = []
        note = issues.append
        reasoning_binding(msgs, note)
        user_as_result(msgs, pairing, note, self.text)
        reasoning(msgs, note)
        if target == "responses":
            dropped_reasoning(msgs, note)
        continuation(msgs, pairing.issues)
        if target == "deepseek":
            deepseek_words(pairing.issues)
        return issues

    def model_rules(self, msgs: list[Msg], issues: list[Issue], target: str, model: str | None) -> None:
        """A call item replayed without a reasoning item, where the input does not show that the
        conversation reasons: the request's model says whether it produces reasoning items
        (``model_families.reasoning_items``): one that does not (gpt-4o) leaves nothing to find."""
        if accepts("reasoning_items", model) is False:
            issues[:] = [x for x in issues if not (x.code == "TC021" and x.data.get("kind") == "reasoning_dropped_unsure")]

    def names_list(self, key: str | None, request: Mapping[str, Any] | None, target: str | None) -> bool:
        """A body's ``input`` is a Responses input, even of plain role messages only."""
        return key == "input"

    def continues_stored(self, request: Mapping[str, Any] | None) -> bool:
        """A body with ``previous_response_id`` or ``conversation`` continues a stored response."""
        return request is not None and bool(request.get("previous_response_id") or request.get("conversation"))

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """A ``function_call_output`` item with a failed ``status`` or an ``error``."""
        return type(raw) is dict and raw.get("type") == "function_call_output" and reports_error(raw)

    text = staticmethod(text)


DIALECT = Responses()
