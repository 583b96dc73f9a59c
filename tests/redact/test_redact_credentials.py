"""Issue 33, secrets that reached a teammate unmasked: a value after a name that says it is a
credential (env, YAML, JSON, headers), provider keys with or without digits (letters-only
``sk-proj-``, Azure's 32 hex after ``AZURE_OPENAI_API_KEY=``, Twilio ``AC``/``SK``), in UTF-8 and
UTF-16, JSON, JSON Lines and HAR, through ``mask`` and ``inspector share --redact``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector
from inspector.sharing.redact import Redactor, masked_in

R = Redactor.build()
LETTERS_ONLY = "sk-proj-AbcdEfghIjklMnopQrstUvwxYzabCdefGhijKlmnOpqr"
AZURE = "0123456789abcdef0123456789abcdef"
TWILIO_TOKEN = "fedcba9876543210fedcba9876543210"
TWILIO_SK = "SK0123456789abcdef0123456789abcdef"
TWILIO_AC = "AC0123456789abcdef0123456789abcdef"
CLIENT_SECRET = "Zq8vLm3pWx7rTn2k"
DB_PASSWORD = "hunter2hunter2"
YAML_PASSWORD = "s3cr3t-pass"
# The planted tool result of the issue: every value here must not reach the teammate.
PLANTED = (f"OPENAI_API_KEY={LETTERS_ONLY}\nAZURE_OPENAI_API_KEY={AZURE}\nTWILIO_AUTH_TOKEN={TWILIO_TOKEN}\n"
           f"TWILIO_API_KEY_SID={TWILIO_SK}\naccount {TWILIO_AC}\nCLIENT_SECRET: {CLIENT_SECRET}\n"
           f"DB_PASSWORD={DB_PASSWORD}\ndatabase:\n  password: {YAML_PASSWORD}\n")
SECRETS = [LETTERS_ONLY, AZURE, TWILIO_TOKEN, TWILIO_SK, TWILIO_AC, CLIENT_SECRET, DB_PASSWORD, YAML_PASSWORD]


def tool_result(text: str) -> list:
    return [{"role": "user", "content": "run env"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "sh", "arguments": '{"cmd": "env"}'}}]},
            {"role": "tool", "tool_call_id": "c1", "content": text}]


def har_of(text: str) -> dict:
    return {"log": {"version": "1.2", "entries": [{"request": {
        "method": "POST", "url": "https://api.openai.com/v1/chat/completions",
        "headers": [{"name": "Api-Key", "value": AZURE}, {"name": "X-Goog-Api-Key", "value": CLIENT_SECRET + "xx"}],
        "postData": {"mimeType": "application/json", "text": json.dumps({"messages": tool_result(text)})}}}]}}


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le"])
@pytest.mark.parametrize("shape", ["json", "jsonl", "har"])
def test_every_planted_secret_is_masked(shape, encoding):
    if shape == "json":
        text = json.dumps(tool_result(PLANTED))
    elif shape == "jsonl":
        text = "\n".join(json.dumps(m) for m in tool_result(PLANTED)) + "\n"
    else:
        text = json.dumps(har_of(PLANTED))
    data = text.encode(encoding)
    found = R.scan(data)
    masked = R.mask(data, found)
    plain = masked.decode("utf-8-sig")
    for secret in SECRETS:
        assert secret not in plain, secret
    assert masked_in(masked) >= len(SECRETS)
    kinds = {s.kind for s in found}
    assert {"API key (sk-)", "credential assignment", "Twilio SID or key"} <= kinds
    if shape != "har":
        assert inspector.load(masked).transcripts  # still reads


def test_the_names_beside_the_values_stay_readable():
    data = json.dumps(tool_result(PLANTED)).encode()
    content = json.loads(R.mask(data))[2]["content"]
    assert "AZURE_OPENAI_API_KEY=[REDACTED credential assignment]" in content
    assert "DB_PASSWORD=[REDACTED credential assignment]" in content
    assert "  password: [REDACTED credential assignment]" in content
    assert "CLIENT_SECRET: [REDACTED credential assignment]" in content


def test_credential_named_object_keys_of_the_file_itself():
    items = [{"role": "user", "content": "hi", "metadata": {"api_key": "abcdefgh12345678", "DB_PASSWORD": DB_PASSWORD,
                                                             "max_tokens": 4096, "cache_key": "x"}}]
    data = json.dumps(items).encode()
    out = json.loads(R.mask(data))[0]["metadata"]
    assert out["api_key"].startswith("[REDACTED") and out["DB_PASSWORD"].startswith("[REDACTED")
    assert out["max_tokens"] == 4096 and out["cache_key"] == "x"  # not strings / too short to mask everywhere


@pytest.mark.parametrize("text", [
    "max_tokens: 4096", "the key: value", "auth: true", "password: ${DB_PASSWORD}", "password: <your password>",
    "api_key: null", "AUTH_TOKEN=***", "use sk-learn-wrapper-for-this", "the token count: 12",
])
def test_placeholders_and_prose_are_not_flagged(text):
    assert R.scan(json.dumps(tool_result(text)).encode()) == []


@pytest.mark.parametrize(("text", "kind"), [
    ("glpat-" + "a1B2c3D4e5F6g7H8i9J0", "GitLab token"),
    ("npm_" + "a" * 18 + "B" * 18, "npm token"),
    ("SG." + "a" * 22 + "." + "b" * 43, "SendGrid key"),
    ("gsk_" + "Ab" * 26, "AI provider key"),
    ("xai-" + "Ab" * 40, "AI provider key"),
    ("dop_v1_" + "ab12" * 16, "DigitalOcean token"),
    ("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "Slack webhook"),
    ("GOCSPX-" + "a" * 28, "Google OAuth secret"),
    ("123456789:AA" + "b" * 33, "Telegram bot token"),
    ("DefaultEndpointsProtocol=https;AccountName=x;AccountKey=" + "A" * 86 + "==", "Azure storage key"),
    ("sk-ant-api03-" + "AbCdEfGhIj" * 4, "API key (sk-)"),
])
def test_provider_key_formats(text, kind):
    found = R.scan(json.dumps(tool_result(f"here: {text} end")).encode())
    assert [s.kind for s in found] == [kind]


def test_the_redactor_says_how_many_kinds_it_checks():
    kinds = Redactor.build(["ACME-[0-9]+"]).kinds
    assert len(kinds) == len(set(kinds[:-1])) + 1 >= 30
    assert {"credential assignment", "cookie", "HTTP header", "custom pattern"} <= set(kinds)


def test_share_cli_redact_masks_the_planted_set(tmp_path):
    path = tmp_path / "t.json"
    path.write_bytes(json.dumps(tool_result(PLANTED)).encode("utf-16"))
    db = tmp_path / "s.sqlite3"
    env = {"INSPECTOR_STORE_PATH": str(db), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "inspector", "share", "--redact", str(path)],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert f"checked {len(R.kinds)} kinds of secret: " in done.stderr
    from inspector.sharing.store import Store

    token = done.stdout.strip().rsplit("t=", 1)[1].split("&")[0]
    shared = Store(f"sqlite:///{db}").get(token)
    text = shared.data.decode("utf-8-sig")
    for secret in SECRETS:
        assert secret not in text, secret
    assert masked_in(shared.data) >= len(SECRETS)
