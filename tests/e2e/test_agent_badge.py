"""The badge names the coding agent whose session log is open, and the version the log names
(issue 32): Codex's ``session_meta.cli_version``, Claude Code's entries' ``version``, Copilot CLI's
``session.start.copilotVersion``; OpenHands, Gemini CLI and ADK logs name no version, so the badge
names the agent alone. A "version" that is not one (log text that could be Markdown) is not shown."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import open_sample, upload

pytestmark = pytest.mark.e2e
ROW = ".st-key-file_row"


def claude_code_log(version: str) -> bytes:
    def entry(uuid, parent, role, content, mid=None):
        message = {"role": role, "content": content}
        if mid:
            message["id"] = mid
        return {"type": role, "uuid": uuid, "parentUuid": parent, "sessionId": "s1", "version": version,
                "cwd": "/p", "timestamp": "2026-05-02T10:00:00.000Z", "message": message}

    rows = [entry("u1", None, "user", "List the files."),
            entry("a1", "u1", "assistant", [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                             "input": {"command": "ls"}}], "msg_1"),
            entry("u2", "a1", "user", [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.py"}])]
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def test_the_badge_names_the_agent_and_its_version(app_page):
    page = app_page
    for stem, badge in (("codex_rollout_compacted", "Codex CLI 0.46.0"),
                        ("copilot_session_aborted_call", "Copilot CLI 0.0.369"),
                        ("openhands_trajectory_unanswered_call", "OpenHands"),
                        ("adk_session_unanswered_call", "Google ADK"),
                        ("gemini_cli_session_rewound", "Gemini CLI")):
        open_sample(page, stem)
        expect(page.locator(ROW)).to_contain_text(badge)
    upload(page, name="session.jsonl", data=claude_code_log("2.0.14"))
    expect(page.locator(ROW)).to_contain_text("Claude Code 2.0.14")


def test_a_version_that_is_not_one_is_not_shown(app_page):
    page = app_page
    upload(page, name="odd.jsonl", data=claude_code_log("**bold** [x](http://example.com)"))
    expect(page.locator(ROW)).to_contain_text("Claude Code")
    expect(page.locator(ROW)).not_to_contain_text("bold")
    expect(page.locator(f"{ROW} a")).to_have_count(0)


def test_a_plain_message_list_has_no_agent_badge(app_page):
    page = app_page
    upload(page, name="chat.json", data=json.dumps([{"role": "user", "content": "hi"},
                                                    {"role": "assistant", "content": "hello"}]).encode())
    expect(page.locator(ROW)).to_contain_text("openai-chat")
    for agent in ("Codex CLI", "Claude Code", "Copilot CLI", "OpenHands", "Gemini CLI", "Google ADK"):
        expect(page.locator(ROW)).not_to_contain_text(agent)
