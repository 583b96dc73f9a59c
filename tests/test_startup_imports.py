"""The start-up budget, as a list of modules: ``import inspector`` loads nothing, and a plain
``inspector check`` of a small file loads the reader, the rules and the text output, not the
engines, extras and other commands it does not use (pydantic, the tokenizer, the secret scan,
repair, the store, the app's libraries). Each run is a fresh interpreter: what the CLI pays on
every call in a pre-commit hook."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli.parser import _COMMANDS, COMMAND_MODULES, load_commands

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "sample_logs" / "orphan_tool_reply.json"

# Libraries a plain check never needs (top-level package names).
NOT_FOR_A_CHECK = ("pydantic", "pydantic_core", "streamlit", "pandas", "dask", "distributed", "pyarrow", "toktok",
                   "re2", "sqlalchemy", "psycopg", "difflib", "tiktoken")
# Standard-library modules a plain check loaded for nothing (issue 37: a 4-message check took 3.4
# times a bare interpreter): argparse's formatter asked shutil (with bz2, lzma) for the terminal's
# width once per option, the rules' catalogue parsed every provider template with ``string`` on
# import, two readers imported base64 for files they rarely meet, the dialect registry threading
# for one lock. Neither msgspec, orjson nor argparse needs any of them.
STDLIB_NOT_FOR_A_CHECK = ("shutil", "bz2", "lzma", "base64", "string", "threading")
# The package's own modules a plain check never needs: the other commands (every module the
# command registry names but check's own) and the engines and rooms only they use.
OWN_NOT_FOR_A_CHECK = tuple(sorted(set(COMMAND_MODULES.values()) - {COMMAND_MODULES["check"]})) + (
    "inspector.scan", "inspector.repairing", "inspector.fixes", "inspector.fitting", "inspector.report",
    "inspector.sharing", "inspector.export", "inspector.render", "inspector.ui", "inspector.guard",
    "inspector.provider_errors", "inspector.pyrepr",
    # the typed reading (and the clean proof on it) for a file of ``reading.TYPED_FROM_BYTES`` or more only
    "inspector.dialects.openai_typed", "inspector.clean_proof")


def _modules_after(code: str) -> tuple[set[str], set[str]]:
    """(modules loaded before ``code``, modules loaded after it), in a fresh interpreter."""
    script = ("import sys\nbefore = set(sys.modules)\n" + code +
              "\nprint('\\n'.join(sorted(before)))\nprint('--')\nprint('\\n'.join(sorted(sys.modules)))")
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    before, after = p.stdout.rsplit("--\n", 1)
    # what the script printed first (a check's output) ends before the module list starts
    return set(before.split()), set(after.split())


def test_import_inspector_loads_no_module_of_its_own_nor_any_library():
    before, after = _modules_after("import inspector")
    assert after - before == {"inspector"}


def test_a_plain_check_of_a_small_file_loads_only_what_it_uses():
    code = ("import contextlib, io\nfrom inspector.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main(['check', {str(SMALL)!r}]) == 1\n")
    _, after = _modules_after(code)
    assert "inspector.checking" in after and "inspector.rules" in after  # it did check
    libraries = sorted(m for m in after if m.split(".")[0] in NOT_FOR_A_CHECK)
    assert libraries == []
    assert sorted(m for m in after if m in STDLIB_NOT_FOR_A_CHECK) == []
    own = sorted(m for m in after if m.startswith(OWN_NOT_FOR_A_CHECK))
    assert own == []


def test_a_check_runs_without_a_garbage_collection_and_gives_the_gc_back():
    """Start-up allocates tens of thousands of objects and no garbage: a check runs whole with the
    cyclic GC paused (``cli.parser.main``), and the caller has it back, as it was, afterwards."""
    code = ("import contextlib, gc, io\nfrom inspector.cli import main\nruns = []\n"
            "gc.callbacks.append(lambda phase, info: phase == 'start' and runs.append(info['generation']))\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['check', {str(SMALL)!r}]) == 1\n"
            "assert runs == [], runs\nassert gc.isenabled()\n"
            "gc.disable()\nwith contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main(['check', {str(SMALL)!r}])\nassert not gc.isenabled()  # (it was off: it stays off)\n")
    _modules_after(code)


def test_a_command_that_does_not_ask_for_it_runs_with_the_gc_on():
    """Only the start-up is paused for a command not registered with ``pause_gc`` (a server, a watch,
    a scan of many files): its run has the cyclic GC as the caller had it."""
    code = ("import contextlib, gc, io\nfrom inspector.cli import main, parser\nparser.load_commands('explain')\n"
            "help_, add, run = parser._COMMANDS['explain']\nseen = []\n"
            "parser._COMMANDS['explain'] = (help_, add, lambda args: seen.append(gc.isenabled()) or run(args))\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(['explain', 'TC001'])\n"
            "assert seen == [True] and gc.isenabled(), seen\n")
    _modules_after(code)


def test_the_check_paths_modules_compile_no_pattern_and_parse_no_template_on_import():
    """What a check imports does no work it may not need: its regular expressions are compiled on
    first use (``lazy_patterns``), the rules' provider templates are read when a finding names them."""
    code = ("import re, string, traceback\ncompiled = []\nreal = re._compile\n"
            "def spy(pattern, flags):\n"
            "    caller = traceback.extract_stack()[-3].filename  # (the spy, then re.compile or re.match)\n"
            "    if '/inspector/' in caller:\n        compiled.append((caller, pattern))\n"
            "    return real(pattern, flags)\n"
            "re._compile = spy\nparsed = []\nreal_parse = string.Formatter.parse\n"
            "string.Formatter.parse = lambda self, s: parsed.append(s) or real_parse(self, s)\n"
            "import inspector.checking, inspector.reading, inspector.cli.check, inspector.dialects\n"
            "inspector.dialects.load_all()\n"
            "assert compiled == [], compiled\nassert parsed == [], parsed[:3]\n")
    _modules_after(code)


def test_the_api_names_load_on_first_use():
    code = ("import inspector\nassert 'inspector.checking' not in sys.modules\n"
            "r = inspector.check([{'role': 'tool', 'tool_call_id': 'x', 'content': 'hi'}])\n"
            "assert [f.code for f in r.findings] == ['TC002'] and isinstance(r, inspector.Report)\n"
            "assert inspector.verdict(r).startswith('OpenAI would reject')\n"
            "assert 'TC001' in inspector.RULES and 'openai' in inspector.TARGETS\n"
            "assert set(inspector.__all__) <= set(dir(inspector))\n"
            "for name in inspector.__all__:\n    getattr(inspector, name)\n"
            # the engine's module is ``checking``: no submodule shadows the function ``check``
            "import inspector.checking\nassert inspector.check.__module__ == 'inspector'\n")
    _modules_after(code)


def test_a_help_run_and_each_command_still_find_their_commands():
    p = subprocess.run([sys.executable, "-m", "inspector", "--help"], capture_output=True, text=True, timeout=60)
    for name in COMMAND_MODULES:
        assert name in p.stdout
    load_commands()
    assert set(COMMAND_MODULES) == set(_COMMANDS)  # the table names every command's module


# The guard's libraries (issue 26): the proxy's server, its HTTP client, the framework hooks'
# frameworks and the cassettes' YAML reader load only when the guard is used.
GUARD_LIBRARIES = ("starlette", "uvicorn", "httpx", "httpx2", "httpcore", "litellm", "langchain", "langchain_core",
                   "langgraph", "openai", "anthropic", "yaml")


def _guard_libraries_after(code: str) -> list[str]:
    _, after = _modules_after(code)
    return sorted(m for m in after if m.split(".")[0] in GUARD_LIBRARIES)


def _cli(*argv: str) -> str:
    return ("import contextlib, io\nfrom inspector.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            f"    try:\n        main({list(argv)!r})\n    except SystemExit:\n        pass\n")


@pytest.mark.parametrize("argv", [
    ("check", str(SMALL)), ("check", "--format", "json", str(SMALL)), ("scan", str(SMALL)),
    ("repair", str(SMALL), "-o", "{tmp}/out.json"), ("explain", "TC001"), ("fit", "--help"),
    ("inbox", "--since", "1h", "--format", "json"), ("proxy", "--help"), ("--help",),
], ids=lambda a: " ".join(a[:2]))
def test_no_cli_command_but_the_proxy_itself_loads_the_guards_libraries(argv, tmp_path, monkeypatch):
    monkeypatch.setenv("INSPECTOR_STORE_PATH", str(tmp_path / "store.sqlite3"))
    assert _guard_libraries_after(_cli(*(a.replace("{tmp}", str(tmp_path)) for a in argv))) == []


def test_the_api_and_the_guards_pure_part_load_none_of_them():
    code = ("import inspector\nfor name in inspector.__all__:\n    getattr(inspector, name)\n"
            "import inspector.guard\nfrom inspector.guard import inspect_request, Recorder\n"
            "ins = inspect_request('https://api.openai.com/v1/chat/completions', "
            "b'{\"model\": \"gpt-4o\", \"messages\": [{\"role\": \"tool\", \"tool_call_id\": \"x\", \"content\": \"y\"}]}')\n"
            "assert ins.would_reject and Recorder(enabled=False).record(ins, 'would_reject') is None\n")
    assert _guard_libraries_after(code) == []
    # the same probe sees them once the guard's HTTP client is asked for
    assert "httpx" in " ".join(_guard_libraries_after("import inspector.guard\ninspector.guard.client(package='httpx')"))


def test_the_pytest_plugin_loads_none_of_them_unless_asked(tmp_path):
    (tmp_path / "test_probe.py").write_text(
        "import sys\n\ndef test_probe():\n"
        "    assert 'inspector.guard.pytest_plugin' in sys.modules\n"
        f"    loaded = sorted(m for m in sys.modules if m.split('.')[0] in {GUARD_LIBRARIES!r})\n"
        "    assert loaded == [], loaded\n")
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # only ours, not every installed plugin
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "inspector.guard.pytest_plugin", "-p", "no:cacheprovider",
                        str(tmp_path)], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert p.returncode == 0, p.stdout[-2000:]
