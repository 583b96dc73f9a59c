"""Wire formats: one ``Dialect`` (``base.py``) per file, registered here.

Dialects: openai-chat, anthropic, openai-responses, gemini, bedrock, langchain, claude-code
(Claude Code session logs: entries grouped into the API's messages), and the formats of no one
provider: ag-ui, vercel-ai, vercel-ui, pydantic-ai, otel-genai. HAR captures (``har.py``) hold
request bodies of any of them. Registering a dialect adds
its container recognisers and puts it under the conformance suite.

Nothing in this package imports ``rules``, ``check`` or ``fixes``: the imports point one way,
from the engine down to the formats.
"""

from __future__ import annotations

from ..containers import Transcript
from ..containers import register as register_recogniser
from ..errors import InputError
from .base import Block, Dialect

_DIALECTS: dict[str, Dialect] = {}


def register(dialect: Dialect) -> Dialect:
    """Make ``dialect`` known by its name, and its container recognisers tried."""
    _DIALECTS[dialect.name] = dialect
    for fn in dialect.recognisers:
        register_recogniser(fn)
    return dialect


def names() -> list[str]:
    return list(_DIALECTS)


def all_dialects() -> list[Dialect]:
    return list(_DIALECTS.values())


def get(name: str) -> Dialect:
    try:
        return _DIALECTS[name]
    except KeyError:
        raise InputError(f"unknown dialect {name!r}; known: {', '.join(_DIALECTS)}") from None


def detect(items: list, target: str | None = None) -> Dialect:
    """The dialect that recognises ``items`` best; openai-chat when nothing is sure.

    With a ``target`` the user named, a dialect that fits it wins over one that does not
    (a plain role/content array reads as openai-chat and as anthropic alike)."""
    best, score = _DIALECTS["openai-chat"], 0
    fit_best, fit_score = None, 0
    for d in _DIALECTS.values():
        s = d.detect(items)
        if s > score:
            best, score = d, s
        if target is not None and s > fit_score and target in d.targets:
            fit_best, fit_score = d, s
    if target is not None and target not in best.targets and fit_best is not None:
        return fit_best
    return best


def dialect_of(t: Transcript, override: str | None = None, target: str | None = None) -> Dialect:
    """The dialect a transcript is read as: the user's override, the one its container named, or detection."""
    if override:
        return get(override)
    if t.dialect:
        return get(t.dialect)
    return detect(t.items, target)


# The dialects, in the order detection breaks ties (openai-chat first: the fallback).
from . import anthropic, bedrock, claude_code, gemini, langchain, openai_chat, responses  # noqa: E402

for _d in (openai_chat.DIALECT, anthropic.DIALECT, responses.DIALECT, gemini.DIALECT, bedrock.DIALECT,
           langchain.DIALECT, claude_code.DIALECT):
    register(_d)

from .. import log_containers  # noqa: E402,F401  (agents' log files that hold openai-chat messages)

# Formats that belong to no provider (issue 11): agent frameworks' histories and telemetry.
from . import agui, otel_genai, pydantic_ai, vercel_ai, vercel_ui  # noqa: E402

for _d in (agui.DIALECT, vercel_ai.DIALECT, vercel_ui.DIALECT, pydantic_ai.DIALECT, otel_genai.DIALECT):
    register(_d)

from .. import har  # noqa: E402,F401  (HAR captures: chat requests of any dialect)

__all__ = ["Block", "Dialect", "all_dialects", "detect", "dialect_of", "get", "names", "register"]
