"""Issue 15, secret scan speed: the scan that finds secrets without a Python step per secret
still says exactly where each one is. A secret in a string without escapes is located at
itself (character offset, line and column of the file's text); one in a string with escapes at
its whole string literal; ``token``/``span`` name the literal and the secret's bytes in its
decoded value, and masking rewrites only those. Many secrets on one line, in one string, after
escapes, next to an escaped quote, written with ``\\u`` escapes, in non-ASCII text over many
lines: all located right."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.sharing.redact import Redactor, _unnest

R = Redactor.build()
AWS = "AKIA%016d"
SK = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t"
PEM = "-----BEGIN PRIVATE KEY-----\nMIIEowIB\n-----END PRIVATE KEY-----"


def where(text: str, start: int) -> tuple[int, int]:
    """1-based line and column of character offset ``start``."""
    line = text.count("\n", 0, start) + 1
    return line, start - (text.rfind("\n", 0, start) + 1) + 1


def check(data: bytes, extra: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Every secret's location agrees with the file; returns (kind, secret) in file order."""
    r = Redactor.build(extra) if extra else R
    text = data.decode("utf-8", "surrogateescape")
    found = r.scan(data)
    out = []
    for s in found:
        a, b = s.token
        literal = data[a:b]
        assert literal[:1] == b'"' and literal[-1:] == b'"'
        value = json.loads(literal).encode("utf-8", "surrogatepass")
        value = _unnest(value) if b"\\" in value else value  # JSON text in the value: decoded once more
        secret = value[s.span[0]:s.span[1]].decode("utf-8", "surrogatepass")
        assert (s.line, s.column) == where(text, s.start)
        if b"\\" in literal or extra:  # located at its whole literal (custom patterns too)
            assert text[s.start:s.end] == literal.decode("utf-8", "surrogateescape")
        else:
            assert text[s.start:s.end] == secret
        out.append((s.kind, secret))
    assert [s.token for s in found] == sorted(s.token for s in found)
    return out


def test_many_keys_on_one_line_each_located_where_it_is():
    data = json.dumps([{"role": "user", "content": f"k {AWS % i}"} for i in range(3000)]).encode()
    found = R.scan(data)
    assert len(found) == 3000
    assert check(data) == [("AWS access key", AWS % i) for i in range(3000)]
    assert {s.line for s in found} == {1}
    assert found[-1].column == data.decode().index(AWS % 2999) + 1


def test_many_keys_in_one_string_share_its_literal_and_each_masks_alone():
    content = " ".join(AWS % i for i in range(2000))
    data = json.dumps([{"role": "user", "content": content}]).encode()
    found = R.scan(data)
    assert check(data) == [("AWS access key", AWS % i) for i in range(2000)]
    assert len({s.token for s in found}) == 1
    assert "AKIA" not in found[5].around and found[5].around.count("[REDACTED AWS access key]") >= 2
    masked = json.loads(R.mask(data))[0]["content"]
    assert masked == " ".join(["[REDACTED AWS access key]"] * 2000)


def test_keys_after_escapes_are_found_and_located_at_their_literal():
    msgs = [{"role": "user", "content": f"k\n{AWS % i}\t{SK}"} for i in range(500)]
    data = json.dumps(msgs).encode()
    got = check(data)
    assert got == [kind_secret for i in range(500) for kind_secret in
                   (("AWS access key", AWS % i), ("API key (sk-)", SK))]
    first = R.scan(data)[0]
    assert data.decode()[first.start:first.end] == json.dumps(f"k\n{AWS % 0}\t{SK}")
    assert first.preview.startswith("AK") and first.around == "k [REDACTED AWS access key] [REDACTED API key (sk-)]"
    assert json.loads(R.mask(data))[3]["content"] == "k\n[REDACTED AWS access key]\t[REDACTED API key (sk-)]"


def test_secrets_only_seen_once_decoded():
    # written with \u escapes; an escape as the boundary before it; a private key over \n escapes;
    # an escaped quote right before and after a key
    values = ["\\u0041KIA0123456789ABCDEF", "x\\nsk-abc123def456ghi789jk", json.dumps(PEM)[1:-1],
              '\\"AKIA0123456789ABCDEF\\"', "Bearer\\ntok_abcdefghij.klmnop"]
    data = ("[" + ",".join(f'"{v}"' for v in values) + "]").encode()
    assert check(data) == [("AWS access key", "AKIA0123456789ABCDEF"), ("API key (sk-)", "sk-abc123def456ghi789jk"),
                           ("private key", PEM), ("AWS access key", "AKIA0123456789ABCDEF"),
                           ("bearer token", "tok_abcdefghij.klmnop")]
    masked = json.loads(R.mask(data))
    assert masked == ["[REDACTED AWS access key]", "x\n[REDACTED API key (sk-)]", "[REDACTED private key]",
                      '"[REDACTED AWS access key]"', "Bearer\n[REDACTED bearer token]"]


def test_a_word_character_written_as_an_escape_is_still_a_boundary():
    # "\u0058" is X: decoded, the key follows a word character and is none
    data = b'["\\u0058AKIA0123456789ABCDEF", "\\u002dAKIA0123456789ABCDEF"]'
    assert check(data) == [("AWS access key", "AKIA0123456789ABCDEF")]
    second = data.index(b'"\\u002d')
    assert R.scan(data)[0].token == (second, len(data) - 1)


def test_non_ascii_text_over_many_lines_counts_characters():
    msgs = [{"role": "user", "content": f"é✓ {AWS % i} 😀 {SK}"} for i in range(400)]
    for indent in (None, 1):
        data = json.dumps(msgs, ensure_ascii=False, indent=indent).encode()
        assert check(data) == [ks for i in range(400) for ks in (("AWS access key", AWS % i), ("API key (sk-)", SK))]
    escaped = json.dumps([{"content": f"é\n{AWS % 1}"}, {"content": f"✓ {AWS % 2}"}], ensure_ascii=False, indent=2)
    assert check(escaped.encode()) == [("AWS access key", AWS % 1), ("AWS access key", AWS % 2)]


def test_keys_are_secrets_too_whatever_follows_them():
    # issue 22: a secret used as an object key was neither listed nor masked
    data = (f'{{"{AWS % 1}": 1, "{AWS % 2}" : 2, "{AWS % 3}"\n:3, "a\\n{AWS % 4}": 4, "v": "{AWS % 5}"}}').encode()
    assert check(data) == [("AWS access key", AWS % i) for i in range(1, 6)]
    assert len(json.loads(R.mask(data))) == 5  # numbered masks: no two keys merge


def test_overlapping_matches_keep_the_earliest_then_longest():
    # "Bearer sk-..." is a bearer token and an API key from the same byte: the API key (the
    # longer, here) wins, in a string with escapes as well as without
    token = "sk-abc123def456ghi789jk"
    data = json.dumps([f"Bearer {token}", f"Bearer {token}.x", f"x\nBearer {token}.x"]).encode()
    assert check(data) == [("API key (sk-)", token), ("bearer token", token + ".x"), ("bearer token", token + ".x")]


def test_custom_patterns_locate_at_the_literal_with_built_ins():
    data = json.dumps([f"pw=hunter2 {AWS % 1}", f"a\nb {AWS % 2}", "nothing"]).encode()
    got = check(data, (r"pw=(?P<secret>\w+)",))
    assert got == [("custom pattern", "hunter2"), ("AWS access key", AWS % 1), ("AWS access key", AWS % 2)]


def test_bytes_that_are_not_utf8_next_to_escaped_secrets():
    data = b'["\xff\xfe \\n AKIA0123456789ABCDEF", "\xe9 AKIA0123456789ABCDEG"]'
    found = R.scan(data)
    comma = data.index(b'", "')
    assert [(s.kind, s.token) for s in found] == [("AWS access key", (1, comma + 1)),
                                                  ("AWS access key", (comma + 3, len(data) - 1))]
    masked = R.mask(data)
    assert b"AKIA" not in masked and masked.count(b"[REDACTED AWS access key]") == 2


PIECES = ["k ", "AKIA0123456789ABCDEF", "sk-abc123def456ghi789jk", "Bearer tok_abcdefghij.klmnop", "xoxb-1234567890",
          "\n", '"', "\\", "é", "😀", " ", "-", "X", "\t", "\x00", "\u2028"]
text = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)
doc = st.lists(st.dictionaries(st.sampled_from(["role", "content", "x\ny", "AKIA0123456789ABCDEF"]), text, max_size=3),
               max_size=8)


@settings(max_examples=300, deadline=None)
@given(doc, st.booleans(), st.sampled_from([None, 1]), st.booleans())
def test_every_secret_located_where_it_is(value, ascii_only, indent, jsonl):
    if jsonl:
        data = "\n".join(json.dumps(v, ensure_ascii=ascii_only) for v in value).encode()
    else:
        data = json.dumps(value, ensure_ascii=ascii_only, indent=indent).encode()
    check(data)
    masked = R.mask(data)
    for line in masked.splitlines() if jsonl else [masked]:
        json.loads(line)
