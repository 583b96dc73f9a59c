"""The target a request names: its ``model`` (or a Bedrock ``modelId``) says which provider's rules apply.

A Responses request sent to DeepSeek is judged by DeepSeek's rules, a Chat Completions request
to ``mistral-large-latest`` by Mistral's, without the user knowing to ask. The model name is read
the way gateways spell it too: ``google/gemini-2.5-flash`` (OpenRouter), ``bedrock/…`` and
``vertex_ai/…`` (LiteLLM), Bedrock model ids (``us.anthropic.claude-sonnet-4-5-…-v1:0``,
``mistral.mistral-large-2407-v1:0``) and Bedrock ARNs.

The choice is only a default: an explicit ``--target`` (or the app's picker) always wins, and the
reason is reported (``target_reason``) so the badge and the CLI summary can say why. When the model's
provider has no target for the file's dialect (a Gemini model behind an OpenAI-compatible gateway),
the dialect's default stays and the reason says so, rather than guessing.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from .containers import Document, get_path

# Vendor of a model, from the words its names start with (after any gateway prefix). Compiled on
# first use (``_patterns``): most checks name no model, and a compile costs the CLI's start-up.
_FAMILY_PATTERNS = (
    ("anthropic", r"^claude"),
    ("gemini", r"^(gemini|gemma|learnlm)"),
    ("deepseek", r"^deepseek"),
    ("mistral", r"^(mistral|magistral|codestral|ministral|pixtral|devstral|mixtral|open-mistral|open-mixtral|voxtral)"),
    ("openai", r"^(gpt-|gpt\d|chatgpt|o\d(\b|-|$)|text-davinci|davinci|codex|computer-use)"),
)
# Gateway path segments that name the vendor behind them (``mistralai/mistral-large``).
_VENDOR_SEGMENTS = {"anthropic": "anthropic", "google": "gemini", "gemini": "gemini", "vertex_ai": None,
                    "mistralai": "mistral", "mistral": "mistral", "deepseek": "deepseek", "deepseek-ai": "deepseek",
                    "openai": "openai"}
# Bedrock model ids: an optional cross-region prefix, the vendor, a dot, the model.
_BEDROCK_PATTERN = (r"^(?:(?:us|eu|apac|global|jp|au|ca|us-gov)\.)?"
                    r"(anthropic|mistral|meta|amazon|cohere|deepseek|openai|ai21|writer|qwen|google)\.(.+)$")
_BEDROCK_VENDOR = {"anthropic": "anthropic", "mistral": "mistral", "deepseek": "deepseek", "openai": "openai",
                   "google": "gemini"}


@cache
def _patterns() -> tuple[re.Pattern[str], tuple[tuple[str, re.Pattern[str]], ...]]:
    """The Bedrock id pattern and each vendor's name pattern, compiled once."""
    return re.compile(_BEDROCK_PATTERN), tuple((v, re.compile(p)) for v, p in _FAMILY_PATTERNS)


_NAMES = {"openai": "OpenAI", "anthropic": "Anthropic", "gemini": "Gemini", "deepseek": "DeepSeek",
          "mistral": "Mistral"}


@lru_cache(maxsize=256)  # a guard sees the same few models on every request
def vendor_of(model: str) -> tuple[str | None, bool]:
    """``(vendor, on_bedrock)`` for a model name, or ``(None, False)`` when it names no known vendor."""
    name = model.strip()
    on_bedrock = name.startswith("arn:aws:bedrock:")
    if on_bedrock:  # arn:aws:bedrock:REGION:ACCOUNT:(foundation-model|inference-profile)/ID
        name = name.rsplit("/", 1)[-1]
    segments = [s for s in name.split("/") if s]
    if not segments:
        return None, False
    hinted = None
    for seg in segments[:-1]:
        low = seg.lower()
        if low == "bedrock":
            on_bedrock = True
        hinted = _VENDOR_SEGMENTS.get(low, hinted)
    last = segments[-1].lower()
    bedrock_id, families = _patterns()
    m = bedrock_id.match(last)
    if m:
        return _BEDROCK_VENDOR.get(m.group(1)), True
    for vendor, pattern in families:
        if pattern.match(last):
            return vendor, on_bedrock
    return hinted, on_bedrock


def transcript_model(doc: Document, k: int) -> str | None:
    """The model transcript ``k``'s request names, or None.

    Looks at the object holding its message list: a request body (``model``), a Bedrock Converse
    call (``modelId``), a batch line's body.
    """
    t = doc.transcripts[k]
    holder: Any = get_path(doc.root, t.path[:-1]) if t.path else None
    if type(holder) is dict:
        for key in ("model", "modelId", "model_id"):
            model = holder.get(key)
            if type(model) is str and model.strip():
                return model
    return None


def _text(v: Any) -> str | None:
    return v.strip() if type(v) is str and v.strip() else None


def framework_model(doc: Document, k: int) -> str | None:
    """The model framework metadata around transcript ``k`` names, nearest first: a LangChain or
    LangSmith run's ``metadata.ls_model_name`` / ``extra.metadata.ls_model_name`` or
    ``invocation_params.model`` (``model_name``), an Inspect log's ``eval.model``, on the object
    holding the list or any object around it (a request body's own ``model`` is
    ``transcript_model``'s)."""
    t = doc.transcripts[k]
    for n in range(len(t.path) - 1, -1, -1):
        node: Any = get_path(doc.root, t.path[:n])
        if type(node) is not dict:
            continue
        extra: dict[str, Any] = node["extra"] if type(node.get("extra")) is dict else {}
        for meta in (node.get("metadata"), extra.get("metadata")):
            if type(meta) is dict and _text(meta.get("ls_model_name")):
                return _text(meta.get("ls_model_name"))
        for params in (node.get("invocation_params"), extra.get("invocation_params")):
            if type(params) is dict:
                found = _text(params.get("model")) or _text(params.get("model_name"))
                if found:
                    return found
        ev = node.get("eval")
        if type(ev) is dict and _text(ev.get("model")):
            return _text(ev.get("model"))
    return None


def request_model(doc: Document) -> str | None:
    """The model the document's requests name (the same for all of them), or None."""
    seen = {transcript_model(doc, k) for k in range(len(doc.transcripts))}
    return seen.pop() if len(seen) == 1 else None


def target_from_model(model: str, fits: tuple[str, ...] | list[str]) -> tuple[str | None, str]:
    """``(target, reason)``: the target for ``model`` among the dialect's ``fits``, and why.

    ``target`` is None when the model says nothing usable; ``reason`` then says why (or is "").
    """
    vendor, on_bedrock = vendor_of(model)
    if vendor is None and not on_bedrock:
        return None, ""
    if on_bedrock and "bedrock" in fits:
        return "bedrock", f"the request's model {model!r} is a Bedrock model id"
    if vendor == "openai":
        for t in ("openai", "responses"):
            if t in fits:
                return t, f"the request's model {model!r} is an OpenAI model"
    elif vendor is not None and vendor in fits:
        return vendor, f"the request's model {model!r} is {_a(_NAMES[vendor])} model"
    who = _NAMES.get(vendor or "", "Bedrock")
    return None, (f"the request's model {model!r} is {_a(who)} model, but {who}'s rules do not apply to this "
                  "format as read; the format's own provider is assumed (choose another target to change it)")


def model_named(model: Any, said: str) -> tuple[str | None, str]:
    """``(target, reason)`` for a model a history names (``said``: where, "the history's model"), or
    ``(None, "")`` when the name says no vendor: a dialect's ``target_from`` reads it where its
    format records it."""
    if type(model) is not str or not model.strip():
        return None, ""
    vendor, on_bedrock = vendor_of(model)
    target = "bedrock" if on_bedrock else vendor
    return (target, f"{said} {model!r}") if target else (None, "")


def _a(word: str) -> str:
    return ("an " if word[:1] in "AEIOU" else "a ") + word
