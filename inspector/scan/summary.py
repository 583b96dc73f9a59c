"""The scan's tally: what a person reads at the end, built row by row and mergeable across workers.

Memory stays flat: counts per rule, per dialect, and a short list of the worst transcripts (most
errors, then most warnings), never the rows themselves.
"""

from __future__ import annotations

import heapq
from collections import Counter
from typing import Any

from ..rules import RULES
from ..targets import PROVIDER_NAME

WORST = 5
PROBLEMS = 5
_SEVERITY_RANK = {"error": 3, "warning": 2, "info": 1}


def where(row: dict[str, Any]) -> str:
    """``path:line`` for a JSON Lines record, ``path:key`` otherwise."""
    at: str = row["source"]
    if row.get("line") is not None:
        at += f":{row['line']}"
    if row.get("key"):
        at += f":{row['key']}" if row.get("line") is None else f" ({row['key']})"
    return at


class Summary:
    """Transcripts scanned, rejected, unreadable; counts per rule; the worst examples."""

    def __init__(self) -> None:
        self.scanned = 0
        self.rejected = 0
        self.warned = 0  # transcripts with warnings and no error
        self.noted = 0  # transcripts with notes only
        self.unreadable = 0
        self.messages = 0
        self.targets: Counter[str] = Counter()
        self.dialects: Counter[str] = Counter()
        self.rule_transcripts: Counter[str] = Counter()  # code -> transcripts with it
        self.rule_findings: Counter[str] = Counter()  # code -> findings
        self.rule_severity: dict[str, str] = {}  # code -> worst severity seen
        self.worst: list[tuple[Any, ...]] = []  # min-heap of (errors, warnings, -seq, where, first error)
        self.problems: list[tuple[str, str]] = []
        self.looping = 0  # transcripts with a loop (``inspector.loops``)
        self.loops = 0
        self.loop_calls = 0
        self.loop_tokens = 0
        self._seq = 0

    def add(self, row: dict[str, Any]) -> None:
        self.scanned += 1
        self._seq += 1
        if row.get("problem"):
            self.unreadable += 1
            if len(self.problems) < PROBLEMS:
                self.problems.append((where(row), row["problem"]))
            return
        self.messages += row["messages"]
        if row.get("loops"):
            self.looping += 1
            self.loops += row["loops"]
            self.loop_calls += row["loop_calls"]
            self.loop_tokens += row["loop_tokens"]
        self.dialects[row["dialect"]] += 1
        self.targets[row["target"]] += 1
        if row["rejected"]:
            self.rejected += 1
        elif row["warnings"]:
            self.warned += 1
        elif row["notes"]:
            self.noted += 1
        for code in row["codes"]:
            self.rule_transcripts[code] += 1
        for f in row["findings"]:
            code, sev = f["code"], f["severity"]
            self.rule_findings[code] += 1
            if _SEVERITY_RANK[sev] > _SEVERITY_RANK.get(self.rule_severity.get(code, ""), 0):
                self.rule_severity[code] = sev
        if row["errors"] or row["warnings"]:
            first = next((f for f in row["findings"] if f["severity"] == "error"), None) or row["findings"][0]
            item = (row["errors"], row["warnings"], -self._seq, where(row), f"{first['code']} {first['text']}")
            if len(self.worst) < WORST:
                heapq.heappush(self.worst, item)
            elif item > self.worst[0]:
                heapq.heapreplace(self.worst, item)

    def merge(self, other: Summary) -> Summary:
        """Fold another worker's summary into this one (its examples rank after this one's on ties)."""
        for name in ("scanned", "rejected", "warned", "noted", "unreadable", "messages", "looping", "loops",
                     "loop_calls", "loop_tokens"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("targets", "dialects", "rule_transcripts", "rule_findings"):
            getattr(self, name).update(getattr(other, name))
        for code, sev in other.rule_severity.items():
            if _SEVERITY_RANK[sev] > _SEVERITY_RANK.get(self.rule_severity.get(code, ""), 0):
                self.rule_severity[code] = sev
        base = self._seq
        for e, w, s, at, text in other.worst:
            item = (e, w, s - base, at, text)
            if len(self.worst) < WORST:
                heapq.heappush(self.worst, item)
            elif item > self.worst[0]:
                heapq.heapreplace(self.worst, item)
        self._seq += other._seq
        self.problems.extend(other.problems[: max(0, PROBLEMS - len(self.problems))])
        return self

    def fails(self, fail_on: str = "error") -> bool:
        """True when a transcript has a finding at or above ``fail_on``, or a record is unreadable."""
        over = {"error": self.rejected, "warning": self.rejected + self.warned,
                "info": self.rejected + self.warned + self.noted}[fail_on]
        return bool(over or self.unreadable)

    def worst_examples(self) -> list[dict[str, Any]]:
        return [{"where": at, "errors": e, "warnings": w, "first": text}
                for e, w, _, at, text in sorted(self.worst, reverse=True)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON summary (``scan --format json``)."""
        return {
            "transcripts": self.scanned,
            "readable": self.scanned - self.unreadable,
            "rejected": self.rejected,
            "rejected_share": round(self.rejected / (self.scanned - self.unreadable), 6)
            if self.scanned > self.unreadable else 0.0,
            "warnings_only": self.warned,
            "unreadable": self.unreadable,
            "messages": self.messages,
            "targets": dict(self.targets.most_common()),
            "dialects": dict(self.dialects.most_common()),
            "rules": [{"code": c, "rule": RULES.get(c, c), "severity": self.rule_severity.get(c),
                       "transcripts": n, "findings": self.rule_findings[c]}
                      for c, n in sorted(self.rule_transcripts.items(), key=lambda kv: (-kv[1], kv[0]))],
            "loops": {"transcripts": self.looping, "loops": self.loops, "calls": self.loop_calls,
                      "tokens": self.loop_tokens},
            "worst": self.worst_examples(),
            "unreadable_examples": [{"where": at, "problem": p} for at, p in self.problems],
        }

    def text(self) -> str:
        """The terminal summary."""
        d = self.to_dict()
        readable = d["readable"]
        who = ", ".join(PROVIDER_NAME.get(t, t) for t in d["targets"]) or "the target"
        share = f" ({100 * d['rejected_share']:.1f}%)" if readable else ""
        out = [(f"{d['transcripts']} transcripts scanned ({d['messages']} messages); "
               f"{who} would reject {d['rejected']}{share}; {d['warnings_only']} more have warnings; "
               f"{d['unreadable']} could not be read.")]
        lp = d["loops"]
        out.append(f"loops: {lp['transcripts']} transcripts with loops ({lp['loops']} loops, {lp['calls']} calls, "
                   f"{lp['tokens']} tokens spent in them).")
        if d["dialects"]:
            out.append("dialects: " + ", ".join(f"{k} {v}" for k, v in d["dialects"].items()))
        if d["rules"]:
            out.append("per rule (transcripts, findings):")
            for r in d["rules"]:
                out.append(f"  {r['code']} {r['rule']:<28} {r['severity'] or '':<8} {r['transcripts']:>9} {r['findings']:>9}")
        if d["worst"]:
            out.append("worst transcripts:")
            for w in d["worst"]:
                out.append(f"  {w['where']}: {w['errors']} errors, {w['warnings']} warnings; first {w['first']}")
        if d["unreadable_examples"]:
            out.append("could not read:")
            for p in d["unreadable_examples"]:
                out.append(f"  {p['where']}: {p['problem']}")
        return "\n".join(out) + "\n"
