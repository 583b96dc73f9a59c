"""Issue 15: the texts repair writes take {id} and {name} and nothing else, with a length cap,
from the library, the CLI and a share link's view."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import inspector
from inspector.errors import InputError
from inspector.repairing import MAX_TEXT_CHARS, RepairOptions, options_from_settings

BROKEN = [
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}]},
    {"role": "user", "content": "and?"},
]


def placeholder_of(result) -> str:
    return next(m["content"] for m in result.data if m.get("role") == "tool")


@pytest.mark.parametrize("template", ["{id:>200000000}", "{id!r:^999999999}", "{0}", "{name.__class__}", "{", "}{"])
def test_format_specs_are_refused_with_a_sentence(template):
    with pytest.raises(ValueError, match="only {id} and {name} are filled in"):
        RepairOptions(placeholder=template)
    with pytest.raises(InputError, match="only {id} and {name}"):
        options_from_settings([], {"placeholder": template})


def test_only_id_and_name_are_filled_and_double_braces_are_braces():
    result = inspector.repair(BROKEN, options={"placeholder": "{id}/{name}/{{id}}/{{other}}"})
    assert placeholder_of(result) == "call_1/weather/{id}/{other}"


def test_a_long_id_is_shortened_where_the_text_quotes_it():
    msgs = json.loads(json.dumps(BROKEN))
    msgs[1]["tool_calls"][0]["id"] = "c" * 100_000
    result = inspector.repair(msgs, options={"placeholder": "{id}" * 10, "rename_ids": False})
    assert len(placeholder_of(result)) <= 10 * 200


def test_template_length_is_capped_with_a_clear_message():
    with pytest.raises(ValueError, match=f"at most {MAX_TEXT_CHARS}"):
        RepairOptions(placeholder="x" * (MAX_TEXT_CHARS + 1))
    with pytest.raises(InputError, match="placeholder"):
        options_from_settings([], {"placeholder": "x" * (MAX_TEXT_CHARS + 1)})


def test_cli_format_spec_placeholder_stays_small(tmp_path):
    p = tmp_path / "b.json"
    p.write_text(json.dumps(BROKEN))
    done = subprocess.run([sys.executable, "-m", "inspector", "repair", str(p), "--placeholder", "{id:>999999999}"],
                          capture_output=True, timeout=120)
    assert done.returncode == 2 and done.stdout == b"" and b"only {id} and {name}" in done.stderr
    done = subprocess.run([sys.executable, "-m", "inspector", "repair", str(p), "--placeholder", "x" * 5000],
                          capture_output=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_share_link_options_that_the_engine_refuses_are_dropped():
    from inspector.repairing import usable_options

    got = usable_options({"placeholder": "{id:>200000000}", "note": "y" * 10**6, "orphan": "explode",
                          "missing": "remove_call", "nonsense": 1})
    assert got == {"missing": "remove_call"}
    assert usable_options(["not", "a", "dict"]) == {}
