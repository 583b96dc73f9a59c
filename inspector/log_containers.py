"""Find the transcripts inside the log files agents write, and name them.

- Letta agent files (``agents[].messages``: one transcript per agent);
- mini-swe-agent trajectories (``messages``, with roles such as ``exit``).

Log files that only one dialect writes are recognised in that dialect's file (Claude Code
session logs in ``dialects/claude_code.py``, OpenAI Agents SDK run states in
``dialects/responses.py``). Each recogniser returns ``[(path, description)]`` and is registered
with ``containers.register``, which tries it before the generic ones.
"""

from __future__ import annotations

from typing import Any

from .containers import Path, register


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


for _fn in (letta, mini_swe_agent):
    register(_fn)
