"""``inspector watch`` says what ``check`` says (issue 32): a session file grown line by line, as an
agent appends to it, and followed between each two appends, prints

1. at each look, exactly the findings ``check`` of the file as it then is has and that were not
   printed before (nothing a full check would not print, nothing printed twice);
2. by the end, every finding of ``check`` of the final file, each once.

For the three session logs the follower reads: Claude Code (the daaain/claude-code-log fixture of
the shared corpus, and the dialect's broken sample), a Codex CLI rollout with a compaction and a
Gemini CLI session with a rewind (the samples)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector
from inspector.dialects import get
from inspector.watching import Follower, finding_key

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"


def _claude_broken(tmp: Path) -> Path:
    p = tmp / "claude-broken.jsonl"
    p.write_text("".join(json.dumps(e) + "\n" for e in get("claude-code").samples.broken))
    return p


def _line(t: str, payload: dict) -> dict:
    return {"timestamp": "2026-11-27T10:00:00Z", "type": t, "payload": payload}


def _codex_breaks(tmp: Path, version: str = "0.46.0") -> Path:
    """A Codex rollout whose appends cross every case: clean rounds (windows), an open call a
    user message follows (TC001, numbered as the whole file numbers it), a call id used again
    after the safe point (a duplicate only the whole check sees), a model change (turn_context)
    and a compaction (lines that rewrite what came before)."""
    rows = [_line("session_meta", {"id": "s", "cwd": "/p", "cli_version": version, "source": "cli"}),
            _line("turn_context", {"cwd": "/p", "model": "gpt-5-codex"}),
            _line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]})]

    def round_(cid: str, answered: bool = True) -> list[dict]:
        out = [_line("response_item", {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": cid}),
               _line("event_msg", {"type": "exec_command_end", "call_id": cid})]
        if answered:
            out.append(_line("response_item", {"type": "function_call_output", "call_id": cid, "output": "ok"}))
        out.append(_line("response_item", {"type": "message", "role": "assistant",
                                           "content": [{"type": "output_text", "text": "done"}]}))
        return out

    for k in range(6):
        rows += round_(f"call_{k}")
    rows += round_("call_open", answered=False)
    rows.append(_line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "?"}]}))
    rows += round_("call_7") + round_("call_2")  # call_2 again: a duplicate id across the safe point
    rows.append(_line("turn_context", {"cwd": "/p", "model": "gpt-5"}))
    rows += round_("call_9")
    rows.append(_line("compacted", {"message": "summary", "replacement_history": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]}]}))
    rows += round_("call_10") + round_("call_11", answered=False) + round_("call_12")
    p = tmp / f"codex-breaks-{version}.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return p


SOURCES = {
    "codex-breaks": _codex_breaks,
    # a version that answers open calls itself: the same breaks are notes, in windows as in the whole check
    "codex-breaks-patched": lambda tmp: _codex_breaks(tmp, "0.50.0"),
    "claude-code-corpus": lambda tmp: CORPUS / "anthropic" / "claude-code-log_representative_messages.jsonl",
    "claude-code-broken": _claude_broken,
    "codex": lambda tmp: ROOT / "sample_logs" / "codex_rollout_compacted.jsonl",
    "gemini-cli": lambda tmp: ROOT / "sample_logs" / "gemini_cli_session_rewound.jsonl",
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_watching_a_growing_session_prints_what_check_finds_once_each(tmp_path, name):
    source = SOURCES[name](tmp_path)
    if not source.exists():
        pytest.skip(f"{source} is not here (the shared corpus)")
    lines = source.read_bytes().splitlines(keepends=True)
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"")
    follower = Follower(str(path))
    printed: list[tuple] = []
    for k, line in enumerate(lines, 1):
        with open(path, "ab") as f:
            f.write(line)
        new, _, _ = follower.poll()
        now = inspector.check(str(path)).model_dump()["findings"]
        new_keys = [finding_key(f) for f in new]
        assert set(new_keys) <= {finding_key(f) for f in now}, f"line {k}: printed what check does not find"
        assert [f["text"] for f in new] == [f["text"] for f in now if finding_key(f) in set(new_keys)], f"line {k}"
        assert not set(new_keys) & set(printed), f"line {k}: printed twice"
        assert {finding_key(f) for f in now} <= {*printed, *new_keys}, f"line {k}: a finding check has was not printed"
        printed += new_keys
    final = inspector.check(str(path)).model_dump()["findings"]
    assert {finding_key(f) for f in final} <= set(printed)
    assert len(printed) == len(set(printed))
    if name.startswith("codex-breaks"):  # the appends were checked as windows, not each as the whole file
        assert follower.whole_checks < len(lines) // 2, follower.whole_checks
