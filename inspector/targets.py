"""The targets a request can be checked for, their names, and the target a provider name or a
request URL means. Each rule's severity and words per target are in ``rules.catalogue``."""

from __future__ import annotations

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

# A request whose message list is empty, in the words of the providers that refuse it (dated
# evidence: docs/provider-evidence.md, "An empty message list").
NO_MESSAGES = {
    "openai": (("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array "
                "instead."), "danny-avila/LibreChat#10408; microsoft/agent-framework#2384", "2025-11-07"),
    "anthropic": ("messages: at least one message is required",
                  "Portkey error library #10153; langchain-ai/langchain#31657", "2025-06-21"),
    "gemini": ("* GenerateContentRequest.contents: contents is not specified", "NousResearch/hermes-agent#57942",
               "2026-07-03"),
}


def check_target(target: str) -> str:
    from .errors import InputError

    if target not in TARGETS:
        raise InputError(f"unknown target {target!r}; choose one of: {', '.join(TARGETS)}")
    return target


# --- the provider a file names -------------------------------------------------------------------
# Formats that do not say which provider they were sent to (AG-UI, Vercel AI SDK, Pydantic AI,
# OpenTelemetry spans, HAR captures) often say it in passing: a provider name or a request URL.
# (A model name is read by ``target_from_model``.)

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
