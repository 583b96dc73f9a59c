"""Issue 15: hostile input to the readers. Streams have a byte cap, binary stops at the first
chunk, a silent pipe times out only when asked to, and each refusal is one line saying what and
where (surrogates, huge numbers, nesting, UTF-16/32, empty paths)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

import inspector
from inspector import loading
from inspector.errors import InputError
from inspector.jsonio import parse

MSGS = [{"role": "user", "content": "héllo"}, {"role": "assistant", "content": "ok"}]


def run(*args, stdin=None, env=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "inspector", *args], input=stdin, capture_output=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


class Endless:
    """A stream that never ends (like `yes`), counting what was read from it."""

    def __init__(self, byte: bytes):
        self.byte, self.read_total = byte, 0
        self.buffer = self

    def read(self, n=-1):
        n = 1 << 20 if n is None or n < 0 else n
        self.read_total += n
        return self.byte * n


def test_dev_zero_stops_at_the_first_chunk():
    for args in (["check", "/dev/zero"], ["check", "-"]):
        with open("/dev/zero", "rb") as zero:
            done = subprocess.run([sys.executable, "-m", "inspector", *args], stdin=zero, capture_output=True, timeout=120)
        assert done.returncode == 2
        assert b"binary" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_endless_text_stream_is_capped(monkeypatch):
    monkeypatch.setattr(loading, "MAX_BYTES", 8 << 20)
    stream = Endless(b" ")
    monkeypatch.setattr(sys, "stdin", stream)
    with pytest.raises(InputError, match="more than the 2 GB"):
        loading.read_source("-")
    assert stream.read_total <= (8 << 20) + (2 << 20)  # the cap, plus at most a chunk or buffer


def test_silent_fifo_times_out_only_when_asked(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = run("check", str(fifo), env={"INSPECTOR_READ_TIMEOUT": "0.5"})
    assert done.returncode == 2 and b"no end of input after 0.5 s" in done.stderr

    def write_later():
        with open(fifo, "wb") as f:
            f.write(json.dumps(MSGS).encode())

    threading.Timer(0.5, write_later).start()
    done = run("check", str(fifo))  # no timeout asked: it waits for the writer
    assert done.returncode == 0, done.stderr


def test_bad_timeout_setting_is_one_line():
    done = run("check", "-", stdin=b"[]", env={"INSPECTOR_READ_TIMEOUT": "nan"})
    assert done.returncode == 2 and b"INSPECTOR_READ_TIMEOUT" in done.stderr


def test_empty_path_says_so():
    done = run("check", "")
    assert done.returncode == 2 and b"the path is empty" in done.stderr and b"directory" not in done.stderr


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_files_are_read(tmp_path, encoding):
    p = tmp_path / "t.json"
    p.write_bytes(json.dumps(MSGS, ensure_ascii=False).encode(encoding))
    doc = inspector.load(str(p))
    assert doc.transcripts[0].items == MSGS


def test_broken_utf16_names_the_encoding():
    with pytest.raises(InputError, match="UTF-16-LE"):
        parse(b"\xff\xfe[\x00{\x00\x00\xd8")


@pytest.mark.parametrize(("text", "where", "what"), [
    ('[{"role": "user", "content": "a \\ud800 b"}]', "line 1 column 33", "surrogate pair"),
    ('[{"role": "user", "content": "\\udc00"}]', "line 1 column 31", "surrogate pair"),
    ('[{"role": "user", "content": "x", "n": 1e400}]', "line 1 column 40", "too large"),
    ("[" * 2000 + "]" * 2000, "line 1 column 1025", "1024 levels"),
])
def test_values_orjson_cannot_hold_are_named_with_a_location(text, where, what):
    with pytest.raises(InputError) as exc:
        parse(text.encode())
    assert str(exc.value).startswith(where) and what in str(exc.value)


def test_escaped_backslash_and_real_pairs_are_not_lone_surrogates():
    data = '[{"role": "user", "content": "\\\\ud800 \\ud83d\\ude00"}, {"n": 1e400}]'
    with pytest.raises(InputError, match="too large"):
        parse(data.encode())


def test_integers_beyond_64_bits_stay_exact():
    data = b'[{"role": "user", "content": "x", "n": 18446744073709551616, "m": -9223372036854775809, "k": 5}]'
    value, _ = parse(data)
    assert value[0]["n"] == 2**64 and value[0]["m"] == -(2**63) - 1 and isinstance(value[0]["n"], int)
    out = inspector.repair(data + b"\n").output
    assert b"18446744073709551616" in out and b"-9223372036854775809" in out
    jsonl = b'{"role": "user", "content": "x", "n": 18446744073709551616}\n{"role": "assistant", "content": "y"}\n'
    value, fmt = parse(jsonl)
    assert fmt == "jsonl" and value[0]["n"] == 2**64


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["repair", "-"], ["check", "--format", "json", "-"]])
def test_full_disk_is_named_not_reported_as_a_bug(args):
    broken = json.dumps([{"role": "tool", "tool_call_id": "x", "content": "r"}]).encode()
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "inspector", *args], input=broken, stdout=full,
                              stderr=subprocess.PIPE, timeout=120)
    assert done.returncode == 2
    assert b"No space left on device" in done.stderr and b"please report" not in done.stderr
