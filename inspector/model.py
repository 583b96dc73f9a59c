"""Value types: the light internal view of a transcript, and (lazily) the public report.

The internal types (``Msg``, ``Call``, ``Result``, ``Issue``) are light classes (structs and slots) because a
100,000-message transcript builds hundreds of thousands of them; each keeps a reference to the raw
dict it came from, and nothing in the raw data is ever changed by checking. The public pydantic
types (``Finding``, ``Report``) live in ``inspector.report``; this module imports nothing of the
package, so that everything can import it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, TypedDict, Unpack

import msgspec

# ``Call``, ``Result`` and ``Msg`` are msgspec structs rather than plain slotted classes: a
# struct is built by C code, with no Python ``__init__`` frame, which halves the cost of making
# one (a check makes one ``Msg`` per message and one ``Call``/``Result`` per tool call). Reading
# a field costs the same as a slot; ``eq=False`` keeps comparison and hashing by identity, as
# for any object. Fields are set after construction only rarely (a struct's assignment is a
# little dearer than a slot's). ``gc=False``: the cyclic collector does not track them, which
# saves its 16-byte header on each (8 MB of a 108 MB transcript's check): they refer only to
# the raw input, ids and each other downwards (a message to its calls), never in a cycle.


class Call(msgspec.Struct, eq=False, gc=False):
    """One tool call inside a message. ``id`` is None when absent (id-less dialects, or TC008)."""

    id: str | None
    name: Any
    args: Any
    pos: int  # position among the message's calls (tool_calls[j], content[j])
    msg: int  # message index


class Result(msgspec.Struct, eq=False, gc=False):
    """One reply to a call. ``legacy`` marks a ``role:"function"`` reply (paired by name)."""

    id: str | None
    name: Any
    pos: int
    msg: int
    legacy: bool = False


class Deferred:
    """The raw items of a message list read as typed structs (``dialects.openai_typed``): the
    dict of item ``i`` is built only when something asks for it (``Msg.raw``)."""

    __slots__ = ()

    def item(self, i: int) -> Any:  # pragma: no cover - the readers' own
        raise NotImplementedError

    def head(self, n: int) -> list[Any]:  # pragma: no cover - the readers' own
        """The first ``n`` items as values equal to them (detection looks at a list's head)."""
        raise NotImplementedError

    def whole(self) -> list[Any]:  # pragma: no cover - the readers' own
        """Every item, as the list the dict reading parses (for a caller that wants plain values)."""
        raise NotImplementedError


class Msg(msgspec.Struct, eq=False, gc=False):
    """A message reduced to what pairing and the rules need; ``raw`` is the untouched input."""

    index: int
    role: str  # normalised: system, user, assistant, tool, function, or the raw unknown role
    calls: Sequence[Call]  # a dialect may give an empty tuple for none
    results: Sequence[Result]
    # The input item, or a ``Deferred`` list it is built from on first use (``raw``).
    source: Any
    # True when the message carries anything besides results (text, images): a message
    # with results and other content ends a call block in "run" dialects.
    has_other: bool = True

    @property
    def raw(self) -> Any:
        """The untouched input item (a typed reading builds its dict here, the first time)."""
        s = self.source
        if isinstance(s, Deferred):
            s = self.source = s.item(self.index)
        return s


class TypedMsgs(list[Msg]):
    """The messages of a typed reading (``dialects.openai_typed``): roles system, user, assistant
    and tool only, and no key beyond that shape's, so a rule that looks for another role
    (``function``, a harness's ``exit``) or key (``reasoning_content``) has none to walk past."""

    __slots__ = ()


class _Usual:
    """The type of ``USUAL``: an issue with the target's usual provider text."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "USUAL"


USUAL = _Usual()


class IssueData(TypedDict, total=False):
    """What a finding carries besides its message, call id and other message: each key a rule
    break may have, with its type. ``Issue(..., **data)`` takes only these, and a misspelt key is
    a type error (mypy) and fails ``tests/check/test_issue_payload.py``, which reads every
    ``Issue(...)`` and every literal ``.data`` key in the package."""

    pos: int  # the call's or result's position in its message (tool_calls[j], content[j], ...)
    name: Any  # the tool name as the file has it (may be missing or not a string)
    kind: str  # which case of the rule (rules.catalogue's ``by_kind``): "mixed_turn", "missing_name", ...
    side: Literal["call", "result"]  # TC008: the id missing on a call or on a result
    value: Any  # TC008: the id value found instead
    role: Any  # the message's role (TC018, TC019, TC024: a role the dialect does not have, as found)
    prev: str | None  # TC019: the role of the message before (None: it is the first)
    field: str  # TC018: the empty field
    first: int  # TC005: the message holding the first of two results of one call
    got: str  # TC010: the type found instead of a string ("an object")
    length: int  # TC009: the id's length
    result_name: Any  # TC013: the name the result gives
    ids: list[str]  # TC025: the call ids of the message
    count: int  # TC021, TC025: how many blocks or messages
    first_call: int  # TC025: the position of the first call block
    merged: bool  # TC016, TC025: found on a turn the target combines from several messages
    item: str  # TC021: the reasoning item's id
    declared: list[str]  # TC026: the tools the request declares
    near: str | None  # TC026: the declared tool name closest to the one called
    seen: tuple[str, str | None]  # the evidence (source, date) of words given ahead (a gateway's destination)


class Issue:
    """A rule break found by a pass, before a target gives it a severity and words.

    Two typed overrides let a dialect word a finding itself: ``say`` (the rest of the sentence
    after "Message #i", for breaks the generic sentences do not know: thinking blocks, reasoning
    items, ...) and ``provider`` (the target's error text as this dialect's endpoint words it;
    None when that text is not known; ``USUAL`` keeps the target's usual text).
    """

    __slots__ = ("call_id", "code", "data", "index", "other", "provider", "say")

    def __init__(self, code: str, index: int, call_id: str | None = None, other: int | None = None,
                 say: str | None = None, **data: Unpack[IssueData]):
        self.code = code
        self.index = index
        self.call_id = call_id
        self.other = other
        self.data: IssueData = data
        self.say = say
        self.provider: str | None | _Usual = USUAL

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Issue({self.code}, #{self.index}, {self.call_id!r}, other={self.other}, {self.data})"



class Judged(msgspec.Struct, frozen=True):
    """How a transcript is judged (rules.md, "Changes of 2026-11-27"): ``model``, the model its
    request names (None: none named), and ``as_request``: a request about to be sent (it names a
    model, came through the guard, was captured as HTTP, or the user said so) rather than a log
    that simply ended; ``why`` says which, for the summary."""

    model: str | None = None
    as_request: bool = False
    why: str = ""


AS_LOG = Judged(why="a log: nothing says it is a request about to be sent")


# How a read or rule pass reports a finding (``issues.append``, or a filter in front of it).
Note = Callable[[Issue], None]
