"""Wrong types in every field, in every dialect: check and repair answer, never crash.

A value of the wrong type either becomes a finding or an ``InputError`` naming where it is.
"""

from __future__ import annotations

import copy

import pytest

import inspector

BASES = {
    "openai-chat": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "ok"},
    ],
    "anthropic": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "ok"}]},
    ],
    "bedrock": [
        {"role": "user", "content": [{"text": "hi"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "a", "name": "f", "input": {}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "a", "content": [{"text": "ok"}]}}]},
    ],
    "gemini": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"functionCall": {"id": "a", "name": "f", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "a", "name": "f", "response": {}}}]},
    ],
    "openai-responses": [
        {"role": "user", "content": "hi"},
        {"type": "function_call", "call_id": "a", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "a", "output": "ok"},
    ],
    "langchain": [
        {"type": "human", "data": {"type": "human", "content": "hi"}},
        {"type": "ai", "data": {"type": "ai", "content": "", "tool_calls": [{"id": "a", "name": "f", "args": {}}]}},
        {"type": "tool", "data": {"type": "tool", "content": "ok", "tool_call_id": "a"}},
    ],
}
FIELDS = ("role", "type", "content", "parts", "name", "call_id", "id", "tool_use_id", "toolUseId", "data",
          "tool_calls", "tool_call_id", "arguments", "output", "args", "input", "function")
VALUES = (None, 1, True, "x", [], {}, [1, "a"], {"a": [None]})


def _set_everywhere(node, field, value):
    if isinstance(node, dict):
        for k in list(node):
            if k == field:
                node[k] = value
            else:
                _set_everywhere(node[k], field, value)
    elif isinstance(node, list):
        for x in node:
            _set_everywhere(x, field, value)


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("dialect", list(BASES))
def test_wrong_types_never_crash_check_or_repair(dialect, field):
    for value in VALUES:
        msgs = copy.deepcopy(BASES[dialect])
        _set_everywhere(msgs, field, value)
        for run in (inspector.check, inspector.repair):
            try:
                run(msgs, dialect=dialect)
            except inspector.InputError as exc:
                assert str(exc) and "\n" not in str(exc)
