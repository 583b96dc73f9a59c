"""Builds ``agents_sdk_sqlite_session.db`` beside it: an OpenAI Agents SDK ``SQLiteSession`` store.

The tables are created by the SDK's own statements (openai/openai-agents-python
``src/agents/memory/sqlite_session.py``, ``_create_schema_for_connection``, commit 7f7a44f of
2026-08-22; WAL mode as ``_configure_connection`` sets it) and each row is one Responses item
written with ``json.dumps``, as ``_insert_items`` writes it. Two sessions:

- ``weather``: the history of the SDK's own test ``test_session_limit_drops_unmatched_history_
  function_call_output`` (tests/memory/test_session_limit.py): a call, its output, the reply;
- ``deploy``: a run stopped after the model called a tool (the call saved, its output never):
  the next user turn follows an open call, which the Responses API refuses ("No tool output
  found for function call call_deploy_1").

    python sample_logs/agents_sdk_sqlite_session.py
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

OUT = Path(__file__).with_suffix(".db")

SESSIONS = {
    "weather": [
        {"role": "user", "content": "What is the weather?"},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "It is sunny.", "annotations": []}]},
    ],
    "deploy": [
        {"role": "user", "content": "Deploy the staging branch."},
        {"type": "function_call", "id": "fc_deploy_1", "call_id": "call_deploy_1", "name": "run_deploy",
         "arguments": "{\"branch\": \"staging\"}", "status": "completed"},
        {"role": "user", "content": "Did it work?"},
    ],
}


def build(path: Path = OUT) -> Path:
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("""
        CREATE TABLE IF NOT EXISTS agent_sessions (
            session_id TEXT PRIMARY KEY,
            created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
            updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
        )""")
    con.execute("""
        CREATE TABLE IF NOT EXISTS agent_messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL,
            message_data TEXT NOT NULL,
            created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
            FOREIGN KEY (session_id) REFERENCES agent_sessions (session_id)
                ON DELETE CASCADE
        )""")
    con.execute("CREATE INDEX IF NOT EXISTS idx_agent_messages_session_id ON agent_messages (session_id, id)")
    stamp = "2026-11-27 09:00:00"  # fixed, so that the file is the same each time it is built
    for sid, items in SESSIONS.items():
        con.execute("INSERT OR IGNORE INTO agent_sessions (session_id, created_at, updated_at) VALUES (?, ?, ?)",
                    (sid, stamp, stamp))
        con.executemany("INSERT INTO agent_messages (session_id, message_data, created_at) VALUES (?, ?, ?)",
                        [(sid, json.dumps(item), stamp) for item in items])
    con.commit()
    con.close()  # the last connection checkpoints the WAL into the file and removes it
    return path


if __name__ == "__main__":
    print(build())
