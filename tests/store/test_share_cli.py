"""``inspector share`` / ``inspector unshare`` against the configured store (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import subprocess
import sys
from urllib.parse import parse_qs, urlsplit

import pytest

from inspector.cli import main
from inspector.sharing.store import Store

KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
BROKEN = [
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}]},
    {"role": "user", "content": "hello?"},
]


@pytest.fixture
def env(store_url, monkeypatch):
    for name in ("INSPECTOR_REDACT_PATTERNS", "INSPECTOR_REDACT_PATTERNS_FILE", "INSPECTOR_SHARE_TTL_DAYS",
                 "INSPECTOR_SHARE_MAX_BYTES", "INSPECTOR_STORE_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INSPECTOR_STORE_URL", store_url)
    monkeypatch.setenv("INSPECTOR_BASE_URL", "https://inspector.example.internal/")
    return store_url


def write(tmp_path, messages, name="broken.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps({"messages": messages}))
    return str(p)


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["t"][0]


def test_share_prints_a_link_that_opens_the_file_and_view(env, tmp_path, capsys):
    path = write(tmp_path, BROKEN)
    assert main(["share", path, "--target", "anthropic", "--message", "1"]) == 0
    link = capsys.readouterr().out.strip()
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}" == "https://inspector.example.internal"
    assert parse_qs(parts.query)["m"] == ["1"]
    store = Store(env)
    shared = store.get(token_of(link))
    store.close()
    with open(path, "rb") as f:
        assert shared.data == f.read()
    assert shared.name == "broken.json"
    assert shared.view["target"] == "anthropic" and shared.view["selected"] == 1


def test_base_url_and_ttl_options(env, tmp_path, capsys):
    assert main(["share", write(tmp_path, BROKEN), "--base-url", "http://10.0.0.5:8501", "--ttl-days", "2"]) == 0
    link = capsys.readouterr().out.strip()
    assert link.startswith("http://10.0.0.5:8501/?t=") and "&m=" not in link
    store = Store(env)
    shared = store.get(token_of(link))
    store.close()
    assert shared.expires_at - shared.created_at == 2 * 86400


def test_secrets_stop_the_share_unless_redacted(env, tmp_path, capsys):
    path = write(tmp_path, [{"role": "user", "content": f"my key {KEY}"}])
    assert main(["share", path]) == 1
    out = capsys.readouterr()
    assert out.out == "" and "--redact" in out.err and KEY not in out.err
    assert "API key" in out.err and ":1:" in out.err

    assert main(["share", path, "--redact"]) == 0
    link = capsys.readouterr().out.strip()
    store = Store(env)
    data = store.get(token_of(link)).data
    store.close()
    assert KEY.encode() not in data
    assert json.loads(data)["messages"][0]["content"] == "my key [REDACTED API key (sk-)]"


def test_keep_secrets_shares_them_unmasked(env, tmp_path, capsys):
    path = write(tmp_path, [{"role": "user", "content": f"my key {KEY}"}])
    assert main(["share", path, "--keep-secrets"]) == 0
    store = Store(env)
    assert KEY.encode() in store.get(token_of(capsys.readouterr().out.strip())).data
    store.close()


def test_unshare_deletes_by_link(env, tmp_path, capsys):
    assert main(["share", write(tmp_path, BROKEN)]) == 0
    link = capsys.readouterr().out.strip()
    assert main(["unshare", link]) == 0
    store = Store(env)
    assert store.get(token_of(link)) is None
    store.close()
    assert main(["unshare", link]) == 1
    assert "no such share" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda d: str(d / "missing.json"), "no such file"),
        (lambda d: str(d), "is a directory"),
        (lambda d: (d / "bad.json").write_text('{"messages": [') and str(d / "bad.json"), "line 1 column"),
    ],
)
def test_unreadable_input_exits_2_with_one_line(env, tmp_path, capsys, make, expected):
    assert main(["share", make(tmp_path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert expected in out.err and len(out.err.strip().splitlines()) == 1


def test_message_index_out_of_range_is_input_error(env, tmp_path, capsys):
    assert main(["share", write(tmp_path, BROKEN), "--message", "3"]) == 2
    assert "--message 3" in capsys.readouterr().err


def test_too_large_is_refused_with_one_line(env, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("INSPECTOR_SHARE_MAX_BYTES", "50")
    assert main(["share", write(tmp_path, BROKEN)]) == 2
    err = capsys.readouterr().err
    assert "limited to 50 bytes" in err and len(err.strip().splitlines()) == 1


def test_bad_setting_names_the_variable(env, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("INSPECTOR_SHARE_TTL_DAYS", "soon")
    assert main(["share", write(tmp_path, BROKEN)]) == 2
    assert "INSPECTOR_SHARE_TTL_DAYS" in capsys.readouterr().err


def test_unreachable_store_exits_3_without_leaking_the_password(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("INSPECTOR_STORE_URL", "postgresql://user:s3cretpw@127.0.0.1:1/inspector")
    assert main(["share", write(tmp_path, BROKEN)]) == 3
    err = capsys.readouterr().err
    assert "cannot use the share store" in err and "s3cretpw" not in err and "Traceback" not in err


def test_console_script_shares_from_stdin(env, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "share", "-"],
        input=json.dumps(BROKEN).encode(), capture_output=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    link = done.stdout.decode().strip()
    store = Store(env)
    shared = store.get(token_of(link))
    store.close()
    assert json.loads(shared.data) == BROKEN and shared.name == "stdin.json"
