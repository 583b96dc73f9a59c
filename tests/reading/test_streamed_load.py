"""Issue 15, memory per byte: a big JSON array in a file is parsed while it is read, a few MB at a
time, so its text is never held whole beside its parsed value. The streamed read must give
exactly what reading the whole text gives, and hand over to it whenever it cannot vouch for a
piece (a repeated key, an integer beyond 64 bits, text that is not JSON, another encoding)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import inspector
from inspector import jsonio, reading
from inspector.reading import load, load_bytes


@pytest.fixture
def small_pieces(monkeypatch):
    """Every file of 64 bytes or more is streamed, in pieces of 32 bytes."""
    monkeypatch.setattr(reading, "PIECES_FROM", 64)
    monkeypatch.setattr(jsonio, "PIECE", 32)
    streamed = []
    real = reading.loads_stream

    def spy(read, limit):
        value = real(read, limit)
        streamed.append(value is not None)
        return value

    monkeypatch.setattr(reading, "loads_stream", spy)
    return streamed


def _same(doc_a, doc_b):
    assert doc_a.root == doc_b.root and doc_a.format == doc_b.format
    assert doc_a.duplicate_keys == doc_b.duplicate_keys and doc_a.lines == doc_b.lines
    assert [t.path for t in doc_a.transcripts] == [t.path for t in doc_b.transcripts]


def _load_file(tmp_path, text: bytes):
    """``load`` of ``text`` written to a file, checked against ``load_bytes`` of the same text."""
    p = tmp_path / "t.json"
    p.write_bytes(text)
    doc = load(str(p))
    _same(doc, load_bytes(text, str(p), typed=False))  # the dict reading of the whole text
    return doc


MESSAGES = [{"role": "user", "content": f"question {k}: {'x' * (k % 7)}"} for k in range(40)]


@pytest.mark.parametrize("text", [
    json.dumps(MESSAGES).encode(),                                   # as Python writes it
    json.dumps(MESSAGES, separators=(",", ":")).encode() + b"\n",    # compact, final newline
    json.dumps(MESSAGES, indent=2).encode(),                         # indented
    b"\xef\xbb\xbf" + json.dumps(MESSAGES).encode(),                 # with a byte-order mark
])
def test_a_streamed_array_reads_as_the_whole_text_reads(tmp_path, small_pieces, text):
    doc = _load_file(tmp_path, text)
    assert small_pieces == [True]
    assert doc.source == str(tmp_path / "t.json")


@pytest.mark.parametrize("text", [
    # a key repeated in a later piece: the whole read finds it, with its path and both values
    json.dumps(MESSAGES).encode().replace(b'"content": "question 30', b'"content": "first", "content": "question 30'),
    # an integer beyond 64 bits in a later piece stays exact
    json.dumps(MESSAGES).encode().replace(b'"content": "question 31', b'"n": 18446744073709551616, "content": "question 31'),
])
def test_a_piece_that_may_have_lost_something_hands_over_to_the_whole_read(tmp_path, small_pieces, text):
    doc = _load_file(tmp_path, text)
    assert small_pieces == [False]
    if b"18446744073709551616" in text:
        assert doc.root[31]["n"] == 18446744073709551616
    else:
        [d] = doc.duplicate_keys
        assert d["path"] == (30, "content") and d["values"] == ["first", "question 30: xx"]


@pytest.mark.parametrize("text, why", [
    (json.dumps(MESSAGES).encode()[:-40], "line 1 column"),            # cut short
    (json.dumps(MESSAGES).encode() + b" trailing", "line 1 column"),   # something after the array
    (json.dumps({"messages": MESSAGES}).encode(), None),               # not an array: read whole
    ("\n".join(json.dumps(m) for m in MESSAGES).encode(), None),       # JSON Lines: read whole
    (json.dumps(MESSAGES).encode("utf-16"), None),                     # UTF-16: transcoded whole
])
def test_what_the_stream_cannot_read_is_read_whole_with_the_usual_answer(tmp_path, small_pieces, text, why):
    p = tmp_path / "t.json"
    p.write_bytes(text)
    if why:
        with pytest.raises(inspector.InputError, match=why) as streamed_error:
            load(str(p))
        with pytest.raises(inspector.InputError) as whole_error:
            load_bytes(text, str(p))
        assert str(streamed_error.value) == str(whole_error.value)
    else:
        _same(load(str(p)), load_bytes(jsonio.decode_text(text), str(p), typed=False))
    assert small_pieces in ([], [False])


CODE_OUTPUTS = [{"role": "tool", "tool_call_id": f"call_{k}",
                 "content": "rows = [{'a': 1}, {'b': 2}],\n" * 12 + ("ends with }, {" if k % 5 == 0 else "")}
                for k in range(60)]


def test_strings_full_of_code_are_still_read_a_piece_at_a_time(tmp_path, small_pieces, monkeypatch):
    """Tool outputs carry code and JSON, with ``}, `` on every other line. The stream used to cut
    there, inside strings, fail to parse, and after eight misses read a piece sixteen times as
    long: a 100 MB file of real trajectories was read in 50 MB pieces, and check's peak was 3.1x
    the file, repair's 5.2x. Now it cuts before the next object, and a cut that still falls
    inside a string (one ending in ``}, {``) only costs a miss."""
    monkeypatch.setattr(jsonio, "PIECE", 1000)
    sizes = []
    real = jsonio._read

    def spy(text):
        sizes.append(len(text))
        return real(text)

    monkeypatch.setattr(jsonio, "_read", spy)
    for indent in (None, 2):
        text = json.dumps(CODE_OUTPUTS, indent=indent).encode()
        (tmp_path / "t.json").write_bytes(text)
        sizes.clear()
        doc = load(str(tmp_path / "t.json"))
        assert small_pieces[-1] is True and len(sizes) > 10 and max(sizes) < 3 * jsonio.PIECE, sizes
        _same(doc, load_bytes(text, str(tmp_path / "t.json"), typed=False))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                             lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=4), c, max_size=4),
                             max_leaves=12), max_size=25),
       st.sampled_from([None, 1]))
def test_any_array_streams_to_the_same_value(values, indent):
    text = json.dumps(values, indent=indent).encode()
    old = jsonio.PIECE
    jsonio.PIECE = 16
    try:
        got = jsonio.loads_stream(iter_reader(text), 1 << 30)
    finally:
        jsonio.PIECE = old
    assert got is None or got == values  # None hands over to the whole read
    if got is None:
        assert jsonio.parse(text)[0] == values


def iter_reader(text: bytes):
    pos = 0

    def read(n):
        nonlocal pos
        chunk = text[pos:pos + n]
        pos += len(chunk)
        return chunk

    return read


def test_the_cli_checks_a_streamed_file_as_it_checks_the_whole_text(tmp_path):
    """The CLI gives the loader the file's name (not its bytes), so the stream is used there."""
    msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]
    msgs += [{"role": "user", "content": "x" * 100}] * 40
    p = tmp_path / "t.json"
    p.write_bytes(json.dumps(msgs).encode())
    code = ("import sys; from inspector import jsonio, reading; reading.PIECES_FROM = 64; jsonio.PIECE = 256; "
            "import inspector.cli; sys.exit(inspector.cli.main(['check', sys.argv[1], '--format', 'json']))")
    streamed = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True)
    whole = subprocess.run([sys.executable, "-m", "inspector", "check", str(p), "--format", "json"],
                           capture_output=True, text=True)
    assert streamed.returncode == whole.returncode == 1
    assert json.loads(streamed.stdout)["findings"] == json.loads(whole.stdout)["findings"] != []


def test_a_streamed_read_has_glibc_give_big_buffers_back(tmp_path):
    """The pieces' multi-MB buffers must not leave holes in the heap that the parsed document's
    strings then pin (about 30 MB of a 108 MB check's peak): a streamed read sets a fixed mmap
    threshold (``inspector.heap``). Checked in a fresh process, where nothing set it before."""
    import platform

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("the mmap threshold is glibc's")
    p = tmp_path / "t.json"
    p.write_bytes(json.dumps(MESSAGES).encode())
    code = ("import sys; from inspector import heap, jsonio, reading; reading.PIECES_FROM = 64; jsonio.PIECE = 256; "
            "before = heap._done; doc = reading.load(sys.argv[1]); print(before, heap._done, len(doc.root))")
    done = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "True", str(len(MESSAGES))], done.stderr
