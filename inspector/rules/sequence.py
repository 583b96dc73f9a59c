"""Rules over the whole sequence that hold in every dialect: id uniqueness and format. They run
after pairing because they walk its call blocks. (The rules only one format has, such as role
order, tool output sent as user text or reasoning state, are that dialect's ``rules``.)"""

from __future__ import annotations

import re

from ..lazy_patterns import lazy
from ..model import Issue, Msg
from ..pairing import Pairing

# Id formats per target (rules.md TC009). A target absent here checks no format.
MISTRAL_ID = lazy(r"[a-zA-Z0-9]{9}")
ANTHROPIC_ID = lazy(r"[a-zA-Z0-9_-]{1,64}")
# rules.md note 1: La Plateforme took other ids in a live probe of 2026-10-04, self-hosted servers do not.
MISTRAL_SAYS = ("has tool call id {}, which is not nine letters and digits. La Plateforme accepted such ids in a live probe "
                "of 2026-10-04; self-hosted mistral-common and vLLM's Mistral tokenizer still refuse them.")
ID_LIMITS = {"openai": 40, "deepseek": 40, "responses": 64}


def id_rule(target: str) -> tuple[int | None, re.Pattern[str] | None]:
    """The target's id format: a length limit, a pattern, or neither (None)."""
    pattern = MISTRAL_ID if target == "mistral" else ANTHROPIC_ID if target in ("anthropic", "bedrock") else None
    return ID_LIMITS.get(target), pattern


def id_format_ok(cid: str, target: str) -> bool:
    """True when ``cid`` fits the target's id format (length and charset)."""
    limit, pattern = id_rule(target)
    return not ((limit is not None and len(cid) > limit) or (pattern is not None and not pattern.fullmatch(cid)))


def sequence_issues(msgs: list[Msg], pairing: Pairing, target: str) -> list[Issue]:
    issues: list[Issue] = []
    limit, pattern = id_rule(target)
    if pattern is None:
        # The usual history: every id once and within the length limit, settled by a set and a
        # max (loops in C) before the loop below looks at each call (3x faster on a big check).
        ids = [c.id for c in pairing.calls if c.id is not None]
        if len(set(ids)) == len(ids) and (limit is None or not ids or max(map(len, ids)) <= limit):
            return issues
    note = issues.append
    first_msg_of: dict[str, int] = {}  # id -> first message with a call of that id
    last_msg_of: dict[str, int] = {}  # id -> last message with a call of that id
    # ``id_format_ok`` inlined below: this loop sees every call of the transcript
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
                iss = Issue("TC009", c.msg, cid, None, name=c.name, pos=c.pos, length=len(cid))
                if target == "mistral":
                    iss.say = MISTRAL_SAYS.format(cid)
                note(iss)
    return issues

