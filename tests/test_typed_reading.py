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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from inspector import reading as reading_module
from inspector.checking import check_plain
from inspector.dialects import openai_typed
from inspector.dialects.openai_typed import TypedItems, document
from inspector.jsonio import dumps
from inspector.model import TypedMsgs
from inspector.reading import load_path, read_document

NAMES = ("read_file", "run_shell", "search_web")
FILES_READ_TYPED_FROM = reading_module.TYPED_FROM_BYTES  # the doors' own threshold (1 MB), before the fixture


@pytest.fixture(autouse=True, params=["whole", "in pieces"])
def _every_file_read_typed(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """The doors read a file typed from ``reading.TYPED_FROM_BYTES`` on; here every file is, however
    small, so that each test below holds the typed reading to the dict reading's answer (the test
    of the threshold itself sets it back). Each test runs twice: with a small file read whole, as
    below ``openai_typed._FIRST_PIECE``, and read in pieces of one message and up, as a big file is
    (``openai_typed._in_pieces``: its structs decoded, proved exact and proved clean a slice at a time)."""
    monkeypatch.setattr(reading_module, "TYPED_FROM_BYTES", 0)
    if request.param == "in pieces":
        monkeypatch.setattr(openai_typed, "_FIRST_PIECE", 1)
        monkeypatch.setattr(openai_typed, "_PIECE", 256)


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


@pytest.mark.parametrize("name", ["clean", *BREAKS])
def test_a_typed_readings_messages_hold_only_the_roles_and_keys_of_its_shape(tmp_path: Path, name: str) -> None:
    """The rules that look for a role or key the typed shape has not (``function``, a harness's
    ``exit``, ``reasoning_content``) skip a ``TypedMsgs`` without walking it: it must hold none."""
    msgs = transcript(random.Random(len(name)))
    fn = BREAKS.get(name)
    if fn is not None:
        fn(msgs, random.Random(3))
    path = tmp_path / "t.json"
    path.write_text(json.dumps(msgs), encoding="utf-8")
    doc = read_document(str(path))
    assert isinstance(doc.transcripts[0].items, TypedItems)
    _, analyses = check_plain(doc)
    read = analyses[0].msgs
    assert type(read) is TypedMsgs
    assert {m.role for m in read} <= {"system", "user", "assistant", "tool"}
    assert all(set(m.raw) <= {"role", "content", "tool_calls", "tool_call_id"} for m in read)
    assert [type(m.raw) for m in read] == [dict] * len(msgs)


def test_the_typed_reading_declines_what_it_cannot_read_exactly() -> None:
    assert document(b'[{"role":"user","content":"a","content":"b"}]') is None  # a repeated key
    assert document(b'[{"role":"user","content":"\\ud800"}]') is None  # a lone surrogate
    assert document(b'[{"role":"user","content":[{"type":"text","text":"a"}]}]') is None
    assert document(b'[{"role":"user","content":1}]') is None
    assert document(b'{"messages":[]}') is None
    assert document(b'[{"role":"user","content":"a: \\"b\\": c"}]') is not None
    assert document(b'[{"role":"user","content":"\\ud83d\\ude00 \\u00e9"}]') is not None  # a pair is read
    assert document(b'[{"role":"user","content":"\\ude00\\ud83d"}]') is None  # two lone halves


@pytest.mark.parametrize("writing", sorted(WRITINGS))
def test_a_list_read_in_pieces_is_the_whole_lists_reading_and_its_proof_the_whole_lists(
        monkeypatch: pytest.MonkeyPatch, writing: str) -> None:
    """A list read in pieces (``openai_typed._in_pieces``, here of one message and up) has the
    structs, items and head of the list read whole, or is read whole; the clean proof fed its slices
    (``clean_proof.Proof``) says what ``messages_clean`` says of the whole list; and a clean
    compact or indented list is read in pieces, its structs let go."""
    from inspector.clean_proof import Proof, messages_clean

    monkeypatch.setattr(openai_typed, "_FIRST_PIECE", 1)
    monkeypatch.setattr(openai_typed, "_PIECE", 256)
    for name, fn in [("clean", None), *BREAKS.items()]:
        msgs = transcript(random.Random(len(name)))
        if fn is not None:
            fn(msgs, random.Random(3))
        data = WRITINGS[writing](msgs).encode()
        whole = document(data)
        proof = Proof(None, set(), texts=True)
        pieces = document(data, proof.feed)
        assert (whole is None) == (pieces is None), name
        if whole is None or pieces is None:
            continue
        expected = messages_clean(whole.structs, None, set(), texts=True)
        if pieces.structs_held:  # read whole: the proof stopped (or no cut was found)
            assert not proof.failed or not expected, name
        else:
            assert proof.done(pieces.take_structs) == expected, name
        if name == "clean" and writing in ("compact", "indented"):
            assert not pieces.structs_held and expected, f"a clean list written {writing} is not read in pieces"
        assert len(pieces) == len(whole) and pieces.head(50) == whole.head(50), name
        assert pieces.structs == whole.structs, name
        assert list(pieces) == json.loads(data), name


@pytest.mark.parametrize("name", ["clean", "drop result", "loop", "bad arguments"])
def test_the_cli_gives_the_same_bytes(tmp_path: Path, name: str) -> None:
    """``inspector check --format json`` (which reads typed) against the API's dict reading."""
    msgs = transcript(random.Random(5))
    if name != "clean":
        BREAKS[name](msgs, random.Random(1))
    path = tmp_path / "t.json"
    path.write_text(json.dumps(msgs), encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", EVERY_FILE_TYPED_CLI, "check", str(path), "--format", "json"],
                         capture_output=True, check=False)
    report, _ = check_plain(load_path(str(path), typed=False))
    assert out.stdout == dumps(report)
    assert out.stderr == b"typed\n", "the CLI did not read the file typed"


# ``inspector`` with every file read typed, saying on stderr when the typed reading took one.
EVERY_FILE_TYPED_CLI = (
    "import sys\nfrom inspector import reading\nreading.TYPED_FROM_BYTES = 0\nreal = reading.typed_document\n"
    "def spy(data, label):\n    doc = real(data, label)\n    if doc is not None:\n        sys.stderr.write('typed\\n')\n"
    "    return doc\nreading.typed_document = spy\nsys.argv[0] = 'inspector'\nfrom inspector.cli import entry\nentry()\n")


@pytest.mark.parametrize("door", ["check", "the API's load"])
def test_a_file_is_read_typed_from_the_doors_own_threshold_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsysbinary: pytest.CaptureFixture[bytes],
                                                             door: str) -> None:
    """At the doors' own threshold (no test setting): a file of ``TYPED_FROM_BYTES`` or more takes
    the typed reading, a smaller one is read as dicts, and each report is the dict reading's."""
    from inspector.cli.parser import main

    monkeypatch.setattr(reading_module, "TYPED_FROM_BYTES", FILES_READ_TYPED_FROM)
    msgs: list[dict[str, Any]] = []
    k = 0
    while len(json.dumps(msgs)) < FILES_READ_TYPED_FROM:
        msgs += transcript(random.Random(k))
        k += 1
    BREAKS["drop result"](msgs, random.Random(1))
    big, small = tmp_path / "big.json", tmp_path / "small.json"
    big.write_text(json.dumps(msgs), encoding="utf-8")
    small.write_text(json.dumps(msgs[:40]), encoding="utf-8")
    taken = _watch_typed(monkeypatch, "typed_document")
    for path, typed in ((big, [True]), (small, [True])):  # (the small file never asks the typed reading)
        if door == "check":
            main(["check", str(path), "--format", "json"])
            got = capsysbinary.readouterr().out
        else:
            got = dumps(check_plain(reading_module.load(str(path), typed=True))[0])
        assert taken == typed, f"{path.name}: {taken}"
        assert got == dumps(check_plain(load_path(str(path), typed=False))[0])


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


def _watch_typed(monkeypatch: pytest.MonkeyPatch, name: str) -> list[bool]:
    """Put a recorder on ``reading.<name>`` (``typed_document`` or ``typed_request``): the list it
    returns gets, per call, whether the typed reading took the input."""
    from inspector import reading

    real = getattr(reading, name)
    taken: list[bool] = []

    def spy(data: bytes, label: str) -> Any:
        doc = real(data, label)
        taken.append(doc is not None)
        return doc

    monkeypatch.setattr(reading, name, spy)
    return taken


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
    taken = _watch_typed(monkeypatch, "typed_document")
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


def _other_door(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], door: str,
                name: str) -> Callable[[], tuple[Any, ...]]:
    """A run of ``door`` (``OTHER_DOORS`` or the app) on the transcript broken as ``name`` says."""
    msgs = transcript(random.Random(11))
    if name != "clean":
        BREAKS[name](msgs, random.Random(3))
    path = tmp_path / "t.json"
    path.write_text(json.dumps(msgs, indent=1), encoding="utf-8")
    other = tmp_path / "other.json"  # diff's second file: the same conversation, one result dropped
    BREAKS["drop result"](msgs, random.Random(4))
    other.write_text(json.dumps(msgs), encoding="utf-8")
    outputs = [tmp_path / "out.json", tmp_path / "report.json", tmp_path / "rows.jsonl", other]

    def run() -> tuple[Any, ...]:
        if door == "app":
            return _app(path)
        return _cli(OTHER_DOORS[door](str(path), [str(p) for p in outputs]), outputs[:3], capsysbinary)

    return run


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

    run = _other_door(tmp_path, capsysbinary, door, name)
    taken = _watch_typed(monkeypatch, "typed_document")
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
# --- request bodies through the guard (issue 37) ----------------------------------------------------
# The guard reads a Chat Completions body's messages typed (``reading.typed_request``); its
# Inspection must be the one the dict reading gives, and check's verdict on the same body.

GUARD_URL = "http://127.0.0.1:9/v1/chat/completions"
TOOL_DECLS = [{"type": "function", "function": {"name": n, "description": "a: tool", "parameters": {
    "type": "object", "properties": {"messages": {"type": "array"}, "path": {"type": "string"}}}}} for n in NAMES]

# How a body wraps the list: the keys around it, in the orders SDKs write them.
BODIES = {
    "model first": lambda m: {"model": "gpt-4o", "messages": m},
    "tools first": lambda m: {"tools": TOOL_DECLS, "model": "gpt-4o", "messages": m, "tool_choice": "auto"},
    "settings": lambda m: {"model": "gpt-4o-mini", "messages": m, "temperature": 0.2, "max_tokens": 100,
                           "stream": True, "parallel_tool_calls": False, "tools": TOOL_DECLS[:1]},
    "no model": lambda m: {"messages": m},
    "deepseek": lambda m: {"model": "deepseek-chat", "messages": m, "thinking": {"type": "disabled"}},
    "gateway model": lambda m: {"model": "anthropic/claude-sonnet-4-5", "messages": m},
    "undeclared tools": lambda m: {"model": "gpt-4o", "tools": TOOL_DECLS[:1], "messages": m},
    "reasoning model": lambda m: {"model": "o3", "tools": TOOL_DECLS, "messages": m, "reasoning_effort": "low"},
}

# Bodies the typed reading must leave to the dict reading (each says something the cut cannot keep).
REFUSED_BODIES = {
    "repeated top key": lambda t: t.replace('"model": "gpt-4o"', '"model": "gpt-4o", "model": "o3"', 1),
    "repeated messages": lambda t: t[:-1] + ', "messages": [{"role": "user", "content": "hi"}]}',
    "the list twice": lambda t: t[:-1] + ', "metadata": ' + t[t.index('"messages": ') + 12:],
    "gemini cli session": lambda t: t[:-1] + ', "sessionId": "s1"}',
    "repeated key in tools": lambda t: t.replace('"type": "function"', '"type": "function", "type": "function"', 1),
}

# Broken bodies, and odd ones either reading may take: every reading must say the same thing (an
# unreadable body stays unreadable, in the same words).
BROKEN_BODIES = {
    "escaped key": lambda t: t.replace('"messages"', '"me\\u0073sages"', 1),
    "spaces around": lambda t: " \n" + t.replace('"messages": [', '"messages" :\n [', 1) + "\n ",
    "not JSON": lambda t: t[:-2],
    "trailing garbage": lambda t: t + " x",
    "two lines": lambda t: t + "\n" + t,
    "an array": lambda t: "[" + t + "]",
    "messages not a list": lambda t: t.replace('"messages": [', '"messages": {"x": [', 1)[:-1] + "}}",
    "empty messages": lambda t: '{"model": "gpt-4o", "messages": []}',
    "lone surrogate in tools": lambda t: t.replace("a: tool", "a\\ud800 tool", 1),
    "a BOM": lambda t: "\ufeff" + t,
    "nested deep": lambda t: t[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "a number content": lambda t: t.replace('"content": "Done."', '"content": 7', 1),
    "no messages": lambda t: '{"model": "gpt-4o", "input": "hi"}',
}


def _inspection(body: bytes) -> tuple[Any, ...]:
    from inspector.guard import inspect_request

    ins = inspect_request(GUARD_URL, body)
    assert ins is not None
    raws = None
    if ins.report is not None:
        raws = ins.report["findings"]
    return (dumps(ins.report) if ins.report is not None else None, ins.unreadable, ins.model, ins.streaming,
            ins.culprits, ins.target, ins.would_reject, ins.summary(), dumps(raws))


def _guard_both(body: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[Any, ...], tuple[Any, ...], bool]:
    """The guard's Inspection read typed and read as dicts, and whether the typed reading took it."""
    from inspector import reading
    from inspector.guard import inspect

    monkeypatch.setattr(inspect, "TYPED_BODY_BYTES", 0)  # every body, not only the big ones
    real = reading.typed_request
    taken = _watch_typed(monkeypatch, "typed_request")
    typed = _inspection(body)
    monkeypatch.setattr(reading, "typed_request", lambda data, label: None)
    plain = _inspection(body)
    monkeypatch.setattr(reading, "typed_request", real)
    return typed, plain, any(taken)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("wrap", sorted(BODIES))
def test_the_guard_reads_a_body_typed_and_says_what_the_dict_reading_says(monkeypatch: pytest.MonkeyPatch,
                                                                         seed: int, wrap: str) -> None:
    rng = random.Random(seed)
    for name, fn in [("clean", None), *BREAKS.items(), *SHAPES.items()]:
        msgs = transcript(random.Random(seed * 1000 + len(name)))
        if fn is not None:
            fn(msgs, rng)
        for writing in ("compact", "indented", "keys reversed", "ascii escapes", "repeated key", "escaped colon"):
            text = WRITINGS[writing]([BODIES[wrap](msgs)])  # (each writing takes a list)
            text = text[text.index("{"):text.rindex("}") + 1]
            typed, plain, was_typed = _guard_both(text.encode(), monkeypatch)
            assert typed == plain, f"{name} in a {wrap} body, written {writing}: the guard's typed reading differs"
            if writing in ("compact", "indented", "keys reversed") and (name == "clean" or name in BREAKS):
                assert was_typed, f"{name} in a {wrap} body, written {writing}: not read typed"
            if name in SHAPES or writing in ("repeated key", "escaped colon") and ('"user", "role"' in text
                                                                                  or "\\u003a" in text):
                assert not was_typed, f"{name} in a {wrap} body, written {writing}: should have been declined"


@pytest.mark.parametrize("shape", sorted(REFUSED_BODIES))
def test_the_guard_leaves_a_body_it_cannot_cut_exactly_to_the_dict_reading(monkeypatch: pytest.MonkeyPatch,
                                                                           shape: str) -> None:
    msgs = transcript(random.Random(3))
    BREAKS["drop result"](msgs, random.Random(3))
    text = REFUSED_BODIES[shape](json.dumps({"model": "gpt-4o", "tools": TOOL_DECLS, "messages": msgs}))
    typed, plain, was_typed = _guard_both(text.encode(), monkeypatch)
    assert typed == plain
    assert not was_typed, f"{shape}: the typed reading took a body it cannot read exactly"


@pytest.mark.parametrize("shape", sorted(BROKEN_BODIES))
def test_a_broken_body_gets_the_same_answer_either_way(monkeypatch: pytest.MonkeyPatch, shape: str) -> None:
    msgs = transcript(random.Random(4))
    text = BROKEN_BODIES[shape](json.dumps({"model": "gpt-4o", "tools": TOOL_DECLS, "messages": msgs}))
    typed, plain, _ = _guard_both(text.encode("utf-8", "surrogatepass"), monkeypatch)
    assert typed == plain, f"{shape}: the guard says something else when it reads typed"


@pytest.mark.parametrize("writing", ["compact", "spaced"])
def test_the_guard_reads_a_body_typed_unless_it_ends_on_calls(monkeypatch: pytest.MonkeyPatch, writing: str) -> None:
    """At the guard's own thresholds (no test setting): a body between ``TYPED_CLEAN_BYTES`` and
    ``TYPED_BODY_BYTES`` is read typed unless its text ends on a call block (the proof cannot serve
    it), which the dict reading reads; a smaller one is read as dicts. Every one says what the dict
    reading says, and the guess from the text agrees with the parsed list."""
    from inspector import reading
    from inspector.guard import inspect

    spaced = writing == "spaced"
    calls = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_end1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a"}'}}]}
    msgs: list[dict[str, Any]] = []
    k = 0
    while len(json.dumps(msgs)) < inspect.TYPED_CLEAN_BYTES:
        msgs += transcript(random.Random(100 + k))[1:]
        k += 1
    cases = {  # name: (messages, read typed)
        "clean": (msgs, True),
        "a user message last": (msgs + [{"role": "user", "content": "go on"}], True),
        "ends on calls": (msgs + [calls], False),
        "ends on calls, content first": (msgs + [{"content": None, "role": "assistant",
                                                  "tool_calls": calls["tool_calls"]}], False),
        "ends on calls, calls first": (msgs + [{"tool_calls": calls["tool_calls"], "role": "assistant",
                                                "content": None}], True),  # (the guess misses it: only slower)
        "ends on an answer": (msgs + [calls, {"role": "tool", "tool_call_id": "call_end1", "content": "ok"}], True),
        "small": (msgs[:4], False),
    }
    real = reading.typed_request
    for name, (m, typed_expected) in cases.items():
        body = json.dumps({"model": "gpt-4o", "messages": m, "tools": TOOL_DECLS},
                          separators=None if spaced else (",", ":")).encode()
        assert (len(body) < inspect.TYPED_BODY_BYTES) and (name == "small") == (len(body) < inspect.TYPED_CLEAN_BYTES)
        last = m[-1]
        assert inspect.ends_on_calls(body) == (name.startswith("ends on calls") and "calls first" not in name), name
        assert inspect.ends_on_calls(body) <= (last["role"] == "assistant" and bool(last.get("tool_calls"))), name
        taken: list[bool] = []
        monkeypatch.setattr(reading, "typed_request", lambda d, l, t=taken: t.append(True) or real(d, l))
        typed = _inspection(body)
        assert bool(taken) == typed_expected, f"{name}: read typed {bool(taken)}"
        monkeypatch.setattr(reading, "typed_request", lambda data, label: None)
        assert typed == _inspection(body), f"{name}: the guard's readings differ"
        monkeypatch.setattr(reading, "typed_request", real)


@pytest.mark.parametrize("name", ["clean", "drop result", "move result", "bad name", "loop", "null content",
                                  "user after tool", "empty calls"])
@pytest.mark.parametrize("wrap", ["model first", "tools first", "undeclared tools", "deepseek", "gateway model"])
def test_the_guard_on_a_body_says_what_check_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  name: str, wrap: str) -> None:
    """check (the CLI, judging the body as a request) and the guard (reading it typed) give one verdict."""
    from inspector.guard import inspect, inspect_request

    monkeypatch.setattr(inspect, "TYPED_BODY_BYTES", 0)

    msgs = transcript(random.Random(11))
    if name != "clean":
        BREAKS[name](msgs, random.Random(12))
    path = tmp_path / "body.json"
    path.write_text(json.dumps(BODIES[wrap](msgs)), encoding="utf-8")
    ins = inspect_request(GUARD_URL, path.read_bytes())
    assert ins is not None and ins.report is not None
    out = subprocess.run([sys.executable, "-m", "inspector", "check", str(path), "--as-request", "--format", "json"],
                         capture_output=True, check=False)
    report = json.loads(out.stdout)
    assert (ins.report["target"], ins.report["findings"]) == (report["target"], report["findings"])
    assert ins.would_reject == (out.returncode == 1)


def test_a_body_written_as_the_sdks_write_it_is_read_in_one_decode(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compact JSON in the SDKs' key order (httpx writes it so): the list's text is the structs'
    own write-back, found once in the body, and no second decode looks for it; any other writing
    is found by that second decode, and reads the same."""
    from inspector.dialects import openai_typed

    msgs = transcript(random.Random(21))
    body = {"model": "gpt-4o", "tools": TOOL_DECLS, "messages": msgs, "tool_choice": "auto"}
    compact = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    spaced = json.dumps(body).encode()
    second = openai_typed._decode_body
    read = {k: openai_typed.request_parts(v) for k, v in (("compact", compact), ("spaced", spaced))}
    assert read["compact"] is not None and read["spaced"] is not None
    assert read["compact"][1].whole() == read["spaced"][1].whole() == msgs
    assert json.loads(read["compact"][0]) == json.loads(read["spaced"][0]) == {**body, "messages": []}

    def refused(data: bytes) -> Any:
        raise AssertionError("a second decode")

    monkeypatch.setattr(openai_typed, "_decode_body", refused)
    assert openai_typed.request_parts(compact) is not None
    monkeypatch.setattr(openai_typed, "_decode_body", second)


def test_a_big_body_is_read_typed_by_the_guard_as_it_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the guard's own threshold (no test setting): a body over it takes the typed reading, and
    says what the dict reading says; a small one is read as dicts."""
    from inspector import reading
    from inspector.guard import inspect

    msgs: list[dict[str, Any]] = []
    k = 0
    while len(json.dumps(msgs, separators=(",", ":"))) < inspect.TYPED_BODY_BYTES:
        msgs += transcript(random.Random(k))
        k += 1
    BREAKS["drop result"](msgs, random.Random(1))
    big = json.dumps({"model": "gpt-4o", "messages": msgs}, separators=(",", ":")).encode()
    small = json.dumps({"model": "gpt-4o", "messages": msgs[:12]}, separators=(",", ":")).encode()
    real = reading.typed_request
    taken: list[bool] = []
    monkeypatch.setattr(reading, "typed_request", lambda d, l: taken.append(True) or real(d, l))
    typed = _inspection(big)
    assert taken == [True]
    _inspection(small)
    assert taken == [True], "a small body is read as dicts"
    monkeypatch.setattr(reading, "typed_request", lambda data, label: None)
    assert typed == _inspection(big)
    assert json.loads(typed[0])["findings"], "the broken body's finding is there"


# --- the clean proof at the engine's heart (issue 37) -------------------------------------------------
# ``check_plain`` builds the report of a typed Chat Completions document that ``clean_proof`` proves
# clean without reading it into messages, pairing it or running a rule (``checking.ProvedClean``).
# The report must be the general path's to the byte, and the analysis a door asks for afterwards
# (repair, a diff, token counts) the general path's too.

def _renamed_call(m: list[dict[str, Any]], r: random.Random, new: str) -> None:
    c = r.choice(_calls(m))
    for x in m:
        if x.get("role") == "tool" and x.get("tool_call_id") == c["id"]:
            x["tool_call_id"] = new
    c["id"] = new


# Changes that leave a document clean: the proof must still prove it.
STILL_CLEAN = {
    "40-character id": lambda m, r: _renamed_call(m, r, "c" * 40),
    "64-character name": lambda m, r: r.choice(_calls(m))["function"].update(name="n" * 64),
    "empty arguments": lambda m, r: r.choice(_calls(m))["function"].update(arguments=""),
    "no type": lambda m, r: r.choice(_calls(m)).pop("type"),
    "no content beside calls": lambda m, r: [x.pop("content") for x in m if x.get("tool_calls")][:1],
    "two polls": lambda m, r: [_poll(m, n) for n in range(4)],
    "a colon everywhere": lambda m, r: [x.update(content=x["content"] + ": x") for x in m if x.get("content")],
}

# Changes the proof must refuse: each makes the general path note something (a finding of any
# severity, or a loop), or is a shape the proof does not serve.
NEAR_CLEAN = {
    "41-character id": lambda m, r: _renamed_call(m, r, "c" * 41),
    "65-character name": lambda m, r: r.choice(_calls(m))["function"].update(name="n" * 65),
    "id null": lambda m, r: _renamed_call(m, r, "null"),
    "same id twice": lambda m, r: _same_id_twice(m),
    "results swapped": lambda m, r: _swap_results(m),
    "no calls at all": lambda m, r: m.__setitem__(slice(None), [x for x in m if x["role"] in ("system", "user")]),
    "a trailing call": lambda m, r: m.append({"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_end", "type": "function", "function": {"name": "run_shell", "arguments": "{}"}}]}),
    "two values as arguments": lambda m, r: r.choice(_calls(m))["function"].update(arguments="1, 2"),
    "blank arguments": lambda m, r: r.choice(_calls(m))["function"].update(arguments="  "),
    "null tool content": lambda m, r: m[r.choice(_tools(m))].update(content=None),
    "empty user content is fine, null is not": lambda m, r: m[1].update(content=None),
    "tool message first": lambda m, r: m.insert(0, {"role": "tool", "tool_call_id": "call_0", "content": "?"}),
    **{k: v for k, v in BREAKS.items() if k in ("drop result", "move result", "double result", "empty id",
                                                "null id", "bad name", "bad arguments", "empty calls",
                                                "user after tool", "tool after user", "loop", "ends on a call")},
}


def _poll(m: list[dict[str, Any]], n: int) -> None:
    """A call repeated with a changing answer: a poll, not a loop."""
    cid = f"call_poll_{n}"
    m.append({"role": "assistant", "content": None, "tool_calls": [
        {"id": cid, "type": "function", "function": {"name": "run_shell", "arguments": '{"cmd": "status"}'}}]})
    m.append({"role": "tool", "tool_call_id": cid, "content": f"{n} of 4 done"})


def _same_id_twice(m: list[dict[str, Any]]) -> None:
    """The last call and its result take the first call's id."""
    calls = _calls(m)
    if len(calls) < 2:
        _loop(m, random.Random(0))
        return
    last, first = calls[-1], calls[0]["id"]
    for x in m:
        if x.get("role") == "tool" and x.get("tool_call_id") == last["id"]:
            x["tool_call_id"] = first
    last["id"] = first


def _swap_results(m: list[dict[str, Any]]) -> None:
    for i in range(len(m) - 1):
        if m[i]["role"] == "tool" and m[i + 1]["role"] == "tool":
            m[i], m[i + 1] = m[i + 1], m[i]
            return
    _loop(m, random.Random(0))  # (no block of two: a loop, which the proof refuses too)


def _proved_and_general(monkeypatch: pytest.MonkeyPatch, read: Any, **kw: Any) -> tuple[bytes, bytes, bool]:
    """The report (and every message's item and the pairing, asked for afterwards) of ``read()``
    with the clean proof, then with it turned off, and whether the proof served the check."""
    from inspector import checking, clean_proof

    def report() -> tuple[bytes, bool]:
        try:
            rep, analyses = check_plain(read(), **kw)
        except Exception as exc:  # noqa: BLE001 - the same error is the same answer
            return f"{type(exc).__name__}: {exc}".encode(), False
        proved = any(type(a) is checking.ProvedClean for a in analyses)
        out = dumps(rep)  # (made before the analyses are asked for: the report is the proof's)
        pairs = [[(c.msg, c.id, c.name) for c in a.pairing.missing] + [(x.code, x.index) for x in a.issues]
                 for a in analyses]
        return out + dumps([[m.raw for m in a.msgs] for a in analyses]) + dumps(pairs), proved

    proved, was_proved = report()
    with monkeypatch.context() as m:
        m.setattr(clean_proof, "transcript_clean", lambda *a, **k: False)
        general, _ = report()
    return proved, general, was_proved


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("writing", sorted(WRITINGS))
def test_the_proof_gives_the_general_paths_report_and_serves_every_clean_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, writing: str) -> None:
    path = tmp_path / "t.json"
    rng = random.Random(seed)
    cases = [("clean", None), *STILL_CLEAN.items(), *NEAR_CLEAN.items(), *BREAKS.items(), *SHAPES.items()]
    for name, fn in cases:
        msgs = transcript(random.Random(seed * 1000 + len(name)))
        if fn is not None:
            fn(msgs, rng)
        text = WRITINGS[writing](msgs)
        path.write_text(text, encoding="utf-8")
        proved, general, was_proved = _proved_and_general(monkeypatch, lambda: read_document(str(path)))
        assert proved == general, f"{name}, written {writing}: the proved report is not the general path's"
        assert proved == _proved_and_general(monkeypatch, lambda: load_path(str(path), typed=False))[0]
        typed = writing in ("compact", "indented", "keys reversed", "ascii escapes")
        if typed and (name == "clean" or name in STILL_CLEAN):
            assert was_proved, f"{name}, written {writing}: a clean document the proof did not serve"
        if name in NEAR_CLEAN or name in SHAPES or any(x in text for x in ('"user", "role"', "\\u003a", "\\ud800")):
            assert not was_proved, f"{name}, written {writing}: the proof served what it must refuse"


@pytest.mark.parametrize("kw", [{"target": "mistral"}, {"target": "deepseek"}, {"target": "anthropic"},
                                {"dialect": "openai-chat"}, {"target": "openai"}, {"as_request": True},
                                {"as_request": False}, {"loops": "threshold 2"}])
def test_the_proof_serves_only_what_it_assumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               kw: dict[str, Any]) -> None:
    """Another target (its own rules, or a gateway's), another loop threshold: the proof steps aside
    or proves against those settings; the report is the general path's either way."""
    from inspector.loops import loop_options

    if kw.get("loops"):
        kw = {"loops": loop_options(2)}
    msgs = transcript(random.Random(3))
    for n in range(2):  # the same call answered the same twice: a loop at threshold 2 only
        cid = f"call_again_{n}"
        msgs += [{"role": "assistant", "content": None, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": "run_shell", "arguments": '{"cmd": "ls"}'}}]},
                 {"role": "tool", "tool_call_id": cid, "content": "same"}]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(msgs), encoding="utf-8")
    proved, general, was_proved = _proved_and_general(monkeypatch, lambda: read_document(str(path)), **kw)
    assert proved == general
    serves = kw.get("target", "openai") == "openai" and "loops" not in kw
    assert was_proved == serves, kw


def test_a_dialect_that_reads_the_list_otherwise_is_not_served_by_the_proof(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector import dialects
    from inspector.dialects.openai_chat import OpenAIChat

    class Rival(OpenAIChat):
        name = "rival-chat"

        def detect(self, items: list[Any]) -> int:  # type: ignore[override]
            return 9 if items and all(type(m) is dict and "role" in m for m in items) else 0

    path = tmp_path / "t.json"
    path.write_text(json.dumps(transcript(random.Random(1))), encoding="utf-8")
    dialects.register(Rival())
    try:
        proved, general, was_proved = _proved_and_general(monkeypatch, lambda: read_document(str(path)))
    finally:
        dialects.unregister("rival-chat")
    assert proved == general and b"rival-chat" in proved and not was_proved


def _watch_proof(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """A recorder on ``clean_proof.transcript_clean``: per transcript asked, whether it was proved."""
    from inspector import clean_proof

    real, said = clean_proof.transcript_clean, []

    def spy(*a: Any, **k: Any) -> bool:
        said.append(real(*a, **k))
        return said[-1]

    monkeypatch.setattr(clean_proof, "transcript_clean", spy)
    return said


@pytest.mark.parametrize("door", sorted(DOORS))
def test_every_door_takes_the_proof_on_a_clean_document_and_says_what_the_general_path_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes],
        door: str) -> None:
    from inspector import clean_proof
    from inspector.cli.parser import main

    path = tmp_path / "t.json"
    path.write_text(json.dumps(transcript(random.Random(9)), indent=1), encoding="utf-8")
    said = _watch_proof(monkeypatch)
    code = main(DOORS[door](str(path)))
    proved = (code, *capsysbinary.readouterr())
    serves = door in ("check json", "check text", "check github", "check sarif", "check tokens", "explain")
    assert (True in said) == serves, f"{door}: the proof {'not ' if serves else ''}taken"
    monkeypatch.setattr(clean_proof, "transcript_clean", lambda *a, **k: False)
    code = main(DOORS[door](str(path)))
    assert proved == (code, *capsysbinary.readouterr())


@pytest.mark.parametrize("door", sorted([*OTHER_DOORS, "app"]))
def test_repair_fit_scan_diff_and_the_app_take_the_proof_and_say_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes],
        door: str) -> None:
    from inspector import clean_proof

    run = _other_door(tmp_path, capsysbinary, door, "clean")
    said = _watch_proof(monkeypatch)
    proved = run()
    serves = door != "repair for anthropic"  # (anthropic's rules on a gateway's translation: not the proof's)
    assert (True in said) == serves, f"{door}: the proof {'not ' if serves else ''}taken on a clean document"
    monkeypatch.setattr(clean_proof, "transcript_clean", lambda *a, **k: False)
    assert run() == proved


def test_a_compact_file_of_any_size_is_compared_with_its_write_back_and_a_late_repeated_key_declined() -> None:
    """``_fits`` compares the text with the structs' own write-back a slice of messages at a time,
    at any size: a compact file in the SDKs' key order passes without its colons counted, and a
    repeated key (or any other difference) in a late slice fails the comparison and is still caught
    by the count (the dict reading then reads the file and names the key)."""
    from inspector.dialects import openai_typed

    msgs: list[dict[str, Any]] = []
    k = size = 0
    while len(msgs) < 3 * openai_typed._COMPARED or size < 1.2 * openai_typed._WRITTEN_BACK:
        more = transcript(random.Random(k))
        msgs += more
        size += len(json.dumps(more))
        k += 1
    compact = json.dumps(msgs, separators=(",", ":"), ensure_ascii=False).encode()
    assert len(compact) > openai_typed._WRITTEN_BACK  # (above the old whole-text comparison's limit)
    structs = openai_typed._decode_list(compact)
    assert openai_typed._written_back(structs, compact)
    assert openai_typed._written_back(structs, compact + b"\n")
    assert not openai_typed._written_back(structs, json.dumps(msgs, indent=1).encode())
    assert document(compact) is not None and document(json.dumps(msgs, indent=1).encode()) is not None
    late = compact.rindex(b'"role":"user"')  # in the last slice
    repeated = compact[:late] + b'"role":"user",' + compact[late:]
    assert not openai_typed._written_back(openai_typed._decode_list(repeated), repeated)
    assert document(repeated) is None
    for bad in (compact[:-1] + b",]", compact + b"x", b" " + compact):
        assert document(bad) is None


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("wrap", sorted(BODIES))
def test_the_guard_takes_the_proof_on_a_clean_body_and_says_what_the_general_path_says(
        monkeypatch: pytest.MonkeyPatch, seed: int, wrap: str) -> None:
    """A request body read typed whose list the proof proves clean, for openai, beside the tools
    its body declares: the guard's Inspection is the general path's (and the dict reading's), and
    the proof served exactly the clean bodies for openai (a body for DeepSeek or a gateway, or one
    calling a tool its tools list does not declare, goes the general way)."""
    from inspector import clean_proof
    from inspector.guard import inspect

    monkeypatch.setattr(inspect, "TYPED_BODY_BYTES", 0)
    rng = random.Random(seed)
    for name, fn in [("clean", None), *STILL_CLEAN.items(), *NEAR_CLEAN.items()]:
        msgs = transcript(random.Random(seed * 100 + len(name)))
        if fn is not None:
            fn(msgs, rng)
        body = json.dumps(BODIES[wrap](msgs), separators=(",", ":")).encode()
        said = _watch_proof(monkeypatch)
        proved = _inspection(body)
        with monkeypatch.context() as m:
            m.setattr(clean_proof, "transcript_clean", lambda *a, **k: False)
            general = _inspection(body)
        typed, plain, was_typed = _guard_both(body, monkeypatch)
        assert proved == general == typed == plain, f"{name} in a {wrap} body: the proof changes the guard's answer"
        report = json.loads(proved[0])
        clean = not report["findings"] and not report["loops"] and report["target"] == "openai" and b'"tool_calls":' in body
        assert was_typed and (True in said) == clean, f"{name} in a {wrap} body: proved {said}, clean {clean}"
        if name == "clean" and wrap in ("model first", "tools first", "no model", "reasoning model"):
            assert True in said, f"a clean {wrap} body not proved"
        if name in NEAR_CLEAN:
            assert True not in said, f"{name} in a {wrap} body: the proof served what it must refuse"
