"""Small OpenAI Chat datasets in JSON Lines for the scan tests: a good line, an orphan result and
a missing result, and a file of ``n`` lines with broken ones in place."""

from __future__ import annotations

import json
from pathlib import Path

CALL = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
GOOD = {"messages": [{"role": "user", "content": "hi"},
                     {"role": "assistant", "content": None, "tool_calls": [CALL]},
                     {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
                     {"role": "assistant", "content": "done"}],
        "tools": [{"type": "function", "function": {"name": "lookup", "parameters": {}}}]}
ORPHAN = {"messages": [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "call_9", "content": "x"}]}
MISSING = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": [CALL]},
                        {"role": "user", "content": "and?"}]}


def dataset(path: Path, n: int, broken: dict[int, dict]) -> Path:
    """``n`` lines of GOOD, with ``broken[line]`` (1-based) in place."""
    with open(path, "w") as f:
        f.writelines(json.dumps(broken.get(line, GOOD)) + "\n" for line in range(1, n + 1))
    return path


