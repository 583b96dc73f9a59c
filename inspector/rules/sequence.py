"""Rules over the whole sequence: id uniqueness and format, role order, tool output sent as
user text, and reasoning state. They run after pairing because some need its answer."""

from __future__ import annotations

import re

import orjson

from ..links import Pairing
from ..model import Issue, Msg

# Id formats per target (rules.md TC009). A target absent here checks no format.
MISTRAL_ID = re.compile(r"[a-zA-Z0-9]{9}")
ANTHROPIC_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
ID_LIMITS = {"openai": 40, "deepseek": 40, "responses": 64}

# Role transitions a strict target accepts (mistral_common's validator, plus the hosted API's
# refusal of user-after-tool). Keys are the previous role.
MISTRAL_NEXT = {
    "system": {"user", "assistant", "system"},
    "user": {"assistant", "system", "user"},
    "assistant": {"assistant", "user", "tool"},
    "tool": {"assistant", "tool"},
}

OUTPUT_PREFIXES = ("observation:", "result:", "tool result", "tool output", "output:", "function result")


def id_format_ok(cid: str, target: str) -> bool:
    """True when ``cid`` fits the target's id format (length and charset)."""
    if target == "mistral":
        return MISTRAL_ID.fullmatch(cid) is not None
    if target in ("anthropic", "bedrock"):
        return ANTHROPIC_ID.fullmatch(cid) is not None
    limit = ID_LIMITS.get(target)
    return limit is None or len(cid) <= limit


def sequence_issues(msgs: list[Msg], pairing: Pairing, target: str, dialect: str) -> list[Issue]:
    issues: list[Issue] = []
    note = issues.append
    first_msg_of: dict[str, int] = {}
    check_format = target in ("mistral", "anthropic", "bedrock") or target in ID_LIMITS
    for m in msgs:
        if not m.calls:
            continue
        seen: set[str] = set()
        reused_here: set[str] = set()
        for c in m.calls:
            cid = c.id
            if cid is None:
                continue
            if cid in seen:
                note(Issue("TC006", m.index, cid, None, name=c.name, pos=c.pos))
            seen.add(cid)
            first = first_msg_of.get(cid)
            if first is None:
                first_msg_of[cid] = m.index
            elif first != m.index and cid not in reused_here:
                reused_here.add(cid)
                note(Issue("TC023", m.index, cid, first, name=c.name))
            if check_format and not id_format_ok(cid, target):
                note(Issue("TC009", m.index, cid, None, name=c.name, pos=c.pos, length=len(cid)))
    if dialect == "openai-chat":
        _role_order(msgs, note)
        _user_as_result(msgs, pairing, note)
        _reasoning(msgs, target, note)
    return issues


def _role_order(msgs: list[Msg], note) -> None:
    prev = None
    for m in msgs:
        role = "tool" if m.role == "function" else m.role
        if prev is not None and prev in MISTRAL_NEXT and role in MISTRAL_NEXT and role not in MISTRAL_NEXT[prev]:
            note(Issue("TC019", m.index, None, m.index - 1, role=role, prev=prev))
        prev = role


def text_of(raw: dict) -> str:
    """The plain text of an openai-chat message's content (string or text parts)."""
    content = raw.get("content")
    if type(content) is str:
        return content
    if type(content) is list:
        return "\n".join(p.get("text", "") for p in content if type(p) is dict and type(p.get("text")) is str)
    return ""


def looks_like_tool_output(text: str, ids: list[str], names: list[str]) -> bool:
    t = text.strip()
    if not t:
        return False
    if any(i and i in t for i in ids):
        return True
    low = t[:200].lower()
    if low.startswith(OUTPUT_PREFIXES):
        return True
    if t[0] in "{[":
        try:
            orjson.loads(t)
            return True
        except orjson.JSONDecodeError:
            pass
    return any(type(n) is str and len(n) > 3 and n in t[:500] for n in names)


def _user_as_result(msgs: list[Msg], pairing: Pairing, note) -> None:
    missing_by_msg: dict[int, list] = {}
    for c in pairing.missing:
        missing_by_msg.setdefault(c.msg, []).append(c)
    for b in pairing.blocks:
        unanswered = missing_by_msg.get(b.index)
        if not unanswered:
            continue
        nxt = b.ends + 1
        if nxt < len(msgs) and msgs[nxt].role == "user":
            text = text_of(msgs[nxt].raw)
            ids = [c.id for c in unanswered if c.id]
            names = [c.name for c in unanswered]
            if looks_like_tool_output(text, ids, names):
                c = unanswered[0]
                note(Issue("TC020", nxt, c.id, b.index, name=c.name))


def _reasoning(msgs: list[Msg], target: str, note) -> None:
    with_rc = [m for m in msgs if m.role == "assistant" and "reasoning_content" in m.raw]
    if not with_rc:
        return
    if target == "deepseek":
        # Thinking mode wants reasoning_content on every assistant message that made tool calls.
        lacking = [m for m in msgs if m.role == "assistant" and m.calls and "reasoning_content" not in m.raw]
        for m in lacking:
            note(Issue("TC021", m.index, None, None, kind="missing_reasoning"))
        if lacking:
            return
    note(Issue("TC021", with_rc[0].index, None, None, kind="reasoning_content", count=len(with_rc)))
