"""Claude Code session log entries built by hand: one entry per content block, linked by
``parentUuid``, and a log with a rewound branch."""

from __future__ import annotations

import json


def entry(uuid, parent, role, content, mid=None, **extra):
    message = {"role": role, "content": content}
    if mid:
        message["id"] = mid
    return {"type": role, "uuid": uuid, "parentUuid": parent, "sessionId": "s", "timestamp": "t",
            "message": message, **extra}


def tool_use(cid):
    return [{"type": "tool_use", "id": cid, "name": "Bash", "input": {"command": "ls"}}]


def jsonl(entries):
    return "".join(json.dumps(e) + "\n" for e in entries)


# The person asked, the assistant called a tool, the person rewound (Esc Esc) before the result
# and asked something else: the first question's branch ends with an unanswered call.
REWOUND = [
    entry("u1", None, "user", "Set up the project."),
    entry("a1", "u1", "assistant", [{"type": "text", "text": "Sure."}], "m1"),
    entry("u2", "a1", "user", "List the files."),
    entry("a2", "u2", "assistant", tool_use("toolu_old"), "m2"),
    entry("u3", "a1", "user", "Actually, show the README."),
    entry("a3", "u3", "assistant", [{"type": "text", "text": "Here it is."}], "m3"),
]


