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

**Linear time.** Patterns run on RE2 (``google-re2``), an automaton engine without
backtracking: a scan costs time proportional to the text whatever the pattern, so neither a
hostile transcript (thousands of ``-----BEGIN PRIVATE KEY-----`` headers with no END) nor a
user's ``(a+)+$`` can hold the server. RE2 has no look-around or back-references: the built-in
patterns consume one boundary character instead of looking behind and check the rest in Python;
a user pattern that needs them is refused with a sentence saying so. Lines and columns are
counted in one pass over the sorted matches.

Extra patterns come from ``INSPECTOR_REDACT_PATTERNS`` / ``INSPECTOR_REDACT_PATTERNS_FILE`` (see
``inspector.config``) or from the caller. A pattern with a group named ``secret`` masks only that
group (``password=(?P<secret>\\w+)`` keeps ``password=``); otherwise the whole match is masked.
This module is pure: no I/O beyond reading the environment in ``from_env``.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Callable, Iterable, Sequence

import orjson
import re2

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


@dataclass(frozen=True)
class Secret:
    """One place where a secret was found.

    ``start``/``end`` are offsets into the file's decoded text (for a string written with escapes,
    those of the whole string literal); ``line``/``column`` are 1-based. ``around`` is the
    secret's string value near it, with every secret in that value already masked.
    """

    kind: str
    start: int
    end: int
    line: int
    column: int
    preview: str  # a few characters and the length; never the whole secret
    around: str = field(default="", repr=False, compare=False)
    # where to mask: the string literal's byte span in the file and the secret's byte span in its value
    token: tuple[int, int] = field(default=(0, 0), repr=False, compare=False)
    span: tuple[int, int] = field(default=(0, 0), repr=False, compare=False)

    @property
    def mask(self) -> str:
        return f"[REDACTED {self.kind}]"


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


_BUILTIN = [(kind, _compile(p)) for kind, p in BUILTIN]


@dataclass(frozen=True)
class Redactor:
    """A compiled set of patterns; build one with ``Redactor.from_env()`` or ``Redactor.build(extra)``."""

    patterns: tuple[_Pattern, ...]

    @classmethod
    def build(cls, extra: Iterable[str] = ()) -> "Redactor":
        compiled = [_Pattern(kind, rx, rx.groupindex.get(b"secret"), True) for kind, rx in _BUILTIN]
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
        """Every secret in the JSON (or JSON Lines) ``data``, in file order."""
        data = bytes(data)
        parts = _STRING.split(data)  # [gap, literal, gap, literal, ..., gap]
        offsets = list(accumulate(map(len, parts), initial=0))
        literals = parts[1::2]
        # A literal followed by ":" is an object key: masking keys could merge two of them.
        keys = [g.lstrip()[:1] == b":" for g in parts[2::2]]
        del parts
        values = _values(literals, keys)
        joined = _SEP.join(values)
        starts = list(accumulate((len(v) + 1 for v in values), initial=0))
        hits: dict[int, list[tuple[int, int, str]]] = {}
        for pattern in self.patterns:
            for i, found in _matches(pattern, joined, starts, values).items():
                hits.setdefault(i, []).extend(found)
        return _locate(data, literals, offsets, values, hits)

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
    for m in pattern.rx.finditer(joined):
        s, e = m.span()
        if pattern.secret is not None and m.start(pattern.secret) >= 0:
            s, e = m.span(pattern.secret)
        i = bisect_right(starts, s) - 1
        if not pattern.builtin:
            j = bisect_right(starts, max(m.start(), m.end() - 1)) - 1
            first = bisect_right(starts, m.start()) - 1
            if j != first or m.end() > starts[first] + len(values[first]):
                again.update(range(first, j + 1))
                continue
        if e <= s or e > starts[i] + len(values[i]):
            continue
        accept = ACCEPT.get(pattern.kind) if pattern.builtin else None
        if accept is not None and not accept(joined[s:e]):
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


def _locate(data: bytes, literals, offsets, values, hits) -> list[Secret]:
    """Turn per-value matches into ``Secret``s with file line/column, in one pass over the file."""
    secrets: list[Secret] = []
    pos = char = 0  # a byte offset in ``data`` and the character offset it corresponds to
    line, line_char = 1, 0  # current line and the character offset where it starts
    for i in sorted(hits):
        kept: list[tuple[int, int, str]] = []
        for s, e, kind in sorted(hits[i], key=lambda h: (h[0], -h[1])):
            if kept and s < kept[-1][1]:
                continue  # overlapping matches keep the earliest, then longest
            kept.append((s, e, kind))
        value, literal = values[i], literals[i]
        a = offsets[2 * i + 1]
        token = (a, a + len(literal))
        plain = b"\\" not in literal
        masked, mask_at = _masked_value(value, kept)
        for (s, e, kind), (ms, me) in zip(kept, mask_at):
            at, end = (a + 1 + s, a + 1 + e) if plain else token
            nl = data.rfind(b"\n", pos, at)
            if nl >= 0:
                line += data.count(b"\n", pos, nl + 1)
                line_char = char + len(data[pos:nl + 1].decode("utf-8", "surrogateescape"))
            char += len(data[pos:at].decode("utf-8", "surrogateescape"))
            pos = at
            width = len(data[at:end].decode("utf-8", "surrogateescape"))
            secret = value[s:e].decode("utf-8", "replace")
            around = " ".join(masked[max(0, ms - 40): me + 40].split())
            secrets.append(Secret(kind, char, char + width, line, char - line_char + 1, _preview(secret),
                                  around, token, (s, e)))
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


def _preview(secret: str) -> str:
    """Enough to recognise a secret, not enough to use it: ``sk-p…(51 chars)``."""
    head = secret[: min(4, max(1, len(secret) // 8))]
    return f"{head}…({len(secret)} chars)"


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
