"""Find secrets in a transcript before it is shared, show where they are, and mask them.

Transcripts carry whatever the agent saw: API keys in tool arguments, bearer tokens in logged
HTTP headers, private keys read from disk. Sharing must not spread them, so the share flow offers
to mask them first and shows a preview of what will change (kind, line and column, a few
characters of each secret, never the whole of it).

**String values, not file text.** Every pattern runs on the decoded value of each JSON string in
the file (object keys are left alone: masking two keys the same way would merge them), one string at a time, so a pattern can never match across a quote (a
custom ``password=\\S+`` stops where the value stops) and a secret written with ``\\uXXXX``
escapes is found. Masking rewrites only the strings that hold a secret, as valid JSON string
literals, so the masked file always parses; everything else (the wrapper, key order,
whitespace, JSON Lines layout, bytes that are not UTF-8) is left as it was.

**Linear time.** User patterns and the private key run on RE2 (``google-re2``), an automaton
engine without backtracking: a scan costs time proportional to the text whatever the pattern, so
neither a hostile transcript (thousands of ``-----BEGIN PRIVATE KEY-----`` headers with no END)
nor a user's ``(a+)+$`` can hold the server. RE2 has no look-around or back-references: a user
pattern that needs them is refused with a sentence saying so. The other built-ins begin with a
literal (``AKIA``, ``sk-``, ``xox``) and have no nested quantifier; they run on Python's ``re``,
whose literal search costs a fraction of a call into RE2 per match, with the boundary before a
secret checked by hand (see ``_PREFIXED``). Built-ins run on the file's bytes, where a string
without escapes is its own value; only strings with escapes are decoded. Lines and columns are
counted in one pass over the sorted matches, and the preview texts are made when read. A file
packed with keys (one every 50 bytes) scans in about a second per 10 MB
(``benchmarks/bench_hostile.py``).

Extra patterns come from ``INSPECTOR_REDACT_PATTERNS`` / ``INSPECTOR_REDACT_PATTERNS_FILE`` (see
``inspector.config``) or from the caller. A pattern with a group named ``secret`` masks only that
group (``password=(?P<secret>\\w+)`` keeps ``password=``); otherwise the whole match is masked.
This module is pure: no I/O beyond reading the environment in ``from_env``.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import Callable, Iterable, Iterator, Sequence

import orjson
import re2

from .gc_pause import gc_paused

# (kind, pattern). A pattern that must not start inside a longer word consumes one character of
# context (or the start of the value) and names the secret itself with the group ``secret``.
BUILTIN: tuple[tuple[str, str], ...] = (
    ("private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[^\x00]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
    ("API key (sk-)", r"(?:^|[^A-Za-z0-9_-])(?P<secret>sk-[A-Za-z0-9][A-Za-z0-9_-]{19,})"),
    ("AWS access key", r"(?:^|[^A-Z0-9])(?P<secret>(?:AKIA|ASIA)[A-Z0-9]{16,})"),
    ("bearer token", r"(?i:bearer)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
    ("GitHub token", r"(?:^|[^A-Za-z0-9_])(?P<secret>gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})"),
    ("Slack token", r"(?:^|[^A-Za-z0-9])(?P<secret>xox[abposr]-[A-Za-z0-9-]{10,})"),
    ("Google API key", r"(?:^|[^A-Za-z0-9_-])(?P<secret>AIza[0-9A-Za-z_-]{35})"),
)

_DIGIT = re.compile(rb"[0-9]")
# What RE2 cannot say without look-around, checked on the (maximal) run each pattern matched.
ACCEPT: dict[str, Callable[[bytes], bool]] = {
    "API key (sk-)": lambda s: _DIGIT.search(s, 3) is not None,  # "sk-learn-wrapper" is a word
    "AWS access key": lambda s: len(s) == 20,  # exactly 16 characters after the prefix
}

MAX_PATTERNS = 100  # custom patterns per scan; each one is a pass over the text
_SEP = b"\x00"  # between string values in the scanned buffer; no built-in pattern crosses it
# One JSON string literal; unrolled so that it never backtracks more than once per literal.
_STRING = re.compile(rb'("[^"\\]*(?:\\.[^"\\]*)*")', re.S)


class PatternError(ValueError):
    """A configured pattern cannot be used; the message says which one and why."""


class Secret:
    """One place where a secret was found.

    ``start``/``end`` are offsets into the file's decoded text (for a string written with escapes,
    those of the whole string literal); ``line``/``column`` are 1-based. ``preview`` is a few
    characters and the length, never the whole secret; ``around`` is the secret's string value
    near it, with every secret in that value masked. ``token`` (the string literal's byte span in
    the file) and ``span`` (the secret's byte span in its value) say where to mask. The two
    texts are made when first read: a scan of a file packed with keys makes none of them.
    """

    __slots__ = ("kind", "start", "end", "line", "column", "token", "span", "_in", "_preview", "_around")

    def __init__(self, kind: str, start: int, end: int, line: int, column: int, token: tuple[int, int],
                 span: tuple[int, int], within: "_Value"):
        self.kind, self.start, self.end, self.line, self.column = kind, start, end, line, column
        self.token, self.span, self._in = token, span, within
        self._preview = self._around = None

    @property
    def mask(self) -> str:
        return f"[REDACTED {self.kind}]"

    @property
    def preview(self) -> str:
        if self._preview is None:
            s, e = self.span
            secret = self._in.value()[s:e].decode("utf-8", "replace")
            n = len(secret)
            self._preview = f"{secret[:min(4, max(1, n // 8))]}…({n} chars)"
        return self._preview

    @property
    def around(self) -> str:
        if self._around is None:
            self._around = self._in.around(self.span)
        return self._around

    def _key(self) -> tuple:
        return self.kind, self.start, self.end, self.line, self.column, self.preview

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Secret(kind={self.kind!r}, start={self.start}, end={self.end}, line={self.line}, "
                f"column={self.column}, preview={self.preview!r})")


class _Value:
    """The string value a secret is in, shared by its secrets: read from the file when needed."""

    __slots__ = ("data", "token", "decoded", "kept", "_masked")

    def __init__(self, data: bytes, token: tuple[int, int], decoded: bytes | None, kept: list):
        self.data, self.token, self.decoded, self.kept = data, token, decoded, kept
        self._masked: tuple[str, dict] | None = None

    def value(self) -> bytes:
        if self.decoded is not None:
            return self.decoded
        a, b = self.token
        return self.data[a + 1:b - 1]

    def around(self, span: tuple[int, int]) -> str:
        if len(self.kept) == 1:  # the common case: only the bytes near the one secret are decoded
            s, e, kind = self.kept[0]
            if self.decoded is None:
                data, lo, hi = self.data, self.token[0] + 1, self.token[1] - 1
            else:
                data, lo, hi = self.decoded, 0, len(self.decoded)
            s, e = s + lo, e + lo
            before = data[max(lo, s - _AROUND_BYTES):s].decode("utf-8", "replace")[-_AROUND:]
            after = data[e:min(hi, e + _AROUND_BYTES)].decode("utf-8", "replace")[:_AROUND]
            return " ".join(f"{before}[REDACTED {kind}]{after}".split())
        if self._masked is None:  # once per value, however many secrets it holds
            masked, mask_at = _masked_value(self.value(), self.kept)
            self._masked = masked, {(s, e): at for (s, e, _), at in zip(self.kept, mask_at)}
        masked, where = self._masked
        ms, me = where[span]
        return " ".join(masked[max(0, ms - _AROUND): me + _AROUND].split())


_AROUND = 40  # characters of context on each side of a secret, in previews
_AROUND_BYTES = 4 * _AROUND + 4  # enough bytes for that many characters, and a cut one before them


def _compile(pattern: str) -> "re2._Regexp":
    options = re2.Options()
    options.log_errors = False  # RE2 would print its own copy of the error to stderr
    return re2.compile(pattern.encode("utf-8", "surrogatepass"), options)


def _compile_custom(pattern: str) -> "re2._Regexp":
    try:
        re.compile(pattern)
    except re.error as exc:
        raise PatternError(f"redaction pattern {pattern!r} is not a valid regular expression: {exc}") from None
    try:
        return _compile(pattern)
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise PatternError(
            f"redaction pattern {pattern!r} cannot be used: secrets are matched in linear time, which rules out "
            f"look-ahead, look-behind and back-references ({reason})"
        ) from None


@dataclass(frozen=True)
class _Pattern:
    kind: str
    rx: "re2._Regexp"
    secret: int | None  # the number of the group named ``secret``, when there is one
    builtin: bool
    raw: "re2._Regexp | None" = None  # built-ins: the form run on the file's own bytes (see ``_plain_hits``)


_BUILTIN = [(kind, _compile(p)) for kind, p in BUILTIN]
# On the file's bytes a match must stay inside one string literal without escapes: no built-in
# pattern matches a quote or a backslash, except the private key's body, which is kept off both
# there (a key written over several lines has \n escapes: its literal is scanned decoded).
_RAW = {kind: _compile(p.replace("[^\\x00]*?", '[^"\\\\\\x00]*?')) for kind, p in BUILTIN}
_UNANCHORED = re2._re2.RE2.Anchor.UNANCHORED


def _not_after(chars: str) -> frozenset[int]:
    return frozenset(ord(c) for c in chars)


_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
# Built-ins that begin with a literal run on Python's ``re``, whose literal-prefix search is
# several times cheaper per match than a call into RE2 (the private key's lazy body would
# backtrack there, so it stays on RE2). Each stays linear: no nested quantifier, and the
# boundary before the secret (the bytes in the set must not come right before it) is checked by
# hand. A match that fails that check is skipped whole when all its bytes belong to the set (no
# match the boundary allows can start inside it); a Slack token may hold a "-", after which
# another may start, so its pattern matches a fixed head, the search goes on from the next byte
# when the boundary fails, and the run is extended only once the head is accepted.
_PREFIXED: dict[str, tuple[re.Pattern, frozenset[int], re.Pattern | None]] = {
    "API key (sk-)": (re.compile(rb"sk-[A-Za-z0-9][A-Za-z0-9_-]{19,}"), _not_after(_ALNUM + "_-"), None),
    "AWS access key": (re.compile(rb"A(?:KIA|SIA)[A-Z0-9]{16,}"), _not_after(_ALNUM[:26] + _ALNUM[52:]), None),
    "bearer token": (re.compile(rb"(?i:bearer)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"), frozenset(), None),
    "GitHub token": (re.compile(rb"gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,}"), _not_after(_ALNUM + "_"), None),
    "Slack token": (re.compile(rb"xox[abposr]-[A-Za-z0-9-]{10}"), _not_after(_ALNUM), re.compile(rb"[A-Za-z0-9-]*")),
    "Google API key": (re.compile(rb"AIza[0-9A-Za-z_-]{35}"), _not_after(_ALNUM + "_-"), None),
}


@dataclass(frozen=True)
class Redactor:
    """A compiled set of patterns; build one with ``Redactor.from_env()`` or ``Redactor.build(extra)``."""

    patterns: tuple[_Pattern, ...]

    @classmethod
    def build(cls, extra: Iterable[str] = ()) -> "Redactor":
        compiled = [_Pattern(kind, rx, rx.groupindex.get(b"secret"), True, _RAW[kind]) for kind, rx in _BUILTIN]
        extra = list(extra)
        if len(extra) > MAX_PATTERNS:
            raise PatternError(f"{len(extra)} redaction patterns is more than the {MAX_PATTERNS} one scan runs")
        for p in extra:
            rx = _compile_custom(p)
            compiled.append(_Pattern("custom pattern", rx, rx.groupindex.get(b"secret"), False))
        return cls(tuple(compiled))

    @classmethod
    def from_env(cls, extra: Iterable[str] = ()) -> "Redactor":
        from .config import Settings

        return cls.build([*Settings.from_env().redact_patterns, *extra])

    # -- finding -----------------------------------------------------------------------------

    def scan(self, data: bytes) -> list[Secret]:
        """Every secret in the JSON (or JSON Lines) ``data``, in file order.

        Built-in patterns run on the file's bytes, where a string literal without escapes is its
        own value: only matches cost Python work, so a file is scanned at the regex engine's speed
        however many strings it has. Literals with escapes (found from their backslashes) are
        decoded and scanned as values. Custom patterns, which may match anything, run on every
        string value one by one.
        """
        # With a key every 50 bytes, collections would cost as much as the scan's (acyclic) matches.
        with gc_paused():
            return self._scan(bytes(data))

    def _scan(self, data: bytes) -> list[Secret]:
        hits: dict[tuple[int, int], list[tuple[int, int, str]]] = {}  # literal span -> matches in its value
        values: dict[tuple[int, int], bytes] = {}  # decoded values of literals with escapes
        builtin = [p for p in self.patterns if p.builtin]
        custom = [p for p in self.patterns if not p.builtin]
        escaped = _escaped_literals(data)
        firsts = [a for a, _ in escaped]
        for pattern in builtin:
            _plain_hits(pattern, data, hits, escaped, firsts)
        if escaped:
            literals = [data[a:b] for a, b in escaped]
            _scan_values(builtin, escaped, _values(literals, [False] * len(literals)), hits, values)
        if custom:
            parts = _STRING.split(data)  # [gap, literal, gap, literal, ..., gap]
            offsets = list(accumulate(map(len, parts), initial=0))
            literals = parts[1::2]
            # A literal followed by ":" is an object key: masking keys could merge two of them.
            keys = [g.lstrip()[:1] == b":" for g in parts[2::2]]
            spans = [(offsets[2 * i + 1], offsets[2 * i + 2]) for i in range(len(literals))]
            del parts, offsets
            _scan_values(custom, spans, _values(literals, keys), hits, values)
        return _locate(data, hits, values)

    def find(self, text: str) -> list[Secret]:
        """``scan`` for text already decoded (offsets are into ``text``)."""
        return self.scan(text.encode("utf-8", "surrogateescape"))

    # -- masking -----------------------------------------------------------------------------

    def mask(self, data: bytes, secrets: Sequence[Secret] | None = None) -> bytes:
        """``data`` with every secret replaced by ``[REDACTED <kind>]`` inside its string value.

        Only string literals holding a secret are rewritten, each as a valid JSON string, so the
        result parses whenever ``data`` did.
        """
        data = bytes(data)
        found = self.scan(data) if secrets is None else secrets
        by_token: dict[tuple[int, int], list[Secret]] = {}
        for s in found:
            by_token.setdefault(s.token, []).append(s)
        out, pos = [], 0
        for (a, b), group in sorted(by_token.items()):
            out += [data[pos:a], _masked_literal(data[a:b], group)]
            pos = b
        out.append(data[pos:])
        return b"".join(out)


_KEY = re.compile(rb"[ \t\r\n]*:")


def _spans(pattern: _Pattern, buf: bytes, raw: bool) -> Iterator[tuple[int, int]]:
    """The secret spans a built-in pattern finds in ``buf`` (the file's bytes when ``raw``, else
    string values joined by NUL bytes), ``ACCEPT`` applied."""
    accept = ACCEPT.get(pattern.kind)
    if pattern.kind in _PREFIXED:
        rx, before, tail = _PREFIXED[pattern.kind]
        if tail is not None:
            pos, search = 0, rx.search
            while (m := search(buf, pos)) is not None:
                s = m.start()
                if s and buf[s - 1] in before:
                    pos = s + 1
                    continue
                pos = tail.match(buf, m.end()).end()
                if accept is None or accept(buf[s:pos]):
                    yield s, pos
            return
        group = 1 if rx.groups else 0
        for m in rx.finditer(buf):
            s, e = m.span(group)
            if not ((s and buf[s - 1] in before) or (accept is not None and not accept(buf[s:e]))):
                yield s, e
        return
    # RE2 called directly: its match objects cost more than the search
    match, g, n = (pattern.raw if raw else pattern.rx)._regexp.Match, pattern.secret, len(buf)
    pos = 0
    while pos <= n:
        spans = match(_UNANCHORED, buf, pos, n)
        s0, e0 = spans[0]
        if s0 < 0:
            return
        pos = e0 if e0 > s0 else e0 + 1
        s, e = spans[g] if g is not None and spans[g][0] >= 0 else (s0, e0)
        if e > s and (accept is None or accept(buf[s:e])):
            yield s, e


def _plain_hits(pattern: _Pattern, data: bytes, hits: dict, escaped: list[tuple[int, int]], firsts: list[int]) -> None:
    """Matches of a built-in pattern in the file's bytes that lie in a string value without
    escapes (keys and literals with ``escaped`` spans are left to the other passes)."""
    kind = pattern.kind
    lit: tuple[int, int] | None = None  # the literal of the last match, found once for all its matches
    ok = False
    for s, e in _spans(pattern, data, True):
        if firsts:
            k = bisect_right(firsts, s) - 1
            if k >= 0 and s < escaped[k][1]:
                continue  # scanned decoded
        if lit is None or not lit[0] < s < lit[1]:
            lit, ok = _plain_literal(data, s, e)
        if ok and e < lit[1]:
            hits.setdefault(lit, []).append((s - lit[0] - 1, e - lit[0] - 1, kind))


def _plain_literal(data: bytes, s: int, e: int) -> tuple[tuple[int, int], bool]:
    """The span between the quotes around bytes ``s:e`` (quotes included), and whether it is a
    string value without escapes (not a key; in JSON, letters only occur in strings). The span
    is returned either way, so that the other matches in it are decided at once."""
    a = data.rfind(b'"', 0, s)
    b = data.find(b'"', e)
    if a < 0 or b < 0:
        return (s, s), False
    ok = data[a - 1:a] != b"\\" and data.find(b"\\", a, b) < 0 and not _KEY.match(data, b + 1)
    return (a, b + 1), ok


def _escaped_literals(data: bytes) -> list[tuple[int, int]]:
    """Spans of the string values that hold escapes, found from their backslashes (which JSON
    only has inside strings): the quote before one that is not itself escaped opens its literal."""
    out: list[tuple[int, int]] = []
    p = data.find(b"\\")
    while p >= 0:
        a = data.rfind(b'"', 0, p)
        while a > 0 and data[a - 1] == 92 and _escaped(data, a):
            a = data.rfind(b'"', 0, a)
        b = data.find(b'"', p)
        while b >= 0 and data[b - 1] == 92 and _escaped(data, b):
            b = data.find(b'"', b + 1)
        if a < 0 or b < 0:
            break
        if not _KEY.match(data, b + 1):
            out.append((a, b + 1))
        p = data.find(b"\\", b + 1)
    return out


def _escaped(data: bytes, q: int) -> bool:
    """True when the quote at ``q`` follows an odd run of backslashes."""
    k = q
    while k > 0 and data[k - 1] == 92:
        k -= 1
    return (q - k) % 2 == 1


def _scan_values(patterns: list[_Pattern], spans: list[tuple[int, int]], vals: list[bytes], hits: dict,
                 values: dict) -> None:
    """Run ``patterns`` on decoded string values (joined, one pass each); hits by literal span."""
    joined = _SEP.join(vals)
    starts = list(accumulate((len(v) + 1 for v in vals), initial=0))
    for pattern in patterns:
        for i, found in _matches(pattern, joined, starts, vals).items():
            span = spans[i]
            hits.setdefault(span, []).extend(found)
            values[span] = vals[i]


def _values(literals: list[bytes], keys: list[bool]) -> list[bytes]:
    """The UTF-8 value of each JSON string literal (raw bytes when it has no escapes); b"" for keys."""
    values = [b"" if k else t[1:-1] for t, k in zip(literals, keys)]
    escaped = [i for i, t in enumerate(literals) if not keys[i] and b"\\" in t]
    if not escaped:
        return values
    try:  # one C call for all of them; lone surrogates (\ud800) make orjson refuse
        decoded = orjson.loads(b"[" + b",".join(literals[i] for i in escaped) + b"]")
    except orjson.JSONDecodeError:
        decoded = [_decode_literal(literals[i]) for i in escaped]
    for i, s in zip(escaped, decoded):
        values[i] = s.encode("utf-8", "surrogatepass") if isinstance(s, str) else values[i]
    return values


def _decode_literal(literal: bytes) -> str | None:
    try:
        return json.loads(literal.decode("utf-8", "surrogateescape"))
    except ValueError:
        return None


def _matches(pattern: _Pattern, joined: bytes, starts: list[int], values: list[bytes]) -> dict[int, list]:
    """Matches of one pattern, per string value: ``{value index: [(start, end, kind)]}``.

    The values are scanned joined (one pass); a custom pattern's match that runs from one value
    into the next is not a match in either, so those values are scanned again one by one.
    """
    found: dict[int, list[tuple[int, int, str]]] = {}
    again: set[int] = set()
    if pattern.builtin:
        kind = pattern.kind
        for s, e in _spans(pattern, joined, False):
            i = bisect_right(starts, s) - 1
            if e <= starts[i] + len(values[i]):
                found.setdefault(i, []).append((s - starts[i], e - starts[i], kind))
        return found
    for m in pattern.rx.finditer(joined):
        s, e = m.span()
        if pattern.secret is not None and m.start(pattern.secret) >= 0:
            s, e = m.span(pattern.secret)
        i = bisect_right(starts, s) - 1
        j = bisect_right(starts, max(m.start(), m.end() - 1)) - 1
        first = bisect_right(starts, m.start()) - 1
        if j != first or m.end() > starts[first] + len(values[first]):
            again.update(range(first, j + 1))
            continue
        if e <= s or e > starts[i] + len(values[i]):
            continue
        found.setdefault(i, []).append((s - starts[i], e - starts[i], pattern.kind))
    for i in again:
        found.pop(i, None)
        for m in pattern.rx.finditer(values[i]):
            s, e = m.span()
            if pattern.secret is not None and m.start(pattern.secret) >= 0:
                s, e = m.span(pattern.secret)
            if e > s:
                found.setdefault(i, []).append((s, e, pattern.kind))
    return found


def _locate(data: bytes, hits: dict, values: dict) -> list[Secret]:
    """Turn per-literal matches into ``Secret``s with file line/column, in one pass over the file."""
    secrets: list[Secret] = []
    add = secrets.append
    ascii_only = data.isascii()  # then a character offset is the byte offset
    pos = char = 0  # a byte offset in ``data`` and the character offset it corresponds to
    line, line_char = 1, 0  # current line and the character offset where it starts
    for token in sorted(hits):
        found = hits[token]
        if len(found) == 1:
            kept = found
        else:
            kept = []
            for s, e, kind in sorted(found, key=lambda h: (h[0], -h[1])):
                if kept and s < kept[-1][1]:
                    continue  # overlapping matches keep the earliest, then longest
                kept.append((s, e, kind))
        a, b = token
        value = values.get(token)
        plain = value is None
        within = _Value(data, token, None if plain else value, kept)
        for s, e, kind in kept:
            at, end = (a + 1 + s, a + 1 + e) if plain else token
            nl = data.rfind(b"\n", pos, at)
            if nl >= 0:
                line += data.count(b"\n", pos, nl + 1)
                line_char = (nl + 1) if ascii_only else char + len(data[pos:nl + 1].decode("utf-8", "surrogateescape"))
            char = at if ascii_only else char + len(data[pos:at].decode("utf-8", "surrogateescape"))
            pos = at
            width = (end - at) if ascii_only else len(data[at:end].decode("utf-8", "surrogateescape"))
            add(Secret(kind, char, char + width, line, char - line_char + 1, token, (s, e), within))
    return secrets


def _masked_value(value: bytes, kept: list[tuple[int, int, str]]) -> tuple[str, list[tuple[int, int]]]:
    """The value with every kept match masked, and where each mask sits in it (for previews)."""
    out, at, pos, n = [], [], 0, 0
    for s, e, kind in kept:
        before = value[pos:s].decode("utf-8", "replace")
        mask = f"[REDACTED {kind}]"
        out += [before, mask]
        n += len(before)
        at.append((n, n + len(mask)))
        n += len(mask)
        pos = e
    out.append(value[pos:].decode("utf-8", "replace"))
    return "".join(out), at


def _masked_literal(literal: bytes, group: Sequence[Secret]) -> bytes:
    """A JSON string literal with the secrets in its value masked; still a valid literal."""
    if b"\\" not in literal:  # raw bytes are the value: splice, keep every other byte as it was
        value, pieces, pos = literal[1:-1], [b'"'], 0
        for s in sorted(group, key=lambda s: s.span):
            pieces += [value[pos:s.span[0]], s.mask.encode()]
            pos = s.span[1]
        pieces += [value[pos:], b'"']
        return b"".join(pieces)
    text = _decode_literal(literal)
    if text is None:
        return literal
    value, pieces, pos = text.encode("utf-8", "surrogatepass"), [], 0
    for s in sorted(group, key=lambda s: s.span):
        pieces += [value[pos:s.span[0]], s.mask.encode()]
        pos = s.span[1]
    pieces.append(value[pos:])
    masked = b"".join(pieces).decode("utf-8", "surrogatepass")
    try:
        return json.dumps(masked, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate stays an escape
        return json.dumps(masked).encode("ascii")


def context(text: str, secret: Secret, width: int = 40) -> str:
    """The secret's string value around it, with every secret in that value masked, on one line."""
    if secret.around:
        return secret.around
    before = text[max(0, secret.start - width): secret.start]
    after = text[secret.end: secret.end + width]
    return " ".join(f"{before}{secret.mask}{after}".split())


def find_secrets(data: bytes, extra: Iterable[str] = ()) -> list[Secret]:
    """Secrets in ``data`` using the built-in and configured patterns plus ``extra``."""
    return Redactor.from_env(extra).scan(data)


def redact(data: bytes, extra: Iterable[str] = ()) -> tuple[bytes, list[Secret]]:
    """``(masked bytes, what was masked)`` using the built-in and configured patterns plus ``extra``."""
    r = Redactor.from_env(extra)
    found = r.scan(data)
    return r.mask(data, found), found


class MaskingError(ValueError):
    """Masking would change what the file says beyond the secrets: it is not shared."""


def check_masked(original: bytes, masked: bytes) -> None:
    """Raise ``MaskingError`` unless ``masked`` still reads as the same transcripts as ``original``.

    Masking only rewrites string values, so the file always parses; but a custom pattern can
    match a role or a type ("user", "tool_use") and a share that no longer opens is worse than no
    share. Checked before a link is shown.
    """
    from .errors import InputError
    from .loading import load

    before = load(original)
    try:
        after = load(masked)
    except InputError as exc:
        raise MaskingError(f"the masked transcript no longer reads ({exc}); a pattern matched more than a secret") from None
    shape = [(t.path, len(t.items)) for t in before.transcripts]
    if after.format != before.format or [(t.path, len(t.items)) for t in after.transcripts] != shape:
        raise MaskingError("masking changed the transcript's structure (a pattern matched a role or a type, not a secret)")
