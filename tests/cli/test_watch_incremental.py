"""``inspector watch``'s incremental path (issue 32): after every appended line, what the follower
holds for the session (``Follower.findings``, the whole check's or a window's laid over what was
settled before its safe point) is what ``check`` of the file as it then is says, finding for
finding, with calls left unanswered on the way (which no longer send every later look back to a
whole check)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector
from inspector.checking import check_plain
from inspector.watching import Follower

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"


def _line(kind: str, payload: dict) -> dict:
    return {"timestamp": "2026-01-01T00:00:00Z", "type": kind, "payload": payload}


def rollout_with_open_calls(turns: int = 12) -> list[dict]:
    """A Codex rollout whose turns call a tool and get its output, except every third turn, whose
    call is left unanswered (the assistant replies without it), and one turn of two parallel
    calls; a turn_context names the model now and then."""
    rows = [_line("session_meta", {"id": "t", "cwd": "/p", "cli_version": "0.46.0", "source": "cli"}),
            _line("turn_context", {"model": "gpt-5-codex", "cwd": "/p"})]
    for k in range(turns):
        rows.append(_line("response_item", {"type": "message", "role": "user",
                                            "content": [{"type": "input_text", "text": f"step {k}"}]}))
        ids = [f"call_{k}"] + ([f"call_{k}b"] if k == 4 else [])
        for cid in ids:
            rows.append(_line("response_item", {"type": "function_call", "name": "shell",
                                                "arguments": '{"command":["ls"]}', "call_id": cid}))
        rows.append(_line("event_msg", {"type": "exec_command_end", "call_id": ids[0]}))
        if k % 3 != 2:
            for cid in ids:
                rows.append(_line("response_item", {"type": "function_call_output", "call_id": cid, "output": "ok"}))
        rows.append(_line("response_item", {"type": "message", "role": "assistant",
                                            "content": [{"type": "output_text", "text": "done"}]}))
        if k % 5 == 4:
            rows.append(_line("turn_context", {"model": "gpt-5-codex", "cwd": "/p"}))
    return rows


def _key(f: dict) -> tuple:
    return (f["transcript"], f["message_index"], f["code"], f["tool_call_id"], f["severity"], f["text"])


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


@pytest.mark.parametrize("name", ["codex-open-calls", "codex_rollout_compacted.jsonl",
                                  "gemini_cli_session_rewound.jsonl", "claude-code"])
def test_after_every_appended_line_the_follower_holds_what_check_says(tmp_path, name):
    from inspector.dialects import get

    if name == "codex-open-calls":
        rows = rollout_with_open_calls()
    elif name == "claude-code":
        rows = [*get("claude-code").samples.clean, *get("claude-code").samples.broken]
    else:
        rows = _jsonl(SAMPLES / name)
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"")
    follower = Follower(str(path))
    printed: list[tuple] = []
    whole_at: list[int] = []  # the lines after which the whole session was checked
    for k, row in enumerate(rows):
        with open(path, "a") as f:
            f.write(json.dumps(row) + "\n")
        before = follower.whole_checks
        new, _, _ = follower.poll()
        if follower.whole_checks > before:
            whole_at.append(k)
        printed += [_key(f) for f in new]
        want, _ = check_plain(inspector.load(str(path)))
        assert [_key(f) for f in follower.findings] == [_key(f) for f in want["findings"]], f"after line {k + 1}"
    assert len(printed) == len(set(printed))  # each finding printed once
    final = {_key(f) for f in check_plain(inspector.load(str(path)))[0]["findings"]}
    assert final <= set(printed)  # every finding of the final file was printed when it appeared
    if name == "codex-open-calls":
        assert any(f["code"] == "TC001" for f in follower.findings)  # calls left unanswered, found
        # and once the first turn settled, only a line that may rewrite what came before (a turn_context)
        # sent a look back to a whole check, open calls or not
        first_turn = next(k for k, r in enumerate(rows) if r["payload"].get("role") == "assistant")
        assert [rows[k]["type"] for k in whole_at if k > first_turn] == ["turn_context", "turn_context"], whole_at
