"""The typed reading of OpenAI Chat Completions: msgspec decodes the bytes straight into structs.

The common Chat Completions document, a message list of system, user, assistant and tool
messages with string (or null) contents and ``function`` tool calls, is decoded here into the
structs below (no other key anywhere, each field of its one type; any difference is a decode
error), and ``read`` builds the neutral view (``Msg``, ``Call``, ``Result``) from them with no dict
per message. A message's dict is built only when something asks for it (``Msg.raw``: a
finding's hint, a loop's result text): ``TypedItems`` is the transcript's item list, each item
parsed from its own text on first use (so its keys keep the file's order), the whole list only
when a door wants all of it.

Everything else (another key, a content part list, a number anywhere, a repeated key, an escape
that may hide a lone surrogate or a colon) is not decoded here (``document`` gives None) and goes
the dict way, which reads all of it. The reading of a document that decodes here is the dict
reading's exactly: ``openai_chat.normalize`` on the dicts notes the same issues and builds the same
view (tests/test_typed_reading.py holds the two equal over generated and mutated documents at
every door).

The same structs serve the dataset scan's clean proof (``inspector.clean_proof``): ``Record`` is
one fine-tuning line, ``{"messages": [...], "tools": [...]}``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import Any, Literal, overload

import msgspec
import orjson

from ..lazy_patterns import compiled
from ..model import Call, Deferred, Issue, Msg, Result, TypedMsgs
from .base import NAME_RE

UNSET = msgspec.UNSET
_re = compiled  # patterns compiled on first use, not on import
Unset = msgspec.UnsetType
_NULL = msgspec.Raw(b"null")  # (a Raw equals a Raw, never bytes)


class Function(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    name: str
    arguments: str


class ToolCall(msgspec.Struct, forbid_unknown_fields=True, gc=False, kw_only=True):
    id: str
    type: Literal["function"] | Unset = UNSET  # (in the order the SDKs write them: ``_fits`` compares)
    function: Function


# A content is kept as its JSON text (``msgspec.Raw``, a view into the input: no string is made
# for it); ``document`` admits only a string or null there.
class System(msgspec.Struct, tag_field="role", tag="system", forbid_unknown_fields=True, gc=False):
    content: msgspec.Raw | Unset = UNSET


class User(msgspec.Struct, tag_field="role", tag="user", forbid_unknown_fields=True, gc=False):
    content: msgspec.Raw | Unset = UNSET


class Assistant(msgspec.Struct, tag_field="role", tag="assistant", forbid_unknown_fields=True, gc=False):
    content: msgspec.Raw | Unset = UNSET
    tool_calls: list[ToolCall] | None | Unset = UNSET


class Tool(msgspec.Struct, tag_field="role", tag="tool", forbid_unknown_fields=True, gc=False):
    tool_call_id: str
    content: msgspec.Raw | Unset = UNSET


Message = System | User | Assistant | Tool


class FunctionDef(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    name: str
    description: str = ""
    parameters: msgspec.Raw = msgspec.Raw(b"{}")  # JSON Schema: validated as JSON, never decoded
    strict: bool | None = None


class ToolDef(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    type: Literal["function"]
    function: FunctionDef


class Record(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """One fine-tuning example: its messages and the tools it declares."""

    messages: list[Message]
    tools: list[ToolDef] | None = None


decode_record = msgspec.json.Decoder(Record).decode
_decode_list = msgspec.json.Decoder(list[Message]).decode
_decode_str = msgspec.json.Decoder(str).decode
# What msgspec raises on bytes it does not decode as the typed shape: not JSON, not that shape, not
# UTF-8 (``UnicodeDecodeError`` is a ``ValueError``), nested past the interpreter's recursion.
NOT_DECODED = (msgspec.MsgspecError, ValueError, RecursionError)


def content_is_text(raw: msgspec.Raw | Unset) -> bool:
    """True for a content that is a JSON string (not null, missing, parts or a number)."""
    return type(raw) is msgspec.Raw and len(raw) > 0 and memoryview(raw)[0] == 0x22  # '"'


def text_or_null(raw: msgspec.Raw | Unset) -> bool:
    """True for a content that is a JSON string, null or missing."""
    return raw is UNSET or raw == _NULL or content_is_text(raw)


def decode_text(raw: msgspec.Raw) -> str:
    """The string a JSON string content holds."""
    return _decode_str(raw)


def read_record(text: bytes) -> Record | None:
    """One fine-tuning line read as a ``Record``, or None when it is not that shape (or holds an
    escape that may be a lone surrogate, which the general path's parser refuses: it says so)."""
    if _suspect(text):
        return None
    try:
        return decode_record(text)
    except NOT_DECODED:
        return None


def _content(raw: msgspec.Raw | Unset) -> Any:
    """A content's value as the dict reading has it (None for null)."""
    return None if type(raw) is not msgspec.Raw or raw == _NULL else _decode_str(raw)


def _call_dict(c: ToolCall) -> dict[str, Any]:
    d: dict[str, Any] = {"id": c.id}
    if c.type is not UNSET:
        d["type"] = c.type
    d["function"] = {"name": c.function.name, "arguments": c.function.arguments}
    return d


def as_dict(m: Message) -> dict[str, Any]:
    """The dict the dict reading has for one message (equal to it; its keys in the structs' order)."""
    t = type(m)
    d: dict[str, Any] = {"role": "system" if t is System else "user" if t is User else
                         "assistant" if t is Assistant else "tool"}
    if t is Tool:
        d["tool_call_id"] = m.tool_call_id  # type: ignore[union-attr]
    if m.content is not UNSET:
        d["content"] = _content(m.content)
    if t is Assistant and m.tool_calls is not UNSET:  # type: ignore[union-attr]
        tc = m.tool_calls  # type: ignore[union-attr]
        d["tool_calls"] = None if tc is None else [_call_dict(c) for c in tc]
    return d


_decode_spans = msgspec.json.Decoder(list[msgspec.Raw]).decode
_decode_any = msgspec.json.Decoder().decode


_MADE_APART = 1000  # items parsed one by one before the rest are parsed in one go


class TypedItems(Deferred, Sequence[Any]):
    """A message list read as structs, seen as the list of dicts the dict reading has: item ``i``
    is parsed from its own text the first time it is asked for (the same dict every time, with
    the file's keys in the file's order), and the whole list only when all of it is.

    The reading (``read``) uses the structs up: it takes them (``take_structs``) and lets each go
    once its message is read, so that the neutral view replaces them rather than doubles them (the
    check's peak memory); whatever asks for them after that has them decoded again from the bytes."""

    __slots__ = ("_first", "_held", "_len", "_made", "_spans", "_whole", "clean", "data")

    def __init__(self, structs: list[Message] | None, data: bytes, *, length: int = 0,
                 first: list[Message] | None = None) -> None:
        # the structs, until a reading takes them (a list: ``pop`` takes them in one step); none for
        # a list read in pieces (``document``), whose structs were let go slice by slice
        self._held = [] if structs is None else [structs]
        self._len = length if structs is None else len(structs)
        self._first = first or []  # the first structs (up to ``_FIRST_KEPT``) of a list read in pieces
        self.data = data
        self._made: dict[int, Any] = {}
        self._spans: list[msgspec.Raw] | None = None
        self._whole: list[Any] | None = None
        # ``clean_proof.messages_clean`` of the list (no tools list, the default loop options), when
        # the reading proved it (``document``'s ``watch``); None when not known
        self.clean: bool | None = None

    @property
    def structs(self) -> list[Message]:
        """Every message as its struct (decoded again from the bytes once a reading took them)."""
        if not self._held:
            self._held.append(_decode_list(self.data))
        return self._held[0]

    @property
    def structs_held(self) -> bool:
        """True while the structs are held (not yet taken, nor read in pieces and let go)."""
        return bool(self._held)

    def take_structs(self) -> list[Message]:
        """The structs, for a reading that uses them up: this list no longer holds them (two
        readings at once never take the same list: ``pop`` is one step)."""
        try:
            return self._held.pop()
        except IndexError:
            return _decode_list(self.data)

    def head(self, n: int) -> list[dict[str, Any]]:
        """The first ``n`` items, equal to the file's (made from the structs, for a look at a list's
        head, such as recognising its container)."""
        first = self._first if not self._held and (n <= len(self._first) or len(self._first) == self._len) else self.structs
        return [as_dict(m) for m in first[:n]]

    def item(self, i: int) -> Any:
        if self._whole is not None:
            return self._whole[i]
        d = self._made.get(i)
        if d is None:
            if len(self._made) >= _MADE_APART:  # a door walking the list (repair, fit): all at once is cheaper
                return self.whole()[i]
            if self._spans is None:
                self._spans = _decode_spans(self.data)
            d = self._made[i] = _decode_any(self._spans[i])
        return d

    def whole(self) -> list[Any]:
        """Every item, as the dict reading parses the file (the items already made kept as they are)."""
        if self._whole is None:
            whole = _decode_any(self.data)
            for i, d in self._made.items():
                whole[i] = d
            self._whole, self._spans = whole, None
            self._made.clear()
        return self._whole

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self.item(k) for k in range(*i.indices(self._len))]
        n = self._len
        if not -n <= i < n:
            raise IndexError(i)
        return self.item(i % n if i < 0 else i)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.whole())

    def __bool__(self) -> bool:
        return self._len > 0


# An escaped colon (which the count of colons would miss) or a surrogate escape, of which a lone
# one (which orjson refuses: ``_LONE``) sends the text the dict reading's way, to say so.
_SUSPECT_ESCAPE = (rb"\\u(?:[dD][89a-fA-F]|003[aA])")
_COLON_ESCAPE = (rb"\\u003[aA]")
_LONE = (
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _suspect(text: bytes) -> bool:
    """True when ``text`` escapes a colon or holds a lone surrogate escape (surrogate pairs, as
    ``json.dumps`` writes every emoji, are read here). An escaped backslash before a ``u`` may look
    like an escape to these patterns: the dict reading then reads the text, which costs only time."""
    return _re(_SUSPECT_ESCAPE).search(text) is not None and (
        _re(_COLON_ESCAPE).search(text) is not None or _re(_LONE).search(text) is not None)
_TEXT_STARTS = frozenset(b'"n')  # the first byte of a JSON string, and of null


def _texts(contents: list[msgspec.Raw], joined: bytes) -> bool:
    """True when every content (``joined``: them end to end) is a JSON string or null, by its first
    byte (each content is one JSON value, never empty): the bytes at their starts, picked in C."""
    starts = itemgetter(*accumulate(map(len, contents[:-1]), initial=0))(joined)
    return starts in _TEXT_STARTS if len(contents) == 1 else _TEXT_STARTS.issuperset(starts)


def _fits(structs: list[Message], data: bytes, written: bool = False) -> bool:
    """True when every content is a string or null (content parts and numbers are the dict
    reading's) and ``data`` has exactly the colons the structs account for (one per key, and those
    inside their strings): a repeated key, which the decode keeps only the last of, adds one
    (the dict reading names it). A few passes in C over lists, not a loop per message.
    ``written``: ``data`` is the structs' own write-back (``_encode``), so no key is repeated."""
    return _fits_as(structs, data, written or _written_back(structs, data))


def _fits_as(structs: list[Message], data: bytes, exact: bool) -> bool:
    """``_fits``, ``exact`` saying whether ``data`` is the structs' own write-back (compact JSON).

    The escapes ``_suspect`` looks for: in a write-back, every string but a content is msgspec's
    own writing (which escapes neither a colon nor a surrogate; msgspec refuses a lone surrogate
    escape in a string it decodes), so only the contents, copied as they are, are looked at, and
    only when they hold a backslash at all; else the whole text is."""
    if not exact and _suspect(data):
        return False
    contents = [m.content for m in structs if m.content is not UNSET]
    colons = 0
    for k in range(0, len(contents), _JOINED):  # a slice at a time, let go before the next: no copy of them all
        some = contents[k:k + _JOINED]
        joined = b"".join(some)
        if not _texts(some, joined):
            return False
        if exact:
            if b"\\" in joined and _suspect(joined):  # (``in`` is memchr)
                return False
        elif b":" in joined:  # (``in`` is memchr: most contents hold none)
            colons += joined.count(b":")
    if exact:
        return True
    tools = [m.tool_call_id for m in structs if type(m) is Tool]
    lists = [m.tool_calls for m in structs if type(m) is Assistant and m.tool_calls is not UNSET]
    calls = [c for tc in lists if tc for c in tc]
    fns = [c.function for c in calls]
    typed = sum([c.type is not UNSET for c in calls])
    keys = len(structs) + len(contents) + len(tools) + len(lists) + 4 * len(calls) + typed
    strings = [*tools, *[c.id for c in calls], *[f.name for f in fns], *[f.arguments for f in fns]]
    for k in range(0, len(strings), _JOINED):
        text = "".join(strings[k:k + _JOINED])
        colons += text.count(":") if ":" in text else 0
    return keys + colons == data.count(b":")


def _written_back(structs: list[Message], data: bytes) -> bool:
    """True when ``data`` is the structs' own write-back (``_encode``: compact, in the SDKs' key
    order), whitespace after it aside: that text has no repeated key and nothing else the decode
    dropped, whatever its colons. Compared ``_COMPARED`` messages at a time (no copy of the whole
    text), stopping at the first slice that differs (an indented file pays for one slice)."""
    if data[:1] != b"[":
        return False
    pos = 1
    for k in range(0, len(structs), _COMPARED):
        if k:
            if data[pos:pos + 1] != b",":
                return False
            pos += 1
        inner = _encode(structs[k:k + _COMPARED])[1:-1]
        if not data.startswith(inner, pos):
            return False
        pos += len(inner)
    return data[pos:pos + 1] == b"]" and not data[pos + 1:].strip()


_COMPARED = 1024  # messages written back at once to compare with the text
_JOINED = 4096  # contents or strings joined at once to count their colons
# Below this, a request body's message list is found in it as its structs' write-back
# (``request_parts``); above it, the copy would cost memory.
_WRITTEN_BACK = 1 << 20
_encode = msgspec.json.Encoder().encode


def document(data: bytes, watch: Callable[[list[Message]], bool] | None = None) -> TypedItems | None:
    """The message list ``data`` holds, read as structs, when it is a top-level array of the typed
    shape that the dict reading would read to the same values with nothing lost; else None (the
    dict reading then reads it, and says what it says).

    ``watch`` (the clean proof, ``clean_proof.Proof.feed``) is given the structs a slice at a
    time, in order: while it says True, a file of more than ``_FIRST_PIECE`` bytes is read in
    pieces (``_in_pieces``) and each slice of structs let go once watched, so that only one slice
    lives beside the bytes (the check's peak memory); once it says False, the whole list is read
    and held, for the general reading."""
    if data[:1] != b"[":
        return None
    if watch is not None and len(data) > _FIRST_PIECE:
        items = _in_pieces(data, watch)
        if items is not None:
            return items
    try:
        structs = _decode_list(data)
    except NOT_DECODED:
        return None
    if not _fits(structs, data):
        return None  # content parts, a number, a repeated key: the dict reading's
    return TypedItems(structs, data)


# Where one message ends and the next begins, ``}, {"role":``: outside any string (in a string a
# quote is escaped), and so between two messages of a message list of the typed shape (only a
# message has a "role" key). The pieces are only decoded as the file's own: were a cut anywhere
# else, its piece would not decode, and the whole file is read as one.
_CUT = rb'\}(\s*,\s*)\{\s*"role"\s*:'
_FIRST_PIECE = 1 << 16  # bytes of the first piece (a broken file is most often seen so in its first)
_PIECE = 1 << 20  # bytes of the biggest piece (each twice the one before)
_FIRST_KEPT = 1000  # structs kept from the first pieces, for a look at the list's head (``head``)


def _in_pieces(data: bytes, watch: Callable[[list[Message]], bool]) -> TypedItems | None:
    """``document`` of ``data`` read a piece of about ``_PIECE`` bytes at a time, cut between two
    messages: each piece (``[`` its messages ``]``) decoded into structs, proved to read the file
    exactly (``_fits_as``) and watched, then let go. ``[p1,p2,...]`` is the whole text, so when every
    ``[pk]`` decodes, the whole decodes to their messages in turn: the structs are those of the
    whole. None when a piece does not decode or fit or ``watch`` says False: the whole is then read
    as one (which says the same of a piece that does not fit). Once a piece is not the structs'
    own write-back (an indented file), the next ones are not compared with theirs (``_fits_as``)."""
    cut = _re(_CUT)
    view = memoryview(data)
    first: list[Message] = []
    start, size, count, end = 0, _FIRST_PIECE, 0, len(data)
    compact = True
    while start < end:
        m = cut.search(data, start + size) if start + size < end else None
        stop, after = (m.start(1), m.end(1)) if m is not None else (end, end)
        if m is None and not start:
            return None  # no cut: the whole is one piece
        piece = b"".join((b"[" if start else b"", view[start:stop], b"]" if m is not None else b""))
        try:
            structs = _decode_list(piece)
        except NOT_DECODED:
            return None
        compact = compact and _written_back(structs, piece)
        if not _fits_as(structs, piece, compact) or not watch(structs):
            return None
        count += len(structs)
        if len(first) < _FIRST_KEPT:
            first += structs[:_FIRST_KEPT - len(first)]
        del structs, piece
        start, size = after, min(2 * size, _PIECE)
    return TypedItems(None, data, length=count, first=first)


class _Body(msgspec.Struct, gc=False):
    """A request body as far as its message list: the list's JSON text (every other key is read,
    as JSON, by the dict reading)."""

    messages: msgspec.Raw


class _TypedBody(msgspec.Struct, gc=False):
    """A request body as far as its message list, read as structs."""

    messages: list[Message]


_decode_body = msgspec.json.Decoder(_Body).decode
_decode_typed_body = msgspec.json.Decoder(_TypedBody).decode
_HEAD = 64  # bytes of the list's text looked for in the body


def request_parts(data: bytes) -> tuple[bytes, TypedItems] | None:
    """A Chat Completions request body (``{"model": ..., "messages": [...], ...}``) cut in two:
    the body with its message list written ``[]`` (the dict reading reads the rest: ``model``,
    ``tools``, ``tool_choice``, ``thinking``, whatever the rules ask for), and the list read as
    structs (``document``). None when the body is not an object with a ``messages`` list of the
    typed shape whose text occurs exactly once in it (so that the cut is the list's own place;
    the caller checks that the rest's ``messages`` is that ``[]``).

    One decode when the list is written as its structs write it back (compact, in the SDKs' key
    order): that text, found once in the body, is the list's; else the list's text is found by a
    decode of its own and read by ``document``."""
    if data[:1] != b"{":
        return None
    try:
        structs = _decode_typed_body(data).messages
    except NOT_DECODED:
        return None
    span = _encode(structs) if len(data) < _WRITTEN_BACK else b""
    at = _once(data, span)
    if at >= 0:
        if not _fits(structs, span, written=True):
            return None
        items = TypedItems(structs, span)
    else:
        try:
            span = bytes(_decode_body(data).messages)
        except NOT_DECODED:
            return None
        at = _once(data, span)
        found = document(span) if at >= 0 else None
        if found is None:
            return None
        items = found
    return data[:at] + b"[]" + data[at + len(span):], items


def _once(data: bytes, span: bytes) -> int:
    """Where the array ``span`` is in ``data`` when its first bytes occur there exactly once
    (a short needle is found fast), else -1."""
    head = span[:_HEAD]
    at = data.find(head) if span[:1] == b"[" else -1
    return at if at >= 0 and data.find(head, at + 1) < 0 and data.startswith(span, at) else -1


def read(items: TypedItems, where: tuple[Any, ...], issues: list[Issue]) -> TypedMsgs:
    """``openai_chat.normalize`` of a typed message list: the same messages and the same issues,
    from the structs (the dicts are not made), which it uses up: each is let go once read. The
    list is a ``TypedMsgs``: the rules that look for a role or key this shape has not skip it.

    (On Python 3.11 ``out.append(x)`` is a specialised instruction and a method bound to a local,
    ``add = out.append``, is not: the lists are called by their methods here.)"""
    structs = items.take_structs()
    structs.reverse()  # (taken from the end: ``pop`` lets each go)
    out = TypedMsgs()
    names_ok: set[str] = set()
    prev: str | None = None
    loads, bad_json = orjson.loads, orjson.JSONDecodeError
    msg, result, call, tool, assistant, unset, null = Msg, Result, Call, Tool, Assistant, UNSET, _NULL  # (locals: faster)
    for i in range(len(structs)):
        m = structs.pop()
        t = type(m)
        if t is tool:
            cid = m.tool_call_id  # type: ignore[union-attr]
            if cid and cid != "null":
                res = (result(cid, None, 0, i),)
            else:
                issues.append(Issue("TC008", i, None, side="result", value=cid))
                res = (result(None, None, 0, i),)
            content = m.content
            if content is unset or content == null:
                issues.append(Issue("TC018", i, cid or None, field="content", role="tool"))
            out.append(msg(i, "tool", (), res, items, False))
            if prev == "user":
                issues.append(Issue("TC019", i, None, i - 1, role="tool", prev="user"))
            prev = "tool"
        elif t is assistant:
            tc = m.tool_calls  # type: ignore[union-attr]
            if tc is None or tc is unset:
                content = m.content
                if content is unset or content == null:
                    issues.append(Issue("TC018", i, None, field="content", role="assistant"))
                out.append(msg(i, "assistant", (), (), items))
            else:
                if not tc:
                    issues.append(Issue("TC007", i))
                    content = m.content
                    if content is unset or content == null:
                        issues.append(Issue("TC018", i, None, field="content", role="assistant"))
                calls: list[Call] = []
                j = 0
                for c in tc:
                    fn = c.function
                    call_id: str | None = c.id
                    name, args = fn.name, fn.arguments
                    if not call_id or call_id == "null":
                        issues.append(Issue("TC008", i, None, side="call", pos=j, value=call_id, name=name))
                        call_id = None
                    if name not in names_ok:
                        if NAME_RE.fullmatch(name):
                            names_ok.add(name)
                        else:
                            issues.append(Issue("TC012", i, call_id, pos=j, name=name))
                    calls.append(call(call_id, name, args, j, i))
                    if args:
                        try:
                            loads(args)
                        except bad_json:
                            issues.append(Issue("TC011", i, call_id, pos=j, name=name))
                    j += 1  # noqa: SIM113  (a counter: 1.7% fewer instructions in the reading than enumerate's tuples)
                out.append(msg(i, "assistant", calls, (), items))
            prev = "assistant"
        else:
            role = "system" if t is System else "user"
            content = m.content
            if content is unset or content == null:
                issues.append(Issue("TC018", i, None, field="content", role=role))
            out.append(msg(i, role, (), (), items))
            if prev == "tool" and role == "user":
                issues.append(Issue("TC019", i, None, i - 1, role="user", prev="tool"))
            prev = role
    return out
