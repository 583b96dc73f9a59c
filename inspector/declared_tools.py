"""The tools a request declares, for TC026 (a call to a tool the request never declared).

Read from the object holding the message list (the request body) in each API's spelling:
Chat Completions ``tools[].function.name`` and legacy ``functions[].name``; Responses and
Anthropic ``tools[].name`` (custom and server tools included); Gemini
``tools[].functionDeclarations[].name`` (or ``function_declarations``); Bedrock Converse
``toolConfig.tools[].toolSpec.name``. None when the body carries no tool list at all: the
rule applies only to requests that say which tools exist.
"""

from __future__ import annotations

from typing import Any


def _names_in_tool(tool: Any, out: set[str]) -> None:
    if type(tool) is not dict:
        return
    fn = tool.get("function")
    if type(fn) is dict and type(fn.get("name")) is str:
        out.add(fn["name"])
    spec = tool.get("toolSpec")
    if type(spec) is dict and type(spec.get("name")) is str:
        out.add(spec["name"])
    if type(tool.get("name")) is str:
        out.add(tool["name"])
    for key in ("functionDeclarations", "function_declarations"):
        decls = tool.get(key)
        if type(decls) is list:
            for d in decls:
                if type(d) is dict and type(d.get("name")) is str:
                    out.add(d["name"])


def declared_tools(holder: Any) -> frozenset[str] | None:
    """The tool names a request body declares, or None when it carries no tool list."""
    if type(holder) is not dict:
        return None
    lists = []
    for key in ("tools", "functions"):
        if type(holder.get(key)) is list:
            lists.append(holder[key])
    config = holder.get("toolConfig") or holder.get("tool_config")
    if type(config) is dict and type(config.get("tools")) is list:
        lists.append(config["tools"])
    if not lists:
        return None
    out: set[str] = set()
    for tools in lists:
        for tool in tools:
            _names_in_tool(tool, out)
    return frozenset(out)
