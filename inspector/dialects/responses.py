"""OpenAI Responses API ``input`` items: call items and their outputs, linked by ``call_id``.

Every item is one entry of the neutral view: a call item (``function_call``, ``custom_tool_call``,
``shell_call``, ``computer_call``, ...) carries one call, an output item one result, a message its
role. A run of call items is one call block (``BLOCK = "items"``), answered by the outputs that
follow it; ``reasoning`` items and hosted-tool items between the calls stay in the block. Items
wrapped by the OpenAI Agents SDK (``{"type": "tool_call_item", "raw_item": {...}}``) are read
through their ``raw_item``. A ``reasoning`` item must be followed by the item it produced (TC021).
"""

from __future__ import annotations

from ..containers import path_text
from ..errors import InputError
from ..model import Issue, Msg, Result
from .openai_chat import NAME_RE, _JSONError, _bad_id, _loads, _type
from .shared_rules import TaggedCall, unknown_role, user_as_result

NAME = "openai-responses"
TARGETS = ("responses", "deepseek")  # DeepSeek serves /v1/responses too, with its stricter adjacency
BLOCK = "items"
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
OWN_TYPES = OUTPUTS | HOSTED | frozenset(OUTPUT_OF) | {"reasoning", "item_reference"}
OWN_PARTS = frozenset({"input_text", "output_text", "input_image", "input_file", "refusal"})


def detect(items: list) -> int:
    for m in items[:50]:
        if type(m) is not dict:
            continue
        raw = m.get("raw_item")
        if type(raw) is dict:
            m = raw
        if m.get("type") in OWN_TYPES:
            return 3
        c = m.get("content")
        if type(c) is list and "tool_calls" not in m:
            for p in c[:5]:
                if type(p) is dict and p.get("type") in OWN_PARTS:
                    return 3
    return 0


def _call_id(m: dict, t: str):
    # mcp approvals link by the request's own id; local shell outputs carry the call's id in "id".
    if t == "mcp_approval_request":
        return m.get("id")
    if t == "mcp_approval_response":
        return m.get("approval_request_id")
    if t == "local_shell_call_output":
        return m.get("id") if m.get("call_id") is None else m.get("call_id")
    return m.get("call_id")


def normalize(items: list, where: tuple, issues: list[Issue]) -> list[Msg]:
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
                note(Issue("TC012", i, cid if type(cid) is str else None, name=name, missing=name is None))
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
                note(Issue("TC008", i, None, side="result", value=cid))
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
        elif t == "item_reference":
            add(Msg(i, "reference", (), (), m))
        else:
            add(unknown_role(i, t, m, note, say=f"is an item of type {t!r}, which the Responses API does not have."))
    return out


def dialect_issues(msgs: list[Msg], pairing, target: str) -> list[Issue]:
    """Tool output sent as user text (TC020) and reasoning items cut off from their item (TC021)."""
    issues: list[Issue] = []
    note = issues.append
    user_as_result(msgs, pairing, note)
    reasoning(msgs, note)
    continuation(msgs, pairing.issues)
    if target == "deepseek":
        deepseek_words(pairing.issues)
    return issues


def continuation(msgs: list[Msg], pairing_issues: list[Issue]) -> None:
    """Outputs before any call item are how a request continues an earlier response
    (``previous_response_id``): the call is stored server-side. The input alone cannot tell, so
    the finding says so."""
    first_call = next((m.index for m in msgs if m.calls), len(msgs))
    for iss in pairing_issues:
        if iss.code == "TC002" and iss.index < first_call:
            iss.data["say"] = (f"is an output for call {iss.call_id or '(no id)'}, but no call item in this input has "
                               "that id; that is only fine when the request continues an earlier response "
                               "(previous_response_id or conversation), which holds the call.")


# DeepSeek's /v1/responses answers an output that does not follow its call's run with this
# (recorded in the corpus: broken/pydantic-ai_deepseek_responses_rejects_interleaved_function_calls);
# its Chat Completions texts would be the wrong words here, and other texts are not known.
DEEPSEEK_NO_OUTPUT = "No tool output found for tool call {id}."


def deepseek_words(pairing_issues: list[Issue]) -> None:
    for iss in pairing_issues:
        iss.data["provider"] = DEEPSEEK_NO_OUTPUT if iss.code in ("TC001", "TC003") else None


def reasoning(msgs: list[Msg], note) -> None:
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
