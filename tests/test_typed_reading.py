"""The typed reading of Chat Completions (``dialects/openai_typed.py``) says exactly what the dict
reading says.

Generated message arrays, clean and broken in the ways the rules notice (a result dropped, moved or
doubled, an id empty or "null", a bad name, arguments that are not JSON, null and missing
contents, an empty call list, a user message after a tool one, repeated calls that loop), and
written in the ways a file is written (compact, indented, keys in another order, escapes, a
repeated key, a colon escaped, content parts, an extra key), are checked twice: read as typed
structs and read as dicts. The report's bytes must be the same, at the API and through the CLI
(``check --format json``), and each item a finding or the output needs (``Msg.raw``) is the dict
the dict reading has. The clean and the plainly broken documents must take the typed reading
(else this would prove nothing); the others may go either way.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from inspector.checking import check_plain
from inspector.dialects.openai_typed import TypedItems, document
from inspector.jsonio import dumps
from inspector.reading import load_path, read_document

NAMES = ("read_file", "run_shell", "search_web")


def transcript(rng: random.Random) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    k = 0
    for _ in range(rng.randint(1, 6)):
        msgs.append({"role": "user", "content": rng.choice(["Go on.", "Fix it: now", "é ü"])})
        calls = []
        for _ in range(rng.randint(1, 3)):
            k += 1
            calls.append({"id": f"call_{k}_{rng.getrandbits(24):06x}", "type": "function",
                          "function": {"name": rng.choice(NAMES), "arguments": json.dumps({"path": f"a{k}.py"})}})
        msgs.append({"role": "assistant", "content": rng.choice([None, "Looking."]), "tool_calls": calls})
        msgs += [{"role": "tool", "tool_call_id": c["id"], "content": rng.choice(["ok", "a: b", "x" * 40])}
                 for c in calls]
        msgs.append({"role": "assistant", "content": "Done."})
    return msgs


def _tools(msgs: list[dict[str, Any]]) -> list[int]:
    return [i for i, m in enumerate(msgs) if m["role"] == "tool"]


def _calls(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for m in msgs if m.get("tool_calls") for c in m["tool_calls"]]


def _loop(msgs: list[dict[str, Any]], rng: random.Random) -> None:
    for n in range(6):
        cid = f"call_loop_{n}"
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": "run_shell", "arguments": '{"cmd": "ls"}'}}]})
        msgs.append({"role": "tool", "tool_call_id": cid, "content": "same answer"})


# Breaks a rule notices: each keeps the typed shape.
BREAKS = {
    "drop result": lambda m, r: m.pop(r.choice(_tools(m))),
    "move result": lambda m, r: m.append(m.pop(r.choice(_tools(m)))),
    "double result": lambda m, r: m.append(dict(m[r.choice(_tools(m))])),
    "empty id": lambda m, r: r.choice(_calls(m)).update(id=""),
    "null id": lambda m, r: m[r.choice(_tools(m))].update(tool_call_id="null"),
    "bad name": lambda m, r: r.choice(_calls(m))["function"].update(name="bad name!"),
    "bad arguments": lambda m, r: r.choice(_calls(m))["function"].update(arguments="{'a'"),
    "empty arguments": lambda m, r: r.choice(_calls(m))["function"].update(arguments=""),
    "null content": lambda m, r: m[r.randrange(len(m))].update(content=None),
    "no content": lambda m, r: m[r.randrange(len(m))].pop("content", None),
    "empty calls": lambda m, r: m.insert(1, {"role": "assistant", "content": None, "tool_calls": []}),
    "null calls": lambda m, r: m.append({"role": "assistant", "content": "x", "tool_calls": None}),
    "user after tool": lambda m, r: m.insert(_tools(m)[0] + 1, {"role": "user", "content": "wait"}),
    "tool after user": lambda m, r: m.insert(2, {"role": "tool", "tool_call_id": "call_x", "content": "?"}),
    "no type": lambda m, r: r.choice(_calls(m)).pop("type"),
    "loop": _loop,
    "ends on a call": lambda m, r: m[:] if m[-1].get("tool_calls") else m.__delitem__(slice(-1 - len(_tools(m)[-1:]), None)),
}

# Other shapes: the dict reading's (the typed one declines them), or the typed one's with escapes.
SHAPES = {
    "extra key": lambda m, r: m[r.randrange(len(m))].update(name="agent"),
    "content parts": lambda m, r: m[1].update(content=[{"type": "text", "text": "hi"}]),
    "developer": lambda m, r: m[0].update(role="developer"),
    "number content": lambda m, r: m[1].update(content=7),
    "reasoning": lambda m, r: m[2].update(reasoning_content="thinking"),
}

WRITINGS = {
    "compact": lambda m: json.dumps(m, separators=(",", ":"), ensure_ascii=False),
    "indented": lambda m: json.dumps(m, indent=2),
    "ascii escapes": lambda m: json.dumps([{**x, "content": (x.get("content") or "") + " 😀"}
                                           if type(x.get("content")) is str else x for x in m]),
    "keys reversed": lambda m: json.dumps([dict(reversed(list(x.items()))) for x in m]),
    "repeated key": lambda m: json.dumps(m).replace('"role": "user"', '"role": "user", "role": "user"', 1),
    "escaped colon": lambda m: json.dumps(m).replace("a: b", "a\\u003a b"),
    "lone surrogate": lambda m: json.dumps(m).replace("Looking.", "Looking\\ud800"),
}


def _report(doc: Any) -> bytes:
    try:
        report, analyses = check_plain(doc)
    except Exception as exc:  # noqa: BLE001 - the same error is the same answer
        return f"{type(exc).__name__}: {exc}".encode()
    raws = [[m.raw for m in a.msgs] for a in analyses]  # every item a door may ask for
    return dumps(report) + dumps(raws)


def _both(tmp_path: Path, text: str) -> tuple[bytes, bytes, bool]:
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    try:
        typed_doc = read_document(str(path))
    except Exception as exc:  # noqa: BLE001
        typed = f"{type(exc).__name__}: {exc}".encode()
        was_typed = False
    else:
        was_typed = isinstance(typed_doc.transcripts[0].items, TypedItems) if typed_doc.transcripts else False
        typed = _report(typed_doc)
    try:
        plain = _report(load_path(str(path), typed=False))
    except Exception as exc:  # noqa: BLE001
        plain = f"{type(exc).__name__}: {exc}".encode()
    return typed, plain, was_typed


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("writing", sorted(WRITINGS))
def test_clean_and_broken_documents_read_alike(tmp_path: Path, seed: int, writing: str) -> None:
    rng = random.Random(seed)
    cases = [("clean", None)] + [(name, fn) for name, fn in BREAKS.items()]
    for name, fn in cases + list(SHAPES.items()):
        msgs = transcript(random.Random(seed * 1000 + len(name)))
        if fn is not None:
            fn(msgs, rng)
        text = WRITINGS[writing](msgs)
        typed, plain, was_typed = _both(tmp_path, text)
        assert typed == plain, f"{name}, written {writing}: the typed reading says something else"
        if writing in ("compact", "indented", "keys reversed") and (name == "clean" or name in BREAKS):
            assert was_typed, f"{name}, written {writing}: not read as typed structs"
        if writing == "ascii escapes" and name == "clean":
            assert was_typed, "an emoji's surrogate pair is read typed"
        if name in SHAPES or any(mark in text for mark in ('"user", "role"', "\\u003a", "\\ud800")):
            assert not was_typed, f"{name}, written {writing}: the typed reading should have declined it"


def test_the_typed_reading_declines_what_it_cannot_read_exactly() -> None:
    assert document(b'[{"role":"user","content":"a","content":"b"}]') is None  # a repeated key
    assert document(b'[{"role":"user","content":"\\ud800"}]') is None  # a lone surrogate
    assert document(b'[{"role":"user","content":[{"type":"text","text":"a"}]}]') is None
    assert document(b'[{"role":"user","content":1}]') is None
    assert document(b'{"messages":[]}') is None
    assert document(b'[{"role":"user","content":"a: \\"b\\": c"}]') is not None
    assert document(b'[{"role":"user","content":"\\ud83d\\ude00 \\u00e9"}]') is not None  # a pair is read
    assert document(b'[{"role":"user","content":"\\ude00\\ud83d"}]') is None  # two lone halves


@pytest.mark.parametrize("name", ["clean", "drop result", "loop", "bad arguments"])
def test_the_cli_gives_the_same_bytes(tmp_path: Path, name: str) -> None:
    """``inspector check --format json`` (which reads typed) against the API's dict reading."""
    msgs = transcript(random.Random(5))
    if name != "clean":
        BREAKS[name](msgs, random.Random(1))
    path = tmp_path / "t.json"
    path.write_text(json.dumps(msgs), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "inspector", "check", str(path), "--format", "json"],
                         capture_output=True, check=False)
    report, _ = check_plain(load_path(str(path), typed=False))
    assert out.stdout == dumps(report)


DOORS = {
    "check json": lambda p: ["check", p, "--format", "json"],
    "check text": lambda p: ["check", p],
    "check github": lambda p: ["check", p, "--format", "github"],
    "check sarif": lambda p: ["check", p, "--format", "sarif"],
    "check tokens": lambda p: ["check", p, "--tokens", "--format", "json"],
    "check through a gateway": lambda p: ["check", p, "--target", "anthropic", "--format", "json"],
    "check mistral": lambda p: ["check", p, "--target", "mistral", "--format", "json"],
    "check read as another format": lambda p: ["check", p, "--from", "anthropic", "--format", "json"],
    "explain": lambda p: ["explain", p, "--error", ("messages with role 'tool' must be a response to a preceeding "
                                                    "message with 'tool_calls'"), "--format", "json"],
}


@pytest.mark.parametrize("door", sorted(DOORS))
@pytest.mark.parametrize("name", ["clean", "drop result", "move result", "null content", "loop", "empty id"])
def test_every_door_that_reads_typed_says_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsysbinary: pytest.CaptureFixture[bytes],
                                                   door: str, name: str) -> None:
    """Each command that reads a file typed gives the same bytes, exit status and errors as with
    the typed reading turned off (every file then read as dicts)."""
    from inspector import reading
    from inspector.cli.parser import main

    msgs = transcript(random.Random(9))
    if name != "clean":
        BREAKS[name](msgs, random.Random(2))
    path = tmp_path / "t.json"
    path.write_text(json.dumps(msgs, indent=1), encoding="utf-8")
    read_typed = reading.typed_document
    taken: list[bool] = []

    def spy(data: bytes, label: str) -> Any:
        doc = read_typed(data, label)
        taken.append(doc is not None)
        return doc

    monkeypatch.setattr(reading, "typed_document", spy)
    code = main(DOORS[door](str(path)))
    typed = (code, *capsysbinary.readouterr())
    assert taken == [True], "the door did not read the file typed"
    monkeypatch.setattr(reading, "typed_document", lambda data, label: None)
    code = main(DOORS[door](str(path)))
    assert typed == (code, *capsysbinary.readouterr())


# --- every other door: repair, fit, scan, diff and the app, typed against the dict reading ---------

def _cli(argv: list[str], outputs: list[Path], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[Any, ...]:
    """Exit status, stdout, stderr and the bytes of each file the command wrote."""
    from inspector.cli.parser import main

    for p in outputs:
        p.unlink(missing_ok=True)
    code = main(argv)
    out, err = capsysbinary.readouterr()
    return (code, out, err, *[p.read_bytes() if p.exists() else None for p in outputs])


def _app(path: Path) -> tuple[Any, ...]:
    """What the app shows and its worker jobs bring back for the file: the check's findings table
    and loops (``ui.analysis``, as the page reads the upload), and the check, repair and fit jobs'
    results (``ui.workers``, run here in-process)."""
    from inspector.checking import check_document
    from inspector.ui import workers
    from inspector.ui.analysis import Checked
    from inspector.ui.findings import findings_frame
    from inspector.ui.loops import loops_frame

    data, name = path.read_bytes(), path.name
    doc = inspector_load_bytes(data, name)  # the app's reading of an upload (``analysis.parsed``)
    report, analyses = check_document(doc)
    checked = Checked(doc, report, analyses)
    shown = [(findings_frame(checked.findings(k)).to_dict("records"), loops_frame(checked.loops(k)).to_dict("records"))
             for k in range(report.transcripts)]
    repaired = workers._repair(data, "openai", {}, None)
    fitted = [workers._fit(data, budget, None, {}, None) for budget in (120, 10**9)]
    return (repr(shown), workers._check(data, name), repaired.output, dumps(repaired.report.model_dump()),
            dumps(repaired.data), *[f if isinstance(f, str) else (f.output, dumps(f.report)) for f in fitted])


def inspector_load_bytes(data: bytes, name: str) -> Any:
    from inspector.reading import load_bytes

    return load_bytes(data, name)


OTHER_DOORS = {
    "repair": lambda p, o: ["repair", p, "-o", o[0], "--report", o[1]],
    "repair to stdout": lambda p, o: ["repair", p],
    "repair for anthropic": lambda p, o: ["repair", p, "--target", "anthropic", "-o", o[0], "--report", o[1]],
    "fit": lambda p, o: ["fit", p, "--max-tokens", "120", "-o", o[0], "--report", o[1]],
    "fit what fits": lambda p, o: ["fit", p, "--max-tokens", str(10**9), "-o", o[0], "--report", o[1]],
    "fit after repair": lambda p, o: ["fit", p, "--max-tokens", "200", "--repair", "-o", o[0], "--report", o[1]],
    "scan": lambda p, o: ["scan", p, "--format", "jsonl", "-j", "1", "--no-progress"],
    "scan to a file": lambda p, o: ["scan", p, "--format", "json", "-j", "1", "--no-progress", "-o", o[2]],
    "diff": lambda p, o: ["diff", p, o[3], "--format", "json"],
}


@pytest.mark.parametrize("door", sorted([*OTHER_DOORS, "app"]))
@pytest.mark.parametrize("name", ["clean", "drop result", "move result", "double result", "empty id", "null id",
                                  "null content", "loop", "bad arguments", "user after tool", "ends on a call"])
def test_repair_fit_scan_diff_and_the_app_read_typed_and_say_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes],
        door: str, name: str) -> None:
    """Each door reads the Chat Completions file typed (the one reading), and its output bytes, its
    report, its exit status and its words are those of the same door with the typed reading turned
    off (every file then read as dicts): repair's output and report, fit's, scan's rows, diff's
    JSON, the app's tables and its worker jobs' results."""
    from inspector import reading

    msgs = transcript(random.Random(11))
    if name != "clean":
        BREAKS[name](msgs, random.Random(3))
    path = tmp_path / "t.json"
    path.write_text(json.dumps(msgs, indent=1), encoding="utf-8")
    other = tmp_path / "other.json"  # diff's second file: the same conversation, one result dropped
    BREAKS["drop result"](msgs, random.Random(4))
    other.write_text(json.dumps(msgs), encoding="utf-8")
    outputs = [tmp_path / "out.json", tmp_path / "report.json", tmp_path / "rows.jsonl", other]
    read_typed = reading.typed_document
    taken: list[bool] = []

    def spy(data: bytes, label: str) -> Any:
        doc = read_typed(data, label)
        taken.append(doc is not None)
        return doc

    def run() -> tuple[Any, ...]:
        if door == "app":
            return _app(path)
        return _cli(OTHER_DOORS[door](str(path), [str(p) for p in outputs]), outputs[:3], capsysbinary)

    monkeypatch.setattr(reading, "typed_document", spy)
    typed = run()
    assert taken and taken[0], "the door did not read the file typed"
    assert door == "app" or typed[0] in (0, 1), f"{door} refused the file: {typed[2]!r}"
    monkeypatch.setattr(reading, "typed_document", lambda data, label: None)
    assert run() == typed


def test_a_list_walked_item_by_item_is_the_dict_readings_list_with_each_item_made_once() -> None:
    """Repair and fit walk every item (``items[k]``): past the first items parsed one by one the rest
    are parsed at once, and every item is the dict reading's, the same object each time it is asked."""
    from inspector.dialects import openai_typed

    msgs = transcript(random.Random(2)) * (openai_typed._MADE_APART // 5 + 5)
    data = json.dumps(msgs).encode()
    items = document(data)
    assert items is not None and len(items) > openai_typed._MADE_APART
    first = [items[k] for k in range(len(items))]
    assert first == json.loads(data)
    assert all(items[k] is first[k] for k in range(len(items)))
    assert list(items) == first and all(a is b for a, b in zip(items, first))
