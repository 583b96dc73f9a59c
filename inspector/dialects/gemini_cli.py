"""Gemini CLI sessions: ``~/.gemini/tmp/<project hash>/chats/session-*.jsonl`` (and the older ``.json``).

google-gemini/gemini-cli ``packages/core/src/services/chatRecordingTypes.ts`` and
``chatRecordingService.ts``: a session file of v0.39+ is append-only JSON Lines: a metadata line
(``{sessionId, projectHash, startTime, ...}``), message records ``{id, timestamp, type, content}``
(``type`` ``user``, ``gemini``, ``info``, ``error``, ``warning``; a ``gemini`` record has
``toolCalls[{id, name, args, status, result: [{functionResponse: {id, name, response}}]}]``),
``{"$set": {...}}`` metadata updates (``$set.messages`` replaces the list) and ``{"$rewindTo":
id}`` (that message and every later one are dropped: a rewind). A message id written again
replaces the record before it, in its place (its tool calls updated). The older ``.json`` is one
``ConversationRecord`` with ``messages[]``; ``/chat save`` checkpoints are Gemini ``Content[]``
(or ``{history: Content[]}``), which the gemini dialect reads as they are.

What the API receives (gemini-cli ``convertSessionToClientHistory``): each ``user`` record is a
user content of its parts; each ``gemini`` record a model content of its text and one
``functionCall`` part per tool call, followed by a user content of the calls' ``result`` parts
(``functionResponse``); ``info``/``error``/``warning`` records and thoughts are not sent. Those
contents are read and judged as Gemini contents. Rewound records are an abandoned branch: a
transcript of its own, never sent again, as Claude Code's are.

Repair writes what Gemini CLI itself writes when a tool call's result arrives: the model record
again, with the same id, its tool calls' ``result`` filled in, appended to the file (the record
it replaces stays, as Gemini CLI leaves it). Any other change (a record taken out, an id
renamed, an order changed) the session format cannot hold as an append: repair says so plainly.
"""

from __future__ import annotations

from typing import Any

from ..containers import Path, path_text
from ..errors import InputError
from ..model import Issue, Msg
from . import gemini
from .base import Samples, SessionFiles, type_name, word
from .editing import LogEditor, Written

RECORD_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})
SENT = ("user", "gemini")


def is_record(e: Any) -> bool:
    """A message record of a session (``{id, timestamp, type, content}``)."""
    return (type(e) is dict and word(e.get("type")) in RECORD_TYPES and type(e.get("id")) is str
            and "timestamp" in e and ("content" in e or "toolCalls" in e))


def is_metadata(e: Any) -> bool:
    """The first line of a session file (with ``messages``, it is a whole ``.json`` instead)."""
    return type(e) is dict and "sessionId" in e and "projectHash" in e and "messages" not in e


def is_line(e: Any) -> bool:
    """One line of a session file: a record, a ``$set`` or ``$rewindTo``, or the metadata line."""
    return is_record(e) or is_metadata(e) or (type(e) is dict and ("$set" in e or "$rewindTo" in e))


def claims(items: list[Any]) -> bool:
    """A session file: a user or model record among the first lines, or its metadata line first
    (a session that holds no message yet)."""
    return bool(items) and (is_metadata(items[0]) or any(is_record(e) and e["type"] in SENT for e in items[:50]))


def detect(items: list[Any]) -> int:
    return 4 if claims(items) else 0


def replay(items: list[Any], where: tuple[Any, ...] = ()) -> tuple[list[tuple[int, dict[str, Any]]], list[list[int]]]:
    """The records the session holds now, each with its line, and the lines of each branch a
    rewind abandoned (the records then, in order)."""
    live: dict[str, tuple[int, dict[str, Any]]] = {}
    branches: list[list[int]] = []
    for k, e in enumerate(items):
        if type(e) is not dict:
            raise InputError(f"expected a session record object, got {type_name(e)}", f"{path_text(where)}[{k}]")
        if "$rewindTo" in e:
            ids = list(live)
            target = e["$rewindTo"]
            cut = ids.index(target) if target in live else 0
            if ids[cut:]:
                branches.append([j for j, _ in live.values()])
            for i in ids[cut:]:
                del live[i]
        elif "$set" in e:
            msgs = e["$set"].get("messages") if type(e["$set"]) is dict else None
            if type(msgs) is list:
                live = {m["id"]: (k, m) for m in msgs if type(m) is dict and type(m.get("id")) is str}
        elif type(e.get("id")) is str and word(e.get("type")) in RECORD_TYPES:
            live[e["id"]] = (k, e)  # a record written again keeps its place
    return list(live.values()), branches


def _parts(content: Any) -> list[Any]:
    if type(content) is str:
        return [{"text": content}] if content else []
    if type(content) is dict:
        return [content]
    if type(content) is list:
        return [{"text": p} if type(p) is str else p for p in content]
    return []


def contents(records: list[tuple[int, dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[list[int]], list[int | None]]:
    """The Gemini contents the records make, the line of each, and for each the index of the
    record whose tool calls it carries or answers (None for a user content)."""
    out: list[dict[str, Any]] = []
    lines: list[list[int]] = []
    owner: list[int | None] = []
    for n, (k, rec) in enumerate(records):
        t = rec.get("type")
        if t == "user":
            out.append({"role": "user", "parts": _parts(rec.get("content"))})
            lines.append([k])
            owner.append(None)
        elif t == "gemini":
            calls: list[Any] = rec["toolCalls"] if type(rec.get("toolCalls")) is list else []
            parts = [p for p in _parts(rec.get("content")) if not (type(p) is dict and p.get("thought") is True)]
            for tc in calls:
                if type(tc) is dict:
                    fc = {"name": tc.get("name"), "args": tc.get("args", {})}
                    if tc.get("id") is not None:
                        fc = {"id": tc["id"], **fc}
                    parts.append({"functionCall": fc})
            out.append({"role": "model", "parts": parts})
            lines.append([k])
            owner.append(n)
            answers = [p for tc in calls if type(tc) is dict for p in _parts(tc.get("result"))]
            if answers:
                out.append({"role": "user", "parts": answers})
                lines.append([k])
                owner.append(n)
    return out, lines, owner


def gemini_cli_session(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    """A Gemini CLI session: the conversation it holds now, then each branch a rewind abandoned."""
    if type(root) is dict and type(root.get("messages")) is list and "sessionId" in root and any(
            is_record(m) for m in root["messages"][:50]):
        return [(("messages",), ("Gemini CLI session (.json)", {"dialect": "gemini-cli"}))]
    if type(root) is not list or not claims(root):
        return []
    what = "Gemini CLI session"
    out: list[tuple[Path, Any]] = [((), what)]
    try:
        _, branches = replay(root)
    except InputError:
        return out  # the reader says where
    for lines in branches:
        out.append(((), (what, {"view": lines, "label": f"abandoned branch ending at line {lines[-1] + 1}",
                                "never_sent": "an abandoned branch (the session was rewound)"})))
    return out


# --- repair ---------------------------------------------------------------------------------------


CANNOT = ("repair of a Gemini CLI session can only add the results of tool calls that have none (the record "
          "written again with its results, as Gemini CLI does); this repair would {what}, which the session "
          "file cannot hold; repair the contents it sends instead (a /chat save checkpoint, or --from gemini "
          "on the exported contents)")


class GeminiCliEditor(LogEditor, gemini.GeminiEditor):
    """Repair of a session: the plan runs on the Gemini contents, and ``write_back`` appends each
    model record whose calls gained results, written again with them (see the module doc)."""

    message_dialect = "gemini"

    def messages(self, items: list[Any], where: tuple[Any, ...]) -> tuple[list[Any], list[list[int]]]:
        records, _ = replay(items, where)
        msgs, lines, _ = contents(records)
        return msgs, lines

    def write_back(self, items: list[Any], msgs: list[Any], grp: list[list[int]], out: list[Any]) -> Written:
        where = {id(p): i for i, m in enumerate(msgs) for p in (m.get("parts") or ())}
        seen: list[Any] = []  # the input's parts, in the order the output has them
        added: dict[int, list[Any]] = {}  # line of a model record -> the result parts repair gives its calls
        touched: list[set[int]] = []  # for each output content, the lines of the input records it holds
        last_model: int | None = None
        for m in out:
            parts = m.get("parts") if type(m) is dict else None
            if type(parts) is not list:
                raise InputError(CANNOT.format(what="write a content without parts"))
            mine: set[int] = set()  # input contents, then (below) the lines of their records
            gave: set[int] = set()  # the model records this content gives a result to
            for p in parts:
                i = where.get(id(p))
                if i is not None:
                    seen.append(p)
                    mine.add(i)
                    if msgs[i].get("role") == "model":
                        last_model = grp[i][0]
                elif m.get("role") == "user" and last_model is not None and type(p) is dict and "functionResponse" in p:
                    added.setdefault(last_model, []).append(p)
                    gave.add(last_model)
                else:
                    raise InputError(CANNOT.format(what="add or change a part other than a tool call's result"))
            touched.append({grp[i][0] for i in mine} | gave)
        every = [p for m in msgs for p in (m.get("parts") or ())]
        if len(seen) != len(every) or any(a is not b for a, b in zip(seen, every)):
            raise InputError(CANNOT.format(what="take out, move or rewrite a part of a message"))
        new = list(items)
        new_origin: list[int | None] = list(range(len(items)))
        changed: set[int] = set()
        line_of: dict[int, int] = {}
        notes: dict[int, str] = {}
        for k, parts in added.items():
            rec = items[k]
            calls = []
            for tc in rec.get("toolCalls") or []:
                if type(tc) is dict and not _parts(tc.get("result")):
                    got = [p for p in parts if p["functionResponse"].get("id") in (None, tc.get("id"))
                           and p["functionResponse"].get("name") == tc.get("name")][:1]
                    if got:
                        parts = [p for p in parts if p is not got[0]]
                        tc = {**tc, "status": "cancelled", "result": got}
                calls.append(tc)
            if parts:
                raise InputError(CANNOT.format(what="add a result no tool call of its record can take"))
            new.append({**rec, "toolCalls": calls})
            new_origin.append(None)
            changed.add(len(new) - 1)
            line_of[k] = len(new) - 1
            notes[len(new) - 1] = (f"It is in record {rec.get('id')!r} written again with its tool calls' results, "
                                   f"appended to the session as entry #{len(new) - 1} (as Gemini CLI writes a tool "
                                   f"call's result); entry #{k} stays as it was.")
        # Where each content is in the output: the lines of its records, a record written again at
        # its new line; a result repair added is in the appended record of the call it answers
        # (the change that made it names that line, and the input's line stays as it was).
        spans = [sorted({line_of.get(k, k) for k in lines}) for lines in touched]
        return Written(new, new_origin, spans, changed, notes=notes)


def _record(rid: str, t: str, content: Any, **more: Any) -> dict[str, Any]:
    return {"id": rid, "timestamp": f"2026-05-02T10:00:0{rid[-1]}.000Z", "type": t, "content": content, **more}


_META = {"sessionId": "3f1c9a52-6d1e-4b0a-9d43-0f2b7c1e5a10", "projectHash": "9c2d0e", "startTime":
         "2026-05-02T10:00:00.000Z", "lastUpdated": "2026-05-02T10:00:00.000Z", "kind": "main"}
_CALL = {"id": "read_file-1746180002-1", "name": "read_file", "args": {"absolute_path": "/p/a.py"},
         "status": "success", "timestamp": "2026-05-02T10:00:02.000Z"}


class GeminiCli(gemini.Gemini):
    """Gemini CLI sessions, read as the Gemini contents Gemini CLI sends."""

    name = "gemini-cli"
    recognisers = (gemini_cli_session,)
    editor_class = GeminiCliEditor
    session_files = SessionFiles("gemini", ".gemini/tmp", ("*/chats/session-*.jsonl", "*/chats/session-*.json"))
    samples = Samples(
        clean=[_META, _record("m1", "user", [{"text": "What is in a.py?"}]),
               _record("m2", "gemini", "", toolCalls=[{**_CALL, "result": [{"functionResponse": {
                   "id": "read_file-1746180002-1", "name": "read_file", "response": {"output": "x = 1"}}}]}],
                       model="gemini-2.5-pro"),
               _record("m3", "gemini", "a.py sets x to 1.", model="gemini-2.5-pro")],
        broken=[_META, _record("m1", "user", [{"text": "What is in a.py?"}]),
                _record("m2", "gemini", "", toolCalls=[{**_CALL, "status": "executing"}], model="gemini-2.5-pro"),
                _record("m3", "user", [{"text": "Never mind."}])],
        jsonl=True,
    )

    detect = staticmethod(detect)

    def is_message(self, item: Any) -> bool:
        return is_line(item)

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        records, _ = replay(items, where)
        msgs, _, _ = contents(records)
        return gemini.normalize(msgs, where, issues)

    def item_groups(self, items: list[Any], where: tuple[Any, ...] = ()) -> list[list[int]]:
        records, _ = replay(items, where)
        return contents(records)[1]

    def names_list(self, key: str | None, request: Any, target: str | None) -> bool:
        return False

    def agent(self, items: list[Any]) -> tuple[str, str | None] | None:
        """Gemini CLI (its session files name no version)."""
        return "Gemini CLI", None


DIALECT = GeminiCli()
