"""Value types: the light internal view of a transcript, and (lazily) the public report.

The internal types (``Msg``, ``Call``, ``Result``, ``Issue``) are plain slotted classes because a
100,000-message transcript builds hundreds of thousands of them; each keeps a reference to the raw
dict it came from, and nothing in the raw data is ever changed by checking. The public pydantic
types (``Finding``, ``Report``) live in ``inspector.report``; this module imports nothing of the
package, so that everything can import it.
"""

from __future__ import annotations

from typing import Any

class Call:
    """One tool call inside a message. ``id`` is None when absent (id-less dialects, or TC008)."""

    __slots__ = ("id", "name", "args", "pos", "msg")

    def __init__(self, id: str | None, name: Any, args: Any, pos: int, msg: int):
        self.id = id
        self.name = name
        self.args = args
        self.pos = pos  # position among the message's calls (tool_calls[j], content[j])
        self.msg = msg  # message index


class Result:
    """One reply to a call. ``legacy`` marks a ``role:"function"`` reply (paired by name)."""

    __slots__ = ("id", "name", "pos", "msg", "legacy")

    def __init__(self, id: str | None, name: Any, pos: int, msg: int, legacy: bool = False):
        self.id = id
        self.name = name
        self.pos = pos
        self.msg = msg
        self.legacy = legacy


class Msg:
    """A message reduced to what pairing and the rules need; ``raw`` is the untouched input."""

    __slots__ = ("index", "role", "calls", "results", "raw", "has_other")

    def __init__(self, index: int, role: str, calls: list, results: list, raw: Any, has_other: bool = True):
        self.index = index
        self.role = role  # normalised: system, user, assistant, tool, function, or the raw unknown role
        self.calls = calls
        self.results = results
        self.raw = raw
        # True when the message carries anything besides results (text, images): a message
        # with results and other content ends a call block in "run" dialects.
        self.has_other = has_other


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

    __slots__ = ("code", "index", "call_id", "other", "data", "say", "provider")

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

