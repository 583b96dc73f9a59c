"""Per-target severities and each provider's own error text (rules.md §3).

``SEVERITY[code][target]`` is ``error`` (the target rejects the request), ``warning``,
``info``, or None (the rule does not apply). ``provider_error`` fills in the target's text with
the real index and ids, exactly as the provider spells it ("preceeding" included).
"""

from __future__ import annotations

from .model import USUAL, Issue

TARGETS = ("openai", "deepseek", "mistral", "anthropic", "bedrock", "gemini", "responses")
PROVIDER_NAME = {
    "openai": "OpenAI",
    "deepseek": "DeepSeek",
    "mistral": "Mistral",
    "anthropic": "Anthropic",
    "bedrock": "Bedrock",
    "gemini": "Gemini",
    "responses": "the OpenAI Responses API",
}

E, W, I, N = "error", "warning", "info", None
_COLS = TARGETS
_TABLE = {
    "TC001": (E, E, E, E, E, E, E),
    "TC002": (E, E, E, E, E, E, E),
    "TC003": (E, E, E, E, E, E, W),
    "TC004": (E, E, E, E, E, E, E),
    "TC005": (E, E, E, E, E, W, E),
    "TC006": (E, E, E, E, E, W, E),
    "TC007": (E, E, W, N, N, N, N),
    "TC008": (E, E, E, E, E, I, E),
    "TC009": (W, I, E, E, E, N, E),
    "TC010": (E, E, E, N, N, N, E),
    "TC011": (W, W, W, N, N, N, W),
    "TC012": (E, E, E, E, E, E, E),
    "TC013": (W, W, W, N, N, W, N),
    "TC014": (I, I, I, I, I, W, I),
    "TC015": (N, N, N, E, E, E, N),
    "TC016": (N, N, N, E, E, N, N),
    "TC017": (W, E, E, N, N, N, N),
    "TC018": (E, E, E, E, E, W, N),
    # anthropic: info, not rules.md's error: the Messages API combines consecutive messages of one
    # role into one turn (docs/provider-evidence.md); Bedrock's Converse API refuses them.
    "TC019": (I, I, E, I, E, E, I),
    "TC020": (W, W, W, W, W, W, W),
    "TC021": (I, W, I, W, I, W, W),
    "TC022": (W, W, W, W, W, W, W),
    "TC023": (I, I, W, E, E, I, E),
    "TC024": (E, E, E, E, E, E, E),
    "TC025": (N, N, N, E, W, N, N),
    "TC026": (W, W, W, W, W, W, W),
}
SEVERITY: dict[str, dict[str, str | None]] = {
    code: dict(zip(_COLS, row)) for code, row in _TABLE.items()
}


# Cases of a rule that one target rates apart from the rest of the rule (rules.md, 2026-11-23):
# the Responses API rejects a reasoning item without its required following item, while the other
# reasoning-state cases stay warnings there.
KIND_SEVERITY: dict[tuple[str, str], dict[str, str]] = {
    ("TC021", "reasoning_item"): {"responses": E},
    # A tool_result block inside an assistant message is refused outright ("`tool_result` blocks can
    # only be in `user` messages", tghamm/Anthropic.SDK#128), unlike a role repeated (combined).
    ("TC019", "result_in_assistant"): {"anthropic": E},
    # An Anthropic body for Bedrock's InvokeModel: refused there in 2024-2025 reports, combined by
    # the Messages API (docs/provider-evidence.md); a warning, the route's current answer unknown.
    ("TC019", "bedrock_invoke"): {"anthropic": W},
    # Two Pydantic AI responses in a row reach Bedrock's Converse as two assistant messages (its
    # adapter merges only requests). Converse refused that in reports up to 2025; Pydantic AI's own
    # adapter says "Bedrock re-merges consecutive same-role turns" (docs/provider-evidence.md): a
    # warning, the current answer unknown.
    ("TC019", "responses_in_a_row"): {"bedrock": W},
    # Provider drift (issue 28; docs/provider-evidence.md, "Rules that moved"), each with its date:
    # a thinking block sent back without its signature is refused (reports 2026-03 to 2026-07);
    ("TC021", "thinking_signature"): {"anthropic": E},
    # thinking blocks not first in an assistant message are refused (claude-code#20705, 2026-01-25);
    ("TC021", "thinking_order"): {"anthropic": E},
    # the open tool loop's last assistant turn without a thinking block, in a body that says
    # "thinking": {"type": "enabled"} (reports 2025-09 to 2026-01; without that, thinking_missing: a
    # warning), or a Converse body whose additionalModelRequestFields say it (langchain-aws#844, 2026-01-22);
    ("TC021", "thinking_required"): {"anthropic": E, "bedrock": E},
    # Gemini 3 enforces thoughtSignature on the current turn's calls since 2026-01-30 (reports to 2026-09);
    ("TC021", "thought_signature"): {"gemini": E},
    # DeepSeek V4 thinking mode (on by default) refuses a tool-call turn without its reasoning_content
    # (reports 2026-04 to 2026-05), and ignores reasoning_content elsewhere (its thinking-mode guide).
    ("TC021", "missing_reasoning"): {"deepseek": E},
    ("TC021", "reasoning_content"): {"deepseek": I},
    # A call left open at the end of a part of a log that is never sent again (a Claude Code branch
    # abandoned by a rewind, the conversation before a compaction): a note, not a pending call.
    ("TC022", "never_sent"): {t: I for t in TARGETS},
}


def severity(code: str, target: str, kind: str | None = None) -> str | None:
    """The target's severity for ``code`` (for one ``kind`` of it, where that differs)."""
    if kind is not None:
        special = KIND_SEVERITY.get((code, kind))
        if special is not None and target in special:
            return special[target]
    return SEVERITY[code][target]


def check_target(target: str) -> str:
    from .errors import InputError

    if target not in TARGETS:
        raise InputError(f"unknown target {target!r}; choose one of: {', '.join(TARGETS)}")
    return target


# --- provider texts ------------------------------------------------------------------------------
# Keyed by (code, target). Fields: i (message index), j (position in the message), id, ids, n,
# name, role, prev, first (index of the first of two duplicates).

_T = {
    ("TC001", "openai"): "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}",
    ("TC001", "deepseek"): "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)",
    ("TC001", "anthropic"): "messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    ("TC001", "responses"): "No tool output found for function call {id}.",
    ("TC001", "gemini"): "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
    ("TC001", "bedrock"): "Expected toolResult blocks at messages.{next}.content for the following Ids: {ids}",
    ("TC001", "mistral"): "Not the same number of function calls and responses",
    ("TC002", "openai"): "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    ("TC002", "deepseek"): "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
    ("TC002", "anthropic"): "messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    ("TC002", "responses"): "No tool call found for function call output with call_id {id}.",
    ("TC002", "bedrock"): "The number of toolResult blocks at messages.{i}.content exceeds the number of toolUse blocks of previous turn.",
    ("TC002", "mistral"): "Unexpected tool call id {id} in tool results",
    ("TC002", "gemini"): "Please ensure that function response turn comes immediately after a function call turn.",
    ("TC005", "openai"): "Invalid parameter: Duplicate value for 'tool_call_id' of '{id}', in messages[{first}] and messages[{i}].",
    ("TC005", "anthropic"): "each tool_use must have a single result. Found multiple tool_result blocks with id {id}",
    ("TC005", "mistral"): "Duplicate tool call id {id} in tool results",
    ("TC005", "responses"): "Duplicate item found with id {id}. Remove duplicate items from your input and try again.",
    ("TC006", "anthropic"): "messages.{i}.content.{j}: `tool_use` ids must be unique",
    ("TC006", "bedrock"): "messages.{i}.content.{j}: `tool_use` ids must be unique",
    ("TC006", "mistral"): "Duplicate tool call id {id} in assistant message",
    ("TC006", "responses"): "Duplicate item found with id {id}. Remove duplicate items from your input and try again.",
    ("TC007", "openai"): "Invalid 'messages[{i}].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    ("TC008", "mistral"): "Tool call id has to be defined.",
    ("TC009", "openai"): "Invalid 'messages[{i}].tool_calls[{j}].id': string too long. Expected a string with maximum length 40, but got a string with length {n} instead.",
    ("TC009", "mistral"): "Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.",
    ("TC009", "anthropic"): "messages.{i}.content.{j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    ("TC009", "bedrock"): "messages.{i}.content.{j}.toolUse.toolUseId: String should match pattern '^[a-zA-Z0-9_-]+$'",
    ("TC009", "responses"): "Invalid 'input[{i}].call_id': string too long. Expected a string with maximum length 64, but got a string with length {n} instead.",
    ("TC010", "openai"): "Invalid type for 'messages[{i}].tool_calls[{j}].function.arguments': expected a string, but got {got} instead.",
    ("TC012", "openai"): "Invalid 'messages[{i}].tool_calls[{j}].function.name': empty string. Expected a string with minimum length 1, but got an empty string instead.",
    ("TC012", "mistral"): "Function name was {name} but must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.",
    ("TC015", "gemini"): "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
    ("TC025", "anthropic"): "messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    ("TC017", "openai"): "Missing parameter 'name': messages with role 'function' must have a 'name'.",
    ("TC017", "deepseek"): "Missing parameter 'name': messages with role 'function' must have a 'name'.",
    ("TC018", "openai"): "Invalid value for 'content': expected a string, got null.",
    ("TC018", "deepseek"): "Invalid value for 'content': expected a string, got null.",
    ("TC019", "mistral"): "Unexpected role '{role}' after role '{prev}'",
    ("TC019", "anthropic"): 'messages: roles must alternate between "user" and "assistant", but found multiple "{role}" roles in a row',
    ("TC019", "bedrock"): "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
    ("TC019", "gemini"): "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
    ("TC021", "deepseek"): "The reasoning_content is an intermediate result for display purposes only and will not be included in the context for inference. Please remove the reasoning_content from your message to reduce network traffic.",
    ("TC023", "anthropic"): "messages.{i}.content.{j}: `tool_use` ids must be unique",
    ("TC023", "bedrock"): "messages.{i}.content.{j}: `tool_use` ids must be unique",
    ("TC023", "responses"): "Duplicate item found with id {id}. Remove duplicate items from your input and try again.",
}
# Only texts seen in the wild are here (protocol-research.md); an error without a known text
# gets provider_error None rather than an invented sentence.
# TC003/TC004 are answered with TC002's words on the result side (the call side gets TC001's).
_RESULT_SIDE_AS_ORPHAN = ("TC003", "TC004")
# DeepSeek V4's words (reports 2026-04-24 to 2026-05-17); before V4 (to 2026-03): "Missing
# `reasoning_content` field in the assistant message at message index {i}. ..." (docs/provider-evidence.md).
_MISSING_DEEPSEEK_RC = "The `reasoning_content` in the thinking mode must be passed back to the API."


# Recorded from OpenAI /v1/responses (corpus: broken/pydantic-ai_openai_responses_reasoning_without_following_item).
_REASONING_ITEM = {"responses": "Item '{item}' of type 'reasoning' was provided without its required following item."}


class _Fields(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def provider_error(issue: Issue, target: str, fields: dict) -> str | None:
    """The target's own error text for ``issue``, or None when none is known."""
    code = issue.code
    if code in _RESULT_SIDE_AS_ORPHAN:
        code = "TC002"
    if issue.provider is not USUAL:  # the target's wording for this dialect (set by the dialect; None: unknown)
        tmpl = issue.provider
    elif issue.code == "TC021" and issue.data.get("kind") == "missing_reasoning":
        tmpl = _MISSING_DEEPSEEK_RC if target == "deepseek" else None
    elif issue.code == "TC021" and issue.data.get("kind") == "reasoning_item":
        tmpl = _REASONING_ITEM.get(target)
    elif issue.code == "TC012" and target == "openai" and issue.data.get("name"):
        tmpl = None  # OpenAI's known text is for an empty name only
    else:
        tmpl = _T.get((code, target))
    if tmpl is None:
        return None
    if "{id}" in tmpl and not fields.get("id"):
        return None  # the target names the id in its text; without one, its exact words are not known
    return tmpl.format_map(_Fields(fields))


# --- the provider a file names -------------------------------------------------------------------
# Formats that do not say which provider they were sent to (AG-UI, Vercel AI SDK, Pydantic AI,
# OpenTelemetry spans, HAR captures) often say it in passing: a provider name or a request URL.
# (A model name is read by ``model_target``.)

_PROVIDERS = {
    # OpenTelemetry gen_ai.provider.name / gen_ai.system values, Pydantic AI provider names.
    "openai": "openai", "azure.ai.openai": "openai", "azure": "openai", "az.ai.openai": "openai",
    "anthropic": "anthropic", "aws.bedrock": "bedrock", "bedrock": "bedrock", "aws_bedrock": "bedrock",
    "gcp.gemini": "gemini", "gcp.vertex_ai": "gemini", "gcp.gen_ai": "gemini", "google-gla": "gemini",
    "google-vertex": "gemini", "google": "gemini", "gemini": "gemini", "vertex_ai": "gemini",
    "mistral_ai": "mistral", "mistral": "mistral", "deepseek": "deepseek",
}
_HOSTS = (
    ("api.openai.com", "openai"), (".openai.azure.com", "openai"), ("api.anthropic.com", "anthropic"),
    ("bedrock-runtime.", "bedrock"), ("generativelanguage.googleapis.com", "gemini"),
    ("aiplatform.googleapis.com", "gemini"), ("api.mistral.ai", "mistral"), ("api.deepseek.com", "deepseek"),
)


def target_from_provider(name: object) -> str | None:
    """The target an OpenTelemetry ``gen_ai.provider.name`` or a Pydantic AI provider name means."""
    return _PROVIDERS.get(name.lower()) if type(name) is str else None


def target_from_url(url: object) -> str | None:
    """The target a request URL's host names (``/v1/responses`` on OpenAI is the Responses API)."""
    if type(url) is not str:
        return None
    low = url.lower()
    for host, target in _HOSTS:
        if host in low:
            return "responses" if target == "openai" and "/responses" in low else target
    return None
