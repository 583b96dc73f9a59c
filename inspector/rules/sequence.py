"""Rules over the whole sequence: id uniqueness and format, tool output sent as user text, and
reasoning state. They run after pairing because some need its answer. (openai-chat's role
order, TC019, is checked while the messages are read: it needs only the previous role.)"""

from __future__ import annotations

import re

import orjson

from ..links import Pairing
from ..model import Issue, Msg

# Id formats per target (rules.md TC009). A target absent here checks no format.
MISTRAL_ID = re.compile(r"[a-zA-Z0-9]{9}")
ANTHROPIC_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
ID_LIMITS = {"openai": 40, "deepseek": 40, "responses": 64}

OUTPUT_PREFIXES = ("observation:", "result:", "tool result", "tool output", "output:", "function result")


def id_rule(target: str) -> tuple[int | None, re.Pattern[str] | None]:
    """The target's id format: a length limit, a pattern, or neither (None)."""
    pattern = MISTRAL_ID if target == "mistral" else ANTHROPIC_ID if target in ("anthropic", "bedrock") else None
    return ID_LIMITS.get(target), pattern


def id_format_ok(cid: str, target: str) -> bool:
    """True when ``cid`` fits the target's id format (length and charset)."""
    limit, pattern = id_rule(target)
    return not ((limit is not None and len(cid) > limit) or (pattern is not None and not pattern.fullmatch(cid)))


def sequence_issues(msgs: list[Msg], pairing: Pairing, target: str, dialect: str) -> list[Issue]:
    issues: list[Issue] = []
    note = issues.append
    first_msg_of: dict[str, int] = {}  # id -> first message with a call of that id
    last_msg_of: dict[str, int] = {}  # id -> last message with a call of that id
    limit, pattern = id_rule(target)  # inlined below: this loop sees every call of the transcript
    for b in pairing.blocks:
        for c in b.calls:
            cid = c.id
            if cid is None:
                continue
            last = last_msg_of.get(cid)
            if last is None:
                first_msg_of[cid] = c.msg
            elif last == c.msg:
                note(Issue("TC006", c.msg, cid, None, name=c.name, pos=c.pos))
            else:
                note(Issue("TC023", c.msg, cid, first_msg_of[cid], name=c.name, pos=c.pos))
            last_msg_of[cid] = c.msg
            if (limit is not None and len(cid) > limit) or (pattern is not None and not pattern.fullmatch(cid)):
                note(Issue("TC009", c.msg, cid, None, name=c.name, pos=c.pos, length=len(cid)))
    if dialect == "openai-chat":
        user_as_result(msgs, pairing, note)
        _reasoning(msgs, target, note)
        if target == "mistral":
            # Mistral's roles are system, user, assistant and tool: OpenAI's "developer" is unknown there.
            for m in msgs:
                if m.role == "system" and m.raw.get("role") == "developer":
                    note(Issue("TC024", m.index, None, role="developer"))
    return issues


# Role transitions mistral_common accepts (keys: the previous role); the hosted API also
# refuses user after tool. openai-chat checks this inline while reading (see openai_chat.py);
# dialects that read into openai-chat roles (langchain) use ``_role_order``.
MISTRAL_NEXT = {
    "system": {"user", "assistant", "system"},
    "user": {"assistant", "system", "user"},
    "assistant": {"assistant", "user", "tool"},
    "tool": {"assistant", "tool"},
}
_BAD_PAIRS = frozenset((a, b) for a in MISTRAL_NEXT for b in MISTRAL_NEXT if b not in MISTRAL_NEXT[a])


def _role_order(msgs: list[Msg], note) -> None:
    roles = ["tool" if m.role == "function" else m.role for m in msgs]
    for k, pair in enumerate(zip(roles, roles[1:]), 1):
        if pair in _BAD_PAIRS:
            note(Issue("TC019", k, None, k - 1, role=pair[1], prev=pair[0]))


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


def user_as_result(msgs: list[Msg], pairing: Pairing, note, text=text_of) -> None:
    """TC020: a user message right after a call block whose calls have no result, that reads
    like the output of one of them. ``text`` reads a raw message's text (dialects differ)."""
    missing_by_msg: dict[int, list] = {}
    for c in pairing.missing:
        missing_by_msg.setdefault(c.msg, []).append(c)
    for b in pairing.blocks:
        unanswered = missing_by_msg.get(b.index)
        if not unanswered:
            continue
        nxt = b.ends + 1
        if nxt < len(msgs) and msgs[nxt].role == "user" and not msgs[nxt].results:
            ids = [c.id for c in unanswered if c.id]
            names = [c.name for c in unanswered]
            if looks_like_tool_output(text(msgs[nxt].raw), ids, names):
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
