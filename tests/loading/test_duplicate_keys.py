"""Issue 15: a key an object repeats is a finding with every value, not a silent loss; the cheap
colon count that notices it, and the piecewise parse of big arrays, read exactly what a whole
parse reads."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import inspector
from inspector import jsonio
from inspector.loading import load

DUP = b'[{"role":"user","content":"first","content":"second","x":1},\n {"role":"assistant","content":"ok"}]\n'


def test_check_reports_a_repeated_key_with_every_value():
    report = inspector.check(DUP)
    [f] = report.input_findings
    assert (f.kind, f.path, f.key, f.values) == ("duplicate_key", "$[0].content", "content", ["first", "second"])
    assert "keeps only the last" in f.text
    assert report.findings == []  # not a rule finding: the request itself is fine


def test_nested_and_json_lines_paths():
    data = b'{"a":{"b":[1,{"c":1,"c":{"d":2},"c":3}]}}'
    [d] = jsonio.parse_noting(data)[2]
    assert d["path"] == ("a", "b", 1, "c") and d["values"] == [1, {"d": 2}, 3]
    lines = b'{"messages":[{"role":"user","content":"a"}]}\n{"messages":[{"role":"user","content":"a","role":"user"}]}\n'
    [d] = load(lines).duplicate_keys
    assert d["path"] == (1, "messages", 0, "role")


def test_an_escaped_colon_cannot_hide_a_dropped_value():
    # the dropped value's colon count is made up by a colon written as \u003a
    [d] = jsonio.parse_noting(b'[{"a":1,"a":"\\u003a"}]')[2]
    assert d["values"] == [1, ":"]


def test_no_duplicates_no_finding():
    assert load(b'[{"role":"user","content":"a: b \\": c"}]').duplicate_keys == []
    assert inspector.check([{"role": "user", "content": "x"}]).input_findings == []


def test_check_cli_prints_both_values_and_json_holds_them(tmp_path):
    p = tmp_path / "dup.json"
    p.write_bytes(DUP)
    text = subprocess.run([sys.executable, "-m", "inspector", "check", str(p)], capture_output=True, text=True)
    assert "duplicate key at $[0].content" in text.stdout
    assert 'value 1: "first"' in text.stdout and 'value 2: "second"' in text.stdout
    out = subprocess.run([sys.executable, "-m", "inspector", "check", str(p), "--format", "json"],
                         capture_output=True, text=True)
    assert json.loads(out.stdout)["input_findings"][0]["values"] == ["first", "second"]


def test_repair_keeps_the_first_value_in_its_report(tmp_path):
    p = tmp_path / "dup.json"
    # an orphan result too, so that repair rewrites the file
    p.write_bytes(b'[{"role":"user","content":"first","content":"second"},'
                  b'{"role":"tool","tool_call_id":"call_x","content":"r"}]')
    rep = tmp_path / "rep.json"
    done = subprocess.run([sys.executable, "-m", "inspector", "repair", str(p), "-o", str(tmp_path / "out.json"),
                           "--report", str(rep)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "duplicate key at $[0].content: the output keeps the last of its 2 values" in done.stderr
    [f] = json.loads(rep.read_bytes())["input_findings"]
    assert f["values"] == ["first", "second"]
    assert json.loads((tmp_path / "out.json").read_bytes())[0] == {"role": "user", "content": "second"}


def test_repair_of_an_unchanged_file_says_the_key_is_still_there():
    result = inspector.repair(DUP)
    assert result.unchanged and result.output == DUP
    assert result.report.input_findings[0]["values"] == ["first", "second"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.text(alphabet="ab:\"\\{}[],", max_size=6),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(alphabet="ab:", max_size=2), kids, max_size=4),
    max_leaves=25,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(json_values, max_size=30), st.booleans())
def test_piecewise_parse_reads_what_a_whole_parse_reads(values, indent):
    data = json.dumps(values, indent=1 if indent else None).encode()
    old = jsonio.PIECES_FROM, jsonio.PIECE
    jsonio.PIECES_FROM, jsonio.PIECE = 0, 16  # every array is cut into many small pieces
    try:
        value, fmt, dups = jsonio.parse_noting(data)
    finally:
        jsonio.PIECES_FROM, jsonio.PIECE = old
    assert value == values and fmt == "json" and dups == []


@pytest.mark.parametrize("data", [b"[1,2,", b'[{"a":1},{"b":2},{"c"', b'[{"a":1},{"b":2}] x'])
def test_piecewise_parse_of_broken_text_gives_the_usual_error(data, monkeypatch):
    monkeypatch.setattr(jsonio, "PIECES_FROM", 0)
    monkeypatch.setattr(jsonio, "PIECE", 2)
    with pytest.raises(inspector.InputError, match="line 1 column"):
        jsonio.parse(data)


def test_piecewise_parse_finds_duplicates_in_a_later_piece(monkeypatch):
    monkeypatch.setattr(jsonio, "PIECES_FROM", 0)
    monkeypatch.setattr(jsonio, "PIECE", 8)
    items = [{"role": "user", "content": str(k)} for k in range(50)]
    text = json.dumps(items).encode().replace(b'"content": "40"', b'"content": "x", "content": "40"')
    value, _, [d] = jsonio.parse_noting(text)
    assert value == items and d["path"] == (40, "content") and d["values"] == ["x", "40"]


def test_app_shows_the_repeated_key_and_both_values_as_text():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=60)
    at.run()
    at.file_uploader(key="upload").set_value(("dup.json", DUP, "application/json")).run()
    assert not at.exception
    assert any("repeats object keys" in w.value for w in at.warning)
    assert '$[0].content: "first" | "second"' in [t.value for t in at.text]


# Compact text (as orjson and JSON.stringify write it) takes the shortest check: the text is
# compared with orjson's own writing of the parsed value. Whatever that shortcut skips must
# still be noticed when the compact text holds it.
COMPACT_CASES = {
    "json": (b'[{"role":"user","content":"a"},{"role":"user","content":"b","content":"c"}]', (1, "content")),
    "json, final newline": (b'[{"role":"user","content":"b","content":"c"}]\n', (0, "content")),
    "json lines": (b'{"role":"user","content":"a"}\n{"role":"user","content":"b","content":"c"}\n', (1, "content")),
}


@pytest.mark.parametrize("case", COMPACT_CASES)
@pytest.mark.parametrize("pieces", [False, True])
def test_compact_text_with_a_repeated_key_is_noticed(case, pieces, monkeypatch):
    data, path = COMPACT_CASES[case]
    if pieces:
        monkeypatch.setattr(jsonio, "PIECES_FROM", 0)
        monkeypatch.setattr(jsonio, "PIECE", 4)
    _value, _, [d] = jsonio.parse_noting(data)
    assert d["path"] == path and d["values"] == ["b", "c"]


@pytest.mark.parametrize("data", [
    b'[{"role":"user","content":"x","n":18446744073709551616}]',
    b'[{"role":"user","content":"x","n":-9223372036854775809}]\n',
    b'{"role":"user","content":"a"}\n{"role":"user","content":"x","n":18446744073709551616}\n',
])
def test_compact_text_keeps_integers_beyond_64_bits_exact(data):
    value, _, dups = jsonio.parse_noting(data)
    last = value[-1]
    assert type(last["n"]) is int and str(last["n"]).lstrip("-") in data.decode() and dups == []


def test_compact_text_with_an_escaped_colon_and_a_dropped_value():
    [d] = jsonio.parse_noting(b'[{"a":1,"a":"\\u003a"}]\n')[2]
    assert d["values"] == [1, ":"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=4), json_values, min_size=1, max_size=4), min_size=1, max_size=12),
       st.data())
def test_a_key_repeated_in_compact_text_is_always_noticed(items, data):
    def compact(v):  # as orjson and JSON.stringify write (orjson itself refuses integers beyond 64 bits)
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode()

    k = data.draw(st.integers(0, len(items) - 1))
    key = next(iter(items[k]))
    # the object's first key written once more, with another value, before the rest
    items_text = [compact(x) for x in items]
    items_text[k] = b"{" + compact(key) + b':"other",' + items_text[k][1:]
    texts = [b"[" + b",".join(items_text) + b"]"]
    if len(items) > 1:  # one line is a JSON value, not JSON Lines
        texts.append(b"\n".join(items_text) + b"\n")
    for text in texts:
        value, _, dups = jsonio.parse_noting(text)
        assert value == items
        assert [(d["path"], d["values"][0]) for d in dups] == [((k, key), "other")]
