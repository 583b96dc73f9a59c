"""Issue 22, secrets shared unmasked: the scan reads the text the reader reads (UTF-16 and UTF-32,
with or without a byte-order mark), secrets used as object keys, JSON text nested in a string
(HAR ``postData.text``, OTel attributes) written with ``\\u`` escapes, private keys with no END
line, PGP private key blocks, and the kinds gitleaks knows that the first set missed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector
from inspector.sharing.redact import Redactor

R = Redactor.build()
KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"


def doc(*texts: str) -> list:
    return [{"role": "user", "content": t} for t in texts]


def masked_values(data: bytes) -> str:
    """Every string (keys and values) of the masked file, decoded twice where it is JSON text."""
    out = R.mask(data)
    assert inspector.load(out).transcripts  # the masked file still reads
    return json.dumps(json.loads(out.decode("utf-8-sig")))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be", "utf-8-sig"])
def test_a_secret_is_found_and_masked_whatever_the_encoding(encoding):
    data = json.dumps(doc(f"key {KEY}")).encode(encoding)
    found = R.scan(data)
    assert [(s.kind, s.line, s.column) for s in found] == [("API key (sk-)", 1, 35)]
    masked = R.mask(data, found)
    assert KEY not in masked.decode("utf-8-sig")
    assert inspector.load(masked).transcripts[0].items[0]["content"] == "key [REDACTED API key (sk-)]"


def test_share_cli_refuses_a_utf16_file_with_a_key(tmp_path):
    path = tmp_path / "t.json"
    path.write_bytes(json.dumps(doc(f"key {KEY}")).encode("utf-16"))
    env = {"INSPECTOR_STORE_PATH": str(tmp_path / "s.sqlite3"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "inspector", "share", str(path)], capture_output=True, text=True, env=env)
    assert done.returncode == 1, done.stderr
    assert "API key (sk-)" in done.stderr and done.stdout == ""


PEM_BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1+fWIcPm15j9"


@pytest.mark.parametrize(("text", "kind", "secret"), [
    (f"$ cat id_rsa\n-----BEGIN PRIVATE KEY-----\n{PEM_BODY}", "private key", f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY}"),
    (f"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n{PEM_BODY}\n", "private key",
     f"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n{PEM_BODY}"),
    ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF+abcdEFGH\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----", "private key",
     "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF+abcdEFGH\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----"),
    ("pay with sk_live_4eC39HqLyjWDarjtT1zdp7dc now", "Stripe key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    ("rk_test_51H8abcdEFGHijkl0123", "Stripe key", "rk_test_51H8abcdEFGHijkl0123"),
    ("token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "JWT",
     "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    ("HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "Hugging Face token", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS secret access key",
     "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ('{"AccessKeyId": "ASIAXXX", "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}', "AWS secret access key",
     "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("DATABASE_URL=postgresql://admin:hunter2pw@db.internal:5432/app", "password in URL", "hunter2pw"),
    ("mongodb+srv://svc:S3cr%40t@cluster0.example.net/db", "password in URL", "S3cr%40t"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "basic auth", "dXNlcjpwYXNzd29yZA=="),
    ("Cookie: session=abc123; csrftoken=xyz", "cookie", "session=abc123; csrftoken=xyz"),
])
def test_each_new_kind_is_found_and_masked(text, kind, secret):
    data = json.dumps(doc(text)).encode()
    found = R.scan(data)
    assert [s.kind for s in found] == [kind]
    value = json.loads(R.mask(data, found))[0]["content"]
    assert value == text.replace(secret, f"[REDACTED {kind}]")


@pytest.mark.parametrize("text", [
    "a basic understanding of things", "I ate a cookie: it was good", "see https://example.com:8080/path@v2",
    "the secret access key is rotated daily", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
    "eyes on the prize", "hf_ is a prefix",
])
def test_prose_near_the_new_kinds_is_not_flagged(text):
    assert R.scan(json.dumps(doc(text)).encode()) == []


def test_a_secret_used_as_an_object_key_is_listed_and_masked_without_merging_keys():
    aws = "AKIAIOSFODNN7EXAMPLE"
    items = [{"role": "user", "content": "x", "meta": {KEY: 1, aws: 2, "x\n" + aws: 3}}]
    data = json.dumps(items).encode()
    found = R.scan(data)
    assert [s.kind for s in found] == ["API key (sk-)", "AWS access key", "AWS access key"]
    masked = R.mask(data, found)
    meta = json.loads(masked)[0]["meta"]
    assert len(meta) == 3 and sorted(meta.values()) == [1, 2, 3]  # no two keys merged
    assert KEY.encode() not in masked and aws.encode() not in masked


def test_escapes_inside_json_text_nested_in_a_string_are_decoded_and_masked_where_written():
    inner = '{"api_key": "\\u0073k-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", "note": "a\\nb \\u00e9"}'
    har = {"log": {"version": "1.2", "entries": [{"request": {"method": "POST", "url": "https://x/v1/chat/completions",
                                                              "postData": {"mimeType": "application/json", "text": inner}}}]}}
    data = json.dumps(har).encode()
    found = R.scan(data)
    assert [(s.kind, s.preview) for s in found] == [("API key (sk-)", "sk-p…(40 chars)")]
    out = json.loads(R.mask(data, found))
    body = out["log"]["entries"][0]["request"]["postData"]["text"]
    assert json.loads(body) == {"api_key": "[REDACTED API key (sk-)]", "note": "a\nb é"}  # the inner JSON still parses


def test_otel_attribute_with_escaped_key():
    attrs = '[{"role": "user", "content": "use \\u0073k-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"}]'
    span = {"resourceSpans": [{"scopeSpans": [{"spans": [{"attributes": [
        {"key": "gen_ai.input.messages", "value": {"stringValue": attrs}}]}]}]}]}
    data = json.dumps(span).encode()
    assert [s.kind for s in R.scan(data)] == ["API key (sk-)"]
    assert b"Ab3dEf6h" not in R.mask(data)


def test_har_cookies_and_credential_headers_are_masked_by_their_name():
    har = {"log": {"version": "1.2", "entries": [{"request": {
        "method": "POST", "url": "https://api.example/v1/chat/completions",
        "headers": [{"name": "Cookie", "value": "sessionid=abcdef123456; theme=dark"},
                    {"name": "X-Api-Key", "value": "k-0123456789abcdef"},
                    {"name": "Accept", "value": "application/json"}],
        "cookies": [{"name": "sessionid", "value": "abcdef123456"}, {"name": "theme", "value": "dark"}]}}]}}
    data = json.dumps(har).encode()
    kinds = sorted(s.kind for s in R.scan(data))
    assert kinds == ["HTTP header", "HTTP header", "cookie"]
    out = R.mask(data)
    assert b"abcdef123456" not in out and b"k-0123456789abcdef" not in out
    assert b"application/json" in out and b'"dark"' in out


def test_har_authorization_basic_and_response_set_cookie_headers_are_masked_whatever_the_case():
    basic, bearer, cookie = "Basic dXNlcjpwYXNzd29yZA==", "Bearer abcdefghijklmnop1234", "sid=0123456789abcdef; Path=/"
    har = {"log": {"version": "1.2", "entries": [{
        "request": {"method": "POST", "url": "https://api.example/v1/chat/completions", "cookies": [],
                    "headers": [{"name": "Authorization", "value": basic}, {"name": "authorization", "value": bearer}]},
        "response": {"status": 200, "headers": [{"name": "Set-Cookie", "value": cookie}]}}]}}
    data = json.dumps(har).encode()
    assert [s.kind for s in R.scan(data)] == ["HTTP header"] * 3
    entry = json.loads(R.mask(data))["log"]["entries"][0]
    values = [h["value"] for h in entry["request"]["headers"] + entry["response"]["headers"]]
    assert values == ["[REDACTED HTTP header]"] * 3


# --- your own patterns are bounded (issue 22) ------------------------------------------------------

def test_too_many_too_long_or_empty_patterns_are_refused_with_the_reason():
    from inspector.sharing.redact import MAX_PATTERN_CHARS, MAX_PATTERNS, PatternError

    with pytest.raises(PatternError, match=f"more than the {MAX_PATTERNS}"):
        Redactor.build([f"secret{i}=\\w+" for i in range(MAX_PATTERNS + 1)])
    with pytest.raises(PatternError, match=f"at most {MAX_PATTERN_CHARS}"):
        Redactor.build(["x" * (MAX_PATTERN_CHARS + 1)])
    for empty in ("", "a*", "(?:x)?"):
        with pytest.raises(PatternError, match="matches the empty string"):
            Redactor.build([empty])


def test_patterns_that_take_longer_than_the_budget_stop_the_scan_with_a_sentence():
    from inspector.sharing.redact import ScanTooLong

    cjk = "漢字かな交じり文" * 40
    data = json.dumps([{"role": "user", "content": cjk} for _ in range(1500)], ensure_ascii=False).encode()
    slow = Redactor.build(["[^\\n]{1000}X"], budget=1e-9)  # no time at all: the first window is past it
    with pytest.raises(ScanTooLong, match="more than 1e-09 s on this file"):
        slow.scan(data)
    assert Redactor.build(["[^\\n]{1000}X"]).scan(data[:20_000]) == []  # within the default budget


def test_share_cli_says_when_the_patterns_ran_out_of_time(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc("hello " * 1000)))
    env = {"INSPECTOR_STORE_PATH": str(tmp_path / "s.sqlite3"), "PATH": "/usr/bin:/bin",
           "INSPECTOR_REDACT_PATTERNS": json.dumps(["[^\\n]{100}X"]), "INSPECTOR_REDACT_SECONDS": "0.000000001"}
    done = subprocess.run([sys.executable, "-m", "inspector", "share", str(path)], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert "not shared" in done.stderr and "masking patterns took more than" in done.stderr
