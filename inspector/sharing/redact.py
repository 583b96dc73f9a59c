"""Find secrets in a transcript before it is shared, show where they are, and mask them.

Transcripts carry whatever the agent saw: API keys in tool arguments, bearer tokens in logged
HTTP headers, private keys read from disk. Sharing must not spread them, so the share flow offers
to mask them first and shows a preview of what will change (kind, line and column, a few
characters of each secret, never the whole of it).

**Strings, not file text.** The file is read as the reader reads it (``_text_of``: UTF-16 and
UTF-32 transcoded, a byte-order mark set aside), and every pattern runs on the decoded value of
each JSON string in it, object keys included for the built-in kinds (a masked key gets a number, so that two keys never
merge), one string at a time, so a pattern can never match across a quote (a custom
``password=\\S+`` stops where the value stops) and a secret written with ``\\uXXXX`` escapes is
found. JSON text inside a string (a HAR body, an OTel attribute) is decoded once more
(``_unnest``), and its secrets are masked where they are written. Masking rewrites only the
strings that hold a secret, as valid JSON string literals, so the masked file always parses;
everything else (the wrapper, key order, whitespace, JSON Lines layout, bytes that are not UTF-8)
is left as it was.

**Linear time.** User patterns and the private key run on RE2 (``google-re2``), an automaton
engine without backtracking: a scan costs time proportional to the text whatever the pattern, so
neither a hostile transcript (thousands of ``-----BEGIN PRIVATE KEY-----`` headers with no END)
nor a user's ``(a+)+$`` can hold the server. RE2 has no look-around or back-references: a user
pattern that needs them is refused with a sentence saying so. The other built-ins begin with a
literal (``AKIA``, ``sk-``, ``xox``) and have no nested quantifier; they run on Python's ``re``
(see ``_FAST``), whose literal search and ``split`` cost a fraction of a call into RE2 per match.
Built-ins run on the file's bytes, where a string without escapes is its own value; only strings
with escapes are decoded. **No Python step per secret** where it can be helped: a file packed
with keys (one every 50 bytes) is hostile too. The quotes around each match, whether its string
is a value, and its line and column are found by ``map`` over C methods (``bytes.rfind``,
``bytes.count``, ``accumulate``), each reading only the bytes since the match before; what is
found is kept as columns (``_Columns``), and a ``Secret`` is a row of them, its preview texts
made when read. Such a file scans in well under a second per 10 MB (``benchmarks/bench_hostile.py``).

Extra patterns come from ``INSPECTOR_REDACT_PATTERNS`` / ``INSPECTOR_REDACT_PATTERNS_FILE`` (see
``inspector.sharing.config``) or from the caller. A pattern with a group named ``secret`` masks only that
group (``password=(?P<secret>\\w+)`` keeps ``password=``); otherwise the whole match is masked.
This module is pure: no I/O beyond reading the environment in ``from_env``.
"""

from __future__ import annotations

import base64
import codecs
import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, compress, repeat
from operator import add, and_, eq, ge, getitem, gt, is_not, itemgetter, lt, ne, neg, sub
from typing import Any

import orjson
import re2

from ..gc_pause import gc_paused

# (kind, pattern). A pattern that must not start inside a longer word consumes one character of
# context (or the start of the value) and names the secret itself with the group ``secret``.
#
# Sources: the kinds after "Google API key" follow gitleaks' rules (config/gitleaks.toml, MIT
# licence, Copyright (c) 2019 Zachary Rice; read 2026-11-25: stripe-access-token, jwt,
# huggingface-access-token, huggingface-organization-api-token, private-key), rewritten for RE2
# and for string values: a boundary character instead of ``\b``, no quote or backslash matched.
# A private key is masked from its BEGIN line to its END line, or, when the END line is missing
# (a truncated tool output), over the base64 and header lines after BEGIN; PGP's "PRIVATE KEY
# BLOCK" included. Where a secret is known only from the name beside it (a cookie's value, a
# password in a URL, an AWS secret access key), the name is part of the pattern.
_PEM_END = r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
BUILTIN: tuple[tuple[str, str], ...] = (
    ("private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[^\x00]*?" + _PEM_END
     + r"|(?:[\t\n\r ]*(?:[A-Za-z-]+: [^\x00-\x1f\"\\]*|[A-Za-z0-9+/=]{16,}))+)"),
    ("API key (sk-)", r"(?:^|[^A-Za-z0-9_-])(?P<secret>sk-[A-Za-z0-9][A-Za-z0-9_-]{19,})"),
    ("AWS access key", r"(?:^|[^A-Z0-9])(?P<secret>(?:AKIA|ASIA)[A-Z0-9]{16,})"),
    ("bearer token", r"(?i:bearer)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
    ("GitHub token", r"(?:^|[^A-Za-z0-9_])(?P<secret>gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})"),
    ("Slack token", r"(?:^|[^A-Za-z0-9])(?P<secret>xox[abposr]-[A-Za-z0-9-]{10,})"),
    ("Google API key", r"(?:^|[^A-Za-z0-9_-])(?P<secret>AIza[0-9A-Za-z_-]{35})"),
    ("Stripe key", r"(?:^|[^A-Za-z0-9_])(?P<secret>(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,})"),
    ("JWT", r"(?:^|[^A-Za-z0-9_-])(?P<secret>ey[A-Za-z0-9]{17,}\.ey[A-Za-z0-9/_-]{17,}\.(?:[A-Za-z0-9/_-]{10,}={0,2})?)"),
    ("Hugging Face token", r"(?:^|[^A-Za-z0-9_])(?P<secret>(?:hf_|api_org_)[A-Za-z]{34,})"),
    ("AWS secret access key", (r"(?i:aws_?secret_?access_?key|secret_?access_?key)[\x01\"' \t]{0,3}[:=]"
                               r"[\x01\"' \t]{0,3}(?P<secret>[A-Za-z0-9/+]{40,})")),
    ("password in URL", (r"(?:^|[^A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\x00-\x20\"\\:/?#@]*:"
                         r"(?P<secret>[^\x00-\x20\"\\/?#@]+)@")),
    ("basic auth", r"(?i:basic)[ \t]+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})"),
    ("cookie", (r"(?i:(?:set-)?cookie)[\x01\"' \t]{0,3}:[\x01\"' \t]{0,3}"
                r"(?P<secret>[!#-'*+.0-9A-Z^-z|~-]+=[^\x00-\x02\"\\\r\n]*[^\x00-\x02\"\\\r\n \t])")),
    # Issue 33: provider key formats with a fixed prefix (gitleaks' rules of the same names, read
    # 2026-11-27: twilio-api-key, gitlab-pat, npm-access-token, pypi-upload-token, sendgrid-api-token,
    # digitalocean-*, shopify-*, databricks-api-token, mailgun-private-api-token, telegram-bot-api-token,
    # slack-webhook-url, gcp-api-key's OAuth sibling (GOCSPX), hashicorp-tf/vault tokens, age-secret-key,
    # grafana-*, new-relic-user-api-key, postman-api-token, linear-api-key, notion, doppler, sentry) and
    # the AI providers' own (Groq gsk_, xAI xai-, Replicate r8_, Perplexity pplx-).
    ("Twilio SID or key", r"(?:^|[^A-Za-z0-9])(?P<secret>(?:AC|SK)[0-9a-fA-F]{32,})"),
    ("GitLab token", r"(?:^|[^A-Za-z0-9_])(?P<secret>gl(?:pat|dt|ptt|rt|oas|cbt|ft|imt|agent|soat)-[0-9A-Za-z_-]{20,})"),
    ("npm token", r"(?:^|[^A-Za-z0-9_])(?P<secret>npm_[A-Za-z0-9]{36,})"),
    ("PyPI token", r"(?:^|[^A-Za-z0-9_])(?P<secret>pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,})"),
    ("SendGrid key", r"(?:^|[^A-Za-z0-9_])(?P<secret>SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})"),
    ("AI provider key", r"(?:^|[^A-Za-z0-9_])(?P<secret>(?:gsk_|r8_|pplx-)[A-Za-z0-9]{32,}|xai-[A-Za-z0-9]{70,})"),
    ("DigitalOcean token", r"(?:^|[^A-Za-z0-9_])(?P<secret>do[opr]_v1_[a-f0-9]{64})"),
    ("Shopify token", r"(?:^|[^A-Za-z0-9_])(?P<secret>shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})"),
    ("Databricks token", r"(?:^|[^A-Za-z0-9_])(?P<secret>dapi[a-f0-9]{32}(?:-[0-9])?)"),
    ("Mailgun key", r"(?:^|[^A-Za-z0-9_-])(?P<secret>key-[0-9a-f]{32})"),
    ("Telegram bot token", r"(?:^|[^0-9])(?P<secret>[0-9]{8,10}:AA[0-9A-Za-z_-]{33})"),
    ("Slack webhook", r"(?P<secret>https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,})"),
    ("Google OAuth secret", r"(?:^|[^A-Za-z0-9_])(?P<secret>GOCSPX-[A-Za-z0-9_-]{28})"),
    ("HashiCorp token", r"(?:^|[^A-Za-z0-9_])(?P<secret>hv[sb]\.[A-Za-z0-9_-]{24,}|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,})"),
    ("age secret key", r"(?P<secret>AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})"),
    ("Grafana token", r"(?:^|[^A-Za-z0-9_])(?P<secret>glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})"),
    ("SaaS API key", (r"(?:^|[^A-Za-z0-9_])(?P<secret>NRAK-[A-Z0-9]{27}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}"
                      r"|lin_api_[A-Za-z0-9]{40}|ntn_[0-9]{11}[A-Za-z0-9]{35}|dp\.pt\.[a-zA-Z0-9]{43}"
                      r"|sntrys_[A-Za-z0-9+/=_-]{50,}|sq0(?:atp|csp)-[0-9A-Za-z_-]{22,})")),
    ("Azure storage key", r"(?i:account_?key|shared_?access_?key)=(?P<secret>[A-Za-z0-9+/]{40,}={0,2})"),
    # A value after a name that says it is a credential (issue 33): ``DB_PASSWORD=…``, ``password: …``,
    # ``CLIENT_SECRET: …``, ``AZURE_OPENAI_API_KEY=<32 hex>``, ``"api_key": "…"`` inside a string, an
    # ``X-Api-Key:`` header line. The name ends in _KEY / -KEY, APIKEY, _TOKEN, _SECRET, PASSWORD,
    # PASSWD, AUTH or CREDENTIAL(S), in any case; the value is the run up to a space, quote, comma or
    # semicolon or ampersand (``ACCEPT`` leaves out placeholders: null, true, ``${VAR}``, ``<...>``, ``***``).
    # Object keys of the file itself are read by name too (``_named_patterns``).
    ("credential assignment", (r"(?:^|[^A-Za-z0-9_-])(?i:[A-Za-z0-9_-]*(?:[_-]key|apikey|[_-]token|[_-]secret"
                               r"|password|passwd|auth|credentials?))[\x01\"' \t]{0,3}[:=][\x01\"' \t]{0,3}"
                               r"(?P<secret>[^\x00-\x20\x01\x02\"'\\,;&]{4,})")),
)

_DIGIT = re.compile(rb"[0-9]")
# What RE2 cannot say without look-around, checked on the (maximal) run each pattern matched.
def _basic_credentials(s: bytes) -> bool:
    """Base64 of ``user:password`` (not the word after "basic" in prose)."""
    if len(s) % 4:
        return False
    try:
        plain = base64.b64decode(s, validate=True)
    except ValueError:
        return False
    return b":" in plain and plain.isascii() and plain.decode().isprintable()


# Values after a credential's name that are no secret: placeholders, references, booleans.
_PLACEHOLDER = re.compile(rb"(?i)(?:null|none|nil|true|false|yes|no|undefined|required|optional|string|redacted"
                          rb"|changeme|change-me|example|xxx+|\*+|\.+|-+|[${<%(\[].*|.*[>})\]]|\[redacted.*)")
# An sk- key: a digit, a provider's prefix (OpenAI's project, service-account and admin keys,
# Anthropic's, OpenRouter's; letters only is possible), or 40 characters after "sk-".
_SK_PREFIX = (b"proj-", b"svcacct-", b"admin-", b"ant-", b"or-")


def _sk_key(s: bytes) -> bool:
    return _DIGIT.search(s, 3) is not None or s[3:].startswith(_SK_PREFIX) or len(s) >= 43


ACCEPT: dict[str, Callable[[bytes], bool]] = {
    "API key (sk-)": _sk_key,  # "sk-learn-wrapper" is a word
    "Twilio SID or key": lambda s: len(s) == 34,  # exactly 32 hex digits after AC or SK
    "credential assignment": lambda s: _PLACEHOLDER.fullmatch(s) is None,
    "AWS access key": lambda s: len(s) == 20,  # exactly 16 characters after the prefix
    "AWS secret access key": lambda s: len(s) == 40,
    "basic auth": _basic_credentials,
}

# Your own patterns are bounded: how many, how long, and the time they may take on one file
# together (RE2 is linear, but the pattern sets the constant: ``[^\n]{1000}X`` took 13 s on
# 1.5 MB). ``INSPECTOR_REDACT_SECONDS`` sets the budget.
MAX_PATTERNS = 20  # custom patterns per scan; each one is a pass over the text
MAX_PATTERN_CHARS = 500
PATTERN_SECONDS = 10.0
_SEP = b"\x00"  # between string values in the scanned buffer; no built-in pattern crosses it
# One JSON string literal; unrolled so that it never backtracks more than once per literal.
_STRING = re.compile(rb'("[^"\\]*(?:\\.[^"\\]*)*")', re.DOTALL)


class PatternError(ValueError):
    """A configured pattern cannot be used; the message says which one and why."""


class Secret:
    """One place where a secret was found.

    ``start``/``end`` are offsets into the file's decoded text (for a string written with escapes,
    those of the whole string literal); ``line``/``column`` are 1-based. ``preview`` is a few
    characters and the length, never the whole secret; ``around`` is the secret's string value
    near it, with every secret in that value masked. ``token`` (the string literal's byte span in
    the file) and ``span`` (the secret's byte span in its value) say where to mask. A secret is
    one row of its scan's table (``_Found``): a scan of a file packed with keys makes one small
    object per secret, and the two texts are made when first read.
    """

    __slots__ = ("_around", "_i", "_of", "_preview")
    _around: str
    _preview: str

    def __init__(self, of: _Found, i: int):
        self._of, self._i = of, i

    kind = property(lambda self: self._of.kinds[self._of.order[self._i]])
    start = property(lambda self: self._of.start[self._i])
    end = property(lambda self: self._of.start[self._i] + self._of.width[self._i])
    line = property(lambda self: self._of.line[self._i])
    column = property(lambda self: self._of.column[self._i])
    token = property(lambda self: (self._of.a[self._i], self._of.b[self._i]))
    span = property(lambda self: self._of.span(self._i))

    @property
    def mask(self) -> str:
        return f"[REDACTED {self.kind}]"

    @property
    def preview(self) -> str:
        try:
            return self._preview
        except AttributeError:
            s, e = self._of.span(self._i)
            secret = self._of.value(self._i)[s:e].decode("utf-8", "replace")
            n = len(secret)
            self._preview = f"{secret[:min(4, max(1, n // 8))]}…({n} chars)"
            return self._preview

    @property
    def around(self) -> str:
        try:
            return self._around
        except AttributeError:
            self._around = self._of.around(self._i)
            return self._around

    def _key(self) -> tuple[Any, ...]:
        return self.kind, self.start, self.end, self.line, self.column, self.preview

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Secret(kind={self.kind!r}, start={self.start}, end={self.end}, line={self.line}, "
                f"column={self.column}, preview={self.preview!r})")


class _Columns:
    """Secrets as columns, one entry per secret in file order (built without a Python step per
    secret where it can be): pattern number, literal span ``a:b`` (its quotes included), span
    ``s:e`` in the decoded value, or in the file when the value is the bytes between the quotes
    (``values`` None), and where it is in the file's text (character offset, width in
    characters, line, column)."""

    __slots__ = ("a", "b", "column", "e", "line", "order", "s", "start", "values", "width")

    def __init__(self, order: list[int], a: list[int], b: list[int], s: list[int], e: list[int],
                 values: list[Any], start: list[int], width: list[int], line: list[int], column: list[int]):
        self.order, self.a, self.b, self.s, self.e, self.values = order, a, b, s, e, values
        self.start, self.width, self.line, self.column = start, width, line, column

    @classmethod
    def empty(cls) -> _Columns:
        return cls([], [], [], [], [], [], [], [], [], [])

    def __len__(self) -> int:
        return len(self.a)

    def columns(self) -> tuple[list[Any], ...]:
        return self.order, self.a, self.b, self.s, self.e, self.values, self.start, self.width, self.line, self.column

    def merged(self, other: _Columns) -> _Columns:
        """Both sets in file order (their literals are disjoint; in one literal, by start)."""
        if not len(other):
            return self
        if not len(self):
            return other
        rows = list(map(itemgetter(2), sorted(zip(self.a + other.a, self.s + other.s, range(len(self) + len(other))))))
        return _Columns(*(list(map((x + y).__getitem__, rows)) for x, y in zip(self.columns(), other.columns())))


class _Found(_Columns):
    """What one scan found: its columns, the file, and the kind of each pattern number."""

    __slots__ = ("_groups", "_masked", "data", "escaped", "kinds")

    def __init__(self, data: bytes, kinds: list[str], columns: _Columns, escaped: _Escaped):
        super().__init__(*columns.columns())
        self.data, self.kinds, self.escaped = data, kinds, escaped
        self._groups: dict[int, tuple[int, int]] = {}  # literal start -> its rows
        self._masked: dict[int, tuple[str, dict[tuple[int, int], tuple[int, int]]]] = {}  # literal start -> masked value, where each mask is

    def value(self, i: int) -> bytes:
        """The string value secret ``i`` is in."""
        value: bytes | int | None = self.values[i]
        if value is None:
            return self.data[self.a[i] + 1:self.b[i] - 1]
        if isinstance(value, int):  # a literal with escapes in ``_decoded_file``
            return self.escaped.value(self.data, self.a[i])
        return value

    def span(self, i: int) -> tuple[int, int]:
        """Secret ``i``'s span in its value."""
        base = self.a[i] + 1
        return self.s[i] - base, self.e[i] - base

    def group(self, i: int) -> tuple[int, int]:
        """The rows of the secrets in the literal of row ``i`` (adjacent: file order)."""
        a = self.a[i]
        if a not in self._groups:
            lo, hi = i, i + 1
            while lo and self.a[lo - 1] == a:
                lo -= 1
            while hi < len(self.a) and self.a[hi] == a:
                hi += 1
            self._groups[a] = lo, hi
        return self._groups[a]

    def around(self, i: int) -> str:
        lo, hi = self.group(i)
        kind = self.kinds[self.order[i]]
        if hi - lo == 1:  # the common case: only the bytes near the one secret are decoded
            if self.values[i] is None:
                data, first, last = self.data, self.a[i] + 1, self.b[i] - 1
                s, e = self.s[i], self.e[i]
            else:
                data = self.value(i)
                first, last = 0, len(data)
                s, e = self.span(i)
            before = data[max(first, s - _AROUND_BYTES):s].decode("utf-8", "replace")[-_AROUND:]
            after = data[e:min(last, e + _AROUND_BYTES)].decode("utf-8", "replace")[:_AROUND]
            return " ".join(f"{before}[REDACTED {kind}]{after}".split())
        a = self.a[i]
        if a not in self._masked:  # once per value, however many secrets it holds
            kept = [(*self.span(j), self.kinds[self.order[j]]) for j in range(lo, hi)]
            masked, mask_at = _masked_value(self.value(i), kept)
            self._masked[a] = masked, {(s, e): at for (s, e, _), at in zip(kept, mask_at)}
        masked, where = self._masked[a]
        ms, me = where[self.span(i)]
        return " ".join(masked[max(0, ms - _AROUND): me + _AROUND].split())


_AROUND = 40  # characters of context on each side of a secret, in previews
_AROUND_BYTES = 4 * _AROUND + 4  # enough bytes for that many characters, and a cut one before them


def _compile(pattern: str) -> re2._Regexp:
    options = re2.Options()
    options.log_errors = False  # RE2 would print its own copy of the error to stderr
    return re2.compile(pattern.encode("utf-8", "surrogatepass"), options)


def _compile_custom(pattern: str) -> re2._Regexp:
    if len(pattern) > MAX_PATTERN_CHARS:
        raise PatternError(f"redaction pattern {pattern[:40]!r}… is {len(pattern)} characters long; "
                           f"a pattern may have at most {MAX_PATTERN_CHARS}")
    try:
        re.compile(pattern)
    except re.error as exc:
        raise PatternError(f"redaction pattern {pattern!r} is not a valid regular expression: {exc}") from None
    try:
        rx = _compile(pattern)
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise PatternError(
            f"redaction pattern {pattern!r} cannot be used: secrets are matched in linear time, which rules out "
            f"look-ahead, look-behind and back-references ({reason})"
        ) from None
    if rx.search(b"") is not None:
        raise PatternError(f"redaction pattern {pattern!r} matches the empty string, so it would match "
                           "everywhere; say what a secret looks like")
    return rx


@dataclass(frozen=True)
class _Pattern:
    kind: str
    rx: re2._Regexp
    secret: int | None  # the number of the group named ``secret``, when there is one
    builtin: bool
    raw: re2._Regexp | None = None  # built-ins: the form run on the file's bytes (``_decoded_file``)


_BUILTIN = [(kind, _compile(p)) for kind, p in BUILTIN]
# On the file's bytes a match must stay inside one string literal without escapes: no built-in
# pattern matches a quote or a backslash, except the private key's body, which is kept off both
# there (a key written over several lines has \n escapes: its literal is scanned decoded).
_RAW = {kind: _compile(p.replace("[^\\x00]*?", '[^"\\\\\\x00]*?').replace('\\x01\\"', "\\x01")) for kind, p in BUILTIN}
_UNANCHORED = re2._re2.RE2.Anchor.UNANCHORED

# Built-ins that begin with a literal run on Python's ``re``: its literal-prefix search is fast,
# and ``split`` hands back where every secret is at C speed, with no match object per secret (the
# private key's lazy body would backtrack there, so it stays on RE2). Each is ``BUILTIN``'s
# pattern with its one group the secret, and with what RE2 cannot say written in: the boundary
# before the secret is a look-behind placed after the literal (in front of it, it would cost the
# literal search), and ``ACCEPT``'s conditions are look-arounds (a digit after ``sk-``; exactly 16
# characters after ``AKIA``, which a maximal run of 20 is). Each stays linear: no nested
# quantifier, and a look-around reads at most the run of word characters its match is in, which
# no later candidate in that run gets past the look-behind to read again. Tests check them against
# the plain definition (``BUILTIN`` + ``ACCEPT``, tests/redact/test_redact_equivalence.py).
_FAST: dict[str, re.Pattern[bytes]] = {kind: re.compile(p, re.DOTALL) for kind, p in {
    "API key (sk-)": (rb"(sk-(?<![A-Za-z0-9_-]...)(?=[A-Za-z0-9_-]*[0-9]|(?:proj|svcacct|admin|ant|or)-|[A-Za-z0-9_-]{40})"
                      rb"[A-Za-z0-9][A-Za-z0-9_-]{19,})"),
    "AWS access key": rb"(A(?:KIA|SIA)(?<![A-Z0-9]....)[A-Z0-9]{16}(?![A-Z0-9]))",
    "bearer token": rb"(?i:bearer)\s+([A-Za-z0-9._~+/-]{16,}=*)",
    "GitHub token": rb"(gh[pousr]_(?<![A-Za-z0-9_]....)[A-Za-z0-9]{36,}"
                    rb"|github_pat_(?<![A-Za-z0-9_]...........)[A-Za-z0-9_]{40,})",
    "Slack token": rb"(xox[abposr]-(?<![A-Za-z0-9].....)[A-Za-z0-9-]{10,})",
    "Google API key": rb"(AIza(?<![A-Za-z0-9_-]....)[0-9A-Za-z_-]{35})",
}.items()}
# "bearer" in any case has no literal prefix for ``re`` to search for (it would test every byte):
# RE2 finds the first one, and ``re`` starts there.
_GATE: dict[str, re2._Regexp] = {"bearer token": _compile("(?i)bearer")}
# Kinds none of whose matches can be without one of these bytes: a file without any of them is
# not searched for that kind (``bytes.find`` reads 10 MB in a few milliseconds, a pattern's pass
# takes tens), so the provider formats of issue 33 cost next to nothing on a file without them.
_LITERALS: dict[str, tuple[bytes, ...]] = {
    "Twilio SID or key": (b"AC", b"SK"), "GitLab token": (b"gl",), "npm token": (b"npm_",), "PyPI token": (b"pypi-",),
    "SendGrid key": (b"SG.",), "AI provider key": (b"gsk_", b"r8_", b"pplx-", b"xai-"), "DigitalOcean token": (b"_v1_",),
    "Shopify token": (b"shp",), "Databricks token": (b"dapi",), "Mailgun key": (b"key-",), "Telegram bot token": (b":AA",),
    "Slack webhook": (b"hooks.slack.com",), "Google OAuth secret": (b"GOCSPX-",), "HashiCorp token": (b"hvs.", b"hvb.", b"atlasv1"),
    "age secret key": (b"AGE-SECRET-KEY-1",), "Grafana token": (b"glsa_", b"glc_"),
    "SaaS API key": (b"NRAK-", b"PMAK-", b"lin_api_", b"ntn_", b"dp.pt.", b"sntrys_", b"sq0"),
    "Azure storage key": (b"y=", b"Y="),
}


# HAR's name/value pairs: a cookie's value, or a header's that carries credentials, is a secret
# by its name, which is in another string than the value. So is the value of an object key that
# names a credential (``"api_key": "…"``, ``"DB_PASSWORD": "…"``) in the file itself (issue 33).
_HAR_GATE = re.compile(rb'"(?:cookies|headers)"[ \t\r\n]*:[ \t\r\n]*\[')
_CREDENTIAL_NAME = (r"[A-Za-z0-9_.-]*(?:[_-]key|apikey|[_-]token|[_-]secret|password|passwd|auth|credentials?"
                    r"|secret_?access_?key|access_?key_?secret)")
_NAME_GATE = re2.compile(rb'(?i)"' + _CREDENTIAL_NAME.encode() + rb'"[ \t\r\n]*:[ \t\r\n]*"')
_IS_CREDENTIAL_NAME = re.compile(_CREDENTIAL_NAME, re.IGNORECASE)
SECRET_HEADERS = frozenset({"cookie", "set-cookie", "authorization", "proxy-authorization", "x-api-key", "api-key",
                            "x-auth-token", "x-amz-security-token"})
_NAMED_MIN = 8  # shorter values ("en", "1") are not masked wherever they occur
_NAMED_MAX = 2000  # distinct values per scan
NAMED_KINDS = ("cookie", "HTTP header", "credential assignment")  # kinds found by a name beside the value


def _documents(data: bytes) -> list[Any]:
    """``data`` parsed: one JSON document, or each line of JSON Lines; [] when neither."""
    try:
        return [orjson.loads(data)]
    except orjson.JSONDecodeError:
        pass
    out = []
    for line in data.splitlines():
        if line.strip():
            try:
                out.append(orjson.loads(line))
            except orjson.JSONDecodeError:
                return []
    return out


def _named_patterns(data: bytes) -> list[_Pattern]:
    """Patterns for the values of HAR cookies and credential headers in ``data``, and of object
    keys named like a credential: each value, wherever it occurs in a string (a Cookie header
    repeats the cookies' values)."""
    har = _HAR_GATE.search(data) is not None
    if not har and _NAME_GATE.search(data) is None:
        return []
    found: dict[str, set[str]] = {kind: set() for kind in NAMED_KINDS}
    credential = found["credential assignment"]
    stack = _documents(data)
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            for k, x in v.items():
                if isinstance(x, str):
                    if (len(x) >= _NAMED_MIN and isinstance(k, str) and _IS_CREDENTIAL_NAME.fullmatch(k)
                            and _PLACEHOLDER.fullmatch(x.encode("utf-8", "surrogatepass")) is None):
                        credential.add(x)
                    continue
                if har and k in ("cookies", "headers") and isinstance(x, list):
                    for item in x:
                        if isinstance(item, dict) and isinstance(item.get("value"), str) and len(item["value"]) >= _NAMED_MIN:
                            name = item.get("name")
                            if k == "cookies":
                                found["cookie"].add(item["value"])
                            elif isinstance(name, str) and (name.lower() in SECRET_HEADERS
                                                            or _IS_CREDENTIAL_NAME.fullmatch(name)):
                                found["HTTP header"].add(item["value"])
                if isinstance(x, (dict, list)):
                    stack.append(x)
        elif isinstance(v, list):
            stack.extend(x for x in v if isinstance(x, (dict, list)))
    out = []
    for kind, values in found.items():
        if values:
            alts = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True)[:_NAMED_MAX])
            out.append(_Pattern(kind, _compile(f"(?:{alts})"), None, False))
    return out


@dataclass(frozen=True)
class Redactor:
    """A compiled set of patterns; build one with ``Redactor.from_env()`` or ``Redactor.build(extra)``."""

    patterns: tuple[_Pattern, ...]
    budget: float = PATTERN_SECONDS  # seconds your own patterns may take on one file, together

    @classmethod
    def build(cls, extra: Iterable[str] = (), budget: float | None = None) -> Redactor:
        compiled = [_Pattern(kind, rx, rx.groupindex.get(b"secret"), True, _RAW[kind]) for kind, rx in _BUILTIN]
        extra = list(extra)
        if len(extra) > MAX_PATTERNS:
            raise PatternError(f"{len(extra)} redaction patterns is more than the {MAX_PATTERNS} one scan runs")
        budget = budget if budget is not None else _seconds_from_env()
        for p in extra:
            rx = _compile_custom(p)
            compiled.append(_Pattern("custom pattern", rx, rx.groupindex.get(b"secret"), False))
        return cls(tuple(compiled), budget)

    @property
    def kinds(self) -> list[str]:
        """What a scan checks for: each built-in kind, the kinds known by a name beside the value,
        and each custom pattern ("checked 40 kinds: 3 found")."""
        builtin = [p.kind for p in self.patterns if p.builtin]
        named = [k for k in NAMED_KINDS if k not in builtin]
        return builtin + named + [p.kind for p in self.patterns if not p.builtin]

    @classmethod
    def from_env(cls, extra: Iterable[str] = ()) -> Redactor:
        from .config import Settings

        return cls.build([*Settings.from_env().redact_patterns, *extra])

    # -- finding -----------------------------------------------------------------------------

    def scan(self, data: bytes) -> list[Secret]:
        """Every secret in the JSON (or JSON Lines) ``data``, in file order.

        Built-in patterns run once over the file's bytes, where a string literal without escapes
        is its own value and each literal with escapes (found from its backslashes) has been
        decoded in place (``_decoded_file``): only matches cost work, so a file is scanned at the
        regex engine's speed however many strings it has. Custom patterns, which may match
        anything, run on every string value (joined, one pass each).
        """
        # With a key every 50 bytes, collections would cost as much as the scan's (acyclic) matches.
        with gc_paused():
            return self._scan(_text_of(data)[1])

    def _scan(self, data: bytes) -> list[Secret]:
        builtin = [p for p in self.patterns if p.builtin]
        custom = [p for p in self.patterns if not p.builtin] + _named_patterns(data)
        kinds = [p.kind for p in builtin + custom]  # by pattern number: built-ins, then custom patterns
        buf, decoded, spans, vals = _decoded_file(data)
        raw = _raw_hits(builtin, buf)
        apart = _value_hits(builtin, vals) if vals else ([], [], [], [])
        valued: _Hits | None = None
        texts: _Texts = {}
        if custom:  # literals with a custom pattern's match are located by their value, with all their matches
            valued, texts = _custom_hits(custom, len(builtin), data, self.budget)
            for i, s, e, order in zip(*apart):
                texts[spans[i]] = vals[i]
                valued.setdefault(spans[i], []).append((s, -e, order))
        found = _locate_raw(data, buf, raw, decoded, valued, texts)
        del buf, raw
        if valued is not None:
            spans = sorted(valued)
            vals = [texts[span] for span in spans]
            merged = sorted((i, *hit) for i, span in enumerate(spans) for hit in valued[span])
            apart = ([h[0] for h in merged], [h[1] for h in merged], [-h[2] for h in merged], [h[3] for h in merged])
        found = found.merged(_locate_values(data, apart, spans, vals))
        return list(map(Secret, repeat(_Found(data, kinds, found, decoded)), range(len(found))))

    def find(self, text: str) -> list[Secret]:
        """``scan`` for text already decoded (offsets are into ``text``)."""
        return self.scan(text.encode("utf-8", "surrogateescape"))

    # -- masking -----------------------------------------------------------------------------

    def mask(self, data: bytes, secrets: Sequence[Secret] | None = None) -> bytes:
        """``data`` with every secret replaced by ``[REDACTED <kind>]`` inside its string value.

        Only string literals holding a secret are rewritten, each as a valid JSON string, so the
        result parses whenever ``data`` did.
        """
        found = self.scan(data) if secrets is None else secrets
        bom, data = _text_of(data)
        by_token: dict[tuple[int, int], list[Secret]] = {}
        for s in found:
            by_token.setdefault(s.token, []).append(s)
        out, pos, in_keys = [bom], 0, 0
        for (a, b), group in sorted(by_token.items()):
            literal = data[a:b]
            if _KEY.match(data, b):  # an object key: numbered masks, so that two keys never merge into one
                in_keys += 1
                masks = [f"[REDACTED {s.kind} {in_keys}.{k}]" for k, s in enumerate(sorted(group, key=_span), 1)]
            else:
                masks = [s.mask for s in sorted(group, key=_span)]
            out += [data[pos:a], _masked_literal(literal, sorted(group, key=_span), masks)]
            pos = b
        out.append(data[pos:])
        return b"".join(out)


_KEY = re.compile(rb"[ \t\r\n]*:")
_MASK_MARK = re.compile(rb"\[REDACTED [^\]\x00-\x1f\"\\]{1,80}\]")


def masked_in(data: bytes) -> int:
    """How many masks ``mask`` wrote into ``data`` (a shared file carries no other record of them)."""
    return len(_MASK_MARK.findall(_text_of(data)[1]))


def _text_of(data: bytes) -> tuple[bytes, bytes]:
    """``(the byte-order mark kept, the text the scan reads)``: the file as the reader decodes it
    (``jsonio.decode_text``: UTF-16 and UTF-32, with or without a mark, as UTF-8), so that a
    secret is found whatever the encoding. A UTF-8 mark is kept in front of what ``mask`` writes;
    a UTF-16 or UTF-32 file is masked as UTF-8 (the reader accepts both). Bytes the reader
    refuses are scanned as they are."""
    from ..errors import InputError
    from ..jsonio import BOM, decode_text

    data = bytes(data)
    try:
        text = decode_text(data)
    except InputError:
        return b"", data
    return (BOM if data.startswith(BOM) else b""), text
# A string literal with escapes from its opening quote, and the ":" after it when it is an object key
# (tried at every quote: from a closing one it fails at the next; for files that are not UTF-8).
_ESCAPED = re.compile(rb'("[^"\\]*+(?:\\.[^"\\]*+)++")((?:[ \t\r\n]*+:)?)', re.DOTALL)
# A string literal with escapes from its first backslash (the first after the previous match is
# one: JSON has backslashes only in strings) up to its closing quote, then that quote and the ":"
# after it when it is an object key. Tried only at backslashes; possessive: nothing is given back.
_ESCAPES = re.compile(rb'(\\.(?:[^"\\]*+\\.)*+[^"\\]*+)("(?:[ \t\r\n]*+:)?)', re.DOTALL)


def _builtin_spans(pattern: _Pattern, buf: bytes, raw: bool) -> tuple[list[int], list[int]]:
    """Starts and ends of the secrets a built-in pattern finds in ``buf`` (the file's bytes when
    ``raw``, else string values joined by NUL bytes), ``ACCEPT`` applied, in order."""
    literals = _LITERALS.get(pattern.kind)
    if literals is not None and not any(lit in buf for lit in literals):
        return [], []
    rx = _FAST.get(pattern.kind)
    if rx is not None:
        gate = _GATE.get(pattern.kind)
        if gate is not None:
            first = gate.search(buf)
            if first is None:
                return [], []
            found = [m.span(1) for m in rx.finditer(buf, first.start())]
            return [s for s, _ in found], [e for _, e in found]
        parts = rx.split(buf)  # [gap, secret, gap, secret, ..., gap]
        if len(parts) == 1:
            return [], []
        bounds = list(accumulate(map(len, parts)))
        del parts
        return bounds[0:-1:2], bounds[1::2]
    # RE2 called directly: its match objects cost more than the search
    accept = ACCEPT.get(pattern.kind)
    rx2 = pattern.raw if raw else pattern.rx
    assert rx2 is not None  # built-ins have their raw form
    match, g, n = rx2._regexp.Match, pattern.secret, len(buf)
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    while pos <= n:
        spans = match(_UNANCHORED, buf, pos, n)
        s0, e0 = spans[0]
        if s0 < 0:
            break
        pos = e0 if e0 > s0 else e0 + 1
        s, e = spans[g] if g is not None and spans[g][0] >= 0 else (s0, e0)
        if e > s and (accept is None or accept(buf[s:e])):
            starts.append(s)
            ends.append(e)
    return starts, ends


def _raw_hits(builtin: list[_Pattern], buf: bytes) -> tuple[list[int], list[int], list[int]]:
    """Starts, ends and pattern numbers of every built-in match in ``buf`` (``_decoded_file``),
    sorted: overlapping matches in one literal come earliest first, then longest, then in pattern
    order."""
    runs = []
    for order, pattern in enumerate(builtin):
        starts, ends = _builtin_spans(pattern, buf, True)
        if starts:
            runs.append((starts, ends, [order] * len(starts)))
    if not runs:
        return [], [], []
    if len(runs) == 1:
        return runs[0]
    merged = sorted(chain.from_iterable(zip(s, map(neg, e), o) for s, e, o in runs))
    return list(map(itemgetter(0), merged)), list(map(neg, map(itemgetter(1), merged))), list(map(itemgetter(2), merged))


# In a decoded value written back between its quotes, its quotes and backslashes are hidden: the
# quote before a match is then its literal's opening one. No built-in pattern matches either byte
# (nor these two), except the private key's body, which matches any but NUL.
_HIDE = bytes.maketrans(b'"\\', b"\x01\x02")
_PADS = [bytes(n) for n in range(64)]


class _Escaped:
    """The literals with escapes in ``_decoded_file``, read again when asked: whether the
    literal opening at ``a`` has one (``get``), and its decoded value (``value``). Nothing is
    kept per literal: a file of a million tiny escaped strings costs no more than its bytes."""

    __slots__ = ("any", "data")

    def __init__(self, data: bytes, any_: bool):
        self.data, self.any = data, any_

    def __bool__(self) -> bool:
        return self.any

    def _literal(self, a: int) -> bytes | None:
        m = _STRING.match(self.data, a) if self.any and a >= 0 else None
        return m.group(1) if m is not None and b"\\" in m.group(1) else None

    def get(self, a: int) -> int | None:
        """1 when the literal opening at ``a`` has an escape (its value is decoded), else None."""
        return 1 if self._literal(a) is not None else None

    def value(self, data: bytes, a: int) -> bytes:
        literal = self._literal(a)
        assert literal is not None  # asked only where ``get`` said it has an escape
        text = _decode_literal(literal)
        value = literal[1:-1] if text is None else text.encode("utf-8", "surrogatepass")
        return _unnest(value) if b"\\" in value else value


_CHUNK = 1 << 17  # bytes decoded at a time: a file of many tiny escaped strings stays in proportion
_CUSTOM_CHUNK = 1 << 15  # bytes custom patterns read between looks at the clock
# Whole string literals and what lies between them, from a place outside any: it stops before a
# literal the window cuts (no Python step per literal; possessive, so nothing is given back).
_OUTSIDE = re.compile(rb'(?:[^"]++|"[^"\\]*+(?:\\.[^"\\]*+)*+")*+', re.DOTALL)


def _chunks(data: bytes, size: int = _CHUNK) -> Iterable[tuple[int, int]]:
    """``(lo, hi)`` windows of about ``size`` bytes that cut no string literal: at a newline
    (JSON has none inside a string) or after the last whole literal."""
    lo, n = 0, len(data)
    while lo < n:
        hi = lo + size
        if hi >= n:
            yield lo, n
            return
        cut = data.rfind(b"\n", lo, hi) + 1
        if cut <= lo:
            while True:
                outside = _OUTSIDE.match(data, lo, hi)
                assert outside is not None  # the pattern matches the empty string
                cut = outside.end()
                if cut > lo or hi >= n:
                    break
                hi = min(n, hi * 2 - lo)  # one literal longer than the window: take it whole
            cut = cut if cut > lo else n
        yield lo, cut
        lo = cut


def _decoded_file(data: bytes) -> tuple[bytes, _Escaped, list[tuple[int, int]], list[bytes]]:
    """The file with every string literal with escapes (found from their backslashes, which
    JSON only has inside strings) decoded in place: from its first backslash, its decoded rest
    (JSON text nested in it decoded once more, ``_unnest``), quotes and backslashes hidden,
    padded with NUL bytes to its length (every offset stays). A value longer than its literal
    (not possible from UTF-8 escapes, but in case) is left out as NUL bytes, and given apart: its
    span and value. Decoded ``_CHUNK`` bytes at a time."""
    if b"\\" not in data:
        return data, _Escaped(data, False), [], []
    if not _is_utf8(data):  # then the part before the first backslash is no value of its own: all apart
        return _decoded_apart(data)
    pieces: list[bytes] = []
    apart_spans: list[tuple[int, int]] = []
    apart: list[bytes] = []
    for lo, hi in _chunks(data):
        window = data[lo:hi] if (lo, hi) != (0, len(data)) else data
        if b"\\" not in window:
            pieces.append(window)
            continue
        got = _decoded_window(window)
        if got is None:  # not JSON
            return data, _Escaped(data, False), [], []
        pieces.append(got[0])
        apart_spans += [(a + lo, b + lo) for a, b in got[1]]
        apart += got[2]
        del got, window
    buf = pieces[0] if len(pieces) == 1 else b"".join(pieces)
    del pieces
    return buf, _Escaped(data, True), apart_spans, apart


def _decoded_window(data: bytes) -> tuple[bytes, list[tuple[int, int]], list[bytes]] | None:
    """``_decoded_file`` of one window that cuts no literal; None when it is not JSON."""
    parts = _ESCAPES.split(data)  # [gap, first backslash up to closing quote, that quote (":"), gap, ..., gap]
    if len(parts) == 1:
        return data, [], []
    rests = parts[1::3]
    # Each literal opens at the last quote before its first backslash (in the gap before it).
    opening = list(map(bytes.rfind, parts[0:-1:3], repeat(b'"')))
    if min(opening) < 0:  # not JSON
        return None
    ends = list(accumulate(map(len, parts)))
    backslash = ends[0::3]
    firsts = list(map(add, [0, *ends[2:-3:3]], opening))
    del ends, opening
    closes = parts[2::3]
    try:  # one C call decodes them all (the part before the first backslash is its own value)
        tails = list(map(str.encode, orjson.loads(b'["' + b'","'.join(rests) + b'"]')))
    except orjson.JSONDecodeError:  # lone surrogates (\ud800), an escape JSON has not
        tails = [_decode_rest(r) for r in rests]
    nested = list(compress(range(len(tails)), map(bytes.__contains__, tails, repeat(b"\\"))))
    if nested:  # JSON text in a string (a HAR body, an OTel attribute): its escapes decoded too
        joined = b"\x00".join(map(tails.__getitem__, nested))
        if joined.count(b"\x00") == len(nested) - 1:  # one pass over them all
            for i, t in zip(nested, _unnest(joined).split(b"\x00")):
                tails[i] = t
        else:
            for i in nested:
                tails[i] = _unnest(tails[i])
        del joined
    room = list(map(len, rests))
    apart_spans: list[tuple[int, int]] = []
    apart: list[bytes] = []
    if any(map(gt, map(len, tails), room)):
        for i, (t, r) in enumerate(zip(tails, room)):
            if len(t) > r:
                apart_spans.append((firsts[i], backslash[i] + r + 1))
                apart.append(data[firsts[i] + 1:backslash[i]] + t)
                tails[i] = b""
    if nested or b'\\"' in data or b"\\\\" in data or b"\\u" in data:  # a value may hold a quote or a backslash
        shown = list(map(bytes.translate, tails, repeat(_HIDE)))
    else:
        shown = tails
    pad = list(map(sub, room, map(len, tails)))
    del tails, firsts, backslash
    pieces = [b""] * (4 * len(rests) + 1)
    pieces[0::4], pieces[1::4], pieces[3::4] = parts[0::3], shown, closes
    pieces[2::4] = map(_PADS.__getitem__, pad) if max(pad) < len(_PADS) else map(bytes, pad)
    del parts, rests, closes, shown, pad
    return b"".join(pieces), apart_spans, apart


# An escape of JSON text that sits, already decoded once, in a string value.
_NESTED = re.compile(rb'\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(["\\/bfnrt]))')
_SIMPLE = {b'"': b'"', b"\\": b"\\", b"/": b"/", b"b": b"\b", b"f": b"\f", b"n": b"\n", b"r": b"\r", b"t": b"\t"}


def _nested_char(m: re.Match[bytes]) -> bytes:
    hi, lo, u, c = m.groups()
    if c is not None:
        return _SIMPLE[c]
    if hi is not None:
        return chr(0x10000 + ((int(hi, 16) - 0xD800) << 10) + int(lo, 16) - 0xDC00).encode()
    return chr(int(u, 16)).encode("utf-8", "surrogatepass")


def _unnest(value: bytes) -> bytes:
    """``value`` with the JSON escapes in it decoded (``\\u0073k-`` in a request body logged as a
    string reads ``sk-``). Never longer: each escape becomes at most as many bytes as it had."""
    return _NESTED.sub(_nested_char, value)


def _unnest_span(value: bytes, s: int, e: int) -> tuple[int, int]:
    """Where the span ``s:e`` of ``_unnest(value)`` lies in ``value`` (a cut escape taken whole)."""
    marks = []  # (start in the result, its end, start in value, its end) of each escape
    shift = 0
    for m in _NESTED.finditer(value):
        a, b = m.span()
        out = len(_nested_char(m))
        start = a - shift
        marks.append((start, start + out, a, b))
        shift += (b - a) - out

    def back(p: int, end: bool) -> int:
        k = bisect_right([mk[0] for mk in marks], p) - 1
        if k < 0:
            return p
        a2, b2, a1, b1 = marks[k]
        if p >= b2:
            return b1 + (p - b2)
        return a1 if (p == a2 or not end) else b1

    return back(s, False), back(e, True)


def _is_utf8(data: bytes) -> bool:
    """Whether ``data`` is UTF-8, read a MiB at a time (no text of the whole file is made)."""
    if data.isascii():
        return True
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for at in range(0, len(data), 1 << 20):
            decoder.decode(view[at:at + (1 << 20)])
        decoder.decode(b"", True)
    except UnicodeDecodeError:
        return False
    return True


def _decoded_apart(data: bytes) -> tuple[bytes, _Escaped, list[tuple[int, int]], list[bytes]]:
    """``_decoded_file`` for a file that is not UTF-8: every literal with escapes is left out as
    NUL bytes and its value given apart."""
    parts = _ESCAPED.split(data)  # [gap, literal, ":" or b"", gap, ..., gap]
    literals, colons = parts[1::3], parts[2::3]
    ends = list(accumulate(map(len, parts)))
    spans = [(ends[3 * i], ends[3 * i + 1]) for i in range(len(literals))]
    parts[1::3] = [b'"' + bytes(len(t) - 2) + b'"' for t in literals]
    buf = b"".join(parts)
    del parts
    del colons
    return buf, _Escaped(data, False), spans, _values(literals, [False] * len(literals))


def _decode_rest(rest: bytes) -> bytes:
    """A literal's decoded part from its first backslash (``rest``, without the closing quote)."""
    text = _decode_literal(b'"' + rest + b'"')
    return rest if text is None else text.encode("utf-8", "surrogatepass")


def _value_hits(builtin: list[_Pattern], vals: list[bytes]) -> tuple[list[int], list[int], list[int], list[int]]:
    """Built-in matches in decoded string values (joined by NUL bytes, one pass each): value
    index, start, end (offsets into the value) and pattern number of each, sorted."""
    joined = _SEP.join(vals)
    nexts = list(map(add, accumulate(map(len, vals)), range(1, len(vals) + 1)))  # where the value after each starts
    starts = [0, *nexts[:-1]]
    runs = []
    for order, pattern in enumerate(builtin):
        hs, he = _builtin_spans(pattern, joined, False)
        if hs:  # no built-in pattern matches a NUL byte: a match lies within one value
            index = list(map(bisect_right, repeat(nexts), hs))
            base = list(map(starts.__getitem__, index))
            runs.append((index, list(map(sub, hs, base)), list(map(sub, he, base)), [order] * len(hs)))
    if not runs:
        return [], [], [], []
    if len(runs) == 1:
        return runs[0]
    merged = sorted(chain.from_iterable(zip(i, s, map(neg, e), o) for i, s, e, o in runs))
    return (list(map(itemgetter(0), merged)), list(map(itemgetter(1), merged)),
            list(map(neg, map(itemgetter(2), merged))), list(map(itemgetter(3), merged)))


class ScanTooLong(PatternError):
    """The custom patterns took more than their time budget on this file."""


def _seconds_from_env() -> float:
    import os

    try:
        value = float(os.environ.get("INSPECTOR_REDACT_SECONDS", PATTERN_SECONDS))
    except ValueError:
        return PATTERN_SECONDS
    return value if value > 0 else PATTERN_SECONDS


# A custom pattern's hits, by the span of the literal they are in: (start, -end, pattern order);
# and that literal's decoded value.
_Hits = dict[tuple[int, int], list[tuple[int, int, int]]]
_Texts = dict[tuple[int, int], bytes]


def _custom_hits(custom: list[_Pattern], first: int, data: bytes, budget: float = PATTERN_SECONDS) -> tuple[_Hits, _Texts]:
    """Custom patterns (numbered from ``first``) on every string value that is not a key:
    ``{literal span: [(start, -end, pattern number)]}``, and ``{literal span: its value}``.
    The file is read ``_CHUNK`` bytes at a time (memory in proportion to it), and the patterns
    together get ``budget`` seconds (``ScanTooLong`` past it, naming how far they got)."""
    import time

    deadline = time.monotonic() + budget
    hits: _Hits = {}
    texts: _Texts = {}
    n = len(data)
    for lo, hi in _chunks(data, _CUSTOM_CHUNK):
        window = data if (lo, hi) == (0, n) else data[lo:hi]
        parts = _STRING.split(window)  # [gap, literal, gap, literal, ..., gap]
        offsets = list(accumulate(map(len, parts), initial=lo))
        literals = parts[1::2]
        # A literal followed by ":" is an object key: masking keys could merge two of them.
        keys = [g.lstrip()[:1] == b":" for g in parts[2::2]]
        spans = [(offsets[2 * i + 1], offsets[2 * i + 2]) for i in range(len(literals))]
        del parts, offsets, window
        vals = _values(literals, keys)
        del literals, keys
        joined = _SEP.join(vals)
        starts = list(accumulate((len(v) + 1 for v in vals), initial=0))
        for order, pattern in enumerate(custom, first):
            for i, found in _matches(pattern, joined, starts, vals).items():
                hits.setdefault(spans[i], []).extend((s, -e, order) for s, e in found)
                texts[spans[i]] = vals[i]
            if time.monotonic() > deadline:
                raise ScanTooLong(
                    f"the masking patterns took more than {budget:g} s on this file ({hi * 100 // max(n, 1)}% of "
                    f"{n:,} bytes read); make them more specific (fewer, shorter, with a literal to start from)")
    return hits, texts


def _values(literals: list[bytes], keys: list[bool] | None) -> list[bytes]:
    """The UTF-8 value of each JSON string literal (raw bytes when it has no escapes); b"" for keys
    (``keys`` None: none is a key, each has an escape)."""
    if keys is None:  # values, each with an escape: one C call decodes them all
        try:
            got = list(map(str.encode, orjson.loads(b"[" + b",".join(literals) + b"]")))
            return [_unnest(v) if b"\\" in v else v for v in got]
        except orjson.JSONDecodeError:  # lone surrogates (\ud800) make orjson refuse
            keys = [False] * len(literals)
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
        if b"\\" in values[i]:
            values[i] = _unnest(values[i])
    return values


def _decode_literal(literal: bytes) -> str | None:
    try:
        text: str = json.loads(literal.decode("utf-8", "surrogateescape"))
        return text
    except ValueError:
        return None


def _matches(pattern: _Pattern, joined: bytes, starts: list[int], values: list[bytes]) -> dict[int, list[Any]]:
    """Matches of one custom pattern, per string value: ``{value index: [(start, end)]}``.

    The values are scanned joined (one pass); a match that runs from one value into the next is
    not a match in either, so those values are scanned again one by one.
    """
    found: dict[int, list[tuple[int, int]]] = {}
    again: set[int] = set()
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
        found.setdefault(i, []).append((s - starts[i], e - starts[i]))
    for i in again:
        found.pop(i, None)
        for m in pattern.rx.finditer(values[i]):
            s, e = m.span()
            if pattern.secret is not None and m.start(pattern.secret) >= 0:
                s, e = m.span(pattern.secret)
            if e > s:
                found.setdefault(i, []).append((s, e))
    return found


def _locate_raw(data: bytes, buf: bytes, raw: tuple[list[int], list[int], list[int]], decoded: _Escaped,
                valued: _Hits | None, texts: _Texts) -> _Columns:
    """The built-in matches in ``buf`` (``_decoded_file``, ``_raw_hits``) that lie in a string
    (a value or an object key; in JSON, letters only occur in strings): located exactly in a literal
    without escapes, at the whole literal in one with (its value in ``decoded``). A literal in
    ``valued`` (one with a custom pattern's match; ``texts`` has its value) takes its matches
    instead, and so does one with escapes when custom patterns ran."""
    starts, ends, orders = raw
    if not starts:
        return _Columns.empty()
    # The quote before each match, without a Python step per match and reading each byte about
    # once: the last one in [previous start, start), else the previous match's (-1: none).
    opening = list(accumulate(map(buf.rfind, repeat(b'"'), [0, *starts[:-1]], starts), max))
    # One pattern's matches never overlap; those of two may: then, and with custom patterns, one by one.
    if valued is not None or (orders.count(orders[0]) != len(orders) and any(map(lt, starts[1:], ends[:-1]))):
        return _locate_raw_loop(data, buf, starts, ends, orders, opening, decoded, valued, texts)
    first = list(map(ne, opening, [-2, *opening[:-1]]))  # the first match in its literal
    grouped = not all(first)
    lit_a = list(compress(opening, first)) if grouped else opening
    # The quote after each literal's last match closes it (-1: none). Then, once per literal
    # and in C where it can be, whether it is a value.
    closing = list(map(buf.find, repeat(b'"'), compress(ends, [*first[1:], True]) if grouped else ends))
    after = list(map(add, closing, repeat(1)))
    ok: list[bool] | None = None  # None: all are
    if min(closing) < 0 or lit_a[0] < 0:  # a match after the last quote, or before the first, is in no string
        ok = list(map(ge, closing, repeat(0)))
        ok[0] = ok[0] and lit_a[0] >= 0  # (``opening`` only grows)
    if buf is data and b"\\" in data:  # not JSON: a backslash inside, or an escaped quote for the opening one
        ok = list(map(gt, ok or repeat(True), map(ge, map(data.find, repeat(b"\\"), lit_a, closing), repeat(0))))
        ok = list(map(gt, ok, map(eq, map(data.__getitem__, map(slice, map(sub, lit_a, repeat(1)), lit_a)),
                                      repeat(b"\\"))))
    lit_of = list(map(sub, accumulate(first), repeat(1))) if grouped else []
    if ok is not None and not all(ok):
        keep = list(map(ok.__getitem__, lit_of)) if grouped else ok
        starts, ends, orders, opening = (list(compress(c, keep)) for c in (starts, ends, orders, opening))
        if grouped:
            lit_of = list(compress(lit_of, keep))
        else:
            after = list(compress(after, ok))
    b = list(map(after.__getitem__, lit_of)) if grouped else after
    if decoded:  # the matches in literals with escapes are located at their whole literal
        values = list(map(decoded.get, opening))
        if None not in values:
            return _Columns(orders, opening, b, starts, ends, values, *_where(data, opening, b))
        escaped = list(map(is_not, values, repeat(None)))
        if any(escaped):
            return _Columns(orders, opening, b, starts, ends, values,
                            *_where(data, list(map(getitem, zip(starts, opening), escaped)),
                                    list(map(getitem, zip(ends, b), escaped))))
    return _Columns(orders, opening, b, starts, ends, [None] * len(starts), *_where(data, starts, ends))


def _locate_raw_loop(data: bytes, buf: bytes, starts: list[int], ends: list[int], orders: list[int],
                     opening: list[int], decoded: _Escaped, valued: _Hits | None, texts: _Texts) -> _Columns:
    """``_locate_raw`` one match at a time: when matches overlap or custom patterns ran."""
    find = buf.find
    backslash = buf is data and b"\\" in data
    out = _Columns.empty()
    at: list[int] = []
    at_end: list[int] = []
    current, mode = -2, 0  # the literal's opening quote; 0: drop its matches, 1: keep them, 2: ``valued`` has it
    base = kept_end = lit_end = 0
    group: list[Any] = []
    value = None
    for s, e, order, a in zip(starts, ends, orders, opening):
        if a != current:  # a new literal: [a, b] with its quotes
            current, mode = a, 0
            b = find(b'"', e)
            if a < 0 or b < 0:
                continue
            lit_end = b + 1
            if backslash and ((a and data[a - 1] == 92) or data.find(b"\\", a, b) >= 0):
                continue
            base, value = a + 1, decoded.get(a)
            if valued is not None and ((a, lit_end) in valued or value is not None):
                mode, group = 2, valued.setdefault((a, lit_end), [])
                if value is not None:
                    texts[(a, lit_end)] = decoded.value(data, a)
            else:
                mode, kept_end = 1, -1
        elif not mode:
            continue
        if mode == 2:
            group.append((s - base, base - e, order))
            continue
        if s < kept_end:
            continue  # overlapping matches keep the earliest, then longest
        kept_end = e
        out.order.append(order)
        out.a.append(a)
        out.b.append(lit_end)
        out.s.append(s)
        out.e.append(e)
        out.values.append(value)
        at.append(s if value is None else a)
        at_end.append(e if value is None else lit_end)
    out.start, out.width, out.line, out.column = _where(data, at, at_end)
    return out


def _locate_values(data: bytes, hits: tuple[list[int], list[int], list[int], list[int]],
                   spans: list[tuple[int, int]], vals: list[bytes]) -> _Columns:
    """Matches in decoded values (``_value_hits``), each located at its whole literal
    ``spans[index]``."""
    index, starts, ends, orders = hits
    if not index:
        return _Columns.empty()
    if any(map(and_, map(eq, index[1:], index[:-1]), map(lt, starts[1:], ends[:-1]))):
        # overlapping matches keep the earliest, then longest: one by one
        keep, kept_end, current = [], -1, -1
        for k, (i, s, e) in enumerate(zip(index, starts, ends)):
            if i != current:
                current, kept_end = i, -1
            if s >= kept_end:
                kept_end = e
                keep.append(k)
        index, starts, ends, orders = ([c[k] for k in keep] for c in (index, starts, ends, orders))
    at = list(map(spans.__getitem__, index))
    a, b = list(map(itemgetter(0), at)), list(map(itemgetter(1), at))
    base = list(map(add, a, repeat(1)))
    return _Columns(orders, a, b, list(map(add, starts, base)), list(map(add, ends, base)),
                    list(map(vals.__getitem__, index)), *_where(data, a, b))


def _where(data: bytes, pos: list[int], ends: list[int]) -> tuple[list[int], list[int], list[int], list[int]]:
    """Character offsets, widths in characters, lines and columns of the byte spans
    ``pos[i]:ends[i]`` (``pos`` sorted, each at an ASCII byte), without a Python step per span
    where the file is ASCII: each count reads only the bytes since the span before."""
    k = len(pos)
    prev = [0, *pos[:-1]]
    if b"\n" in data:
        lines = list(accumulate(map(data.count, repeat(b"\n"), prev, pos), initial=1))[1:]
        newline = list(accumulate(map(data.rfind, repeat(b"\n"), prev, pos), max))  # the last one before each, or -1
    else:
        lines, newline = [1] * k, []
    if data.isascii():  # a character offset is the byte offset
        return pos, list(map(sub, ends, pos)), lines, list(map(sub, pos, newline or repeat(-1)))
    decode = bytes.decode
    utf8, escape = repeat("utf-8"), repeat("surrogateescape")
    chars = list(accumulate(map(len, map(decode, map(data.__getitem__, map(slice, prev, pos)), utf8, escape))))
    widths = list(map(len, map(decode, map(data.__getitem__, map(slice, pos, ends)), utf8, escape)))
    # The character offset where each one's line starts: after the newline before it, counted from
    # the span before when that newline lies between the two.
    line_start = [0] * k
    last = -1
    for i, nl in enumerate(newline):
        if nl != last:
            last = nl
            line_start[i] = (chars[i - 1] if i else 0) + len(data[prev[i]:nl + 1].decode("utf-8", "surrogateescape"))
        else:
            line_start[i] = line_start[i - 1] if i else 0
    return chars, widths, lines, list(map(add, map(sub, chars, line_start), repeat(1)))


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


def _span(s: Secret) -> tuple[int, int]:
    span: tuple[int, int] = s.span
    return span


def _masked_literal(literal: bytes, group: Sequence[Secret], masks: Sequence[str]) -> bytes:
    """A JSON string literal with the secrets in its value (``group``, in order) replaced by
    ``masks``; still a valid literal. In JSON text nested in the value (found decoded once more,
    ``_unnest``) the mask replaces the escapes the secret was written with."""
    if b"\\" not in literal:  # raw bytes are the value: splice, keep every other byte as it was
        value, pieces, pos = literal[1:-1], [b'"'], 0
        for s, m in zip(group, masks):
            pieces += [value[pos:s.span[0]], m.encode()]
            pos = s.span[1]
        pieces += [value[pos:], b'"']
        return b"".join(pieces)
    text = _decode_literal(literal)
    if text is None:  # not a literal JSON reads (a bad escape): its offsets cannot be trusted, mask it all
        return json.dumps(" ".join(masks)).encode("ascii")
    value, pieces, pos = text.encode("utf-8", "surrogatepass"), [], 0
    nested = b"\\" in value and _NESTED.search(value) is not None
    for s, m in zip(group, masks):
        a, b = _unnest_span(value, *s.span) if nested else s.span
        pieces += [value[pos:max(pos, a)], m.encode()]
        pos = max(pos, b)
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
    from ..errors import InputError
    from ..reading import load

    before = load(original)
    try:
        after = load(masked)
    except InputError as exc:
        raise MaskingError(f"the masked transcript no longer reads ({exc}); a pattern matched more than a secret") from None
    shape = [(t.path, len(t.items)) for t in before.transcripts]
    if after.format != before.format or [(t.path, len(t.items)) for t in after.transcripts] != shape:
        raise MaskingError("masking changed the transcript's structure (a pattern matched a role or a type, not a secret)")
