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


def letta_tools(root: dict[str, Any], agent: dict[str, Any]) -> frozenset[str] | None:
    """The tools a Letta agent has: the file's top-level ``tools`` its ``tool_ids`` link (agent
    file v2), and the names its own ``tools`` lists (``CreateAgent.tools``, names). None when the
    file says nothing about tools."""
    names: set[str] = set()
    said = False
    ids = agent.get("tool_ids")
    top = root.get("tools")
    if type(ids) is list and type(top) is list:
        said = True
        wanted = {x for x in ids if type(x) is str}
        names.update(t["name"] for t in top if type(t) is dict and t.get("id") in wanted and type(t.get("name")) is str)
    own = agent.get("tools")
    if type(own) is list and own:
        said = True
        for t in own:
            if type(t) is str:
                names.add(t)
            elif type(t) is dict and type(t.get("name")) is str:
                names.add(t["name"])
    return frozenset(names) if said else None


def letta(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    if type(root) is not dict or type(root.get("agents")) is not list:
        return []
    out: list[tuple[Path, Any]] = []
    for k, a in enumerate(root["agents"]):
        if type(a) is dict and type(a.get("messages")) is list:
            name = a.get("name") if type(a.get("name")) is str else f"#{k}"
            tools = letta_tools(root, a)
            out.append((("agents", k, "messages"),
                        (f"Letta agent file, agent {name}", {"declared_tools": tools} if tools is not None else {})))
    return out


def mini_swe_agent(root: Any, fmt: str) -> list[tuple[Path, str]]:
    if type(root) is dict and type(root.get("messages")) is list:
        fmtname = root.get("trajectory_format")
        if type(fmtname) is str and fmtname.startswith("mini-swe-agent"):
            return [(("messages",), "mini-swe-agent trajectory")]
    return []


for _fn in (letta, mini_swe_agent):
    register(_fn)
