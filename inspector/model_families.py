"""What a provider's models do differently: one record per capability that differs between the
models of one target (rules.md, "Changes of 2026-11-27"), with the models that have it, the ones
that do not, and the dated evidence. A rule whose severity depends on the model consults it through
``accepts``; adding a model family is one record (or one pattern in one).

``accepts(cap, model)`` is True or False for a model the record knows, and None when the input names
no model or one the record cannot place: the rule then gives a warning naming both sides, never an
error and never silence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import msgspec

from .lazy_patterns import lazy


class Capability(msgspec.Struct, frozen=True):
    """A behaviour some of a target's models have: ``judge(model)`` says True, False or None
    (unknown); ``accepting`` and ``refusing`` name each side for a person; ``evidence`` and ``date``
    say where and when it was seen."""

    name: str
    target: str
    judge: Callable[[str], bool | None]
    accepting: str
    refusing: str
    evidence: str
    date: str


# Claude model names: ``claude-opus-4-8``, ``claude-opus-4.8-20260528``, ``anthropic/claude-fable-5``,
# ``us.anthropic.claude-opus-5-v1:0``; the older order ``claude-3-7-sonnet-20250219``.
_CLAUDE_NEW = lazy(r"claude-([a-z]+)-(\d{1,2})(?:[-.](\d{1,2}))?(?!\d)")
_CLAUDE_OLD = lazy(r"claude-(\d)(?:[-.](\d))?-[a-z]+")


def claude_version(model: str) -> tuple[str, int, int] | None:
    """``(family, major, minor)`` of a Claude model name, or None when it is not one."""
    low = model.lower()
    m = _CLAUDE_NEW.search(low)
    if m:
        return m.group(1), int(m.group(2)), int(m.group(3) or 0)
    m = _CLAUDE_OLD.search(low)
    if m:
        return "", int(m.group(1)), int(m.group(2) or 0)
    return None


def _system_messages(model: str) -> bool | None:
    """Mid-conversation ``role: "system"`` messages: Claude Opus 4.8 (2026-05-28), then Opus 5,
    Fable 5 and later models. Anthropic-compatible endpoints of other vendors (DeepSeek's) refuse
    the role. A Claude model before 4.8 refuses it; a 4.8+ model of another family than Opus is not
    placed (None)."""
    low = model.lower()
    if "deepseek" in low or "mythos-preview" in low:
        # claude-mythos-preview refuses it while opus-4-8 takes the same request (inspect_ai#4221, 2026-06-10)
        return False
    v = claude_version(low)
    if v is None:
        return None
    family, major, minor = v
    if (major, minor) < (4, 8):
        return False
    # Opus 4.8 and 5, Fable 5, Mythos 5: accepted (docs, 2026-05-28; langchainjs#11472, 2026-08-25;
    # the docs' list as getkyo/kyo#1810 quotes it, 2026-07-29). Sonnet 5 does not have it ("not on
    # Sonnet 5": elgorro/aiquila#413, 2026-07-31; kyo#1810). Other families are not placed.
    if family in ("opus", "fable", "mythos"):
        return True
    if family == "sonnet" and (major, minor) == (5, 0):
        return False
    return None


# OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 and later, codex) put a reasoning item before
# the function calls of a response; gpt-4o, gpt-4.1 and older do not.
_OPENAI_REASONING = lazy(r"(?:^|/)(?:o\d(?:\b|-|$)|gpt-[5-9]|codex)")
_OPENAI_PLAIN = lazy(r"(?:^|/)(?:gpt-4|gpt-3|chatgpt-4o)")


def _reasoning_items(model: str) -> bool | None:
    """Does an OpenAI model put reasoning items before its calls (the Responses API then wants them
    back with the calls, ``reasoning_dropped``)? None for a name not placed."""
    low = model.lower().strip()
    if _OPENAI_REASONING.search(low):
        return True
    if _OPENAI_PLAIN.search(low):
        return False
    return None


def _function_role(model: str) -> bool | None:
    """Does an OpenAI model take the legacy ``role: "function"`` message? The reasoning models (o1,
    o3, o3-mini, o4-mini, gpt-5 and later, codex) refuse it (``'messages[i].role' does not support
    'function' with this model``); gpt-4o and older take it. None for a name not placed."""
    has = _reasoning_items(model)
    return None if has is None else not has


def _reasoning_only_turn(model: str) -> bool | None:
    """Does Bedrock's Converse take, on this Claude model, an assistant turn holding only
    ``reasoningContent`` (no text, no ``toolUse``)? Sonnet 5 and Fable 5.1 refuse it as prefill
    (NousResearch/hermes-agent#105780, 2026-09-08), Sonnet 4.6 takes it; the models between them
    (Opus 4.7, 4.8, 5, Fable 5) are not placed (None)."""
    v = claude_version(model)
    if v is None:
        return None
    family, major, minor = v
    if (major, minor) <= (4, 6):
        return True
    if family == "sonnet" and major >= 5 or family == "fable" and (major, minor) >= (5, 1):
        return False
    return None


CAPABILITIES: Mapping[str, Capability] = {c.name: c for c in (
    Capability(
        "system_messages", "anthropic", _system_messages,
        accepting="Claude Opus 4.8, Opus 5, Fable 5, Mythos 5 and later models",
        refusing="earlier Claude models, Sonnet 5 and Mythos Preview (\"role 'system' is not supported on this "
                 "model\") and DeepSeek's Anthropic-compatible endpoint",
        evidence="Anthropic, \"Mid-conversation system messages\" (2026-05-28); model profiles in "
                 "@langchain/anthropic 1.5.13 (2026-10-20)",
        date="2026-05-28"),
    Capability(
        "reasoning_items", "responses", _reasoning_items,
        accepting="OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 and later, codex), whose calls come with a "
                  "reasoning item",
        refusing="gpt-4o, gpt-4.1 and older models, which produce no reasoning items",
        evidence="cline/cline#12242 (gpt-5.5, 2026-07-12); continuedev/continue#10880 (gpt-5.2, 2026-02-27); "
                 "mastra-ai/mastra#8738 (o3, 2025-10-11)",
        date="2026-07-12"),
    Capability(
        "function_role", "openai", _function_role,
        accepting="gpt-4o, gpt-4.1 and older models",
        refusing="OpenAI's reasoning models (o1, o3, o3-mini, o4-mini, gpt-5 and later, codex: \"'messages[i].role' "
                 "does not support 'function' with this model\"; Azure OpenAI: \"'function' is not allowed role\")",
        evidence="TheR1D/shell_gpt#717 (o3 refused, gpt-4o took it, 2025-07-21); microsoft/vscode#260529 (gpt-5, "
                 "2025-08-08); langgenius/dify-official-plugins#1137 (o1, 2025-06-20); microsoft/azurechat#493 "
                 "(Azure, o-series, 2025-02-18)",
        date="2025-08-08"),
    Capability(
        "reasoning_only_turn", "bedrock", _reasoning_only_turn,
        accepting="Claude Sonnet 4.6 and earlier models",
        refusing="Claude Sonnet 5 and Fable 5.1 (\"This model does not support assistant message prefill. The "
                 "conversation must end with a user message.\")",
        evidence="NousResearch/hermes-agent#105780 and its fix #105799 (Converse, global.anthropic.claude-sonnet-5 "
                 "and claude-fable-5-1 refuse, claude-sonnet-4-6 takes it, 2026-09-08)",
        date="2026-09-08"),
)}


def accepts(capability: str, model: str | None) -> bool | None:
    """Does ``model`` have ``capability``: True, False, or None (no model, or one not placed)."""
    if not model:
        return None
    return CAPABILITIES[capability].judge(model)
