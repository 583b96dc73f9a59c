"""Rules the non-openai dialects share: tool output sent as a user message (TC020).

``rules.sequence`` runs these for openai-chat; the other dialects call them from their
``dialect_issues`` with their own way of reading a message's text.
"""

from __future__ import annotations

from ..model import Call, Issue, Msg
from ..rules.sequence import looks_like_tool_output, text_of


def user_as_result(msgs: list[Msg], pairing, note, text=text_of) -> None:
    """TC020: a user message right after a call block whose calls have no result, that reads like
    the output of one of them."""
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


def objects(items: list, where: tuple, what: str = "a message object"):
    """``enumerate(items)``, with a located ``InputError`` for an entry that is not an object."""
    from ..containers import path_text
    from ..errors import InputError
    from .openai_chat import _type

    for i, m in enumerate(items):
        if type(m) is not dict:
            raise InputError(f"expected {what}, got {_type(m)}", f"{path_text(where)}[{i}]")
        yield i, m


def unknown_role(i: int, role, m: dict, note, **data) -> Msg:
    """TC024 for a role the dialect does not have, and the message as it stands."""
    note(Issue("TC024", i, None, role=role, **data))
    return Msg(i, role if type(role) is str else repr(role), (), (), m)


class TaggedCall(Call):
    """A call that remembers one thing its dialect's repair editor needs and the neutral view
    has no slot for: the Responses item type (``custom_tool_call``, ...) or the LangChain
    serialization shape of its message."""

    __slots__ = ("tag",)

    def __init__(self, id, name, args, pos: int, msg: int, tag: str):
        self.id = id
        self.name = name
        self.args = args
        self.pos = pos
        self.msg = msg
        self.tag = tag
