"""Fit to a token budget: our ``fit`` against the trimmers people use, on the same inputs.

Inputs: the 100,000-message transcript (``gen.build_transcript``) and every real trajectory in
``../shared/corpus/trajectories``, each fitted to 25%, 50% and 75% of its own size (o200k_base,
counted as ``inspector check --tokens`` counts). For each, printed: the time, the tokens kept
against the budget (kept / budget: close to 1 and never above is best), and whether the result
checks clean for OpenAI (``inspector check``; "as input" when the input already had errors and
the result has no more).

Every tool, ours included, gets the same input: the transcript's messages as plain Chat
Completions dicts (``plain_chat``), with the same per-message counts. Peers:
- LangChain ``trim_messages`` (strategy "last", include_system), with and without
  ``start_on="human"``, on the input converted to LangChain messages (``convert_to_messages``)
  and converted back (``convert_to_openai_messages``) to be checked. Needs ``langchain-core``
  (a benchmark-only dependency: ``pip install langchain-core``); skipped when absent.
- turnsafe's ``fit`` (``keep_system``), which refuses an input that already breaks its rules.

Last, how often each produced a history the provider would reject from an input it would
accept, and our time as a ratio to a plain ``orjson.loads`` of the same bytes.

Run: ``make bench-heavy`` (with ``bench_hostile`` and ``bench_scan``), or alone after ``make install``:
``.venv/bin/python benchmarks/bench_fit.py [N_MESSAGES]``. Its figures are times: run it on a machine doing nothing else.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen import build_transcript
from timing import best_of

import inspector
from inspector.tokens import count_messages, counter_for

ROOT = Path(__file__).resolve().parents[1]
TRAJECTORIES = ROOT.parent / "shared" / "corpus" / "trajectories"
SHARES = (0.25, 0.50, 0.75)
COUNTER = counter_for("openai")


def errors(messages) -> int:
    return sum(1 for f in inspector.check(messages, "openai", dialect="openai-chat").findings if f.severity == "error")


def verdict(out_errors: int, in_errors: int) -> str:
    if out_errors == 0:
        return "clean"
    if out_errors <= in_errors:
        return f"as input ({out_errors} errors)"
    return f"REJECTED ({out_errors} errors, input {in_errors})"


ROLES = ("system", "developer", "user", "assistant", "tool")


def plain_chat(items: list) -> list[dict]:
    """The messages as plain Chat Completions dicts, which every trimmer here takes: SWE-agent's
    ``tool_call_ids`` list becomes ``tool_call_id``; roles the API lacks (mini-swe-agent's final
    ``exit``) and agent bookkeeping fields are left out."""
    out = []
    for m in items:
        role = m.get("role")
        if role not in ROLES:
            continue
        d = {"role": role, "content": m.get("content")}
        if d["content"] is None and role != "assistant":
            d["content"] = ""
        if m.get("tool_calls"):
            d["tool_calls"] = m["tool_calls"]
        if role == "tool":
            d["tool_call_id"] = m.get("tool_call_id") or (m.get("tool_call_ids") or [None])[0]
        out.append(d)
    return out


def inputs(n: int):
    msgs = build_transcript(n)
    while msgs and (msgs[-1]["role"] != "assistant" or msgs[-1].get("tool_calls")):
        msgs.pop()  # end on a reply: the cut in build_transcript can split the last call block
    yield f"synthetic {n:,} messages", msgs
    for p in sorted(TRAJECTORIES.glob("*.json")) if TRAJECTORIES.exists() else []:
        items = inspector.load(p).transcripts[0].items
        yield p.name[:48], plain_chat(items)


class Peers:
    """The other trimmers, each called on the transcript's openai-chat messages."""

    def __init__(self):
        try:
            from langchain_core.messages import (
                BaseMessage,
                convert_to_messages,
                convert_to_openai_messages,
                trim_messages,
            )
        except ImportError:
            self.langchain = None
        else:
            self.langchain = (BaseMessage, convert_to_messages, convert_to_openai_messages, trim_messages)
        try:
            import turnsafe
        except ImportError:
            self.turnsafe = None
        else:
            self.turnsafe = turnsafe

    def runs(self, msgs: list[dict], counts: list[int], budget: int):
        """(name, seconds, kept tokens or None, output messages or the reason there are none)."""
        if self.langchain is not None:
            _BaseMessage, to_lc, to_openai, trim = self.langchain
            try:
                lc = to_lc(msgs)
            except Exception as exc:  # noqa: BLE001 - roles LangChain has no class for
                for start_on in (None, "human"):
                    name = "langchain trim_messages" + (' start_on="human"' if start_on else "")
                    yield name, 0.0, None, f"cannot convert: {str(exc).splitlines()[0][:60]}"
                lc = None
            by_id = {id(m): c for m, c in zip(lc or (), counts)}

            def per_message(m) -> int:
                return by_id.get(id(m)) or sum(count_messages([to_openai([m])[0]], COUNTER))

            def list_counter(ms) -> int:  # trim_messages calls it on lists of messages
                return sum(per_message(m) for m in ms)

            for start_on in (None, "human") if lc is not None else ():
                name = "langchain trim_messages" + (' start_on="human"' if start_on else "")
                t = time.perf_counter()
                try:
                    out = trim(lc, max_tokens=budget, token_counter=list_counter, strategy="last",
                               include_system=True, start_on=start_on)
                except Exception as exc:  # noqa: BLE001 - a peer's failure is a result to print
                    yield name, time.perf_counter() - t, None, f"raised {type(exc).__name__}: {str(exc)[:60]}"
                    continue
                dt = time.perf_counter() - t
                yield name, dt, sum(per_message(m) for m in out), to_openai(out)
        if self.turnsafe is not None:
            by_id = {id(m): c for m, c in zip(msgs, counts)}

            def ts_counter(m) -> int:
                return by_id.get(id(m)) or sum(count_messages([m], COUNTER))

            t = time.perf_counter()
            try:
                out = self.turnsafe.fit(msgs, budget, "openai", counter=ts_counter, keep_system=True)
            except Exception as exc:  # noqa: BLE001
                yield "turnsafe fit", time.perf_counter() - t, None, f"raised {type(exc).__name__}: {str(exc)[:60]}"
            else:
                yield "turnsafe fit", time.perf_counter() - t, sum(ts_counter(m) for m in out), out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    peers = Peers()
    if peers.langchain is None:
        print("langchain-core is not installed: its trim_messages is left out (pip install langchain-core)")
    rejected: dict[str, list[int]] = {}  # name -> [rejected from a clean input, runs on clean inputs]
    ratios: list[tuple[str, float, float]] = []
    refused: dict[str, int] = {}  # name -> runs that gave no history (raised, or could not take the input)
    print(f"{'input':50} {'budget':>8} {'who':40} {'time':>9} {'kept/budget':>11}  result")
    for label, msgs in inputs(n):
        data = orjson.dumps(msgs)
        counts = count_messages(msgs, COUNTER)
        total = sum(counts)
        in_errors = errors(msgs)
        parse = best_of(lambda data=data: orjson.loads(data), 3)
        check = best_of(lambda data=data: inspector.check(data), 1 if len(msgs) > 10_000 else 3)
        for share in SHARES:
            budget = int(total * share)
            repeat = 1 if len(msgs) > 10_000 else 3
            result = inspector.fit(data, budget, "openai", {"keep_system": True})
            ours = best_of(lambda data=data, budget=budget: inspector.fit(data, budget, "openai", {"keep_system": True}),
                           repeat)
            ratios.append((f"{label} @{share:.0%}", ours / parse, ours / check))
            rows = [("inspector fit", ours, result.report["tokens_after"], result.data)]
            rows += list(peers.runs(msgs, counts, budget))
            for name, dt, kept, out in rows:
                if kept is None:
                    res, fill = out, "-"
                    refused[name] = refused.get(name, 0) + 1
                else:
                    out_msgs = out if isinstance(out, list) else inspector.load(out).transcripts[0].items
                    e = errors(out_msgs) if out_msgs else 0
                    res = verdict(e, in_errors) if out_msgs else "empty history"
                    fill = f"{kept / budget:.3f}" if budget else "-"
                    if in_errors == 0:
                        tally = rejected.setdefault(name, [0, 0])
                        tally[1] += 1
                        tally[0] += e > 0 or not out_msgs
                print(f"{label:50} {budget:>8,} {name:40} {dt * 1000:7.1f}ms {fill:>11}  {res}")
        print(f"{label:50} size {total:,} tokens, {len(msgs):,} messages, input errors {in_errors}; "
              f"plain parse {parse * 1000:.1f} ms")
    print()
    print("histories the provider would reject, from inputs it accepts (runs that gave no history are not counted):")
    for name, (bad, runs) in rejected.items():
        print(f"  {name:40} {bad} of {runs}")
    print("runs that gave no history (raised, or could not take the input):")
    for name, k in refused.items():
        print(f"  {name:40} {k}")
    print("our fit time / a plain orjson parse of the same bytes (and / a plain inspector.check):")
    for what, r, c in ratios:
        print(f"  {what:60} {r:8.2f}x  ({c:.2f}x check)")


if __name__ == "__main__":
    main()
