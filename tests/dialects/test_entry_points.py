"""A wire format comes from an ``inspector.dialects`` entry point, the built-in ones and another
package's alike (``inspector/dialects/__init__.py``): a package outside this one adds a format
with one module and its entry point, no edit here, and it can be registered and unregistered by
hand as llm's plugins are (``pm.register`` / ``pm.unregister`` in llm's ``tests/conftest.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib import metadata

import pytest

import inspector
from inspector import dialects
from inspector.errors import InputError

# A throwaway format: ``{"toy_log": [{"speaker": ..., "says": ..., "calls": [...], "answers": id}]}``.
TOY_MODULE = textwrap.dedent('''
    from inspector.dialects.base import Block, Dialect
    from inspector.model import Call, Msg, Result

    ROLES = {"human": "user", "bot": "assistant", "tool": "tool"}


    def toy_log(root, fmt):
        if type(root) is dict and type(root.get("toy_log")) is list:
            return [(("toy_log",), ("toy log", {"dialect": "toy"}))]
        return []


    class Toy(Dialect):
        name = "toy"
        targets = ("openai",)
        block = Block.RUN
        recognisers = (toy_log,)

        def detect(self, items):
            return 4 if items and all(type(m) is dict and "speaker" in m for m in items) else 0

        def read(self, items, where, issues):
            out = []
            for i, m in enumerate(items):
                calls = [Call(c["id"], c["tool"], "{}", j, i) for j, c in enumerate(m.get("calls", ()))]
                results = [Result(m["answers"], None, 0, i)] if "answers" in m else []
                out.append(Msg(i, ROLES[m["speaker"]], calls, results, m, has_other=not results))
            return out

        def text(self, raw):
            return raw.get("says", "") if type(raw) is dict else ""


    DIALECT = Toy()
''')

TOY_DOC = {"toy_log": [
    {"speaker": "human", "says": "weather in Paris?"},
    {"speaker": "bot", "calls": [{"id": "c1", "tool": "weather"}, {"id": "c2", "tool": "time"}]},
    {"speaker": "tool", "answers": "c1", "says": "sunny"},
]}


@pytest.fixture
def toy_package(tmp_path, monkeypatch):
    """A distribution outside this package, on ``sys.path``, declaring the toy format's entry point."""
    (tmp_path / "toy_format.py").write_text(TOY_MODULE)
    info = tmp_path / "toy_format-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-format\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[inspector.dialects]\ntoy = toy_format:DIALECT\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    dialects.rescan()
    yield tmp_path
    monkeypatch.undo()
    dialects.unregister("toy")
    dialects.rescan()
    sys.modules.pop("toy_format", None)


def test_the_entry_points_are_the_ones_importlib_metadata_reads():
    ours = {(ep.name, ep.value) for ep in dialects.entry_points()}
    theirs = {(ep.name, ep.value) for ep in metadata.entry_points(group=dialects.GROUP)}
    assert ours == theirs
    assert set(dialects.names()) == {name for name, _ in theirs}


def test_names_import_no_dialect_and_first_use_imports_one():
    code = ("import sys, inspector.dialects as d; names = d.names(); "
            "loaded = lambda: sorted(m for m in sys.modules if m.startswith('inspector.dialects.') "
            "and m not in ('inspector.dialects.base', 'inspector.dialects.editing')); "
            "print(len(names), loaded()); d.get('gemini'); print(loaded())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == f"{len(dialects.names())} []"
    assert out[1] == "['inspector.dialects.gemini']"


def test_a_format_from_another_package_is_found_checked_and_forgotten(toy_package):
    assert "toy" in dialects.names()
    report = inspector.check(TOY_DOC)
    assert report.dialect == "toy"
    # the engine pairs the new format's calls as any other's: c2 has no result
    assert [(f.code, f.tool_call_id) for f in report.findings if f.severity == "error"] == [("TC001", "c2")]

    dialects.unregister("toy")
    assert "toy" not in dialects.names()
    with pytest.raises(InputError, match="unknown dialect 'toy'"):
        dialects.get("toy")
    with pytest.raises(InputError, match="no conversation found"):
        inspector.check(TOY_DOC)  # its container recogniser went with it


def test_the_cli_reads_the_new_format_with_no_edit_here(toy_package, tmp_path):
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(TOY_DOC))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(toy_package), os.environ.get("PYTHONPATH")]))}
    cli = [sys.executable, "-m", "inspector", "check", "--format", "json"]
    run = subprocess.run([*cli, str(path)], capture_output=True, text=True, env=env)
    assert run.returncode == 1, run.stderr
    report = json.loads(run.stdout)
    assert report["dialect"] == "toy"
    assert [f["tool_call_id"] for f in report["findings"] if f["code"] == "TC001"] == ["c2"]
    helped = subprocess.run([*cli, "--help"], capture_output=True, text=True, env=env)
    assert "toy" in helped.stdout


def test_register_and_unregister_by_hand(toy_package):
    import toy_format

    dialects.unregister("toy")
    assert "toy" not in dialects.names()
    dialects.register(toy_format.DIALECT)
    assert dialects.get("toy") is toy_format.DIALECT
    assert dialects.all_dialects()[-1] is toy_format.DIALECT  # after the built-ins: they win ties
    assert dialects.all_dialects()[0].name == "openai-chat"
    assert inspector.check(TOY_DOC).dialect == "toy"
    assert dialects.unregister("toy") is toy_format.DIALECT
    assert toy_format.DIALECT not in dialects.all_dialects()
