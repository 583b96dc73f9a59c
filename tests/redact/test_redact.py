"""Redaction before sharing: what counts as a secret, the preview, and masking that keeps JSON intact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector
from inspector.sharing.config import ConfigError, Settings
from inspector.sharing.redact import PatternError, Redactor, context, find_secrets, redact

CORPUS = Path("/work/shared/corpus")

OPENAI_KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
ANTHROPIC_KEY = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig_Abc-123"
GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7v\nq2Xx==\n-----END RSA PRIVATE KEY-----"


def transcript(*texts: str) -> bytes:
    msgs = [{"role": "user", "content": t} for t in texts]
    return json.dumps({"messages": msgs}, indent=2).encode()


R = Redactor.build()


@pytest.mark.parametrize(
    ("text", "kind", "secret"),
    [
        (f"use {OPENAI_KEY} please", "API key (sk-)", OPENAI_KEY),
        (f"key={ANTHROPIC_KEY}", "API key (sk-)", ANTHROPIC_KEY),
        (f"aws {AWS_KEY} here", "AWS access key", AWS_KEY),
        (f"Authorization: Bearer {JWT}", "bearer token", JWT),
        (f"curl -H 'authorization: bearer {JWT}'", "bearer token", JWT),
        (f"token {GITHUB}", "GitHub token", GITHUB),
        (f"id_rsa:\n{PEM}\n", "private key", PEM),
    ],
)
def test_each_kind_of_secret_is_found_and_masked(text, kind, secret):
    data = transcript(text)
    found = R.scan(data)
    assert [s.kind for s in found] == [kind]
    masked = R.mask(data)
    assert secret.encode() not in masked
    # every secret character is gone, but the JSON and the surrounding text are intact
    value = json.loads(masked)["messages"][0]["content"]
    assert value == text.replace(secret, f"[REDACTED {kind}]")


@pytest.mark.parametrize(
    "text",
    [
        "the task-scheduler-component-module is fine",
        "sk-learn-compatible-estimator-wrapper",  # sk- without any digit: a word, not a key
        "AKIA is a prefix; AKIA123 is too short",
        "bearer of bad news",
        "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
    ],
)
def test_ordinary_text_is_not_flagged(text):
    assert R.scan(transcript(text)) == []


def test_preview_says_where_and_never_shows_the_whole_secret():
    data = transcript("hello", f"my key is {OPENAI_KEY}")
    [s] = R.scan(data)
    text = data.decode()
    assert text[s.start:s.end] == OPENAI_KEY
    assert (s.line, s.column) == (9, text.splitlines()[8].index("sk-") + 1)
    assert OPENAI_KEY not in s.preview and s.preview.startswith("sk-") and f"({len(OPENAI_KEY)} chars)" in s.preview
    around = context(text, s)
    assert "[REDACTED API key (sk-)]" in around and OPENAI_KEY not in around


def test_masking_keeps_file_layout_and_jsonl():
    lines = [json.dumps({"role": "user", "content": f"k {AWS_KEY}"}), json.dumps({"role": "assistant", "content": "ok"})]
    data = ("\n".join(lines) + "\n").encode()
    masked = R.mask(data)
    assert masked.count(b"\n") == data.count(b"\n")
    assert inspector.load(masked).format == "jsonl"
    assert masked.splitlines()[1] == data.splitlines()[1]


def test_non_utf8_bytes_survive_masking():
    data = b'{"a": "\xff\xfe", "b": "' + AWS_KEY.encode() + b'"}'
    assert R.mask(data) == b'{"a": "\xff\xfe", "b": "[REDACTED AWS access key]"}'


@pytest.mark.parametrize("literal", [
    b'"key \\q ' + AWS_KEY.encode() + b'"',  # an escape JSON does not have
    b'"line\\n ' + AWS_KEY.encode() + b'\x01 raw control byte"',  # a raw control byte beside an escape
])
def test_a_string_json_cannot_decode_is_masked_whole_never_left_as_it_was(literal):
    # Before: the literal came back unchanged when its JSON decode failed, secret and all.
    data = b'{"messages": [{"role": "user", "content": ' + literal + b'}]}'
    found = R.scan(data)
    assert [s.kind for s in found] == ["AWS access key"]
    masked = R.mask(data, found)
    assert AWS_KEY.encode() not in masked
    assert b'"[REDACTED AWS access key]"' in masked


def test_custom_patterns_and_secret_groups():
    # "pin=": a name the built-in credential assignment (issue 33) does not know, so the custom one masks it
    r = Redactor.build([r"INTERNAL-\d{6}", r"pin=(?P<secret>[^\s\"&]+)"])
    data = transcript("ticket INTERNAL-123456 and pin=hunter2&x=1")
    value = json.loads(r.mask(data))["messages"][0]["content"]
    assert value == "ticket [REDACTED custom pattern] and pin=[REDACTED custom pattern]&x=1"


def test_invalid_custom_pattern_is_a_clear_error():
    with pytest.raises(PatternError, match=r"'\(unclosed' is not a valid regular expression"):
        Redactor.build(["(unclosed"])


def test_patterns_from_environment_and_file(tmp_path, monkeypatch):
    f = tmp_path / "patterns.txt"
    f.write_text("# company ids\nACME-[0-9]{4}\n\n")
    monkeypatch.setenv("INSPECTOR_REDACT_PATTERNS", '["CORP[0-9]{3}"]')
    monkeypatch.setenv("INSPECTOR_REDACT_PATTERNS_FILE", str(f))
    masked, found = redact(transcript("ACME-1234 and CORP999 and plain"))
    assert len(found) == 2
    assert json.loads(masked)["messages"][0]["content"] == "[REDACTED custom pattern] and [REDACTED custom pattern] and plain"
    monkeypatch.setenv("INSPECTOR_REDACT_PATTERNS", "ONE[0-9]\nTWO[0-9]")
    assert len(find_secrets(transcript("ONE1 TWO2"))) == 2


def test_unreadable_pattern_settings_name_the_variable(tmp_path):
    with pytest.raises(ConfigError, match="INSPECTOR_REDACT_PATTERNS_FILE"):
        Settings.from_env({"INSPECTOR_REDACT_PATTERNS_FILE": str(tmp_path / "missing")})
    with pytest.raises(ConfigError, match="INSPECTOR_REDACT_PATTERNS"):
        Settings.from_env({"INSPECTOR_REDACT_PATTERNS": "[1, 2]"})


def test_overlapping_matches_are_masked_once():
    r = Redactor.build([r"sk-proj-[A-Za-z0-9]+"])  # overlaps the built-in sk- pattern
    data = transcript(OPENAI_KEY)
    assert len(r.scan(data)) == 1
    assert json.loads(r.mask(data))["messages"][0]["content"].count("REDACTED") == 1


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_masked_corpus_files_still_load_with_the_same_messages():
    """Masking never breaks a real transcript: same format, same number of messages."""
    for path in sorted(CORPUS.rglob("*.json*")):
        if path.name in ("expected.json", "manifest.json"):
            continue
        data = path.read_bytes()
        try:
            before = inspector.load(data)
        except inspector.InputError:
            continue
        # mask generously (every long hex/alnum run) to stress JSON safety
        masked = Redactor.build([r"[A-Za-z0-9]{24,}"]).mask(data)
        after = inspector.load(masked)
        assert after.format == before.format, path
        assert [len(t.items) for t in after.transcripts] == [len(t.items) for t in before.transcripts], path
