"""Pieces the non-openai dialects share: reading loops, unknown roles, tagged calls, and the
TC020 rule (``rules.sequence.user_as_result``, called with each dialect's way of reading text).
"""

from __future__ import annotations

from ..model import Call, Issue, Msg, Result
from ..rules.sequence import user_as_result  # noqa: F401  (re-exported for the dialects)


def block_call(i: int, j: int, cid, name, args, note) -> Call:
    """A call read from content block ``j`` of message ``i`` (anthropic ``tool_use``, bedrock
    ``toolUse``): TC008 when its id is missing, TC012 when its name is not a valid tool name."""
    from .openai_chat import NAME_RE, _bad_id

    if _bad_id(cid):
        note(Issue("TC008", i, None, side="call", pos=j, value=cid, name=name))
        cid = None
    if type(name) is not str or not NAME_RE.fullmatch(name):
        note(Issue("TC012", i, cid, pos=j, name=name, missing=name is None))
    return Call(cid, name, args, j, i)


def block_result(i: int, j: int, tid, note) -> Result:
    """A result read from content block ``j`` of message ``i``: TC008 when its id is missing."""
    from .openai_chat import _bad_id

    if _bad_id(tid):
        note(Issue("TC008", i, None, side="result", pos=j, value=tid))
        tid = None
    return Result(tid, None, j, i)


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
