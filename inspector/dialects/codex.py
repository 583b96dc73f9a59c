"""Codex CLI rollouts: ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``, Responses items inside.

Each line is ``{timestamp, type, payload}`` (openai/codex ``codex-rs/protocol``: ``RolloutLine``
with a ``RolloutItem``): ``session_meta`` (the session's id, cwd, ``cli_version``, ``source``),
``turn_context`` (the ``model`` of the turn, the cwd and policies), ``response_item`` (a Responses
item: ``message``, ``function_call``/``function_call_output`` by ``call_id``,
``custom_tool_call(_output)``, ``local_shell_call(_output)``, ``reasoning``,
``web_search_call``, ...), ``event_msg`` (what the UI showed) and ``compacted``.

What the API receives is the list of ``response_item`` payloads, read as the Responses input it
is (``responses.normalize``). A ``compacted`` line starts it again: from it on, the history is its
``replacement_history`` (the items Codex replaced the conversation with) and the items that
follow; a ``compacted`` line without one (older versions) keeps the user messages before it (Codex
rebuilds the history from them and the summary). The conversation before a compaction is a
transcript of its own, never sent again (``never_sent``), as Claude Code's are. ``event_msg`` lines
(exec begin/end, token counts) sit between a call and its output and are no part of the request.

The target is named by the last ``turn_context``'s ``model`` (the Responses API by default).
Repair (``CodexEditor``) plans on the Responses items and writes lines again: an unchanged item
keeps its line, a changed one its line with the new payload, a new one (a placeholder output) a
new ``response_item`` line after the line before it, with that line's timestamp; a change inside
a compaction's ``replacement_history`` rewrites that list in its ``compacted`` line.
"""

from __future__ import annotations

from typing import Any

from ..containers import Path, path_text
from ..errors import InputError
from ..model import Issue, Msg
from . import responses
from .base import Samples, SessionFiles, type_name, word
from .editing import LogEditor, Written

LINE_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})


def is_line(e: Any) -> bool:
    """One line of a rollout: ``{timestamp, type, payload}`` with one of the rollout's types."""
    return type(e) is dict and word(e.get("type")) in LINE_TYPES and type(e.get("payload")) is dict and "timestamp" in e


def detect(items: list[Any]) -> int:
    return 4 if any(is_line(e) and e["type"] in ("response_item", "session_meta") for e in items[:50]) else 0


def _compacted_history(e: dict[str, Any]) -> list[Any] | None:
    rh = e["payload"].get("replacement_history")
    return rh if type(rh) is list else None


def history(items: list[Any], where: tuple[Any, ...] = ()) -> tuple[list[Any], list[int]]:
    """The Responses items the API receives (after the last compaction) and, for each, the line it
    is written in (a ``compacted`` line for the items of its ``replacement_history``)."""
    out: list[Any] = []
    lines: list[int] = []
    for k, e in enumerate(items):
        if type(e) is not dict:
            raise InputError(f"expected a rollout line object, got {type_name(e)}", f"{path_text(where)}[{k}]")
        t = e.get("type")
        if t == "response_item":
            p = e.get("payload")
            if type(p) is not dict:
                raise InputError(f"expected a Responses item object as the payload, got {type_name(p)}",
                                 f"{path_text(where)}[{k}].payload")
            out.append(p)
            lines.append(k)
        elif t == "compacted" and type(e.get("payload")) is dict:
            rh = _compacted_history(e)
            if rh is not None:
                out, lines = list(rh), [k] * len(rh)
            else:  # older Codex: the history is rebuilt from the user messages and the summary
                kept = [(p, j) for p, j in zip(out, lines) if p.get("type") == "message" and p.get("role") == "user"]
                out, lines = [p for p, _ in kept], [j for _, j in kept]
    return out, lines


def segments(items: list[Any]) -> list[tuple[int, list[int]]]:
    """For each compaction, ``(its line, the lines of the conversation it replaced)``: the previous
    compaction's line (its replacement history) and the ``response_item`` lines up to it."""
    out = []
    start: list[int] = []
    for k, e in enumerate(items):
        if not is_line(e):
            continue
        if e["type"] == "response_item":
            start.append(k)
        elif e["type"] == "compacted":
            if any(items[j]["type"] == "response_item" for j in start):
                out.append((k, list(start)))
            start = [k] if _compacted_history(e) is not None else []
    return out


def codex_rollout(root: Any, fmt: str) -> list[tuple[Path, Any]]:
    """A Codex CLI rollout: the conversation the API receives now, then each conversation a
    compaction replaced, as a view of its own."""
    if type(root) is not list or not any(is_line(e) and e["type"] in ("response_item", "session_meta")
                                         for e in root[:50]):
        return []
    what = "Codex CLI rollout"
    out: list[tuple[Path, Any]] = [((), what)]
    for at, lines in segments(root):
        out.append(((), (what, {"view": lines, "label": f"before the compaction at line {at + 1}",
                                "never_sent": "the conversation before a compaction (its replacement history "
                                              "replaced it)"})))
    return out


# --- repair ---------------------------------------------------------------------------------------


class CodexEditor(LogEditor, responses.ResponsesEditor):
    """Repair of a rollout: the plan runs on the Responses items the API receives (the Responses
    editor's edits), and ``write_back`` writes them as lines again (see the module doc)."""

    message_dialect = "openai-responses"

    def messages(self, items: list[Any], where: tuple[Any, ...]) -> tuple[list[Any], list[list[int]]]:
        msgs, lines = history(items, where)
        return msgs, [[k] for k in lines]

    def write_back(self, items: list[Any], msgs: list[Any], grp: list[list[int]], out: list[Any]) -> Written:
        origins = self.origins if self.origins is not None and len(self.origins) == len(out) else [
            next((i for i, m in enumerate(msgs) if m is x), None) for x in out]
        line_of = [ks[0] for ks in grp]
        compacted = {k for k in line_of if items[k].get("type") == "compacted"}
        here: dict[int, int] = {}  # response_item line -> the output item written there
        into: dict[int, list[int]] = {k: [] for k in compacted}  # compacted line -> its history's items
        after: dict[int, list[int]] = {}  # line -> output items written as new lines after it
        last = -1
        for j, o in enumerate(origins):
            k = line_of[o] if o is not None and o < len(line_of) else None
            if k is not None and k in compacted and k >= last:
                into[k].append(j)
                last = k
            elif k is not None and k not in compacted and k not in here and k > last:
                here[k] = j
                last = k
            elif last in into:  # an item made (or moved) right after a compaction's history: part of it
                into[last].append(j)
            else:
                after.setdefault(last, []).append(j)
        new: list[Any] = []
        new_origin: list[int | None] = []
        spans: list[list[int]] = [[] for _ in out]
        changed: set[int] = set()

        def emit(j: int, template: dict[str, Any] | None, k: int | None) -> None:
            o = origins[j]
            same = o is not None and out[j] is msgs[o]
            if template is None and o is not None and o < len(line_of) and len(grp[o]) == 1:
                # An item moved to another place: its own line, as it was (its timestamp too), there.
                own = items[line_of[o]]
                new.append(own if same else {**own, "payload": out[j]})
                new_origin.append(line_of[o])
                if not same:
                    changed.add(len(new) - 1)
                spans[j].append(len(new) - 1)
                return
            if template is not None and same:
                new.append(template)
            else:
                base = template if template is not None else {"timestamp": (items[k].get("timestamp") if k is not None
                                                                             and k >= 0 else None), "type": "response_item"}
                new.append({**base, "type": "response_item", "payload": out[j]})
                changed.add(len(new) - 1)
            new_origin.append(k if template is not None else None)
            spans[j].append(len(new) - 1)

        first_main = min([*here, *into], default=0)
        for k, e in enumerate(items):
            if k == first_main:
                for j in after.get(-1, ()):
                    emit(j, None, first_main)
            if k in into:
                js = into[k]
                rh = _compacted_history(e) or []
                if len(js) == len(rh) and all(out[j] is x for j, x in zip(js, rh)):
                    new.append(e)
                    new_origin.append(k)
                else:
                    new.append({**e, "payload": {**e["payload"], "replacement_history": [out[j] for j in js]}})
                    new_origin.append(k)
                    changed.add(len(new) - 1)
                for j in js:
                    spans[j].append(len(new) - 1)
            elif k in here:
                emit(here[k], e, k)
            elif k in line_of:  # an item the plan took out or moved: its line is written where it went
                pass
            else:
                new.append(e)
                new_origin.append(k)
            for j in after.get(k, ()):
                emit(j, None, k)
        used = {line_of[o] for o in origins if o is not None and o < len(line_of)}
        gone = sorted(set(line_of) - used - compacted)
        return Written(new, new_origin, spans, changed, gone)


def _line(t: str, payload: dict[str, Any], ts: str = "2025-10-29T00:59:38.317Z") -> dict[str, Any]:
    return {"timestamp": ts, "type": t, "payload": payload}


_META = _line("session_meta", {"id": "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5", "timestamp": "2025-10-29T00:59:38.308Z",
                               "cwd": "/tmp/project", "originator": "codex_cli_rs", "cli_version": "0.46.0",
                               "instructions": None, "source": "cli"})
_CONTEXT = _line("turn_context", {"cwd": "/tmp/project", "approval_policy": "on-request", "model": "gpt-5-codex",
                                  "summary": "auto"})
_ASK = _line("response_item", {"type": "message", "role": "user",
                                "content": [{"type": "input_text", "text": "List the files."}]})
_CALL = _line("response_item", {"type": "function_call", "name": "shell", "arguments": '{"command":["ls"]}',
                                 "call_id": "call_Rk3x"})
_BEGIN = _line("event_msg", {"type": "exec_command_begin", "call_id": "call_Rk3x", "command": ["ls"]})


class Codex(responses.Responses):
    """Codex CLI rollouts: the Responses items the API receives, read from the rollout's lines."""

    name = "codex"
    tool_fields = frozenset({"call_id", "tool_calls", "tool_call_id"})
    recognisers = (codex_rollout,)
    editor_class = CodexEditor
    session_files = SessionFiles("codex", ".codex/sessions", ("*/*/*/rollout-*.jsonl", "rollout-*.jsonl"),
                                 env="CODEX_HOME", project_folder=False)
    samples = Samples(
        clean=[_META, _ASK, _CONTEXT, _CALL, _BEGIN,
               _line("response_item", {"type": "function_call_output", "call_id": "call_Rk3x",
                                       "output": '{"output":"a.py\\n","metadata":{"exit_code":0}}'}),
               _line("response_item", {"type": "message", "role": "assistant",
                                       "content": [{"type": "output_text", "text": "There is a.py."}]})],
        broken=[_META, _ASK, _CONTEXT, _CALL, _BEGIN,
                _line("response_item", {"type": "message", "role": "user",
                                        "content": [{"type": "input_text", "text": "Never mind."}]})],
        jsonl=True,
    )

    detect = staticmethod(detect)

    def is_message(self, item: Any) -> bool:
        return is_line(item)

    def read(self, items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
        msgs, _ = history(items, where)
        return responses.normalize(msgs, where, issues)

    def item_groups(self, items: list[Any], where: tuple[Any, ...] = ()) -> list[list[int]]:
        return [[k] for k in history(items, where)[1]]

    def envelopes(self, items: list[Any]) -> dict[int, Any]:
        """Each response item's line (its ``timestamp``)."""
        return {id(e["payload"]): e for e in items if is_line(e) and e["type"] == "response_item"}

    def names_list(self, key: str | None, request: Any, target: str | None) -> bool:
        return False

    def continues_stored(self, request: Any) -> bool:
        return False

    def agent(self, items: list[Any]) -> tuple[str, str | None] | None:
        """Codex CLI, and the ``cli_version`` of its ``session_meta``."""
        v = next((e["payload"].get("cli_version") for e in items[:50] if is_line(e) and e["type"] == "session_meta"),
                 None)
        return "Codex CLI", v if type(v) is str else None

    def harness(self, items: list[Any]) -> tuple[str, str] | None:
        """The ``cli_version`` of the rollout's ``session_meta`` (``harness_patches``)."""
        for e in items[:50]:
            if is_line(e) and e["type"] == "session_meta":
                v = e["payload"].get("cli_version")
                return ("codex", v) if isinstance(v, str) and v else None
        return None

    def target_from(self, items: list[Any], holder: Any = None) -> tuple[str | None, str]:
        """The model of the last ``turn_context`` (the one the latest requests went to)."""
        from ..target_from_model import model_named

        for e in reversed(items):
            if is_line(e) and e["type"] == "turn_context":
                target, why = model_named(e["payload"].get("model"), "the rollout's turn_context names model")
                return ("responses" if target == "openai" else target), why  # Codex speaks Responses to OpenAI
        return None, ""

    def model_from(self, items: list[Any], holder: Any = None) -> str | None:
        """The model of the last ``turn_context``."""
        for e in reversed(items):
            if is_line(e) and e["type"] == "turn_context":
                model = e["payload"].get("model")
                return model.strip() if type(model) is str and model.strip() else None
        return None


DIALECT = Codex()
