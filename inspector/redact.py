"""Find secrets in a transcript before it is shared, show where they are, and mask them.

Transcripts carry whatever the agent saw: API keys in tool arguments, bearer tokens in logged
HTTP headers, private keys read from disk. Sharing must not spread them, so the share flow offers
to mask them first and shows a preview of what will change (kind, line and column, a few
characters of each secret, never the whole of it).

The scan runs over the file's text, not over parsed values, so masking changes nothing but the
secrets themselves: the wrapper, key order, whitespace and JSON Lines layout survive, and the
masked file still parses. Masks contain no quote or backslash, and the built-in patterns cannot
cross a JSON string boundary. A secret written with ``\\uXXXX`` escapes is not recognised.

Extra patterns come from ``INSPECTOR_REDACT_PATTERNS`` / ``INSPECTOR_REDACT_PATTERNS_FILE`` (see
``inspector.config``) or from the caller. A pattern with a group named ``secret`` masks only that
group (``password=(?P<secret>\\w+)`` keeps ``password=``); otherwise the whole match is masked.
This module is pure: no I/O beyond reading the environment in ``from_env``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

# (kind, pattern). Each pattern stops at characters that cannot be part of the secret, and at `"`.
BUILTIN: tuple[tuple[str, str], ...] = (
    ("private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[^\"]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
    ("API key (sk-)", r"(?<![A-Za-z0-9_-])sk-(?=[A-Za-z_-]*[0-9])[A-Za-z0-9][A-Za-z0-9_-]{19,}"),
    ("AWS access key", r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"),
    ("bearer token", r"(?i:bearer)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
    ("GitHub token", r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})"),
    ("Slack token", r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}"),
    ("Google API key", r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}"),
)


# Literal text each built-in pattern cannot match without (lower-cased for "bearer", which is
# matched case-insensitively). A pattern whose anchors are all absent is skipped: a substring
# search runs at memory speed, while a pattern with a look-behind is tried at every position
# (seconds on a 20 MB transcript that holds no secret at all).
ANCHORS: dict[str, tuple[str, ...]] = {
    "private key": ("PRIVATE KEY-----",),
    "API key (sk-)": ("sk-",),
    "AWS access key": ("AKIA", "ASIA"),
    "bearer token": ("bearer",),
    "GitHub token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "Slack token": ("xox",),
    "Google API key": ("AIza",),
}
_LOWERED = frozenset({"bearer token"})


class PatternError(ValueError):
    """A configured pattern is not a valid regular expression."""


@dataclass(frozen=True)
class Secret:
    """One place where a secret was found (offsets are into the decoded text)."""

    kind: str
    start: int
    end: int
    line: int
    column: int
    preview: str  # a few characters and the length; never the whole secret

    @property
    def mask(self) -> str:
        return f"[REDACTED {self.kind}]"


@dataclass(frozen=True)
class Redactor:
    """A compiled set of patterns; build one with ``Redactor.from_env()`` or ``Redactor(extra=...)``."""

    patterns: tuple[tuple[str, re.Pattern[str]], ...]

    @classmethod
    def build(cls, extra: Iterable[str] = ()) -> "Redactor":
        compiled = [(kind, re.compile(p)) for kind, p in BUILTIN]
        for p in extra:
            try:
                compiled.append(("custom pattern", re.compile(p)))
            except re.error as exc:
                raise PatternError(f"redaction pattern {p!r} is not a valid regular expression: {exc}") from None
        return cls(tuple(compiled))

    @classmethod
    def from_env(cls, extra: Iterable[str] = ()) -> "Redactor":
        from .config import Settings

        return cls.build([*Settings.from_env().redact_patterns, *extra])

    def find(self, text: str) -> list[Secret]:
        """Every secret in ``text``, in order; overlapping matches keep the earliest, then longest."""
        spans: list[tuple[int, int, str]] = []
        lowered: str | None = None
        for kind, rx in self.patterns:
            anchors = ANCHORS.get(kind) if kind != "custom pattern" else None
            if anchors is not None:
                if kind in _LOWERED:
                    lowered = text.lower() if lowered is None else lowered
                    haystack = lowered
                else:
                    haystack = text
                if not any(a in haystack for a in anchors):
                    continue
            for m in rx.finditer(text):
                start, end = m.span("secret") if "secret" in rx.groupindex and m.group("secret") else m.span()
                if end > start:
                    spans.append((start, end, kind))
        spans.sort(key=lambda s: (s[0], -s[1]))
        found: list[Secret] = []
        last_end = -1
        for start, end, kind in spans:
            if start < last_end:
                continue
            line = text.count("\n", 0, start) + 1
            column = start - (text.rfind("\n", 0, start) + 1) + 1
            found.append(Secret(kind, start, end, line, column, _preview(text[start:end])))
            last_end = end
        return found

    def scan(self, data: bytes) -> list[Secret]:
        return self.find(_decode(data))

    def mask(self, data: bytes, secrets: Sequence[Secret] | None = None) -> bytes:
        """``data`` with every secret replaced by ``[REDACTED <kind>]``; the rest is unchanged."""
        text = _decode(data)
        found = self.find(text) if secrets is None else secrets
        out, pos = [], 0
        for s in found:
            out += [text[pos:s.start], s.mask]
            pos = s.end
        out.append(text[pos:])
        return "".join(out).encode("utf-8", "surrogateescape")


def _decode(data: bytes) -> str:
    # surrogateescape: bytes that are not UTF-8 survive masking unchanged.
    return data.decode("utf-8", "surrogateescape")


def _preview(secret: str) -> str:
    """Enough to recognise a secret, not enough to use it: ``sk-p…(51 chars)``."""
    head = secret[: min(4, max(1, len(secret) // 8))]
    return f"{head}…({len(secret)} chars)"


def context(text: str, secret: Secret, width: int = 40) -> str:
    """The text around a secret with the secret already masked, on one line (for previews)."""
    before = text[max(0, secret.start - width): secret.start]
    after = text[secret.end: secret.end + width]
    line = f"{before}{secret.mask}{after}"
    return " ".join(line.split())


def find_secrets(data: bytes, extra: Iterable[str] = ()) -> list[Secret]:
    """Secrets in ``data`` using the built-in and configured patterns plus ``extra``."""
    return Redactor.from_env(extra).scan(data)


def redact(data: bytes, extra: Iterable[str] = ()) -> tuple[bytes, list[Secret]]:
    """``(masked bytes, what was masked)`` using the built-in and configured patterns plus ``extra``."""
    r = Redactor.from_env(extra)
    found = r.scan(data)
    return r.mask(data, found), found
