"""Independent validators repaired output is held to: mistral-common's own request validator
(serving mode, tokenizer v11 and v13)."""

from __future__ import annotations

from mistral_common.protocol.instruct.request import ChatCompletionRequest
from mistral_common.protocol.instruct.validator import (
    MistralRequestValidatorV11,
    MistralRequestValidatorV13,
    ValidationMode,
)


def mistral_request(msgs: list) -> ChatCompletionRequest:
    """The repaired messages as a client would send them to Mistral: the fields Mistral's message
    types have, content parts as their text. Roles, ids and pairing are passed through untouched."""
    keep = {"system": ("content",), "user": ("content",), "assistant": ("content", "tool_calls", "prefix"),
            "tool": ("content", "tool_call_id", "name")}
    clean = []
    for m in msgs:
        d = {"role": m["role"], **{k: v for k, v in m.items() if k in keep.get(m["role"], ()) and v is not None}}
        if isinstance(d.get("content"), list):  # log formats' own parts (reasoning, signatures): send the text
            d["content"] = "\n".join(p["text"] for p in d["content"] if isinstance(p, dict) and p.get("type") == "text")
        if d.get("tool_calls"):
            d["tool_calls"] = [{"id": c["id"], "type": "function",
                                "function": {"name": c["function"]["name"], "arguments": c["function"]["arguments"]}}
                               for c in d["tool_calls"]]
        clean.append(d)
    return ChatCompletionRequest(model="mistral-large-latest", messages=clean)


def mistral_accepts(msgs: list) -> None:
    request = mistral_request(msgs)
    for validator in (MistralRequestValidatorV11, MistralRequestValidatorV13):
        validator(ValidationMode.serving).validate_request(request)


