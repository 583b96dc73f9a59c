"""Claude Code session logs: one JSON Lines entry per event, Anthropic messages inside.

Claude Code writes each content block of a streamed assistant reply as its own entry (same
``message.id``), and each ``tool_result`` as its own user entry, sometimes interleaved
(``tool_use A, result A, tool_use B, result B`` for one reply). Read entry by entry, parallel calls
would look unanswered. So the entries are first grouped into the messages Claude Code sends to the
API: entries of one assistant message id are one message, consecutive user entries are one user
message. Entries without a message (summaries, snapshots) and sidechain entries are left out. The
message indices are then the API's own (``messages.22`` in Claude Code's error texts), and
``groups`` maps each message back to the entries it came from.

Repair (``ClaudeCodeEditor``) plans on those messages and writes the result as entries again,
with the ``parentUuid`` chain kept whole.
"""

from __future__ import annotations

import uuid
from typing import Any

from ..containers import path_text
from ..errors import InputError
from ..jsonio import dumps
from ..model import Issue, Msg
from . import anthropic
from .base import Samples, SessionFiles
from .base import type_name as _type
from .editing import EntryEditor, Written

ENTRY_KEYS = ("sessionId", "uuid", "parentUuid", "timestamp")


def is_entry(e: Any) -> bool:
    return (
        type(e) is dict
        and e.get("type") in ("user", "assistant")
        and type(e.get("message")) is dict
        and any(k in e for k in ENTRY_KEYS)
    )


def detect(items: list[Any]) -> int:
    return 4 if any(is_entry(e) for e in items[:50]) else 0


# Lines of a session log that are no message: a resumed session's summary, system notes, file
# history snapshots, queue operations. A log may start with one of them.
_OTHER_LINES = ("summary", "system", "file-history-snapshot", "queue-operation")
_LINE_KEYS = (*ENTRY_KEYS, "leafUuid", "messageId")


def is_log_line(e: Any) -> bool:
    """One line of a session log: a message entry, or one of the log's other lines."""
    return is_entry(e) or (type(e) is dict and e.get("type") in _OTHER_LINES and any(k in e for k in _LINE_KEYS))


def _blocks(content: Any) -> list[Any]:
    if type(content) is list:
        return content
    if type(content) is str and content:
        return [{"type": "text", "text": content}]
    return []


def is_boundary(e: Any) -> bool:
    """A compaction boundary: ``{"type": "system", "subtype": "compact_boundary", "parentUuid": null,
    "logicalParentUuid": <the last entry before it>}``. The API receives the compact summary (the
    ``isCompactSummary`` user entry after it) and what follows; the chain before it is history."""
    return type(e) is dict and e.get("subtype") == "compact_boundary" and e.get("parentUuid") is None


def _is_prompt(e: dict[str, Any]) -> bool:
    """A user entry a person typed (not one holding only tool results): what a rewind replaces."""
    m = e.get("message")
    if e.get("type") != "user" or type(m) is not dict:
        return False
    c = m.get("content")
    return type(c) is str or (type(c) is list and not _only_results(m))


# The last list surveyed and what was found: the recogniser and then the reader ask about the same
# list. The list itself is kept (not its id, which a new list could reuse); nothing edits a parsed
# list in place, so the answer stays right while it is the same object.
_Survey = tuple[bool, list[Any] | None, list[Any] | None]
_seen: tuple[Any, _Survey | None] = (None, None)


def linear(items: list[Any]) -> bool:
    """True for the common log: no sub-agent entries and no entry with two children."""
    return _survey(items)[0]


def _survey(items: list[Any]) -> tuple[bool, list[Any] | None, list[Any] | None]:
    """``(linear, msgs, entries)``: one pass over the log that groups its messages (``groups``)
    and, on the way, sees whether it is linear; the groups are kept only for a linear log (the
    others leave entries out). The recogniser asks first, then the reader takes the groups."""
    global _seen
    if _seen[0] is items and _seen[1] is not None:
        return _seen[1]
    parents: list[Any] = []
    side: list[Any] = []
    got = _group(items, (), set(), parents, side)
    answer: _Survey
    if got is None:  # an item that is not an object: the reader says where
        answer = (False, None, None)
    else:
        roots = parents.count(None)
        try:
            ok = not side and len(set(parents)) - (roots > 0) == len(parents) - roots and not any(
                is_boundary(e) for e, p in zip(items, parents) if p is None)
        except TypeError:  # a parent that is no id: ``conversations`` looks closer
            ok = False
        answer = (ok, *got) if ok else (False, None, None)
    _seen = (items, answer)
    return answer


def conversations(items: list[Any]) -> tuple[set[int], list[list[int]], dict[str, list[int]]]:
    """What is not the main conversation of a session log: ``(left_out, branches, sidechains)``.

    The main conversation is the chain of ``parentUuid`` links that ends at the last entry. Where
    a person rewound (two typed user entries share a parent on that chain), the older one starts
    an abandoned branch: its entries are left out, and the branch (the chain ending at its last
    entry) is offered on its own. ``isSidechain`` entries (a sub-agent's conversation) are left
    out and offered per ``agentId``, unless the log holds nothing else (a sub-agent's own file).
    After a compaction (``is_boundary``) the chain starts again at the boundary: the entries
    before it are left out, and ``compacted`` offers them on their own.
    Logs without forks or compactions (or without uuids) keep every entry: nothing is guessed.
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
    compacted = any(is_boundary(e) for e in items)
    if not index_of or (len(set(parents)) == len(parents) and not compacted):  # no rewind, no compaction
        return left, [], side
    children: dict[str, list[int]] = {}
    for u, p in parent_of.items():
        if type(p) is str and p in index_of:
            children.setdefault(p, []).append(index_of[u])
    last = max(index_of.values())
    chain = set(_chain(items, last, parent_of, index_of))
    if compacted:  # what the API no longer receives: every entry with a uuid off the chain
        left |= {k for k in index_of.values() if k not in chain and type(items[k].get("message")) is dict}
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
            branches.append(sorted(_chain(items, max(sub), parent_of, index_of)))
    return left, sorted(branches), side


def _chain(items: list[Any], k: int | None, parent_of: dict[str, Any], index_of: dict[str, Any]) -> list[int]:
    """The entries of the ``parentUuid`` chain that ends at entry ``k``, last first."""
    path: list[int] = []
    seen: set[int] = set()
    while k is not None and k not in seen:
        seen.add(k)
        path.append(k)
        q = parent_of.get(items[k]["uuid"])
        k = index_of.get(q) if type(q) is str else None
    return path


def compacted(items: list[Any]) -> list[tuple[int, list[int]]]:
    """For each compaction boundary, ``(its entry, the entries of the conversation it summarised)``:
    the ``parentUuid`` chain ending at its ``logicalParentUuid`` (back to the boundary before, or
    the start), sub-agents' entries aside."""
    index_of: dict[str, int] = {}
    parent_of: dict[str, object] = {}
    for k, e in enumerate(items):
        if type(e) is dict and type(e.get("uuid")) is str and e.get("isSidechain") is not True:
            index_of[e["uuid"]] = k
            parent_of[e["uuid"]] = e.get("parentUuid")
    out = []
    for k, e in enumerate(items):
        if is_boundary(e):
            end = index_of.get(e.get("logicalParentUuid")) if type(e.get("logicalParentUuid")) is str else None
            path = sorted(_chain(items, end, parent_of, index_of)) if end is not None else []
            path = [x for x in path if type(items[x].get("message")) is dict]
            if path:
                out.append((k, path))
    return out


def groups(items: list[Any], where: tuple[Any, ...] = (), left_out: set[int] | None = None) -> tuple[list[dict[str, Any]], list[list[int]]]:
    """The API messages of a session log, and for each the indices of the entries it joins
    (without the entries of ``left_out``: abandoned branches and sub-agents, see ``conversations``).
    The lists returned are shared with the next caller: do not edit them."""
    if left_out is None:
        ok, msgs, entries = _survey(items)
        if ok and msgs is not None and entries is not None:
            return msgs, entries
        left_out = conversations(items)[0]
    got = _group(items, where, left_out)
    if got is None:
        k = next(k for k, e in enumerate(items) if type(e) is not dict)
        raise InputError(f"expected a log entry object, got {_type(items[k])}", f"{path_text(where)}[{k}]")
    return got


def _group(items: list[Any], where: tuple[Any, ...], left_out: set[int], parents: list[Any] | None = None,
           side: list[Any] | None = None) -> tuple[list[dict[str, Any]], list[list[int]]] | None:
    """``groups`` without ``left_out``'s entries; with ``parents`` and ``side``, each entry's
    parentUuid is appended to the one and a sub-agent entry to the other. None when an item is
    not an object."""
    msgs: list[dict[str, Any]] = []
    entries: list[list[int]] = []
    mids: list[Any] = []  # assistant message id per message (None for user messages)
    merged: set[int] = set()  # messages built here (their content list is ours to extend)
    last_asst = -1
    for k, e in enumerate(items):
        if type(e) is not dict:
            return None
        if parents is not None:
            parents.append(e.get("parentUuid"))
            if e.get("isSidechain") is True and side is not None:
                side.append(k)
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


def _only_results(m: dict[str, Any]) -> bool:
    c = m.get("content")
    return m.get("role") == "user" and type(c) is list and all(type(b) is dict and b.get("type") == "tool_result" for b in c)


def _extend(msgs: list[Any], merged: set[Any], at: int, m: dict[str, Any]) -> None:
    if at not in merged:
        first = msgs[at]
        msgs[at] = {**first, "content": list(_blocks(first.get("content")))}
        merged.add(at)
    msgs[at]["content"].extend(_blocks(m.get("content")))


def claude_code_log(root: Any, fmt: str) -> list[tuple[Any, ...]]:
    """Claude Code session logs (JSON Lines of entries, or a ``{"loglines": [...]}`` export): the
    main conversation, then each sub-agent and each abandoned branch as a view of its own."""
    path: tuple[str, ...]
    if type(root) is dict and type(root.get("loglines")) is list:
        path, what, items = ("loglines",), "Claude Code session export", root["loglines"]
    elif type(root) is list and any(is_entry(e) for e in root[:20]):
        path, what, items = (), "Claude Code session log", root
    else:
        return []
    out: list[tuple[Any, ...]] = [(path, what)]
    if linear(items):
        return out
    _, branches, side = conversations(items)
    for agent, entries in side.items():
        out.append((path, (what, {"view": entries, "label": f"sub-agent {agent}"})))
    for entries in branches:
        out.append((path, (what, {"view": entries, "label": f"abandoned branch ending at entry {entries[-1]}",
                                  "never_sent": "an abandoned branch (the session was rewound)"})))
    for at, entries in compacted(items):
        out.append((path, (what, {"view": entries, "label": f"before the compaction at entry {at}",
                                  "never_sent": "the conversation before a compaction (its summary replaced it)"})))
    return out


# --- repair ---------------------------------------------------------------------------------------

# The fields of an entry that say where and when it was written: an entry repair adds takes them
# from the entry before it (not its requestId, toolUseResult, usage and the like, which it has none of).
CONTEXT_KEYS = frozenset({"parentUuid", "isSidechain", "userType", "cwd", "sessionId", "version", "gitBranch",
                          "agentId", "slug", "timestamp"})


class _Piece:
    """One entry of the repaired main conversation: the input entry ``origin`` (as it was, or a
    changed copy), or a new one (``origin`` None) made from ``message`` once its place is known."""

    __slots__ = ("changed", "entry", "message", "origin")

    def __init__(self, entry: dict[str, Any] | None, origin: int | None, message: dict[str, Any], changed: bool) -> None:
        self.entry, self.origin, self.message, self.changed = entry, origin, message, changed


class ClaudeCodeEditor(EntryEditor, anthropic.AnthropicEditor):
    """Repair of a session log: the plan runs on the Anthropic messages its main conversation
    makes, and ``write_back`` writes the repaired messages as entries again.

    An entry whose blocks all come back unchanged is the very same entry (the same bytes in the
    output); one that lost or changed blocks keeps its fields with the new content; a block made
    from nothing (a placeholder result) is a new entry with a new uuid, taking its context (cwd,
    sessionId, timestamp, ...) from the entry before it. Entries stay where they were in the file
    when the messages still read the same that way (Claude Code interleaves the entries of
    parallel calls and their results); otherwise the entries follow the repaired messages' order.
    ``parentUuid`` links follow: an entry whose predecessor changed points at its new one, and a
    child of a removed entry at that entry's parent. Sub-agents' and abandoned branches' entries
    are not part of the main conversation and stay as they are.
    """

    message_dialect = "anthropic"

    def messages(self, items: list[Any], where: tuple[Any, ...]) -> tuple[list[Any], list[list[int]]]:
        left = set() if linear(items) else conversations(items)[0]
        msgs, grp = groups(items, where, left)
        for m, ks in zip(msgs, grp):
            if len(ks) == 1:  # the entry's own message object
                c = m.get("content")
                if type(c) is str:
                    self.text_owner[id(m)] = ks[0]
                elif type(c) is list:
                    for b in c:
                        self.own(b, ks[0])
                continue
            blocks, pos = m["content"], 0  # built by _extend: each entry's blocks in turn
            for k in ks:
                n = len(_blocks(items[k]["message"].get("content")))
                for b in blocks[pos:pos + n]:
                    self.own(b, k)
                pos += n
        return msgs, grp

    def write_back(self, items: list[Any], msgs: list[Any], grp: list[list[int]], out: list[Any]) -> Written:
        seq, spans, ids = self._pieces(items, msgs, grp, out)
        main = sorted(k for ks in grp for k in ks)
        for strict in (False, True):
            placed = self._place(items, main, seq, strict)
            if strict or self._reads_as(placed, out):
                break
        gone = sorted(set(main) - {p.origin for p in seq if p.origin is not None})
        self._link(items, main, placed, gone)
        entries = [x.entry if type(x) is _Piece else x[1] for x in placed]
        origins = [x.origin if type(x) is _Piece else x[0] for x in placed]
        at = {id(p): n for n, p in enumerate(placed)}
        return Written(entries, origins, [[at[id(seq[q])] for q in span] for span in spans],
                       {at[id(p)] for p in seq if p.changed}, gone, ids)

    def _pieces(self, items: list[Any], msgs: list[Any], grp: list[list[int]],
                out: list[Any]) -> tuple[list[_Piece], list[list[int]], list[tuple[int, Any]]]:
        """The entries of each repaired message, in message order."""
        index_of = {id(m): i for i, m in enumerate(msgs)}
        seq: list[_Piece] = []
        spans: list[list[int]] = []
        done: set[int] = set()
        ids: list[tuple[int, Any]] = []
        for n in out:
            span: list[int] = []
            i = index_of.get(id(n))
            if i is not None:  # a message the plan did not touch: its entries as they are
                for k in grp[i]:
                    done.add(k)
                    span.append(len(seq))
                    seq.append(_Piece(items[k], k, items[k]["message"], False))
                spans.append(span)
                continue
            runs: list[list[Any]] = []
            for b in self._blocks(n):
                owner: int | None = self.owner_of(b)
                if owner in done:
                    owner = None  # a second run of one entry's blocks: an entry of its own
                if runs and runs[-1][0] == owner and owner is not None or runs and runs[-1][0] is None and owner is None:
                    runs[-1][1].append(b)
                else:
                    runs.append([owner, [b]])
                    if owner is not None:
                        done.add(owner)
            role = n.get("role")
            for k, bl in runs:
                if k is not None:
                    e = items[k]
                    if self._same(e, bl):
                        seq.append(_Piece(e, k, e["message"], False))
                    else:
                        m = {**e["message"], "content": bl}
                        seq.append(_Piece({**e, "message": m}, k, m, True))
                else:
                    m = {"role": role, "content": bl}
                    seq.append(_Piece(None, None, m, True))
                span.append(len(seq) - 1)
            spans.append(span)
            if role == "assistant":
                self._one_reply(seq, span, ids)
        return seq, spans, ids

    @staticmethod
    def _same(e: dict[str, Any], bl: list[Any]) -> bool:
        c = e["message"].get("content")
        if type(c) is list:
            return len(c) == len(bl) and all(x is y for x, y in zip(c, bl))
        return type(c) is str and bl == [{"type": "text", "text": c}]

    @staticmethod
    def _one_reply(seq: list[Any], span: list[int], ids: list[Any]) -> None:
        """The entries of one assistant message share its id (the reader joins entries by it)."""
        first = next((seq[q].message.get("id") for q in span if seq[q].message.get("id") is not None), None)
        if first is None:
            return
        for q in span:
            p = seq[q]
            old = p.message.get("id")
            if old == first:
                continue
            p.message = {**p.message, "id": first} if p.origin is not None or old is not None else \
                {"role": p.message["role"], "id": first, "content": p.message["content"]}
            if p.origin is not None:
                p.entry = {**p.entry, "message": p.message}
                p.changed = True
                ids.append((p.origin, old))

    @staticmethod
    def _place(items: list[Any], main: list[int], seq: list[Any], strict: bool) -> list[Any]:
        """The file: every entry that is not of the main conversation where it was, and the main
        conversation's pieces at their entries' places (``strict``: only while in message order),
        each other piece after the last entry placed before it (a placeholder after its call)."""
        here: dict[int, _Piece] = {}
        after: dict[int, list[Any]] = {}
        last = -1
        for p in seq:
            k = p.origin
            if k is not None and k not in here and (not strict or k > last):
                here[k] = p
                last = max(last, k)
            else:
                after.setdefault(last, []).append(p)
        mains = set(main)
        placed: list[Any] = []
        for j, e in enumerate(items):
            if main and j == main[0]:
                placed.extend(after.get(-1, ()))
            if j in mains:
                if j in here:
                    placed.append(here[j])
                    placed.extend(after.get(j, ()))
            else:
                placed.append((j, e))
        return placed

    def _link(self, items: list[Any], main: list[int], placed: list[Any], gone: list[int]) -> None:
        """``parentUuid`` links for the placed entries, and the new entries made (see the class doc)."""
        by_uuid = {e["uuid"]: j for j, e in enumerate(items) if type(e) is dict and type(e.get("uuid")) is str}
        removed = {items[k]["uuid"]: k for k in gone if type(items[k].get("uuid")) is str}
        mains = set(main)
        before = {k: (main[x - 1] if x else None) for x, k in enumerate(main)}
        at = {x[0]: n for n, x in enumerate(placed) if type(x) is tuple}

        def survivor(u: Any) -> Any:  # the nearest ancestor still in the file
            seen = set()
            while u in removed and u not in seen:
                seen.add(u)
                u = items[removed[u]].get("parentUuid")
            return u

        pieces = [x for x in placed if type(x) is _Piece]
        prev: _Piece | None = None
        for n, p in enumerate(pieces):
            up = prev.entry.get("uuid") if prev is not None and prev.entry is not None else None
            if p.origin is None:
                template = prev.entry if prev is not None and prev.entry is not None else next(
                    (q.entry for q in pieces[n + 1:] if q.entry is not None), {})
                p.entry = self._new_entry(p.message, template, up, by_uuid)
            else:
                assert p.entry is not None  # an input entry's piece has its entry
                op = before[p.origin]
                if (prev.origin if prev is not None else None) != op:
                    was = items[op].get("uuid") if op is not None else None
                    new = up if prev is not None else survivor(was)
                    h = self._head(items, p.origin, was, by_uuid, mains)
                    if h == p.origin and "parentUuid" in p.entry:
                        p.entry = {**p.entry, "parentUuid": new}
                        p.changed = True
                    elif h is not None and h in at:
                        placed[at[h]] = (h, {**items[h], "parentUuid": new})
            prev = p
        if removed:  # other children of a removed entry (a branch, a system entry): its parent instead
            for n, x in enumerate(placed):
                e = x.entry if type(x) is _Piece else x[1]
                if type(e) is dict and e.get("parentUuid") in removed:
                    e = {**e, "parentUuid": survivor(e["parentUuid"])}
                    if type(x) is _Piece:
                        x.entry = e
                    else:
                        placed[n] = (x[0], e)

    @staticmethod
    def _head(items: list[Any], k: int, parent: Any, by_uuid: dict[str, Any], mains: set[Any]) -> int | None:
        """The entry on entry ``k``'s chain (``k`` itself, or a system entry between) whose
        ``parentUuid`` is ``parent``; None when the chain does not lead there (no links to keep)."""
        j: int | None = k
        for _ in range(64):
            assert j is not None
            p = items[j].get("parentUuid")
            if p == parent:
                return j
            j = by_uuid.get(p) if type(p) is str else None
            if j is None or j in mains:
                return None
        return None

    @staticmethod
    def _new_entry(message: dict[str, Any], template: dict[str, Any], parent: Any, by_uuid: dict[str, Any]) -> dict[str, Any]:
        """A new entry holding ``message``, in the context of ``template`` (the entry before it)."""
        role = message.get("role")
        seed = f"{parent}:{dumps(message, indent=False).decode()}"
        u = str(uuid.uuid5(uuid.NAMESPACE_URL, "inspector-repair:" + seed))
        while u in by_uuid:
            u = str(uuid.uuid5(uuid.NAMESPACE_URL, "inspector-repair:" + u))
        by_uuid[u] = -1
        entry: dict[str, Any] = {}
        for key, v in template.items():
            if key in CONTEXT_KEYS:
                entry[key] = v
            elif key == "type":
                entry[key] = role
            elif key == "message":
                entry[key] = message
            elif key == "uuid":
                entry[key] = u
        if "parentUuid" in entry:
            entry["parentUuid"] = parent
        entry.setdefault("type", role)
        entry.setdefault("message", message)
        return entry

    def _reads_as(self, placed: list[Any], out: list[Any]) -> bool:
        """True when the main conversation's pieces, in file order, read as the repaired messages."""
        pieces = [{"type": p.message.get("role"), "message": p.message} for p in placed if type(p) is _Piece]
        again, _ = groups(pieces, (), set())
        if len(again) != len(out):
            return False
        return all(a.get("role") == b.get("role") and _blocks(a.get("content")) == _blocks(b.get("content"))
                   for a, b in zip(again, out))


def _entry(uuid: str, parent: str | None, role: str, content: Any, mid: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": role, "content": content}
    if mid:
        message["id"] = mid
    return {"type": role, "uuid": uuid, "parentUuid": parent, "sessionId": "s1", "message": message}


class ClaudeCode(anthropic.Anthropic):
    """Claude Code session logs: Anthropic messages inside log entries, read and checked as
    the Anthropic messages they are grouped into."""

    name = "claude-code"
    targets = ("anthropic",)
    tool_fields = frozenset({"tool_use_id", "toolUseId", "tool_name", "toolName"})
    editor_class = ClaudeCodeEditor
    recognisers = (claude_code_log,)
    session_files = SessionFiles("claude-code", ".claude/projects", ("*/*.jsonl",))
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
        jsonl=True,
    )

    detect = staticmethod(detect)

    def is_message(self, item: Any) -> bool:
        return is_log_line(item)

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        msgs, _ = groups(items, where)
        return anthropic.normalize(msgs, where, issues)

    def envelopes(self, items: list[Any]) -> dict[int, Any]:
        """Each entry's message, keyed by its ``id()``: the entry keeps the ``timestamp``."""
        return {id(it["message"]): it for it in items if type(it) is dict and type(it.get("message")) is dict}

    def item_groups(self, items: list[Any], where: tuple[Any, ...] = ()) -> list[list[int]]:
        """For each API message, the log entries it joins (what fit removes when it removes the message)."""
        return groups(items, where)[1]

    def agent(self, items: list[Any]) -> tuple[str, str | None] | None:
        """Claude Code, and the ``version`` its entries name (the last one: a session resumed by a
        newer Claude Code names the newer one)."""
        v = next((e["version"] for e in reversed(items) if type(e) is dict and type(e.get("version")) is str), None)
        return "Claude Code", v


DIALECT = ClaudeCode()
