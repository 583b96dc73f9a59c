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


SOURCES = {
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
