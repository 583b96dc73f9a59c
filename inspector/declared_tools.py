"""The tools a request declares, for TC026 (a call to a tool the request never declared).

Read from the object holding the message list (the request body) in each API's spelling:
Chat Completions ``tools[].function.name`` (``tools[].custom.name`` for custom tools) and legacy
``functions[].name``; Responses and Anthropic ``tools[].name`` (custom and server tools included),
and the calls of tools declared by type (Responses ``shell``, ``computer_use_preview``, ``mcp``, ...;
Anthropic's versioned tools without a name; Gemini's ``computerUse``); Gemini
``tools[].functionDeclarations[].name`` (or ``function_declarations``); Bedrock Converse
``toolConfig.tools[].toolSpec.name``. None when the body carries no tool list at all: the
rule applies only to requests that say which tools exist.
"""

from __future__ import annotations

from typing import Any

from .lazy_patterns import lazy

# Tools declared by their type rather than a name (issue 28): a call of one is declared.
# Responses: the call item's type is the call's name here (``responses.normalize``); ``mcp``
# servers' calls that wait for approval are ``mcp_approval_request`` items (hosted calls such as
# ``web_search_call`` or ``mcp_call`` are no calls to answer, so never TC026).
_RESPONSES_TYPES = {
    "shell": ("shell_call",), "local_shell": ("local_shell_call",), "computer_use_preview": ("computer_call",),
    "computer": ("computer_call",), "computer_use": ("computer_call",), "apply_patch": ("apply_patch_call",),
    "mcp": ("mcp_approval_request",), "tool_search": ("tool_search_call",),
}
# Anthropic's versioned client and server tools (``bash_20250124``, ``text_editor_20250728``, ...):
# the API wants their ``name``, and the calls use it; these are the names they take without one.
_VERSIONED = lazy(r"^(bash|text_editor|computer|memory|web_search|web_fetch|code_execution|"
                        r"tool_search_tool_regex|tool_search_tool_bm25)_\d{8}$")
_VERSIONED_NAMES = {
    "bash": ("bash",), "text_editor": ("str_replace_editor", "str_replace_based_edit_tool"), "computer": ("computer",),
    "memory": ("memory",), "web_search": ("web_search",), "web_fetch": ("web_fetch",),
    "code_execution": ("code_execution", "bash_code_execution", "text_editor_code_execution"),
    "tool_search_tool_regex": ("tool_search_tool_regex",), "tool_search_tool_bm25": ("tool_search_tool_bm25",),
}
# Gemini's computer use tool (``{"computerUse": {...}}``) declares predefined functions that the model
# calls as ``functionCall`` parts (ai.google.dev/gemini-api/docs/computer-use), less the
# ``excludedPredefinedFunctions``; ``googleSearch``, ``codeExecution``, ``urlContext`` make no
# ``functionCall`` at all.
_GEMINI_COMPUTER = ("open_web_browser", "wait_5_seconds", "go_back", "go_forward", "search", "navigate", "click_at",
                    "hover_at", "type_text_at", "key_combination", "scroll_document", "scroll_at", "drag_and_drop")


def _names_by_type(tool: dict[str, Any], out: set[str]) -> None:
    kind = tool.get("type")
    if type(kind) is str:
        out.update(_RESPONSES_TYPES.get(kind, ()))
        m = _VERSIONED.match(kind)
        if m and type(tool.get("name")) is not str:
            out.update(_VERSIONED_NAMES[m.group(1)])
    for key in ("computerUse", "computer_use"):
        spec = tool.get(key)
        if type(spec) is dict:
            skip = spec.get("excludedPredefinedFunctions", spec.get("excluded_predefined_functions"))
            out.update(n for n in _GEMINI_COMPUTER if type(skip) is not list or n not in skip)


def _names_in_tool(tool: Any, out: set[str]) -> None:
    if type(tool) is not dict:
        return
    _names_by_type(tool, out)
    for key in ("function", "custom"):  # Chat Completions function and custom tools
        fn = tool.get(key)
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
