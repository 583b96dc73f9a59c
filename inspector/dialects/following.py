"""What ``inspector watch`` needs to know of a session log's format to check only what an agent
appended (``watching.Follower``'s windows): which appended lines only add to the end, which target
its windows are checked for, where a window may start and end, and which lines the API never
receives. One record per log dialect; a dialect without one is always checked whole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class Appends:
    """Whether each appended line of a session only adds to its end (no rewind, rewrite or
    compaction): fed every line in order. Formats it does not know are never plain."""

    def __init__(self) -> None:
        self.last_uuid: Any = None
        self.ids: set[Any] = set()

    def plain(self, dialect: str, item: Any) -> bool:
        f = FOLLOWED.get(dialect)
        return f is not None and type(item) is dict and f.plain(self, item)


def _codex_plain(state: Appends, item: dict[str, Any]) -> bool:
    return item.get("type") in ("response_item", "event_msg") and type(item.get("payload")) is dict


def _gemini_cli_plain(state: Appends, item: dict[str, Any]) -> bool:
    rid = item.get("id")
    fresh = type(rid) is str and rid not in state.ids
    state.ids.add(rid)
    return fresh and item.get("type") in ("user", "gemini", "info", "error", "warning")


def _claude_code_plain(state: Appends, item: dict[str, Any]) -> bool:
    uuid, parent = item.get("uuid"), item.get("parentUuid")
    linear = uuid is not None and parent == state.last_uuid and state.last_uuid is not None
    if uuid is not None:
        state.last_uuid = uuid
    return (linear and item.get("type") in ("user", "assistant") and not item.get("isSidechain")
            and not item.get("isCompactSummary") and item.get("subtype") is None)


@dataclass(frozen=True)
class Following:
    """How one log dialect is followed."""

    target: str  # the target its windows are checked for (its provider's own)
    plain: Any  # (Appends, line) -> True when the line only adds to the end
    # Responses items: a window may end after any item but a call or one bound to what follows
    # (a reasoning item), and start at any item; other formats start a window at a user message.
    items: bool = False
    api_line: str | None = None  # the line type the API receives (the others are events only)
    head_line: str | None = None  # a line kept at the head of every window (it names the harness version)
    model_line: str | None = None  # the last such line before a window is kept at its head (it names the model)
    renumbers: bool = True  # False: turns merge across a window's start, only a whole check numbers them


FOLLOWED: dict[str, Following] = {
    "codex": Following("responses", _codex_plain, items=True, api_line="response_item", head_line="session_meta",
                       model_line="turn_context"),
    "claude-code": Following("anthropic", _claude_code_plain, renumbers=False),
    "gemini-cli": Following("gemini", _gemini_cli_plain),
}
