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
"""

from __future__ import annotations

from typing import Any

from .base import JSONError, loads, parts_text

# The gateway's model prefixes and the destination each names (LiteLLM's provider prefixes,
# OpenRouter's vendor segment; a prefix before them, such as ``openrouter/``, is the gateway).
# Gemini is not among them yet: how LiteLLM names the function response of a call it cannot find,
# and whether it keeps tool responses and user text apart, was not confirmed (docs/rules-by-model.md).
_PREFIXES = {"anthropic": "anthropic", "bedrock": "bedrock"}
GATEWAY_TARGETS = ("anthropic", "bedrock")
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


def _args(raw: Any) -> Any:
    if type(raw) is str:
        try:
            return loads(raw) if raw else {}
        except JSONError:
            return {}
    return raw if raw is not None else {}


def _blocks(target: str, m: dict[str, Any], names: dict[str, Any]) -> tuple[str, list[Any]]:
    """The side (user / assistant) and the destination's blocks for one OpenAI message."""
    role = m.get("role")
    if role in ("tool", "function"):
        cid = m.get("tool_call_id")
        text = parts_text(m.get("content")) if m.get("content") is not None else ""
        if target == "anthropic":
            return "user", [{"type": "tool_result", "tool_use_id": cid, "content": text}]
        if target == "bedrock":
            return "user", [{"toolResult": {"toolUseId": cid, "content": [{"text": text}]}}]
        name = names.get(cid, m.get("name")) if type(cid) is str else m.get("name")
        return "user", [{"functionResponse": {"name": name, "response": {"content": text}}}]
    text = parts_text(m.get("content"))
    out: list[Any] = []
    if text:
        out.append({"type": "text", "text": text} if target == "anthropic" else {"text": text})
    if role == "assistant":
        for c in m.get("tool_calls") or []:
            if type(c) is not dict:
                continue
            fn: dict[str, Any] = c["function"] if type(c.get("function")) is dict else {}
            name, cid, args = fn.get("name"), c.get("id"), _args(fn.get("arguments"))
            if target == "anthropic":
                out.append({"type": "tool_use", "id": cid, "name": name, "input": args})
            elif target == "bedrock":
                out.append({"toolUse": {"toolUseId": cid, "name": name, "input": args}})
            else:
                out.append({"functionCall": {"name": name, "args": args}})
        return "assistant", out
    return (role if role == "user" else str(role)), out


def translate(items: list[Any], target: str) -> tuple[list[Any], list[list[int]]]:
    """The list the gateway sends ``target``, and for each of its messages the file's own index of
    each block (``origin[k][j]``); an item that is not an OpenAI message is passed as it is."""
    names: dict[Any, Any] = {c.get("id"): (c.get("function") or {}).get("name") for m in items if type(m) is dict
             for c in (m.get("tool_calls") or []) if type(c) is dict and type(c.get("function")) is dict}
    out: list[Any] = []
    origin: list[list[int]] = []
    key = "parts" if target == "gemini" else "content"
    side_word = {"assistant": "model"} if target == "gemini" else {}
    prev = None
    for i, m in enumerate(items):
        if type(m) is not dict or m.get("role") in ("system", "developer"):
            if type(m) is not dict:
                out.append(m)
                origin.append([i])
                prev = None
            continue
        side, blocks = _blocks(target, m, names)
        if side not in ("user", "assistant"):  # a role no provider has: the destination says so
            out.append(m)
            origin.append([i])
            prev = None
            continue
        if not blocks:
            continue  # an empty message: the gateway sends nothing for it
        if side == prev:
            out[-1][key].extend(blocks)
            origin[-1].extend([i] * len(blocks))
            continue
        out.append({"role": side_word.get(side, side), key: blocks})
        origin.append([i] * len(blocks))
        prev = side
    return out, origin


def back(origin: list[list[int]], index: int | None, pos: Any = None) -> int | None:
    """The file's own index of the destination's message ``index`` (its block ``pos`` when known)."""
    if index is None or not 0 <= index < len(origin) or not origin[index]:
        return index
    blocks = origin[index]
    return blocks[pos] if type(pos) is int and 0 <= pos < len(blocks) else blocks[0]
