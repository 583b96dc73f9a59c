"""Synthetic openai-chat transcripts for the benchmarks: parallel calls, long contents.

``build_transcript(100_000)`` gives about 34 MB of JSON: rounds of a user turn, an assistant
message with 1-3 parallel calls, their results (some long), and an assistant reply.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

WORDS = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "ut", "enim", "ad", "minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris"]


def _text(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def build_transcript(n_messages: int = 100_000, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    # A pool of texts keeps generation fast while contents stay long and varied.
    pool = [_text(rng, rng.randint(10, 70)) for _ in range(512)]
    msgs: list[dict] = [{"role": "system", "content": "You are a coding agent. " + pool[0]}]
    n = 0
    while len(msgs) < n_messages:
        msgs.append({"role": "user", "content": rng.choice(pool)})
        k = rng.choice((1, 1, 2, 3))
        calls = []
        for _ in range(k):
            n += 1
            calls.append({
                "id": f"call_{n:08d}{rng.randrange(16**8):08x}",
                "type": "function",
                "function": {"name": rng.choice(("read_file", "run_shell", "search_web", "edit_file")),
                             "arguments": json.dumps({"path": f"src/mod{n % 97}.py", "query": rng.choice(pool)[:80]})},
            })
        msgs.append({"role": "assistant", "content": None, "tool_calls": calls})
        for c in calls:
            msgs.append({"role": "tool", "tool_call_id": c["id"], "content": rng.choice(pool) * rng.choice((1, 1, 1, 2))})
        msgs.append({"role": "assistant", "content": rng.choice(pool)})
    return msgs[:n_messages]


def drop_results(msgs: list[dict], fraction: float, seed: int = 11) -> list[dict]:
    """A copy with ``fraction`` of the tool results removed (for repair benchmarks)."""
    rng = random.Random(seed)
    return [m for m in msgs if not (m.get("role") == "tool" and rng.random() < fraction)]


def transcript_files(folder: Path, n_messages: int = 100_000) -> tuple[Path, Path]:
    """``big.json`` (``build_transcript``, compact) and ``broken.json`` (the same with 1% of the
    tool results removed) written in ``folder``."""
    import orjson

    msgs = build_transcript(n_messages)
    path, broken = folder / "big.json", folder / "broken.json"
    path.write_bytes(orjson.dumps(msgs))
    broken.write_bytes(orjson.dumps(drop_results(msgs, 0.01)))
    return path, broken
