"""Issue 15: values nested hundreds of levels deep (a JSON file may hold 1,024) in the places that
used pydantic's or orjson's writers (255 levels) or the browser's tree view: the dataset repair
report and the message detail pane."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from inspector.ui.detail import TREE_DEPTH, _shorten

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _deep(levels: int):
    v: object = "bottom"
    for _ in range(levels):
        v = [v]
    return v


@pytest.mark.parametrize("levels", [300, 1000])
def test_dataset_repair_writes_a_deep_quarantine_to_its_report(tmp_path, levels):
    ok = {"messages": [{"role": "user", "content": "hi"}]}
    deep = {"messages": [{"role": "user", "content": "hi"}, {"role": "observation", "content": _deep(levels)},
                         {"role": "user", "content": "x"}]}
    src = tmp_path / "d.jsonl"
    src.write_text(json.dumps(ok) + "\n" + json.dumps(deep) + "\n")
    out, rep = tmp_path / "o.jsonl", tmp_path / "r.jsonl"
    done = subprocess.run([sys.executable, "-m", "inspector", "repair", str(src), "-o", str(out), "--report", str(rep)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    [line] = rep.read_bytes().splitlines()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    record = json.loads(line)
    assert record["line"] == 2 and record["quarantine"][0]["code"] == "TC024"
    assert record["quarantine"][0]["content"] == deep["messages"][1]


def _depth(v) -> int:
    n = 0
    while isinstance(v, (list, dict)) and v:
        v = v[0] if isinstance(v, list) else next(iter(v.values()))
        n += 1
    return n


def test_detail_tree_stops_at_a_readable_depth():
    shown = _shorten({"content": _deep(1000)}, 200)
    assert _depth(shown) <= TREE_DEPTH + 1
    v = shown
    while isinstance(v, (list, dict)):
        v = v[0] if isinstance(v, list) else v["content"]
    assert v.startswith("(nested too deep to show as a tree; as JSON: [[[")


def test_app_shows_a_deeply_nested_message():
    msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok", "meta": _deep(600)}]
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.file_uploader(key="upload").set_value(("deep.json", json.dumps(msgs).encode(), "application/json")).run()
    assert not at.exception
    at.session_state["sel"] = 1
    at.run()
    assert not at.exception
    assert "Message #1" in [s.value for s in at.subheader]
    [tree] = [j for j in at.json if "meta" in j.value]
    assert "nested too deep to show as a tree" in tree.value


DEEP = "[" * 2000 + "]" * 2000


@pytest.mark.parametrize("text, pieces", [
    (DEEP, False),
    ('{"role":"user","content":"a"}\n' + DEEP + "\n", False),
    ('[{"role":"user","content":"a"},' + DEEP + ',{"role":"user","content":"b"}]', True),
])
def test_the_nesting_limit_holds_whatever_the_recursion_limit(text, pieces, monkeypatch):
    """The fast parser (msgspec) nests as deep as the interpreter's recursion limit allows, and a
    host process may raise it; the file is still refused past 1024 levels, as orjson refuses it,
    also when a big array is parsed a few MB at a time (here: 2 KB)."""
    import sys

    from inspector import jsonio
    from inspector.errors import InputError

    if pieces:
        monkeypatch.setattr(jsonio, "PIECES_FROM", 0)
        monkeypatch.setattr(jsonio, "PIECE", 2048)  # the deep element ends inside the first piece
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(20000)
    try:
        with pytest.raises(InputError, match="1024 levels"):
            jsonio.parse_document(text.encode())
    finally:
        sys.setrecursionlimit(old)
