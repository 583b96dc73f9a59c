"""Wire formats. Each dialect module reads its own shape into the neutral ``Msg`` view.

A dialect module provides:

- ``NAME``: the dialect's name (``openai-chat``), ``TARGETS``: the targets it fits, default first;
- ``BLOCK``: how a call block gathers its results: ``"run"`` (the unbroken run of result
  messages after the call message, openai-chat), ``"next"`` (only the next message: anthropic,
  bedrock, gemini) or ``"items"`` (a run of call items, then their outputs: Responses);
- ``detect(items) -> int``: how sure it is that ``items`` is in this dialect (0 = not at all;
  openai-chat answers 1 for anything with roles, the others 2-4 on evidence only they have);
- ``normalize(items, where, issues) -> list[Msg]``: the neutral view, appending shape ``Issue``s
  (TC007, TC008, TC010, ...) as it goes. Structural breaks raise ``InputError`` with a JSON path;
- optionally ``dialect_issues(msgs, pairing, target) -> list[Issue]``: the dialect's own order
  and state rules (role alternation, thinking blocks, reasoning items, thought signatures).

Dialects: openai-chat, anthropic, openai-responses, gemini, bedrock, langchain, claude-code
(Claude Code session logs: entries grouped into the API's messages). Their repair editors live in
``inspector.editors``.
"""

from __future__ import annotations

from types import ModuleType

from ..errors import InputError
from . import openai_chat

_DIALECTS: dict[str, ModuleType] = {}


def register(module: ModuleType) -> ModuleType:
    _DIALECTS[module.NAME] = module
    return module


register(openai_chat)

# The other dialects, and the recognisers of the log files they come in (``inspector.logs``).
from . import anthropic, bedrock, claude_code, gemini, langchain, responses  # noqa: E402

for _mod in (anthropic, responses, gemini, bedrock, langchain, claude_code):
    register(_mod)

from .. import logs  # noqa: E402,F401  (registers container recognisers)


def names() -> list[str]:
    return list(_DIALECTS)


def get(name: str) -> ModuleType:
    try:
        return _DIALECTS[name]
    except KeyError:
        raise InputError(f"unknown dialect {name!r}; known: {', '.join(_DIALECTS)}") from None


def detect(items: list) -> ModuleType:
    """The dialect that recognises ``items`` best; openai-chat when nothing is sure."""
    best, score = openai_chat, 0
    for mod in _DIALECTS.values():
        s = mod.detect(items)
        if s > score:
            best, score = mod, s
    return best
