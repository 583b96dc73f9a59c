"""Builders for openai-chat test transcripts, and hypothesis strategies for valid ones.

Valid transcripts: system, user, then rounds of an assistant message with 1-3 parallel calls
followed by their results (in call order), an assistant reply, and sometimes a new user turn.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st


def call(cid: str, name: str = "get_weather", args: object = None) -> dict:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args or {"q": cid})}}


def asst(*calls: dict, content: str | None = None) -> dict:
    m: dict = {"role": "assistant", "content": content}
    if calls:
        m["tool_calls"] = list(calls)
    return m


def tool(cid: str, content: str = "ok") -> dict:
    return {"role": "tool", "tool_call_id": cid, "content": content}


def user(text: str = "hi") -> dict:
    return {"role": "user", "content": text}


def system(text: str = "be helpful") -> dict:
    return {"role": "system", "content": text}


def reply(text: str = "done") -> dict:
    return {"role": "assistant", "content": text}


NAMES = ("get_weather", "search_web", "read_file", "run_shell", "book_table")


@st.composite
def valid_transcripts(draw, max_rounds: int = 5) -> list[dict]:
    """A valid openai-chat transcript with unique ids (9 alphanumerics, so every target accepts them)."""
    msgs = [system(), user(draw(st.text(min_size=1, max_size=20)))]
    n = 0
    for _ in range(draw(st.integers(1, max_rounds))):
        k = draw(st.integers(1, 3))
        calls = []
        for _ in range(k):
            n += 1
            calls.append(call(f"call{n:05d}", draw(st.sampled_from(NAMES)), {"n": n}))
        msgs.append(asst(*calls))
        msgs.extend(tool(c["id"], draw(st.text(max_size=30))) for c in calls)
        msgs.append(reply(draw(st.text(min_size=1, max_size=20))))
        if draw(st.booleans()):
            msgs.append(user(draw(st.text(min_size=1, max_size=20))))
    return msgs
