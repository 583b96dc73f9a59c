"""Issue 15, secret scan speed: the fast scan (built-ins on the file's own bytes, literals with
escapes decoded) finds exactly what the plain definition finds: every built-in pattern run on
every decoded string, object keys included (issue 22), overlapping matches resolved earliest then longest.
Hypothesis over JSON built from fragments that sit on every boundary the fast scan relies on
(quotes, backslashes, escapes, keys, word characters right before a key, non-ASCII text)."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.sharing.redact import ACCEPT, BUILTIN, Redactor, _unnest

R = Redactor.build()
DEFINITION = [(kind, re.compile(p.encode())) for kind, p in BUILTIN]  # the built-ins, run the plain way


def secrets_in(value: str) -> list[tuple[str, str]]:
    """Every built-in pattern on one decoded value (JSON text in it decoded once more, issue 22);
    overlaps keep the earliest, then the longest."""
    raw = value.encode("utf-8", "surrogatepass")
    raw = _unnest(raw) if b"\\" in raw else raw
    hits = []
    for kind, rx in DEFINITION:
        for m in rx.finditer(raw):
            s, e = m.span("secret") if "secret" in rx.groupindex and m.start("secret") >= 0 else m.span()
            if e > s and (kind not in ACCEPT or ACCEPT[kind](raw[s:e])):
                hits.append((s, e, kind))
    kept: list[tuple[int, int, str]] = []
    for s, e, kind in sorted(hits, key=lambda h: (h[0], -h[1])):
        if not kept or s >= kept[-1][1]:
            kept.append((s, e, kind))
    return [(kind, raw[s:e].decode("utf-8", "surrogatepass")) for s, e, kind in kept]

FRAGMENTS = ["AKIA", "ASIA", "0123456789ABCDEF", "XYZ", "sk-", "abc123def456ghi789jk", "Bearer ", "bearer\n",
             "tok_abcdefghij.klmnop", "ghp_", "a" * 36, "xoxb-", "1234567890", "AIza", "x" * 35, "-----BEGIN PRIVATE KEY-----",
             "MIIE\nabc", "-----END PRIVATE KEY-----", '"', "\\", "\n", "é", "✓", " ", ":", "_", "-", "A", "\t", "\u2028"]

PLAIN = [f for f in FRAGMENTS if f.isascii() and not any(c in f for c in '"\\\n\t')]
KEYS = ["AKIA0123456789ABCDEF", "sk-abc123def456ghi789jk", "ghp_" + "a" * 36, "xoxb-1234567890", "AIza" + "x" * 35,
        "Bearer tok_abcdefghij.klmnop"]
# Strings with no escapes (read from the file's bytes), strings with some, and whole keys.
text = st.one_of(st.lists(st.sampled_from(PLAIN + KEYS), max_size=6).map("".join),
                 st.lists(st.sampled_from(FRAGMENTS + KEYS), max_size=8).map("".join))
json_value = st.recursive(
    text | st.integers(-5, 5) | st.none(),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(text, kids, max_size=3),
    max_leaves=12,
)


def expected(value) -> list[tuple[str, str]]:
    """(kind, secret) for every secret in the string values of ``value``, in document order."""
    out: list[tuple[str, str]] = []

    def walk(v):
        if isinstance(v, str):
            out.extend(secrets_in(v))
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)

    walk(value)
    return out


def found(data: bytes) -> list[tuple[str, str]]:
    got = []
    for s in R.scan(data):
        a, b = s.token
        value = json.loads(data[a:b]).encode("utf-8", "surrogatepass")
        value = _unnest(value) if b"\\" in value else value
        got.append((s.kind, value[s.span[0]:s.span[1]].decode("utf-8", "surrogatepass")))
    return got


@settings(max_examples=400, deadline=None)
@given(st.lists(json_value, max_size=6), st.booleans(), st.booleans())
def test_fast_scan_finds_what_the_definition_finds(doc, ascii_only, indent):
    data = json.dumps(doc, ensure_ascii=ascii_only, indent=1 if indent else None).encode("utf-8")
    assert found(data) == expected(doc)


def test_keys_and_escaped_keys_are_secrets_too():
    # issue 22: a secret used as an object key was neither listed nor masked
    data = json.dumps({"AKIA0123456789ABCDEF": 1, "x\nAKIA0123456789ABCDEF": "AKIA0123456789ABCDEX"}).encode()
    assert found(data) == [("AWS access key", "AKIA0123456789ABCDEF"), ("AWS access key", "AKIA0123456789ABCDEF"),
                           ("AWS access key", "AKIA0123456789ABCDEX")]


def test_a_word_character_before_a_key_is_no_boundary():
    assert found(json.dumps(["XAKIA0123456789ABCDEF", "sk_sk-abc123def456ghi789jk", "-AKIA0123456789ABCDEF"]).encode()) \
        == [("AWS access key", "AKIA0123456789ABCDEF")]
