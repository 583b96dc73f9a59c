"""Value types: the light internal view of a transcript, and (lazily) the public report.

The internal types (``Msg``, ``Call``, ``Result``, ``Issue``) are light classes (structs and slots) because a
100,000-message transcript builds hundreds of thousands of them; each keeps a reference to the raw
dict it came from, and nothing in the raw data is ever changed by checking. The public pydantic
types (``Finding``, ``Report``) live in ``inspector.report``; this module imports nothing of the
package, so that everything can import it.
"""

from __future__ import annotations

from typing import Any

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


class Msg(msgspec.Struct, eq=False, gc=False):
    """A message reduced to what pairing and the rules need; ``raw`` is the untouched input."""

    index: int
    role: str  # normalised: system, user, assistant, tool, function, or the raw unknown role
    calls: list[Call]  # a dialect may give an empty tuple for none
    results: list[Result]
    raw: Any
    # True when the message carries anything besides results (text, images): a message
    # with results and other content ends a call block in "run" dialects.
    has_other: bool = True


class _Usual:
    """The type of ``USUAL``: an issue with the target's usual provider text."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "USUAL"


USUAL = _Usual()


class Issue:
    """A rule break found by a pass, before a target gives it a severity and words.

    Two typed overrides let a dialect word a finding itself: ``say`` (the rest of the sentence
    after "Message #i", for breaks the generic sentences do not know: thinking blocks, reasoning
    items, ...) and ``provider`` (the target's error text as this dialect's endpoint words it;
    None when that text is not known; ``USUAL`` keeps the target's usual text).
    """

    __slots__ = ("call_id", "code", "data", "index", "other", "provider", "say")

    def __init__(self, code: str, index: int, call_id: str | None = None, other: int | None = None,
                 say: str | None = None, **data: Any):
        self.code = code
        self.index = index
        self.call_id = call_id
        self.other = other
        self.data = data
        self.say = say
        self.provider: str | None | _Usual = USUAL

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Issue({self.code}, #{self.index}, {self.call_id!r}, other={self.other}, {self.data})"

