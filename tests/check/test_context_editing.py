"""Context editing placeholders (issue 32): a tool result whose content a harness cleared.

Anthropic's ``clear_tool_uses_20250919`` (beta ``context-management-2025-06-27``) clears old tool
results in the server's copy of the prompt, replacing them with placeholder text, and keeps the
``tool_use`` (``clear_tool_inputs`` clears only its input); "your client application maintains the
full, unmodified conversation history" (docs.claude.com, build-with-claude/context-editing). The
placeholder that reaches a history is the client-side one: Claude Code's microcompact writes
``[Old tool result content cleared]`` in place of the result (anthropics/claude-code#42542,
2026-08-25; the same text in Qwen Code, OpenClaw's hard clear, lijunzh/koda#639 of 2026-04-04).
See docs/provider-evidence.md.

- A cleared result with its call is a pair like any other: nothing to report.
- A cleared result whose call is gone is still an orphan (the API refuses it: no provider clearing
  takes out the call), and the finding says what happened: the result was cleared on purpose, its
  call taken out by something else.
"""

from __future__ import annotations

import json

import inspector

CLEARED = "[Old tool result content cleared]"


def _body(messages: list) -> str:
    return json.dumps({"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": messages})


CALL = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01A", "name": "Read",
                                          "input": {"file_path": "src/cart.py"}}]}


def test_a_cleared_result_with_its_call_is_no_finding():
    report = inspector.check(_body([
        {"role": "user", "content": "Read the cart."}, CALL,
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": CLEARED}]},
        {"role": "assistant", "content": "Done."}]))
    assert report.ok and not report.findings


def test_a_cleared_result_whose_call_is_gone_is_an_orphan_that_says_it_was_cleared():
    report = inspector.check(_body([
        {"role": "user", "content": "Go on."},
        {"role": "assistant", "content": "Continuing."},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01B", "content": "kept"},
            {"type": "tool_result", "tool_use_id": "toolu_01A", "content": [{"type": "text", "text": CLEARED}]},
            {"type": "text", "text": "next"}]}]))
    orphans = {f.tool_call_id: f for f in report.findings if f.code == "TC002"}
    assert set(orphans) == {"toolu_01A", "toolu_01B"} and all(f.severity == "error" for f in orphans.values())
    assert "placeholder context editing leaves" in orphans["toolu_01A"].hint
    assert "clear_tool_uses_20250919) keeps the call" in orphans["toolu_01A"].hint
    assert "placeholder" not in (orphans["toolu_01B"].hint or "")  # only the cleared one says so


def test_claude_code_log_with_a_microcompacted_orphan():
    """The same in a Claude Code session log (one entry per line)."""
    entries = [
        {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s", "timestamp": "2026-08-25T10:00:00Z",
         "message": {"role": "user", "content": "go"}},
        {"type": "user", "uuid": "u2", "parentUuid": "u1", "sessionId": "s", "timestamp": "2026-08-25T10:00:01Z",
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_gone",
                                                  "content": CLEARED}]}},
    ]
    report = inspector.check("".join(json.dumps(e) + "\n" for e in entries))
    (f,) = [f for f in report.findings if f.code == "TC002"]
    assert "placeholder context editing leaves" in f.hint
