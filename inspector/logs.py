"""Recognisers for the log files agents write, so that the conversation inside is found and named.

- Claude Code session logs (JSON Lines of entries, or a ``{"loglines": [...]}`` export);
- Letta agent files (``agents[].messages``: one transcript per agent);
- mini-swe-agent trajectories (``messages``, with roles such as ``exit``);
- OpenAI Agents SDK run states (``generated_items``: Responses items wrapped as run items).

Each recogniser returns ``[(path, description)]`` and is registered with ``containers.register``,
which tries it before the generic ones.
"""

from __future__ import annotations

from typing import Any

from .containers import Path, register
from .dialects.claude_code import is_entry


def claude_code(root: Any, fmt: str) -> list[tuple[Path, str]]:
    if type(root) is dict and type(root.get("loglines")) is list:
        return [(("loglines",), "Claude Code session export")]
    if type(root) is list and any(is_entry(e) for e in root[:20]):
        return [((), "Claude Code session log")]
    return []


def letta(root: Any, fmt: str) -> list[tuple[Path, str]]:
    if type(root) is not dict or type(root.get("agents")) is not list:
        return []
    out = []
    for k, a in enumerate(root["agents"]):
        if type(a) is dict and type(a.get("messages")) is list:
            name = a.get("name") if type(a.get("name")) is str else f"#{k}"
            out.append((("agents", k, "messages"), f"Letta agent file, agent {name}"))
    return out


def mini_swe_agent(root: Any, fmt: str) -> list[tuple[Path, str]]:
    if type(root) is dict and type(root.get("messages")) is list:
        fmtname = root.get("trajectory_format")
        if type(fmtname) is str and fmtname.startswith("mini-swe-agent"):
            return [(("messages",), "mini-swe-agent trajectory")]
    return []


def agents_run_state(root: Any, fmt: str) -> list[tuple[Path, str]]:
    if type(root) is dict and "$schemaVersion" in root and type(root.get("generated_items")) is list:
        return [(("generated_items",), "OpenAI Agents SDK run state")]
    return []


for _fn in (claude_code, letta, mini_swe_agent, agents_run_state):
    register(_fn)
