"""Fixes a provider documents, made in a pass of their own before the plan (issue 34).

Each is an edit inside a message, or a message added or taken out at the ends of the list, and
each is one change in the log:

- a Gemini function call of the current turn that lost its ``thoughtSignature`` (TC021) gets the
  stand-in Google documents for histories the model did not produce,
  ``skip_thought_signature_validator``, marked as synthesized;
- a DeepSeek thinking-mode tool-call turn that lost its ``reasoning_content`` (TC021) gets an
  empty one, marked as synthesized (accepted in the recorded control of the shared corpus);
- a signature or reasoning state nobody documents a stand-in for (Anthropic thinking blocks,
  Bedrock reasoning, a Responses reasoning item whose encrypted content is bound to another call)
  is not fixed: ``unfixed`` says why and what the user can do;
- a namespaced tool name (TC012, ``functions.open_file`` left by a parser) loses its namespace
  when the bare name is declared (or, without a tool list, is a valid name);
- empty text blocks (TC018, anthropic and bedrock) go to the quarantine;
- a stream fragment (a call with no id, no name and arguments that are not a JSON object, beside a real call
  of the same message) goes to the quarantine whole;
- a history that starts with a function call (TC019, Gemini) gets a user turn before it, marked as
  synthesized, or (``--set TC019=drop_leading``) loses the call and its responses to the quarantine;
- an Anthropic mid-conversation system message out of its place (TC019 ``system_misplaced``)
  moves forward to the nearest place the model takes it; the first message, one with no such place
  after it, and one the model refuses (TC024) are folded into the top-level ``system``;
- a request that ends on unanswered calls where the target refuses it (TC022) loses that message
  to the quarantine (``pending=quarantine``, the default there), or they are answered by
  placeholders (``pending=placeholder``, done by the plan).

Every other fix waits for the next pass, which reads the result again.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from ..rules import severity
from .base import Rec, Slot, tool_label

# Google's documented stand-in for a function call whose signature did not come from the model
# ("Thought signatures", Gemini API docs: "skip_thought_signature_validator").
GEMINI_STAND_IN = "skip_thought_signature_validator"
VALID_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
FRAGMENT = "a stream fragment: a call with no id, no name and arguments that are not a JSON object, beside a real call"
DEFAULT_LEADING = "[no user turn was recorded before this function call]"

# What the user can do about reasoning state nobody documents a stand-in for.
NO_STAND_IN = {
    "thinking_signature": (
        "a thinking block has no signature, and Anthropic documents no stand-in for one, so repair does not "
        "make one up. What you can do: let the API drop the unsigned block (thinking.block_binding."
        "prefix_mismatch_behavior: \"drop_block\", beta thinking-binding-controls-2026-08-01), send the request "
        "with thinking disabled, or start the turn again so that the model signs its own blocks"),
    "thinking_required": (
        "the open tool loop's last assistant turn has no thinking block while thinking is enabled, and no "
        "provider documents a stand-in thinking block. What you can do: send the request with thinking "
        "disabled for this turn, or start the turn again from the last user message"),
    "reasoning_dropped": (
        "a function call item keeps the id the API gave it, and the reasoning item its response put before it "
        "is not in the input; repair cannot recreate a reasoning item. What you can do: send the reasoning item "
        "back as the model gave it (with store: false, ask for reasoning.encrypted_content in include), continue "
        "the response with previous_response_id instead of replaying it, or start the turn again"),
    "thinking_binding": (
        "a thinking block is bound to the thinking that preceded it when it was made, and that earlier thinking "
        "block is not in the request; repair cannot recreate it. What you can do: send the earlier thinking block "
        "back as the model gave it, let the API drop the bound block (thinking.block_binding."
        "prefix_mismatch_behavior: \"drop_block\", beta thinking-binding-controls-2026-08-01), send the request "
        "with thinking disabled, or start the turn again"),
    "thinking_order": (
        "a thinking block is not first in its assistant message; its signature binds it where the model put "
        "it, so repair does not move it. What you can do: start the turn again, or send the request with "
        "thinking disabled"),
    "reasoning_binding": (
        "a reasoning item is followed by a function call another response made, not by the call it was produced "
        "with; its encrypted content is bound to that call, so repair does not move or rebind it. What you can "
        "do: send the input again with each reasoning item right before the call of its own response, exactly as "
        "the response returned them, or continue the stored response (store: true and previous_response_id), or "
        "start the turn again from the last user message"),
}


def _json_object(text: Any) -> bool:
    """True when ``text`` is a JSON object (what a call's arguments are; a piece such as ``'"}"'``
    parses, to a string, and is still a fragment)."""
    try:
        return type(orjson.loads(text)) is dict
    except (orjson.JSONDecodeError, TypeError):
        return False


class DocumentedPlan:
    """One pass of the documented fixes; ``recs``/``quarantine``/... as ``Plan``'s (empty: none applies)."""

    def __init__(self, a: Any, target: str, options: Any, editor: Any):
        self.a, self.target, self.opt, self.ed = a, target, options, editor
        self.items = a.transcript.items
        self.msgs = a.msgs
        self.recs: list[Rec] = []
        self.quarantine: list[tuple[int, str, str, Any]] = []
        self.id_map: dict[str, str] = {}
        self.unfixed: list[str] = []
        self.cur: dict[int, Any] = {}
        self.skip: set[int] = set()
        self.slots: dict[int, Slot] = {}
        self.first: list[Slot] = []
        self.moved_after: dict[int, list[int]] = {}  # input index -> messages moved to follow it
        self.origins: list[int | None] = []  # the input index of each output item (None: new)
        self.request_fields: dict[str, Any] = {}  # fields of the request body around the list, rewritten
        self.by_code: dict[str, list[Any]] = {}
        for iss in a.issues:
            self.by_code.setdefault(iss.code, []).append(iss)

    def raw(self, i: int) -> Any:
        return self.cur.get(i, self.items[i])

    def slot(self, i: int) -> Slot:
        return self.slots.setdefault(i, Slot(None, i))

    def log(self, action: str, code: str, call_id: Any, before: int | None, slot: Slot | None, text: str) -> None:
        self.recs.append(Rec(action, code, call_id, before, slot, text))

    def take_out(self, i: int, code: str, reason: str, text: str, call_id: Any = None) -> None:
        if i in self.skip:
            return
        self.skip.add(i)
        self.quarantine.append((i, code, reason, self.items[i]))
        self.log("quarantine_message", code, call_id, i, None, text)

    def _error(self, code: str, kind: str | None = None) -> bool:
        return severity(code, self.target, kind) == "error"

    def _call(self, i: int, pos: Any, call_id: str | None = None) -> Any:
        """The call a finding on message ``i`` names: by its id when the finding has one (a finding
        read through a target's view, an Anthropic turn merged from several messages, numbers the
        call's place in that turn, not in the message), else by its place ``pos``."""
        if not 0 <= i < len(self.msgs):
            return None
        calls = self.msgs[i].calls
        if call_id is not None:
            by_id = [c for c in calls if c.id == call_id]
            if len(by_id) == 1:
                return by_id[0]
        return next((c for c in calls if c.pos == pos), None)

    # --- the fixes -------------------------------------------------------------------------------

    def run(self) -> list[Any]:
        self.reasoning_state()
        self.namespaced_names()
        self.empty_text()
        self.stream_fragments()
        self.leading_call()
        self.system_placement()
        self.trailing_calls()
        if not self.recs:
            self.origins = list(range(len(self.items)))
            return list(self.items) if type(self.items) is not list else self.items
        out: list[Any] = []
        self.origins = []
        for s in self.first:
            s.pos = len(out)
            out.append(s.raw)
            self.origins.append(None)
        for i, item in enumerate(self.items):
            if i not in self.skip:
                kept = self.slots.get(i)
                if kept is not None:
                    kept.pos = len(out)
                out.append(self.cur.get(i, item))
                self.origins.append(i)
            for k in self.moved_after.get(i, ()):
                s = self.slot(k)
                s.pos = len(out)
                out.append(self.cur.get(k, self.items[k]))
                self.origins.append(k)
        return out

    def reasoning_state(self) -> None:
        for iss in self.by_code.get("TC021", ()):
            kind = iss.data.get("kind")
            i = iss.index
            if not self._error("TC021", kind) or i in self.skip:
                continue
            if kind == "thought_signature":
                c = self._call(i, iss.data.get("pos"), iss.call_id)
                signed = self.ed.sign_call(self.raw(i), c, GEMINI_STAND_IN) if c is not None else None
                if signed is not None:
                    self.cur[i] = signed
                    self.log("synthesize_signature", "TC021", c.id, i, self.slot(i),
                             f"Message #{i}: gave the function call {tool_label(c.name)} (part {c.pos}) the stand-in "
                             f"thought signature {GEMINI_STAND_IN!r} Google documents for histories the model did "
                             "not produce; synthesized: the model's earlier reasoning for this call is not carried "
                             "over, and it answers without it.")
            elif kind == "missing_reasoning":
                added = self.ed.add_reasoning(self.raw(i), "")
                if added is not None:
                    self.cur[i] = added
                    self.log("synthesize_reasoning", "TC021", None, i, self.slot(i),
                             f"Message #{i}: added an empty reasoning_content to the tool-call turn (synthesized: "
                             "its reasoning was not recorded; DeepSeek's thinking mode accepts an empty one).")
            elif kind in NO_STAND_IN:
                self.unfixed.append(f"message #{i}: not fixed (TC021): {NO_STAND_IN[kind]}")

    def namespaced_names(self) -> None:
        declared = self.a.transcript.extra.get("declared_tools")
        for iss in self.by_code.get("TC012", ()):
            i, name = iss.index, iss.data.get("name")
            if not self._error("TC012") or i in self.skip or type(name) is not str or "." not in name:
                continue
            bare = name.rsplit(".", 1)[1]
            if not VALID_NAME.fullmatch(bare) or (declared is not None and bare not in declared):
                continue
            c = self._call(i, iss.data.get("pos", 0), iss.call_id)
            renamed = self.ed.rename_call(self.raw(i), c, bare) if c is not None else None
            if renamed is None:
                continue
            self.quarantine.append((i, "TC012", "the call as it was before repair took the namespace off its name",
                                    self.ed.call_item(self.raw(i), c)))
            self.cur[i] = renamed
            why = "which the request's tools declare" if declared is not None else "a valid name (the request has no tool list)"
            self.log("strip_namespace", "TC012", c.id, i, self.slot(i),
                     f"Message #{i}: renamed the call {name!r} to {bare!r}, {why}: the prefix is a parser's "
                     "namespace, not part of the tool's name.")

    def empty_text(self) -> None:
        for iss in self.by_code.get("TC018", ()):  # kind empty_text: the dialects whose targets refuse one
            i = iss.index
            if iss.data.get("kind") != "empty_text" or not self._error("TC018") or i in self.skip:
                continue
            dropped = self.ed.drop_empty_text(self.raw(i))
            if dropped is None:
                self.unfixed.append(f"message #{i}: its only text is empty, which the target refuses; repair does "
                                    "not write text for it")
                continue
            self.cur[i], blocks = dropped
            for b in blocks:
                self.quarantine.append((i, "TC018", "an empty text block, which the target refuses", b))
            self.log("remove_empty_text", "TC018", None, i, self.slot(i),
                     f"Message #{i}: took {len(blocks)} empty text block(s) out into the quarantine: the target "
                     "refuses empty text blocks.")

    def stream_fragments(self) -> None:
        for m in self.msgs:
            if len(m.calls) < 2 or m.index in self.skip:
                continue
            frags = [c for c in m.calls if not c.id and not c.name and isinstance(c.args, str) and not _json_object(c.args)]
            real = [c for c in m.calls if c.id and c.name]
            if not frags or not real:
                continue
            before = self.raw(m.index)
            try:
                items = [self.ed.call_item(before, c) for c in frags]
            except NotImplementedError:
                continue
            self.cur[m.index], _ = self.ed.drop_calls(before, frags)
            for c, item in zip(frags, items):
                self.quarantine.append((m.index, "TC012", FRAGMENT, item))
            self.log("quarantine_fragment", "TC012", None, m.index, self.slot(m.index),
                     f"Message #{m.index}: took {len(frags)} stream fragment(s) out into the quarantine: a call with "
                     "no id, no name and arguments that are not a JSON object, beside a real call of the same message, is "
                     "what a streaming accumulator leaves behind.")

    def leading_call(self) -> None:
        lead = next((iss for iss in self.by_code.get("TC019", ()) if iss.data.get("prev") is None
                     and iss.data.get("role") == "model" and iss.other is None), None)
        if lead is None or not self._error("TC019") or lead.index in self.skip:
            return
        i = lead.index
        if any(m.role not in ("system",) for m in self.msgs[:i]):
            return
        if self.opt.leading == "drop_leading":
            block = next((b for b in self.a.pairing.blocks if b.index == i), None)
            self.take_out(i, "TC019", "a history that starts with a function call (TC019=drop_leading)",
                          f"Took message #{i}, the function call the history starts with, out into the quarantine "
                          "(TC019=drop_leading).")
            for k in sorted(block.result_msgs) if block is not None else ():
                self.take_out(k, "TC019", "the response to the function call the history started with (TC019=drop_leading)",
                              f"Took message #{k}, the response to that call, out into the quarantine (TC019=drop_leading).")
            return
        item = self.ed.user_text(self.opt.leading_text)
        if item is None:
            return
        s = Slot(item, None)
        self.first.append(s)
        self.log("insert_bridge", "TC019", None, None, s,
                 f"Inserted a user turn marked as synthesized ({self.opt.leading_text!r}) before message #{i}: the "
                 "history starts with a function call, and a function call turn must follow a user turn "
                 "(or use --set TC019=drop_leading to take the call and its response out).")

    def system_placement(self) -> None:
        """Anthropic ``role: "system"`` messages where the model refuses them (rules.md "Changes of
        2026-11-27"). A misplaced one on a model that takes them (TC019 ``system_misplaced``) moves
        forward to the nearest legal place (right after a user message that an assistant message
        follows, or that ends the list), the other messages keeping their order. The first message,
        a misplaced one with no legal place after it, and one the model refuses outright (TC024) are
        folded into the request's top-level ``system`` (after what it held, in order), which every
        model takes: the message goes to the quarantine whole, its text is in ``system``. One that
        holds more than text, or a bare message list (no request body, no ``system``), is not fixed."""
        fold: list[tuple[int, str, str]] = []  # (message index, code, why it is folded, not moved)
        for iss in self.by_code.get("TC019", ()):
            i = iss.index
            if iss.data.get("kind") != "system_misplaced" or not self._error("TC019", "system_misplaced") or i in self.skip:
                continue
            raw = self.items[i]
            content = raw.get("content") if type(raw) is dict else None
            text_only = type(content) is str or (type(content) is list and all(
                type(b) is dict and b.get("type") == "text" for b in content))
            if not text_only:
                self.unfixed.append(f"message #{i}: a system message out of its place (TC019), not moved: it holds "
                                    "more than text, and a system message (in 'messages' or the top-level "
                                    "'system') holds text only")
                continue
            if i == 0:
                fold.append((i, "TC019", ("it is the first message, whose place is the top-level 'system' "
                                          "(the order is kept: that comes before the messages)")))
                continue
            n = len(self.msgs)
            k = next((k for k in range(i + 1, n) if self.msgs[k].role == "user" and k not in self.skip
                      and not self.msgs[k].calls and (k + 1 == n or self.msgs[k + 1].role == "assistant")), None)
            if k is None:
                fold.append((i, "TC019", ("no place after it takes a mid-conversation system message, so it now "
                                          "comes before the conversation instead of at its place")))
                continue
            self.skip.add(i)
            self.moved_after.setdefault(k, []).append(i)
            self.log("move_message", "TC019", None, i, self.slot(i),
                     f"Moved system message #{i} to follow user message #{k}, the nearest place after it where the "
                     "model takes a mid-conversation system message (right after a user message, followed by an "
                     "assistant message or last); the other messages keep their order. Not folded into the "
                     "top-level system: that would move it to the start.")
        for iss in self.by_code.get("TC024", ()):
            i, kind = iss.index, iss.data.get("kind")
            if iss.data.get("role") != "system" or kind not in ("system_refused", "system_model_unknown") \
                    or self.opt.unknown_role == "keep" \
                    or severity("TC024", self.target, kind) not in ("error", "warning") or i in self.skip:
                continue
            why = ("the request's model refuses a system message inside 'messages'" if kind == "system_refused" else
                   "the request names no model that takes a system message inside 'messages', and every model "
                   "takes the top-level one")
            fold.append((i, "TC024", why + "; it now comes before the conversation instead of at its place"))
        if fold:
            self._fold_system(sorted(fold))

    def _fold_system(self, fold: list[tuple[int, str, str]]) -> None:
        request = self.a.transcript.extra.get("request")
        got = self.ed.fold_system(request, [self.items[i] for i, _, _ in fold]) if type(request) is dict else None
        if got is None:
            for i, code, _ in fold:
                if code == "TC019":  # TC024's own fix (the quarantine) is the plan's
                    where = ("this is a bare message list, with no request body to hold a top-level 'system'"
                             if type(request) is not dict else "it holds more than text")
                    self.unfixed.append(f"message #{i}: a system message out of its place (TC019), not folded into "
                                        f"the top-level 'system': {where}; put its text there yourself")
            return
        key, value = got
        self.request_fields[key] = value
        for i, code, why in fold:
            self.skip.add(i)
            reason = f"a system message whose text repair folded into the request's top-level '{key}' (the message as it was)"
            self.quarantine.append((i, code, reason, self.items[i]))
            self.log("fold_system", code, None, i, None,
                     f"Folded system message #{i} into the request's top-level '{key}', after what it held: {why}. "
                     f"Its text is all there; the message as it was is in the quarantine.")

    def trailing_calls(self) -> None:
        pending = self.by_code.get("TC022", ())
        if not pending or self.opt.pending in ("close", "placeholder"):
            return
        # A target that refuses a request ending on calls (Mistral, DeepSeek): a repaired history is
        # about to be sent, even when it was read as a log.
        refused = self._error("TC022", "request_end") or any(self._error("TC022", iss.data.get("kind")) for iss in pending)
        if not (refused or self.opt.pending == "quarantine"):
            return
        last = max(iss.index for iss in pending)
        if last != len(self.items) - 1 or last in self.skip:
            return
        # The assistant messages with calls just before it would end the request on calls in turn
        # once it is out (nothing after them answers their calls): they go in the same pass, so that
        # repair settles and repairing its output changes nothing.
        first = last
        while first > 0 and first - 1 not in self.skip and self.msgs[first - 1].role == "assistant" and self.msgs[first - 1].calls:
            first -= 1
        for i in range(last, first - 1, -1):
            calls = list(self.msgs[i].calls)
            names = ", ".join(f"{c.id or '(no id)'} ({tool_label(c.name)})" for c in calls)
            then = "" if i == last else " once the messages after it are taken out"
            self.take_out(i, "TC022", "the request ends on calls without results, which the target refuses",
                          f"Took message #{i}, which ends the request on unanswered call(s) {names}{then}, out into the "
                          "quarantine: the target refuses a request that ends on them (or use --set TC022=placeholder "
                          "to answer them with placeholder results).",
                          calls[0].id if len(calls) == 1 else None)
