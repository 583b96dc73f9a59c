"""Claude Code session logs: one JSON Lines entry per event, Anthropic messages inside.

Claude Code writes each content block of a streamed assistant reply as its own entry (same
``message.id``), and each ``tool_result`` as its own user entry, sometimes interleaved
(``tool_use A, result A, tool_use B, result B`` for one reply). Read entry by entry, parallel calls
would look unanswered. So the entries are first grouped into the messages Claude Code sends to the
API: entries of one assistant message id are one message, consecutive user entries are one user
message. Entries without a message (summaries, snapshots) and sidechain entries are left out. The
message indices are then the API's own (``messages.22`` in Claude Code's error texts), and
``groups`` maps each message back to the entries it came from.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from ..containers import path_text
from ..errors import InputError
from ..model import Issue, Msg
from . import anthropic
from .base import Samples
from .base import type_name as _type

ENTRY_KEYS = ("sessionId", "uuid", "parentUuid", "timestamp")


def is_entry(e) -> bool:
    return (
        type(e) is dict
        and e.get("type") in ("user", "assistant")
        and type(e.get("message")) is dict
        and any(k in e for k in ENTRY_KEYS)
    )


def detect(items: list) -> int:
    return 4 if any(is_entry(e) for e in items[:50]) else 0


def _blocks(content) -> list:
    if type(content) is list:
        return content
    if type(content) is str and content:
        return [{"type": "text", "text": content}]
    return []


def _is_prompt(e: dict) -> bool:
    """A user entry a person typed (not one holding only tool results): what a rewind replaces."""
    m = e.get("message")
    if e.get("type") != "user" or type(m) is not dict:
        return False
    c = m.get("content")
    return type(c) is str or (type(c) is list and not _only_results(m))


# The last list asked about and the answer: the recogniser and then the reader ask about the same
# list. The list itself is kept (not its id, which a new list could reuse); nothing edits a parsed
# list in place, so the answer stays right while it is the same object.
_linear_seen: tuple = (None, False)


def linear(items: list) -> bool:
    """True for the common log: no sub-agent entries and no entry with two children.

    Asked of every log, so its passes run in C (``map`` of ``dict.get``, ``set``, ``in``), not
    as Python loops."""
    global _linear_seen
    if _linear_seen[0] is items:
        return _linear_seen[1]
    try:
        parents = list(map(dict.get, items, repeat("parentUuid")))
        roots = parents.count(None)
        answer = len(set(parents)) - (roots > 0) == len(parents) - roots and \
            True not in map(dict.get, items, repeat("isSidechain"))
    except TypeError:  # an item that is not an object, or a parent that is no id: ``conversations`` looks closer
        answer = False
    _linear_seen = (items, answer)
    return answer


def conversations(items: list) -> tuple[set[int], list[list[int]], dict[str, list[int]]]:
    """What is not the main conversation of a session log: ``(left_out, branches, sidechains)``.

    The main conversation is the chain of ``parentUuid`` links that ends at the last entry. Where
    a person rewound (two typed user entries share a parent on that chain), the older one starts
    an abandoned branch: its entries are left out, and the branch (the chain ending at its last
    entry) is offered on its own. ``isSidechain`` entries (a sub-agent's conversation) are left
    out and offered per ``agentId``, unless the log holds nothing else (a sub-agent's own file).
    Logs without forks (or without uuids) keep every entry: nothing is guessed.
    """
    side: dict[str, list[int]] = {}
    parent_of: dict[str, object] = {}
    index_of: dict[str, int] = {}
    main_msgs = 0
    for k, e in enumerate(items):
        if type(e) is not dict:
            continue
        if e.get("isSidechain") is True:
            agent = e.get("agentId")
            side.setdefault(agent if type(agent) is str else "sub-agent", []).append(k)
            continue
        if type(e.get("message")) is dict:
            main_msgs += 1
        u = e.get("uuid")
        if type(u) is str:
            index_of[u] = k
            parent_of[u] = e.get("parentUuid")
    if not main_msgs:
        side = {}  # a sub-agent's own log: its entries are the conversation
    left = {k for ks in side.values() for k in ks}
    parents = [p for p in parent_of.values() if type(p) is str]
    if len(set(parents)) == len(parents):  # no entry has two children: no rewind
        return left, [], side
    children: dict[str, list[int]] = {}
    for u, p in parent_of.items():
        if type(p) is str and p in index_of:
            children.setdefault(p, []).append(index_of[u])
    last = max(index_of.values())
    chain: set[int] = set()
    k: int | None = last
    while k is not None and k not in chain:
        chain.add(k)
        p = parent_of.get(items[k]["uuid"])
        k = index_of.get(p) if type(p) is str else None
    branches: list[list[int]] = []
    for p, kids in children.items():
        if len(kids) < 2 or index_of[p] not in chain:
            continue
        for c in kids:
            if c in chain or not _is_prompt(items[c]):
                continue
            sub, todo = set(), [c]
            while todo:  # the whole abandoned subtree
                x = todo.pop()
                if x not in sub:
                    sub.add(x)
                    todo.extend(children.get(items[x]["uuid"], ()))
            left |= sub
            path, x = [], max(sub)
            while x is not None and x not in path:
                path.append(x)
                q = parent_of.get(items[x]["uuid"])
                x = index_of.get(q) if type(q) is str else None
            branches.append(sorted(path))
    return left, sorted(branches), side


def groups(items: list, where: tuple = (), left_out: set[int] | None = None) -> tuple[list[dict], list[list[int]]]:
    """The API messages of a session log, and for each the indices of the entries it joins
    (without the entries of ``left_out``: abandoned branches and sub-agents, see ``conversations``)."""
    if left_out is None:
        left_out = set() if linear(items) else conversations(items)[0]
    msgs: list[dict] = []
    entries: list[list[int]] = []
    mids: list = []  # assistant message id per message (None for user messages)
    merged: set[int] = set()  # messages built here (their content list is ours to extend)
    last_asst = -1
    for k, e in enumerate(items):
        if type(e) is not dict:
            raise InputError(f"expected a log entry object, got {_type(e)}", f"{path_text(where)}[{k}]")
        m = e.get("message")
        if type(m) is not dict or (left_out and k in left_out):
            continue
        role = m.get("role") or e.get("type")
        n = len(msgs)
        if role == "assistant":
            mid = m.get("id")
            # The same reply continues, maybe after the results of its first calls.
            if mid is not None and last_asst >= 0 and mids[last_asst] == mid and all(
                _only_results(msgs[x]) for x in range(last_asst + 1, n)
            ):
                _extend(msgs, merged, last_asst, m)
                entries[last_asst].append(k)
                continue
            last_asst = n
            mids.append(mid)
        elif role == "user" and n and msgs[-1].get("role") == "user":
            _extend(msgs, merged, n - 1, m)
            entries[-1].append(k)
            continue
        else:
            mids.append(None)
        msgs.append(m)
        entries.append([k])
    return msgs, entries


def _only_results(m: dict) -> bool:
    c = m.get("content")
    return m.get("role") == "user" and type(c) is list and all(type(b) is dict and b.get("type") == "tool_result" for b in c)


def _extend(msgs: list, merged: set, at: int, m: dict) -> None:
    if at not in merged:
        first = msgs[at]
        msgs[at] = {**first, "content": list(_blocks(first.get("content")))}
        merged.add(at)
    msgs[at]["content"].extend(_blocks(m.get("content")))


def claude_code_log(root: Any, fmt: str) -> list[tuple]:
    """Claude Code session logs (JSON Lines of entries, or a ``{"loglines": [...]}`` export): the
    main conversation, then each sub-agent and each abandoned branch as a view of its own."""
    if type(root) is dict and type(root.get("loglines")) is list:
        path, what, items = ("loglines",), "Claude Code session export", root["loglines"]
    elif type(root) is list and any(is_entry(e) for e in root[:20]):
        path, what, items = (), "Claude Code session log", root
    else:
        return []
    out: list[tuple] = [(path, what)]
    if linear(items):
        return out
    _, branches, side = conversations(items)
    for agent, entries in side.items():
        out.append((path, (what, {"view": entries, "label": f"sub-agent {agent}"})))
    for entries in branches:
        out.append((path, (what, {"view": entries, "label": f"abandoned branch ending at entry {entries[-1]}"})))
    return out


def _entry(uuid: str, parent: str | None, role: str, content, mid: str | None = None) -> dict:
    message = {"role": role, "content": content}
    if mid:
        message["id"] = mid
    return {"type": role, "uuid": uuid, "parentUuid": parent, "sessionId": "s1", "message": message}


class ClaudeCode(anthropic.Anthropic):
    """Claude Code session logs: Anthropic messages inside log entries, read and checked as
    the Anthropic messages they are grouped into."""

    name = "claude-code"
    targets = ("anthropic",)
    tool_fields = frozenset({"tool_use_id", "toolUseId", "tool_name", "toolName"})
    editor_class = None
    recognisers = (claude_code_log,)
    samples = Samples(
        clean=[_entry("u1", None, "user", "List the files."),
               _entry("a1", "u1", "assistant", [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                                 "input": {"command": "ls"}}], "msg_1"),
               _entry("u2", "a1", "user", [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.py"}]),
               _entry("a2", "u2", "assistant", [{"type": "text", "text": "There is a.py."}], "msg_2")],
        broken=[_entry("u1", None, "user", "List the files."),
                _entry("a1", "u1", "assistant", [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                                  "input": {"command": "ls"}}], "msg_1"),
                _entry("u2", "a1", "user", "Never mind."),
                _entry("a2", "u2", "assistant", [{"type": "text", "text": "OK."}], "msg_2")],
    )

    detect = staticmethod(detect)

    def read(self, items: list, where: tuple, issues: list[Issue]) -> list[Msg]:
        msgs, _ = groups(items, where)
        return anthropic.normalize(msgs, where, issues)

    def item_groups(self, items: list, where: tuple = ()) -> list[list[int]]:
        """For each API message, the log entries it joins (what fit removes when it removes the message)."""
        return groups(items, where)[1]


DIALECT = ClaudeCode()
