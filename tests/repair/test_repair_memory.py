"""Issue 15, memory per byte: repair holds no copy of a file's bytes (it reads an unchanged file
again) and writes its output in pieces. The pieces are the same bytes as one write."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector
from inspector import writing
from inspector.errors import InputError

ORPHAN = [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "call_x", "content": "r"}]


@pytest.mark.parametrize("root", [
    [{"role": "user", "content": f"m{k}", "n": [k, {"x": None}]} for k in range(23)],
    [[], {}, [1, [2, [3]]], "s", 1.5],
    {"messages": [{"role": "user", "content": "x"}] * 7},
    [],
])
@pytest.mark.parametrize("pretty", [True, False])
def test_pieces_are_the_bytes_of_one_write(root, pretty, monkeypatch):
    monkeypatch.setattr(writing, "STREAM_ITEMS", 3)
    assert b"".join(writing.serialise_pieces(root, "json", pretty)) == writing.serialise(root, "json", pretty)
    if type(root) is list:
        assert b"".join(writing.serialise_pieces(root, "jsonl", pretty)) == writing.serialise(root, "jsonl", pretty)


def test_an_unchanged_file_is_read_again_byte_for_byte(tmp_path):
    p = tmp_path / "ok.json"
    raw = b'[ {"role": "user",   "content": "hi"} ]\n'
    p.write_bytes(raw)
    result = inspector.repair(str(p))
    assert result.unchanged and result.output == raw


def test_a_file_changed_during_repair_is_not_passed_off_as_the_input(tmp_path):
    p = tmp_path / "ok.json"
    p.write_bytes(b'[{"role": "user", "content": "hi"}]')
    result = inspector.repair(str(p))
    p.write_bytes(b'[{"role": "user", "content": "ho"}]')  # same size, other bytes
    with pytest.raises(InputError, match="changed while it was being repaired"):
        _ = result.output


def test_repair_onto_its_own_unchanged_input_keeps_it(tmp_path):
    p = tmp_path / "ok.json"
    raw = b'[{"role": "user", "content": "hi"}]\n'
    p.write_bytes(raw)
    done = subprocess.run([sys.executable, "-m", "inspector", "repair", str(p), "-o", str(p)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert p.read_bytes() == raw


def test_streamed_cli_output_is_the_api_output(tmp_path, monkeypatch):
    msgs = [m for k in range(3000) for m in ({"role": "user", "content": f"q{k}"},
                                             {"role": "tool", "tool_call_id": f"c{k}", "content": "r"})]
    p = tmp_path / "in.json"
    p.write_text(json.dumps(msgs, indent=2))
    out = tmp_path / "out.json"
    done = subprocess.run([sys.executable, "-m", "inspector", "repair", str(p), "-o", str(out)],
                          capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    assert out.read_bytes() == inspector.repair(str(p)).output
    assert out.read_bytes().startswith(b"[\n  {")


def test_arguments_are_validated_in_batches_and_a_bad_one_in_a_later_batch_is_found(monkeypatch):
    from inspector.dialects import openai_chat

    monkeypatch.setattr(openai_chat, "_ARGS_BATCH", 3)
    msgs = [{"role": "user", "content": "go"}]
    for k in range(10):
        args = '{"a": 1}' if k != 7 else '{"a": '
        msgs += [{"role": "assistant", "content": None, "tool_calls": [
                     {"id": f"call_{k}", "type": "function", "function": {"name": "f", "arguments": args}}]},
                 {"role": "tool", "tool_call_id": f"call_{k}", "content": "ok"}]
    [f] = [f for f in inspector.check(msgs).findings if f.code == "TC011"]
    assert f.tool_call_id == "call_7"


def test_repair_onto_its_own_input_when_untouched_lines_are_read_again(tmp_path):
    # JSON Lines of messages: lines repair did not touch are copied from the input file while
    # the output is written, so writing onto the input must read it first
    p = tmp_path / "m.jsonl"
    p.write_bytes(b'{"role": "user",  "content": "hi"}\n{"role":"tool","tool_call_id":"call_x","content":"r"}\n'
                  b'{"role":"user","content":"more"}\n')
    done = subprocess.run([sys.executable, "-m", "inspector", "repair", str(p), "-o", str(p)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert p.read_bytes() == b'{"role": "user",  "content": "hi"}\n{"role":"user","content":"more"}\n'
