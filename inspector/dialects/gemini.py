"""Gemini ``contents``: ``functionCall`` parts in a ``model`` turn, ``functionResponse`` parts in
the next turn.

Ids are optional in Gemini (``functionCall.id`` / ``functionResponse.id``); without them a
response pairs with a call of its block by name and position (``pairing`` does this for id-less
results). A transcript that uses ids on some parts and not on others gets TC008 (info). The REST
API's camelCase and the Python SDK's snake_case keys are both read. ``thoughtSignature`` is checked
for the current turn when the model uses signatures at all (TC021).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..containers import path_text
from ..errors import InputError
from ..lazy_patterns import lazy
from ..model import Call, Issue, Msg, Note, Result
from .base import Block, Dialect, Samples, no_name, objects, unknown_role, user_as_result
from .base import type_name as _type
from .editing import BlockEditor, Raw

if TYPE_CHECKING:
    from ..pairing import Pairing

# FunctionDeclaration.name: starts with a letter or underscore; letters, digits, _ . : -; at most 64.
NAME_RE = lazy(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}")
ROLES = {"user": "user", "model": "assistant", "function": "user"}


def detect(items: list[Any]) -> int:
    for m in items[:50]:
        if type(m) is dict and type(m.get("parts")) is list:
            return 3
    return 0


def _get(p: dict[str, Any], camel: str, snake: str) -> Any:
    v = p.get(camel)
    return p.get(snake) if v is None else v


def normalize(items: list[Any], where: tuple[Any, ...], issues: list[Issue]) -> list[Msg]:
    """The neutral view of ``items``; shape issues are appended to ``issues``."""
    out: list[Msg] = []
    add = out.append
    note = issues.append
    idless: list[tuple[int, int, str, object]] = []  # (msg, pos, side, name) of parts without id
    with_id = False
    names_ok: set[Any] = set()  # call names already found valid: names repeat, the regex need not
    for i, m in objects(items, where, "a content object"):
        raw_role = m.get("role", "user")  # the API takes a missing role as the user's
        role = ROLES.get(raw_role) if type(raw_role) is str else None
        if role is None:
            add(unknown_role(i, raw_role, m, note))
            continue
        parts = m.get("parts")
        if not parts and (parts is None or type(parts) is list):
            note(Issue("TC018", i, None, role=raw_role, say=f"({raw_role}) has no parts."))
            add(Msg(i, role, (), (), m))
            continue
        if type(parts) is not list:
            raise InputError(f"'parts' must be an array, got {_type(parts)}", f"{path_text(where)}[{i}].parts")
        calls: list[Call] = []
        results: list[Result] = []
        other = False
        for j, p in enumerate(parts):
            if type(p) is not dict:
                raise InputError(f"expected a part object, got {_type(p)}", f"{path_text(where)}[{i}].parts[{j}]")
            # ``_get`` and ``_id`` written out: this loop sees every part of the transcript
            fc = p.get("functionCall")
            if fc is None:
                fc = p.get("function_call")
            if type(fc) is dict:
                cid = fc.get("id")
                if type(cid) is not str or not cid:
                    cid = None
                name = fc.get("name")
                if cid is None:
                    idless.append((i, j, "call", name))
                else:
                    with_id = True
                if type(name) is not str or name not in names_ok:
                    if type(name) is str and NAME_RE.fullmatch(name):
                        names_ok.add(name)
                    else:
                        note(no_name(Issue("TC012", i, cid, pos=j, name=name)))
                calls.append(Call(cid, name, fc.get("args"), j, i))
                continue
            fr = p.get("functionResponse")
            if fr is None:
                fr = p.get("function_response")
            if type(fr) is dict:
                cid = fr.get("id")
                if type(cid) is not str or not cid:
                    cid = None
                if cid is None:
                    idless.append((i, j, "result", fr.get("name")))
                else:
                    with_id = True
                results.append(Result(cid, fr.get("name"), j, i))
                continue
            other = True
        if calls and results:
            note(mixed_call_response(i, results[0].id, results[0].pos))
        add(Msg(i, role, calls, results, m, other))
    if with_id:
        for i, j, side, name in idless:
            note(Issue("TC008", i, None, side="call" if side == "call" else "result", pos=j, name=name))
    return out


# Recorded refusal (googleapis/python-genai#81: a text, a function_call and a function_response
# part passed as one user content): a turn may not mix function calls and function responses.
MIXED_CALL_RESPONSE = ("Please ensure that function call turn contains at least one function_call part which can "
                       "not be mixed with function_response parts.")


def mixed_call_response(i: int, rid: str | None, pos: int) -> Issue:
    """TC019 for a content that holds function call and function response parts together."""
    iss = Issue("TC019", i, rid, pos=pos, kind="mixed_call_response",
                say="mixes function call parts and function response parts in one content; the calls belong "
                    "in a model turn and their responses in the turn after it.")
    iss.provider = MIXED_CALL_RESPONSE
    return iss


def text(raw: Any) -> str:
    """The text of a content: its ``text`` parts, and each function response as JSON."""
    parts = raw.get("parts") if type(raw) is dict else None
    if type(parts) is not list:
        return ""
    out = []
    for p in parts:
        if type(p) is dict:
            if type(p.get("text")) is str:
                out.append(p["text"])
            else:
                fr = _get(p, "functionResponse", "function_response")
                if type(fr) is dict:
                    out.append(json.dumps(fr.get("response"), ensure_ascii=False))
    return "\n".join(x for x in out if x)


def call_turns(msgs: list[Msg], note: Note) -> None:
    """TC019 for a function call turn that does not follow a user turn or a function response turn."""
    prev = None
    for m in msgs:
        if m.calls and m.role == "assistant" and (prev is None or prev.role == "assistant"):
            note(Issue("TC019", m.index, None, None if prev is None else prev.index, role="model",
                       prev="model" if prev is not None else None,
                       say="is a function call turn that does not follow a user turn or a function response turn."))
        prev = m


# The count check (google-gemini/gemini-cli#3814; microsoft/vscode#299295, 2026-03-04).
RESPONSE_COUNT_TEXT = ("Please ensure that the number of function response parts is equal to the number of function "
                       "call parts of the function call turn.")


def surplus_responses(msgs: list[Msg], found: list[Issue]) -> None:
    """A function response without its call (TC002), or a second one for a call (TC005), in the turn
    right after a function call turn that makes more responses than calls breaks Gemini's count
    check: the finding takes the count words (kind ``response_count``, an error)."""
    for iss in found:
        if iss.code in ("TC002", "TC005") and 0 < iss.index < len(msgs) and msgs[iss.index].index == iss.index:
            prev, m = msgs[iss.index - 1], msgs[iss.index]
            if prev.role == "assistant" and prev.calls and len(m.results) > len(prev.calls):
                iss.data["kind"] = "response_count"
                if iss.code == "TC002":
                    iss.provider = RESPONSE_COUNT_TEXT
                iss.say = (f"brings its turn to {len(m.results)} function responses for the {len(prev.calls)} function "
                           "calls of the turn before it: Gemini wants as many responses as calls.")


def _signed(p: dict[str, Any]) -> bool:
    return bool(_get(p, "thoughtSignature", "thought_signature"))


# The Gemini API's words (gptel#1146, 2026-06-01; Antigravity-Manager#3202, 2026-06-22); it goes on
# with "Additional data, function call `default_api:NAME` , position N. Please refer to ...", whose
# position is not reproduced here.
THOUGHT_SIGNATURE_TEXT = ("Function call is missing a thought_signature in functionCall parts. This is required for "
                          "tools to work correctly, and missing thought_signature may lead to degraded model "
                          "performance.")


def signatures(msgs: list[Msg], note: Note) -> None:
    """Gemini 3 wants the first ``functionCall`` part of each step of the current turn signed.

    Only checked when some part carries a signature (a model that does not think never sends one),
    and only for the current turn: the model turns after the last user turn that is not just
    function responses."""
    used = False
    start = 0
    for m in msgs:
        if m.role == "user" and not m.results:
            start = m.index + 1
        if not used and type(parts := m.raw.get("parts")) is list:
            for p in parts:  # a loop, not ``any``, and the keys tested first: this sees every part
                if type(p) is dict and ("thoughtSignature" in p or "thought_signature" in p) and _signed(p):
                    used = True
                    break
    if not used:
        return
    for m in msgs[start:]:
        if m.calls and m.role == "assistant":
            first = m.raw["parts"][m.calls[0].pos]
            if not _signed(first):
                c = m.calls[0]
                iss = Issue("TC021", m.index, c.id, pos=c.pos, name=c.name, kind="thought_signature",
                            say=f"has a function call ({c.name}, part {c.pos}) without the thoughtSignature the model "
                                "gave it; Gemini 3 refuses the current turn's calls without it (enforced since "
                                "2026-01-30, reports to 2026-09).")
                iss.provider = THOUGHT_SIGNATURE_TEXT
                note(iss)


# --- repair --------------------------------------------------------------------------------------


class GeminiEditor(BlockEditor):
    """Raw edits on Gemini contents: results are ``functionResponse`` parts of the next turn."""

    KEY = "parts"
    ASSISTANT = "model"
    CALLS_TO_MODEL = True

    def is_result(self, part: Any) -> bool:
        return type(part) is dict and ("functionResponse" in part or "function_response" in part)

    def is_call(self, part: Any) -> bool:
        return type(part) is dict and ("functionCall" in part or "function_call" in part)

    def text_block(self, text: str) -> Raw:
        return {"text": text}

    def sign_call(self, raw: Any, call: Call, signature: str) -> Any | None:
        parts = self._blocks(raw)
        p = parts[call.pos] if call.pos < len(parts) else None
        if type(p) is not dict or _signed(p):
            return None
        parts[call.pos] = {**p, "thoughtSignature": signature}
        return {**raw, "parts": parts}

    def result_block(self, call: Call, call_id: str | None, text: str, error: bool) -> Raw:
        fr: dict[str, Any] = {"name": call.name, "response": {"error" if error else "output": text}}
        if call_id:
            fr["id"] = call_id
        return {"functionResponse": fr}

    def _key(self, part: dict[str, Any], camel: str, snake: str) -> str:
        return camel if camel in part else snake

    def with_call_id(self, part: Raw, new_id: str) -> Raw:
        k = self._key(part, "functionCall", "function_call")
        return {**part, k: {**part[k], "id": new_id}}

    def with_result_id(self, part: Raw, new_id: str) -> Raw:
        k = self._key(part, "functionResponse", "function_response")
        return {**part, k: {**part[k], "id": new_id}}

    def has_id_slot(self, raw: Any, call: Call) -> bool:
        return False  # Gemini ids are optional: repair never invents them


class Gemini(Dialect):
    """Gemini ``contents`` (REST camelCase and Python SDK snake_case)."""

    name = "gemini"
    targets = ("gemini",)
    tool_fields = frozenset({"functionCall", "functionResponse", "function_call", "function_response"})
    block = Block.NEXT
    editor_class = GeminiEditor
    samples = Samples(
        clean=[{"role": "user", "parts": [{"text": "Weather in Paris?"}]},
               {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]},
               {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"temp": "18C"}}}]},
               {"role": "model", "parts": [{"text": "It is 18C in Paris."}]}],
        broken=[{"role": "user", "parts": [{"text": "Weather in Paris?"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]},
                {"role": "user", "parts": [{"text": "Never mind."}]},
                {"role": "model", "parts": [{"text": "OK."}]}],
    )

    detect = staticmethod(detect)
    read = staticmethod(normalize)

    def rules(self, msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
        """Call-turn placement (TC019), tool output sent as user text (TC020), thought signatures (TC021)."""
        issues: list[Issue] = []
        note = issues.append
        call_turns(msgs, note)
        surplus_responses(msgs, pairing.issues)
        user_as_result(msgs, pairing, note, self.text)
        signatures(msgs, note)
        return issues

    def names_list(self, key: str | None, request: Mapping[str, Any] | None, target: str | None) -> bool:
        """A body's ``contents`` is a Gemini request's, even of plain role messages only."""
        return key == "contents"

    def result_failed(self, raw: Any, result_id: Any) -> bool:
        """A ``functionResponse`` (of this id, when it has one) whose ``response`` holds an ``error``."""
        parts = raw.get("parts") if type(raw) is dict else None
        for p in parts if type(parts) is list else ():
            fr = p.get("functionResponse") if type(p) is dict else None
            if type(fr) is not dict:
                continue
            resp = fr.get("response")
            if type(resp) is dict and resp.get("error") not in (None, "", {}) and (
                    result_id is None or fr.get("id") in (None, result_id)):
                return True
        return False

    text = staticmethod(text)


DIALECT = Gemini()
