"""An OpenAI-format history sent to Claude, Gemini or Bedrock *through a gateway* (LiteLLM,
OpenRouter, the Vercel AI Gateway): the gateway translates it into the destination's own format,
and the destination refuses it in its own words, relayed (``litellm.BadRequestError:
AnthropicException - messages.3: `tool_use` ids were found without `tool_result` blocks
immediately after…``, BerriAI/litellm#16525).

``translate`` models LiteLLM's documented conversion (``litellm/litellm_core_utils/prompt_templates/
factory.py``: ``anthropic_messages_pt``, ``_bedrock_converse_messages_pt``, ``_gemini_convert_messages_with_history``):

- system and developer messages leave the list (the destination's top-level system prompt);
- an assistant message becomes its text (when not empty) and one call block per tool call
  (``tool_use`` / ``toolUse`` / ``functionCall``, the arguments parsed as JSON);
- tool messages become result blocks (``tool_result`` / ``toolResult`` / ``functionResponse``);
- consecutive messages of one side merge into one message: tool results and the user text after
  them share one user turn, consecutive assistant messages one assistant turn.

The destination's dialect then checks the translated list for its target, and each finding's index
is mapped back to the file's own message (``origin``); the provider's words keep the destination's
own indexes, as it would answer. The model's prefix picks the destination (``gateway_target``).

Gemini (``translate_gemini``) follows LiteLLM's ``_gemini_convert_messages_with_history``
(``litellm/llms/vertex_ai/gemini/transformation.py``) and ``convert_to_gemini_tool_call_result`` /
``_get_thought_signature_from_tool`` (``prompt_templates/factory.py``): a run of user messages is one
user content, a run of assistant messages one model content (text, then one ``functionCall`` per
call, an identical call kept once), a run of tool messages one content of ``functionResponse``
parts, and the user text after them a content of its own. A response is named after its call in
the *last* assistant message (LiteLLM's ``last_message_with_tool_calls``) or by the tool message's
``name``; when neither names it, LiteLLM raises before sending anything (``Missing corresponding
tool call for tool response message.``, BerriAI/litellm#28978, 2026-05-27; #29560, 2026-06-03).
The parts keep the file's call ids: LiteLLM finds a response's call by id, and forwards the ids to
Google AI Studio's Gemini 3 (to others it sends none, and Gemini counts responses against calls). On Gemini 3 LiteLLM gives every call a signature (the one the file kept, else a stand-in);
OpenRouter forwards only what the message's ``reasoning_details`` keep, and refuses a Gemini 3
call without it (``Gemini models require OpenRouter reasoning details to be preserved in each
request``, LibreChat-AI/agents#37, 2025-11-25; OpenRouterTeam/openrouter-examples#67, 2026-03-10).
"""

from __future__ import annotations

from typing import Any

from ..lazy_patterns import lazy
from ..model import Issue
from .base import JSONError, loads, parts_text

# The gateway's model prefixes and the destination each names (LiteLLM's provider prefixes,
# OpenRouter's vendor segment; a prefix before them, such as ``openrouter/``, is the gateway).
_PREFIXES = {"anthropic": "anthropic", "bedrock": "bedrock", "gemini": "gemini", "vertex_ai": "gemini",
             "vertex_ai_beta": "gemini", "google": "gemini"}
# LiteLLM's own Gemini providers: its translation, and its stand-in signatures on Gemini 3.
_LITELLM_GEMINI = frozenset({"gemini", "vertex_ai", "vertex_ai_beta"})
GATEWAY_TARGETS = ("anthropic", "bedrock", "gemini")
DESTINATION_DIALECT = {"anthropic": "anthropic", "bedrock": "bedrock", "gemini": "gemini"}


def gateway_target(model: Any) -> str | None:
    """The destination a gateway's model name sends to (``anthropic/claude-sonnet-4-5``,
    ``openrouter/google/gemini-3-pro``, ``bedrock/us.anthropic.claude-…``), or None: a model named
    without a gateway prefix is the OpenAI-compatible endpoint's own business."""
    if type(model) is not str or "/" not in model:
        return None
    for seg in model.strip().lower().split("/")[:-1]:
        if seg in _PREFIXES:
            return _PREFIXES[seg]
    return None


def _function(call: dict[str, Any]) -> dict[str, Any]:
    """A tool call's ``function`` object, or an empty one."""
    fn = call.get("function")
    return fn if type(fn) is dict else {}


def _args(raw: Any) -> Any:
    if type(raw) is str:
        try:
            return loads(raw) if raw else {}
        except JSONError:
            return {}
    return raw if raw is not None else {}


def _blocks(target: str, m: dict[str, Any]) -> tuple[str, list[Any]]:
    """The side (user / assistant) and the destination's blocks for one OpenAI message."""
    role = m.get("role")
    if role in ("tool", "function"):
        cid = m.get("tool_call_id")
        text = parts_text(m.get("content")) if m.get("content") is not None else ""
        if target == "anthropic":
            return "user", [{"type": "tool_result", "tool_use_id": cid, "content": text}]
        return "user", [{"toolResult": {"toolUseId": cid, "content": [{"text": text}]}}]
    text = parts_text(m.get("content"))
    out: list[Any] = []
    if text:
        out.append({"type": "text", "text": text} if target == "anthropic" else {"text": text})
    if role == "assistant":
        for c in m.get("tool_calls") or []:
            if type(c) is not dict:
                continue
            fn = _function(c)
            name, cid, args = fn.get("name"), c.get("id"), _args(fn.get("arguments"))
            if target == "anthropic":
                out.append({"type": "tool_use", "id": cid, "name": name, "input": args})
            else:
                out.append({"toolUse": {"toolUseId": cid, "name": name, "input": args}})
        return "assistant", out
    return (role if role == "user" else str(role)), out


def translate(items: list[Any], target: str, model: str | None = None,
              issues: list[Issue] | None = None) -> tuple[list[Any], list[list[int]]]:
    """The list the gateway sends ``target``, and for each of its messages the file's own index of
    each block (``origin[k][j]``); an item that is not an OpenAI message is passed as it is. What
    the gateway itself refuses, or what depends on which gateway it is, goes to ``issues`` with the
    file's own indexes (Gemini only: ``translate_gemini``)."""
    if target == "gemini":
        return translate_gemini(items, model, issues if issues is not None else [])
    out: list[Any] = []
    origin: list[list[int]] = []
    prev = None
    for i, m in enumerate(items):
        if type(m) is not dict or m.get("role") in ("system", "developer"):
            if type(m) is not dict:
                out.append(m)
                origin.append([i])
                prev = None
            continue
        side, blocks = _blocks(target, m)
        if side not in ("user", "assistant"):  # a role no provider has: the destination says so
            out.append(m)
            origin.append([i])
            prev = None
            continue
        if not blocks:
            continue  # an empty message: the gateway sends nothing for it
        if side == prev:
            out[-1]["content"].extend(blocks)
            origin[-1].extend([i] * len(blocks))
            continue
        out.append({"role": side, "content": blocks})
        origin.append([i] * len(blocks))
        prev = side
    return out, origin


def back(origin: list[list[int]], index: int | None, pos: Any = None) -> int | None:
    """The file's own index of the destination's message ``index`` (its block ``pos`` when known)."""
    if index is None or not 0 <= index < len(origin) or not origin[index]:
        return index
    blocks = origin[index]
    return blocks[pos] if type(pos) is int and 0 <= pos < len(blocks) else blocks[0]


def _is_result(block: Any) -> bool:
    return type(block) is dict and (block.get("type") == "tool_result" or "toolResult" in block)


def _result_id(block: dict[str, Any]) -> str | None:
    inner = block.get("toolResult")
    cid = inner.get("toolUseId") if type(inner) is dict else block.get("tool_use_id")
    return cid if type(cid) is str and cid else None


_DESTINATION = {"anthropic": ("Anthropic", "where tool results must come first"),
                "bedrock": ("Bedrock", "where tool results and other blocks cannot share a message")}


def results_first(iss: Issue, items: list[Any], origin: list[list[int]], target: str) -> list[Issue]:
    """TC016 on a message the gateway joined from several of the file's (tool results and user
    text in one user turn), as findings on the file's own messages: one on each tool message whose
    result the destination refuses where it stands (``pos`` and after: the messages repair moves),
    the other end the file's message of the turn's first other block. The destination's words
    (``iss.provider``, its own indexes) go with each."""
    k, pos = iss.index, iss.data.get("pos", 0)
    msg = items[k] if 0 <= k < len(items) and k < len(origin) else None
    blocks = msg.get("content") if type(msg) is dict else None
    if type(blocks) is not list or len(blocks) != len(origin[k]):
        iss.index = back(origin, k, pos) or 0
        return [iss]
    files = origin[k]
    text_at = next((files[j] for j, b in enumerate(blocks) if not _is_result(b)), None)
    at: dict[int, str | None] = {}
    for j, b in enumerate(blocks):
        if j >= pos and _is_result(b) and files[j] not in at and files[j] != text_at:
            at[files[j]] = _result_id(b)
    who, rule = _DESTINATION.get(target, (target, "where tool results must come first"))
    out = []
    for i, cid in at.items():
        new = Issue("TC016", i, cid, text_at, **iss.data)
        new.say = (f"is the tool result for call {cid or '(no id)'}, which the gateway sends {who} in one user "
                   f"message (messages.{k}) with the text of message #{text_at}, {rule}.")
        new.provider = iss.provider
        out.append(new)
    if not out:
        iss.index = back(origin, k, pos) or 0
        return [iss]
    return out


# --- Gemini --------------------------------------------------------------------------------------

# LiteLLM's words when a tool message names no call it can find (BerriAI/litellm#28978, 2026-05-27).
LITELLM_NO_CALL = "Missing corresponding tool call for tool response message."
LITELLM_NO_CALL_SEEN = (("LiteLLM's Gemini conversion (BerriAI/litellm#28978, #29560: the request is refused "
                         "before it is sent)"), "2026-06-03")
ROUTE_SEEN = (("OpenRouter: \"Gemini models require OpenRouter reasoning details to be preserved in each "
               "request\" (LibreChat-AI/agents#37, OpenRouterTeam/openrouter-examples#67); LiteLLM's stand-in "
               "signature (_get_thought_signature_from_tool)"), "2026-03-10")
_GEMINI_VERSION = lazy(r"gemini-(\d+)")
_THOUGHT = "__thought__"  # LiteLLM keeps a call's signature in its id: ``call_x__thought__SIG``
STAND_IN = "skip_thought_signature_validator"


def drops_call_ids(target: str) -> bool:
    """True when the gateway's translation for ``target`` carries no call ids (Gemini's parts):
    a finding on an id-less call is named by the file's own id (``file_call_id``)."""
    return target == "gemini"


def file_call_id(items: list[Any], index: int, name: Any) -> str | None:
    """The file's own id of the call (or result) a Gemini finding names by ``name`` at file message
    ``index``: Gemini's parts carry no ids through the gateway, the file's messages do."""
    m = items[index] if 0 <= index < len(items) else None
    if type(m) is not dict:
        return None
    if m.get("role") in ("tool", "function"):
        cid = m.get("tool_call_id")
        return cid if type(cid) is str and cid else None
    for c in m.get("tool_calls") or ():
        fn = c.get("function") if type(c) is dict else None
        if type(fn) is dict and fn.get("name") == name and type(c.get("id")) is str and c["id"]:
            return str(c["id"])
    return None


def first_result(items: list[Any], call_id: str | None, before: int) -> int | None:
    """The file index of the first tool message answering ``call_id`` before ``before``: the other
    end of a second result (TC005), which the destination names by a content it joined."""
    for k, m in enumerate(items[:before]):
        if type(m) is dict and m.get("role") in ("tool", "function") and call_id and m.get("tool_call_id") == call_id:
            return k
    return None


def gemini_route(model: str | None) -> str | None:
    """``"litellm"`` (``gemini/…``, ``vertex_ai/…``), ``"openrouter"`` (``openrouter/google/…``,
    ``google/…``), or None when the input names no model (the gateway is not known)."""
    if type(model) is not str or "/" not in model:
        return None
    first = model.strip().lower().split("/")[0]
    return "litellm" if first in _LITELLM_GEMINI else "openrouter"


def gemini_generation(model: str | None) -> int | None:
    """The Gemini generation a model name says (``gemini-3-pro`` -> 3), or None."""
    m = _GEMINI_VERSION.search(model.lower()) if type(model) is str else None
    return int(m.group(1)) if m else None


def _signature(call: dict[str, Any], message: dict[str, Any]) -> str | None:
    """The thought signature the file kept for ``call``: LiteLLM's ``provider_specific_fields`` (on
    the call or its function), its id's ``__thought__`` suffix, or OpenRouter's ``reasoning_details``
    (an encrypted entry for this call's id, or one with no id)."""
    for holder in (call, _function(call)):
        psf = holder.get("provider_specific_fields")
        if type(psf) is dict and type(psf.get("thought_signature")) is str and psf["thought_signature"]:
            return str(psf["thought_signature"])
    cid = call.get("id")
    if type(cid) is str and _THOUGHT in cid and cid.split(_THOUGHT, 1)[1]:
        return cid.split(_THOUGHT, 1)[1]
    details = message.get("reasoning_details")
    for d in details if type(details) is list else ():
        if type(d) is dict and d.get("type") == "reasoning.encrypted" and type(d.get("data")) is str and d["data"] \
                and d.get("id") in (None, cid):
            return str(d["data"])
    return None


def _keeps_calls(m: dict[str, Any]) -> bool:
    """LiteLLM's test for ``last_message_with_tool_calls``: ``get("tool_calls", []) is not None``, so
    every assistant message without an explicit ``"tool_calls": null`` takes the place."""
    return m.get("tool_calls", []) is not None or m.get("function_call") is not None


def translate_gemini(items: list[Any], model: str | None, issues: list[Issue]) -> tuple[list[Any], list[list[int]]]:
    """The ``contents`` LiteLLM (or OpenRouter, taken to translate alike) sends Gemini for an
    OpenAI-format history, with each part's file index; refusals of the gateway go to ``issues``."""
    route = gemini_route(model)
    out: list[Any] = []
    origin: list[list[int]] = []
    group: str | None = None  # the run being built: "user", "model" or "tool"
    last: dict[str, Any] | None = None  # LiteLLM's last_message_with_tool_calls
    unsigned: list[tuple[int, str | None, Any]] = []  # (file index, call id, name) of the first call of each step

    def open_content(kind: str, role: str | None) -> None:
        nonlocal group
        if group != kind:
            out.append({"parts": []} if role is None else {"role": role, "parts": []})
            origin.append([])
            group = kind

    def add(part: dict[str, Any], i: int) -> None:
        out[-1]["parts"].append(part)
        origin[-1].append(i)

    for i, m in enumerate(items):
        if type(m) is not dict:
            out.append(m)
            origin.append([i])
            group = None
            continue
        role = m.get("role")
        if role in ("system", "developer"):
            continue  # the request's system_instruction
        if role == "user":
            content = m.get("content")
            text = parts_text(content) if content is not None else None
            if text is None:
                continue
            open_content("user", "user")
            add({"text": text or " "}, i)
        elif role == "assistant":
            open_content("model", "model")
            if type(m.get("reasoning_content")) is str:
                add({"thought": True, "text": m["reasoning_content"]}, i)
            text = parts_text(m.get("content")) if m.get("content") is not None else ""
            if text:
                add({"text": text}, i)
            first = True
            for c in m.get("tool_calls") or []:
                if type(c) is not dict:
                    continue
                fn = _function(c)
                fc: dict[str, Any] = {"name": fn.get("name"), "args": _args(fn.get("arguments"))}
                if type(c.get("id")) is str and c["id"]:
                    fc["id"] = c["id"].split(_THOUGHT, 1)[0]  # LiteLLM's lookup is by id
                part: dict[str, Any] = {"functionCall": fc}
                if any(type(p) is dict and type(p.get("functionCall")) is dict and
                       {**p["functionCall"], "id": None} == {**fc, "id": None} for p in out[-1]["parts"]):
                    continue  # LiteLLM keeps an identical call once (check_if_part_exists_in_parts)
                sig = _signature(c, m)
                if sig is None and route == "litellm":
                    sig = STAND_IN  # LiteLLM's stand-in on Gemini 3 (older models ignore signatures)
                if sig is not None:
                    part["thoughtSignature"] = sig
                elif first:
                    unsigned.append((i, c.get("id") if type(c.get("id")) is str else None, fn.get("name")))
                first = False
                add(part, i)
            if _keeps_calls(m):
                last = m
            if not out[-1]["parts"]:
                out.pop()
                origin.pop()
                group = None
        elif role in ("tool", "function"):
            cid = m.get("tool_call_id")
            name = None
            if route == "openrouter":  # OpenRouter: the call of that id anywhere before
                for prev in reversed(items[:i]):
                    calls = prev.get("tool_calls") if type(prev) is dict else None
                    name = next((c["function"].get("name") for c in calls or () if type(c) is dict
                                 and c.get("id") == cid and type(c.get("function")) is dict), None)
                    if name is not None:
                        break
            elif last is not None:
                name = next((c["function"].get("name") for c in last.get("tool_calls") or () if type(c) is dict
                             and cid and c.get("id") == cid and type(c.get("function")) is dict), None)
            name = name or m.get("name")
            if not name and route != "openrouter":
                iss = Issue("TC002", i, cid if type(cid) is str else None, kind="gateway_no_call",
                            seen=LITELLM_NO_CALL_SEEN,
                            say=f"answers call {cid or '(no id)'}, which the assistant message before it does not "
                                "make, and has no name: LiteLLM cannot name the Gemini function response and "
                                "refuses the request before sending it.")
                iss.provider = LITELLM_NO_CALL
                issues.append(iss)
                continue
            open_content("tool", "user")
            text = parts_text(m.get("content")) if m.get("content") is not None else ""
            fr: dict[str, Any] = {"name": name, "response": {"content": text}}
            if type(cid) is str and cid:
                fr["id"] = cid.split(_THOUGHT, 1)[0]
            add({"functionResponse": fr}, i)
        else:  # a role no provider has: the destination says so
            out.append(m)
            origin.append([i])
            group = None
    _route_signatures(items, unsigned, route, model, out, issues)
    return out, origin


def _route_signatures(items: list[Any], unsigned: list[tuple[int, str | None, Any]], route: str | None,
                      model: str | None, out: list[Any], issues: list[Issue]) -> None:
    """Calls of the current turn sent without a thought signature: Gemini 3 refuses them. Through
    LiteLLM every call has one; through OpenRouter only those ``reasoning_details`` keep. When some
    call carries one, the destination's own check (``gemini.signatures``) speaks; when none does,
    this does: an error for a Gemini 3 model through OpenRouter, a warning naming both sides when
    the gateway or the model's generation is not known."""
    if route == "litellm" or not unsigned:
        return
    if any(type(p) is dict and "thoughtSignature" in p for c in out if type(c) is dict
           for p in c.get("parts") or ()):
        return
    start = max((k + 1 for k, m in enumerate(items) if type(m) is dict and m.get("role") == "user"), default=0)
    generation = gemini_generation(model)
    if generation is not None and generation < 3:
        return
    from .gemini import THOUGHT_SIGNATURE_TEXT

    for i, cid, name in unsigned:
        if i < start:
            continue
        if route == "openrouter" and generation is not None:
            iss = Issue("TC021", i, cid, name=name, kind="thought_signature", seen=ROUTE_SEEN,
                        say=f"calls {name} without the thought signature Gemini 3 gave it (OpenRouter forwards it "
                            "only from the message's reasoning_details): Gemini 3 refuses the current turn's calls "
                            "without it.")
            iss.provider = THOUGHT_SIGNATURE_TEXT
        else:
            iss = Issue("TC021", i, cid, name=name, kind="thought_signature_route", seen=ROUTE_SEEN,
                        say=f"calls {name} in the current turn without a thought signature: LiteLLM sends a stand-in "
                            "and Gemini 3 takes it, but through OpenRouter Gemini 3 refuses it unless the message's "
                            "reasoning_details keep it (older Gemini models need none).")
            iss.provider = None
        issues.append(iss)
