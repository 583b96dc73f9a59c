"""Bytes to Python values, fast, with an exact location when the bytes are not JSON.

orjson does the parsing (several times faster than ``json``). When it fails, the stdlib parser
is run on the same text only to produce the ``line L column C: reason`` users need. JSON Lines is
recognised when the whole text is not one JSON value but every non-empty line is.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import math
import sys
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import msgspec
import orjson

from .errors import InputError, PythonReprInput
from .heap import return_big_buffers
from .lazy_patterns import compiled

# The patterns below are compiled on first use: most of them serve only an error message or a
# big file, and compiling them all would cost every start of the CLI.
_re = compiled

BOM = b"\xef\xbb\xbf"
# Longest first: the UTF-32-LE mark begins with the UTF-16-LE one.
_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32-LE"), (codecs.BOM_UTF32_BE, "UTF-32-BE"), (BOM, "UTF-8"),
         (codecs.BOM_UTF16_LE, "UTF-16-LE"), (codecs.BOM_UTF16_BE, "UTF-16-BE"))


def sniff_encoding(head: bytes) -> tuple[str, int]:
    """``(encoding, length of its byte-order mark)`` from a file's first bytes.

    JSON text starts with an ASCII character, so without a mark the pattern of NUL bytes in the
    first four says UTF-16 or UTF-32 and which byte order (RFC 4627, section 3). NUL bytes
    anywhere else in the head mean a binary file: ``InputError`` before anything more is read.
    """
    for bom, name in _BOMS:
        if head.startswith(bom) and (name == "UTF-8" or _wide(head[len(bom):]) == name):
            return name, len(bom)
    wide = _wide(head)
    if wide:
        return wide, 0
    if b"\x00" in head[:4096]:
        raise InputError("this looks like a binary file, not JSON text (it contains NUL bytes)")
    return "UTF-8", 0


def _wide(head: bytes) -> str | None:
    """UTF-16 or UTF-32 (and byte order) from the NULs around a first ASCII character, or None."""
    z = [b == 0 for b in head[:4]]
    if len(z) == 4:
        if z == [True, True, True, False]:
            return "UTF-32-BE"
        if z == [False, True, True, True]:
            return "UTF-32-LE"
        if z[0] and not z[1] and z[2] and not z[3]:
            return "UTF-16-BE"
        if not z[0] and z[1] and not z[2] and z[3]:
            return "UTF-16-LE"
    return None


def decode_text(data: bytes | str) -> bytes:
    """Return UTF-8 bytes without a BOM (UTF-16 and UTF-32 are transcoded); refuse binary input."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    encoding, bom = sniff_encoding(data[:4096])
    if encoding == "UTF-8":
        return data[bom:] if bom else data
    try:
        text = data[bom:].decode(encoding.lower())
    except UnicodeDecodeError as exc:
        raise InputError(f"the file looks like {encoding} text but byte {exc.start + bom} does not decode as {encoding}") from None
    return text.encode("utf-8", "surrogatepass")


def _where(text: str, pos: int, line_offset: int = 0) -> str:
    line = text.count("\n", 0, pos) + 1 + line_offset
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line} column {col}"


def _explain(data: bytes, line_offset: int = 0) -> InputError:
    """Re-parse with the stdlib to find where and why the text is not JSON."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = _where(data[: exc.start].decode("utf-8", "replace"), exc.start)
        return InputError("the text is not valid UTF-8", where)
    if not text.strip():
        return InputError("the input is empty")
    if text.lstrip().startswith(("data:", "event:")):  # what ``curl`` saves of a streamed answer (ADK's /run_sse)
        return InputError("a Server-Sent Events stream (`data:` lines), not JSON: the inspector reads the events "
                          "themselves; save each `data:` payload as one line of a JSON Lines file and check that",
                          f"line {1 + line_offset}")
    try:
        json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        return InputError(exc.msg, f"line {exc.lineno + line_offset} column {exc.colno}")
    except RecursionError:
        return _beyond_orjson(text, line_offset)
    except ValueError as exc:  # NaN / Infinity, or an integer past Python's digit limit
        return _huge_number(text, sys.get_int_max_str_digits() + 1, line_offset) or InputError(str(exc))
    # The stdlib accepted what orjson refused: say which of orjson's limits and where.
    return _beyond_orjson(text, line_offset)


_LONE_SURROGATE = (
    r"(?<!\\)(?:\\\\)*(\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})")
_EXPONENT = r"-?[0-9]+(?:\.[0-9]+)?[eE][+-]?[0-9]+"
ORJSON_MAX_DEPTH = 1024


def _beyond_orjson(text: str, line_offset: int = 0) -> InputError:
    """Why orjson refused text the stdlib reads: a lone surrogate escape, a number that is
    infinite as a double, or nesting past orjson's 1024 levels; with the line and column."""
    m = _re(_LONE_SURROGATE).search(text)
    if m:
        return InputError(f"{m.group(1)} is half of a UTF-16 surrogate pair without its other half, "
                          "so the string is not valid Unicode", _where(text, m.start(1), line_offset))
    for m in _re(_EXPONENT).finditer(text):
        if math.isinf(float(m.group())):
            return InputError(f"the number {m.group()[:40]} is too large for a 64-bit float",
                              _where(text, m.start(), line_offset))
    huge = _huge_number(text, 309, line_offset)
    if huge is not None:
        return huge
    depth = 0
    for m in _re(_BRACKET).finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > ORJSON_MAX_DEPTH:
                return InputError(f"the JSON is nested too deeply: more than {ORJSON_MAX_DEPTH} levels, too deep to be a transcript",
                                  _where(text, m.start(), line_offset))
        elif c in "]}":
            depth -= 1
    return InputError("the JSON holds a value this reader cannot represent")


# A string literal (skipped whole) or a run of digits outside strings.
_NUMBER_RUN = r'(?s)"(?:[^"\\]|\\.)*"|(-?[0-9]+)'


def _huge_number(text: str, digits: int, line_offset: int = 0) -> InputError | None:
    """Which number (outside strings) has ``digits`` digits or more, and where (issue 22: a
    4,300-digit integer was "a value this reader cannot represent" without saying which)."""
    for m in _re(_NUMBER_RUN).finditer(text):
        run = m.group(1)
        if run and len(run.lstrip("-")) >= digits:
            return InputError(f"the number {run[:12]}… has {len(run.lstrip('-')):,} digits, too many for this reader",
                              _where(text, m.start(1), line_offset))
    return None
# A string literal (skipped whole) or a bracket: nesting depth outside strings.
_BRACKET = r'(?s)"(?:[^"\\]|\\.)*"|[\[\]{}]'


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON (found a bare {name} value)")


# Digits stay digits, everything else becomes a space: a run of 19 digits is then a plain
# substring search (both run at memory speed, unlike a regular expression over the text).
_DIGITS_AS_ZERO = bytes(48 if 48 <= c <= 57 else 32 for c in range(256))
_LONG_RUN = b"0" * 19
_RUN = rb"-?[0-9]{19,}"
_SCAN_CHUNK = 1 << 20
INT_MIN, INT_MAX = -(1 << 63), (1 << 64) - 1  # what orjson reads as an integer; beyond, a float


def _has_wide_int(data: bytes) -> bool:
    """True when ``data`` may hold an integer orjson would turn into a float (19+ digits).

    Checked in 1 MB chunks so that the digit map never copies the whole file; digit runs
    inside strings (ids, hashes) give a false alarm that costs only the exact parse.
    """
    for start in range(0, len(data), _SCAN_CHUNK):
        chunk = data[max(0, start - 20): start + _SCAN_CHUNK]
        if _LONG_RUN in chunk.translate(_DIGITS_AS_ZERO):
            for m in _re(_RUN).finditer(chunk):
                g = m.group()
                if len(g) > 24 or not INT_MIN <= int(g) <= INT_MAX:  # (int() refuses 4,300 digits and more)
                    return True
    return False


def _loads_exactly(data: bytes, notes: list[Any] | None = None, wide: bool = True) -> Any:
    """The fast parse (``_read``), but integers beyond 64 bits stay exact and duplicate object
    keys are noticed: when the parse may have lost either, the stdlib's exact parse decides, and
    appends each duplicate to ``notes`` (see ``DuplicateKey``) when a list is given.
    ``wide=False``: the caller knows there is no integer beyond 64 bits (a JSON Lines file
    scanned once)."""
    value, state = _fast_loads(data)
    if state == SUSPECT or (wide and state == AGREE and _has_wide_int(data)):
        try:
            value, dups = _exact_loads(data)
        except ValueError as exc:  # e.g. an integer longer than Python's 4300-digit limit
            raise (_huge_number(data.decode("utf-8", "replace"), sys.get_int_max_str_digits() + 1)
                   or InputError(f"a number in the file cannot be read exactly ({exc})")) from None
        if notes is not None:
            notes.extend(dups)
    return value


# -- duplicate object keys ----------------------------------------------------------------------
# orjson (like every JSON parser) keeps the last value of a repeated key and drops the others
# without a word. Noticing it must not slow the common file down, so the check compares the parse
# with the text it came from, through orjson's own write-back of the value:
# - SAME: the text is exactly that write-back (compact text, as orjson and JSON.stringify write
#   it). Parsing it again gives the same value, so nothing was dropped, and every number reads
#   as written: an integer beyond 64 bits would come back as a float, with a "." or an "e".
# - AGREE: the colon counts agree. Every key is followed by exactly one ``:`` outside strings,
#   and orjson writes every ``:`` raw, so a dropped duplicate would take at least its own colon
#   with it. Integers beyond 64 bits are still to be looked for (``_has_wide_int``).
# - SUSPECT: the counts differ, the text escapes a colon (``\u003a``, which could hide a
#   dropped one), or orjson cannot write the value back (nesting past 255 levels): the slow,
#   exact parse decides.
SAME, AGREE, SUSPECT = 0, 1, 2


def _state(raw: bytes, value: Any, exact: bool) -> int:
    """``_compare``, for a value read by ``_read``. When msgspec read it (``exact``), AGREE is
    SAME: orjson cannot write an integer beyond 64 bits, so one would have made it SUSPECT. And
    a SUSPECT text is read by orjson too, whose limits still apply (msgspec nests as deep as the
    interpreter's recursion allows; orjson refuses past 1024 levels): ``JSONDecodeError``."""
    state = _compare(raw, value)
    if exact:
        if state == AGREE:
            return SAME
        if state == SUSPECT:
            orjson.loads(raw)
    return state


def _compare(raw: bytes, value: Any) -> int:
    if type(value) is list and value and len(raw) >= WRITE_BACK_IN_PIECES:
        return _compare_list(raw, value)
    try:
        again = orjson.dumps(value)
    except TypeError:
        return SUSPECT
    if raw.startswith(again) and not raw[len(again):].strip():  # a final newline is still the same
        return SAME
    if _escapes_a_colon(raw):
        return SUSPECT
    return AGREE if again.count(b":") == raw.count(b":") else SUSPECT


# A top-level array at least this big is written back a slice of elements at a time: the
# write-back of the whole would hold a second copy of the text beside it and its parsed value
# (a third of the peak of ``inspector check`` on a 34 MB transcript).
WRITE_BACK_IN_PIECES = 1 << 20
_WRITE_BACK_BYTES = 1 << 20  # about this much write-back text at once


def _compare_list(raw: bytes, value: list[Any]) -> int:
    """``_compare`` for a non-empty array, its write-back made a slice of elements at a time:
    each slice's text (without its brackets) must follow the text before it, after a comma, for
    SAME; the colons of the slices add up to the colons of the whole write-back for AGREE."""
    same = raw[:1] == b"["
    pos = 1  # where the next slice's text must start in ``raw`` (while ``same``)
    colons = 0
    n, start, step = len(value), 0, 64
    while start < n:
        end = min(n, start + step)
        try:
            again = orjson.dumps(value[start:end])
        except TypeError:
            return SUSPECT
        colons += again.count(b":")
        if same:
            if start:
                same = raw[pos:pos + 1] == b","
                pos += 1
            body = memoryview(again)[1:-1]
            same = same and raw.startswith(body, pos)  # (memcmp; comparing memoryviews goes byte by byte)
            pos += len(body)
        # the next slice holds about _WRITE_BACK_BYTES of text, as this one's elements measure
        step = max(1, min(step * 4, (end - start) * _WRITE_BACK_BYTES // max(1, len(again))))
        start = end
    if same and raw[pos:pos + 1] == b"]" and not raw[pos + 1:].strip():  # a final newline is still the same
        return SAME
    if _escapes_a_colon(raw):
        return SUSPECT
    return AGREE if colons == raw.count(b":") else SUSPECT


def _escapes_a_colon(raw: bytes) -> bool:
    return b"\\u003" in raw and (b"\\u003a" in raw or b"\\u003A" in raw)  # one pass when there is none


# msgspec reads JSON faster than orjson (20-35% on a transcript) and keeps integers beyond 64 bits
# exact; on text it does not read (not JSON, a number out of range, nesting past the
# interpreter's recursion, bytes that are not UTF-8) orjson reads it, with its usual answers.
_msgspec_decode = msgspec.json.Decoder().decode
_UNREAD = (msgspec.DecodeError, RecursionError, ValueError)


def _read(text: bytes) -> tuple[Any, bool]:
    """The parsed value of ``text`` and whether its integers are exact (``JSONDecodeError`` when
    it is not JSON)."""
    try:
        return _msgspec_decode(text), True
    except _UNREAD:
        return orjson.loads(text), False


PIECES_FROM = 48 << 20  # a top-level array at least this big is parsed a few MB at a time
PIECE = 4 << 20
_PIECE_END = rb"[}\]][ \t\r\n]*,"
# The same cut when the next element opens an object with a key, ``{"``: inside a string a ``"``
# is escaped unless it closes the string, so this almost never falls inside one. The loose cut
# does, often, in the code and JSON that tool outputs carry (``}, `` in every other line of a
# Python file), and each such cut costs a failed parse of a whole piece.
_NEXT_OBJECT = rb'[}\]][ \t\r\n]*,(?=[ \t\r\n]*\{[ \t\r\n]*")'
_SPACE = rb"[ \t\r\n]*"  # compiled on first use (``_re``), not on every start-up


def _past_space(data: bytes, pos: int = 0) -> int:
    """The position after the whitespace at ``pos`` (``_SPACE`` matches the empty string too)."""
    m = _re(_SPACE).match(data, pos)
    assert m is not None
    return m.end()
_MAX_MISSES = 8  # cuts tried per piece


def _fast_loads(data: bytes) -> tuple[Any, int]:
    """``(value, state)``: the fast parse (``_read``), and how it compares with the text (``_compare``)."""
    if len(data) >= PIECES_FROM:
        pieces = _loads_in_pieces(data)
        if pieces is not None:
            return pieces
    value, exact = _read(data)
    return value, _state(data, value, exact)


def _loads_in_pieces(data: bytes) -> tuple[list[Any], int] | None:
    """A big top-level array parsed a few MB of elements at a time.

    orjson's write-back of the whole value (the duplicate-key check) would hold a copy of the
    text's size at once (and orjson's own parse, when msgspec refuses the text, an intermediate
    document of about 1.5 times it); parsing pieces keeps that to a few MB. A piece ends after a
    ``}`` or ``]`` followed by a comma, and it is accepted only when ``[`` + piece + ``]`` parses: a cut inside a string
    leaves that string unterminated and a cut inside a nested value leaves it unbalanced, so only
    a cut between two top-level elements parses. None (parse whole) when the text is not an array
    or no cut is found.
    """
    n = len(data)
    start = _past_space(data)
    if data[start:start + 1] != b"[":
        return None
    return_big_buffers()  # the pieces' buffers must not leave holes in the heap (see heap.py)
    mv = memoryview(data)
    out: list[Any] = []
    state = SAME  # the worst of the pieces' states
    pos = start + 1  # the first byte of the next element (or whitespace before it)
    while n - pos > PIECE + (PIECE >> 1):
        cut = _next_piece(data, mv, pos)
        if cut is None:
            if not out:
                return None  # not an array of values this can cut: parse whole
            break  # no cut found near here: the rest in one piece
        piece, values, pos, exact = cut
        state = max(state, _state(piece, values, exact))
        out.extend(values)
    rest = b"[" + mv[pos:]
    values, exact = _read(rest)  # the closing bracket is in the text; an error here is the file's own
    state = max(state, _state(rest, values, exact))
    out.extend(values)
    return out, state


def _next_piece(data: bytes, mv: memoryview, pos: int, after: int | None = None) -> tuple[bytes, list[Any], int, bool] | None:
    """``(piece, its values, where the next begins, whether its integers are exact)`` for the
    elements from ``pos`` on, cut after ``after`` (default: ``PIECE`` bytes on); None when no cut
    parses (see ``_loads_in_pieces``)."""
    start = pos + PIECE if after is None else after
    # An array of objects is cut before an object (within a piece's length); anything else, or
    # when no such cut parses, at any closing bracket and comma.
    for source, end in ((_NEXT_OBJECT, start + PIECE), (_PIECE_END, len(data))):
        pattern = _re(source)
        m, misses = pattern.search(data, start, end), 0
        while m is not None and misses < _MAX_MISSES:
            piece = b"[" + mv[pos:m.start() + 1] + b"]"
            try:
                values, exact = _read(piece)
                return piece, values, m.end(), exact
            except orjson.JSONDecodeError:
                misses += 1
                m = pattern.search(data, m.start() + 1, end)
    return None


def loads_stream(read: Callable[[int], bytes], limit: int) -> list[Any] | None:
    """A big top-level array parsed while it is read, a few MB at a time: ``_loads_in_pieces``
    without ever holding the whole text, so that the peak is the parsed value and a few MB.

    ``read(n)`` gives the next bytes of the file (empty at its end). Returns the array's values,
    read as exactly as ``parse`` would (every piece is compared with its text, and scanned for
    integers beyond 64 bits when it is not orjson's own writing). None when the caller must
    read the whole text instead: it is not UTF-8 text starting with ``[``, no cut parses, a
    piece may have lost something (a repeated key, a wide integer), the text is not JSON (the
    whole read gives the located error), or it is longer than ``limit`` bytes.
    """
    step = PIECE + (PIECE >> 1)
    buf = read(step)
    encoding, bom = sniff_encoding(buf[:4096])
    if encoding != "UTF-8":
        return None
    pos = _past_space(buf, bom)
    if buf[pos:pos + 1] != b"[":
        return None
    return_big_buffers()  # the pieces' buffers must not leave holes in the heap (see heap.py)
    pos += 1
    total, out, ended, ahead = len(buf), [], False, step
    while True:
        while not ended and len(buf) - pos < ahead:  # keep at least a piece and a half ahead
            more = read(step)
            total += len(more)
            if total > limit:
                return None
            if more:
                buf, pos = buf[pos:] + more, 0
            else:
                ended = True
        if ended and len(buf) - pos <= ahead:
            break  # the rest of the file, in one piece
        cut = _next_piece(buf, memoryview(buf), pos, max(pos + PIECE, len(buf) - step))
        if cut is None:
            if ended:
                break
            ahead *= 2  # an element longer than a piece: look further ahead for its end
            if ahead > 16 * PIECE:
                return None
            continue
        piece, values, pos, exact = cut
        if _lossy(piece, values, exact):
            return None
        out.extend(values)
        ahead = step
    rest = b"[" + buf[pos:]
    try:
        values, exact = _read(rest)
    except orjson.JSONDecodeError:
        return None
    if _lossy(rest, values, exact):
        return None
    out.extend(values)
    return out


def _lossy(text: bytes, value: Any, exact: bool) -> bool:
    """True when the parse of ``text`` may have lost something (see ``_compare``), or orjson
    refuses it (the whole read then gives the error)."""
    try:
        state = _state(text, value, exact)
    except orjson.JSONDecodeError:
        return True
    return state == SUSPECT or (state == AGREE and _has_wide_int(text))


class _Dup:
    __slots__ = ("key", "obj", "values")

    def __init__(self, obj: dict[str, Any], key: str, values: list[Any]) -> None:
        self.obj, self.key, self.values = obj, key, values


def _exact_loads(data: bytes) -> tuple[Any, list[dict[str, Any]]]:
    """The stdlib's parse: integers of any size exact, and every repeated key recorded as
    ``{"path": (...), "key": k, "values": [first, ..., last]}`` (the object keeps the last, as
    orjson would)."""
    found: list[_Dup] = []

    def pairs_hook(pairs: list[Any]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: dict[str, list[Any]] = {}
            for k, v in pairs:
                seen.setdefault(k, []).append(v)
            found.extend(_Dup(obj, k, vs) for k, vs in seen.items() if len(vs) > 1)
        return obj

    with _recursion_room(4 * ORJSON_MAX_DEPTH + 1000):
        value = json.loads(data, parse_constant=_reject_constant, object_pairs_hook=pairs_hook)
    return value, _with_paths(value, found) if found else []


def _with_paths(root: Any, found: list[_Dup]) -> list[dict[str, Any]]:
    """Each duplicate with the JSON path of the object that held it (one walk of the value)."""
    where: dict[int, tuple[Any, ...]] = {}
    wanted = {id(d.obj) for d in found}
    stack: list[tuple[Any, tuple[Any, ...]]] = [(root, ())]
    while stack and len(where) < len(wanted):
        v, path = stack.pop()
        if type(v) is dict:
            if id(v) in wanted:
                where[id(v)] = path
            stack.extend((x, (*path, k)) for k, x in v.items() if type(x) in (dict, list))
        elif type(v) is list:
            stack.extend((x, (*path, i)) for i, x in enumerate(v) if type(x) in (dict, list))
    return [{"path": (*where.get(id(d.obj), ()), d.key), "key": d.key, "values": d.values} for d in found]


def loads(data: bytes) -> Any:
    """Parse one JSON value from BOM-free UTF-8 bytes, or raise ``InputError`` with a location."""
    try:
        return _loads_exactly(data)
    except orjson.JSONDecodeError:
        raise _explain(data) from None


def parse(data: bytes | str) -> tuple[Any, str]:
    """Parse JSON or JSON Lines. Returns ``(value, "json"|"jsonl")``; JSONL gives a list of values."""
    value, fmt, _ = parse_noting(data)
    return value, fmt


class Parsed(NamedTuple):
    value: Any
    format: str  # "json" or "jsonl"
    duplicates: list[dict[str, Any]]  # see ``parse_noting``
    lines: list[int] | None  # JSON Lines: the 1-based line of the file each value came from


def parse_noting(data: bytes | str) -> tuple[Any, str, list[dict[str, Any]]]:
    """``parse``, and the duplicate object keys the parse resolved (the last value wins), each as
    ``{"path": (...), "key": k, "values": [first, ..., last]}``; for JSON Lines the path starts
    with the line's index among the values."""
    value, fmt, notes, _ = parse_document(data)
    return value, fmt, notes


def parse_document(data: bytes | str) -> Parsed:
    """``parse_noting``, and for JSON Lines the line of each value (blank lines are skipped)."""
    data = decode_text(data)
    notes: list[dict[str, Any]] = []
    if not _lines_follow_a_value(data):
        try:
            return Parsed(_loads_exactly(data, notes), "json", notes, None)
        except orjson.JSONDecodeError:
            pass
        notes.clear()
    lines = data.split(b"\n")
    nonempty = [ln for ln in lines if ln.strip()]
    if not nonempty:
        raise InputError("the input is empty")
    if len(nonempty) > 1:
        if len(nonempty) == len(lines) or (len(nonempty) == len(lines) - 1 and not lines[-1].strip()):
            numbers = list(range(1, len(nonempty) + 1))  # no blank line but perhaps the last
        else:
            numbers = [no for no, ln in enumerate(lines, 1) if ln.strip()]
        fast = _lines_at_once(nonempty, data)
        if fast is not None:
            return Parsed(fast, "jsonl", notes, numbers)
        wide = _has_wide_int(data)  # one scan of the whole text for integers beyond 64 bits, not one per line
        values = []
        first_error: tuple[int, bytes] | None = None
        for no, ln in zip(numbers, nonempty):
            here: list[dict[str, Any]] = []
            try:
                values.append(_loads_exactly(ln, here, wide))
            except orjson.JSONDecodeError:
                first_error = (no, ln)
                break
            notes.extend({**d, "path": (len(values) - 1, *d["path"])} for d in here)
        if first_error is None:
            return Parsed(values, "jsonl", notes, numbers)
        # Lines parsed before the bad one: report it as a JSON Lines error on its own line.
        if values:
            no, ln = first_error
            raise _explain(ln, line_offset=no - 1)
    raise _not_json(data)


def _lines_follow_a_value(data: bytes) -> bool:
    """True when the first line is a whole JSON value and more text follows it: then the text is
    not one JSON value (JSON holds exactly one, and no string spans lines), and the parse of the
    whole text, which fails only after reading all of it, is skipped."""
    end = data.find(b"\n")
    if end < 0 or _past_space(data, end + 1) == len(data):
        return False
    try:
        _read(data[:end])
    except orjson.JSONDecodeError:
        return False
    return True


def _lines_at_once(lines: list[bytes], data: bytes) -> list[Any] | None:
    """Every line read alone (``_read``: msgspec, else orjson), when a comparison over the whole
    text shows that nothing was lost (``_compare``, a few thousand lines at a time): the common
    JSON Lines file pays no check per line. Lines that are each exactly orjson's writing of their
    value need nothing more; otherwise one count of colons (and, when orjson read them, one scan
    for integers beyond 64 bits). None when a
    line is not JSON, or something may have been lost (then each line is read and checked on its
    own)."""
    dumps = orjson.dumps
    try:
        values, exact = [_msgspec_decode(ln) for ln in lines], True
    except _UNREAD:
        try:
            values, exact = [orjson.loads(ln) for ln in lines], False
        except orjson.JSONDecodeError:
            return None
    try:
        # Each line is orjson's writing of its value exactly when the lines joined by commas are
        # orjson's writing of the list: a valid value never starts with another one and a comma.
        if all(dumps(values[k:k + _COUNT_ITEMS]) == b"[" + b",".join(lines[k:k + _COUNT_ITEMS]) + b"]"
               for k in range(0, len(values), _COUNT_ITEMS)):
            return values
    except TypeError:
        return None
    if _escapes_a_colon(data):
        return None
    colons = 0
    try:
        for k in range(0, len(values), _COUNT_ITEMS):
            colons += dumps(values[k:k + _COUNT_ITEMS]).count(b":")
    except TypeError:  # nesting orjson cannot write, or an integer beyond 64 bits (msgspec reads them)
        return None
    if colons != data.count(b":") or (not exact and _has_wide_int(data)):
        return None
    return values


_COUNT_ITEMS = 2000


def _not_json(data: bytes) -> InputError:
    """The error for text that is not JSON: a Python repr is named as such, else line and column."""
    from .pyrepr import looks_like_repr, repr_value

    if looks_like_repr(data):
        return PythonReprInput(repr_value(data) is not None)
    return _explain(data)


def repr_to_json(data: bytes) -> bytes | None:
    """A Python repr read as JSON bytes, or None when it cannot be read safely as a plain literal."""
    from .pyrepr import repr_value

    value = repr_value(data)
    return None if value is None else dumps(value)


def dumps(value: Any, *, indent: bool = True) -> bytes:
    """Serialise like the stdlib would (key order kept, non-ASCII kept), ending in a newline."""
    opt = orjson.OPT_APPEND_NEWLINE | (orjson.OPT_INDENT_2 if indent else 0)
    try:
        return orjson.dumps(value, option=opt)  # the newline appended in place: no second copy
    except TypeError:
        # Integers beyond 64 bits, nesting past orjson's 255 levels and other values orjson
        # refuses: the stdlib can still write them (as deep as the 1024 levels a file may hold).
        with _recursion_room(4 * ORJSON_MAX_DEPTH + 1000):
            text = json.dumps(value, ensure_ascii=False, indent=2 if indent else None,
                              separators=None if indent else (",", ":"))  # as orjson writes
        return text.encode("utf-8", "surrogatepass") + b"\n"


@contextlib.contextmanager
def _recursion_room(limit: int) -> Iterator[None]:
    """Let the stdlib encoder recurse through deep (but parseable) values, then restore the limit."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)

