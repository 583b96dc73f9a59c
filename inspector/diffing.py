"""``diff``: two transcripts aligned call by call on the neutral view, and where they diverge.

Two runs of one task, a history before and after a framework change, a file and its repair, a
Claude Code session and its Codex rerun: each is read and checked as ``check`` reads it, then
its tool calls (the neutral ``Call``, whatever the format) are aligned:

1. by call id where the same id is on both sides (a file and its repair keep them), in order;
2. between those anchors, by tool name and arguments (canonical JSON, ``loops.canonical_args``):
   the longest common run of (tool, arguments) pairs, as ``difflib`` finds it;
3. what is left in a gap, by tool name in order (the same tool "with other arguments"), the rest
   removed (only in A) or added (only in B).

Each aligned pair is ``same``, ``other_arguments`` or ``answered_differently`` (the result's
text differs, one failed, one has none). Turns (the call blocks of each side) are named by their
message index in each file, the project's numbering (``message_index`` of ``check``). The first
divergence is the first aligned entry that is not ``same``, located in both files (for a call
only one side has, the other side's index is where it would be: that side's next call). Each side's findings and loops come beside it, with a tally per rule of what
is only in A (gone in B) and only in B (new).

The JSON this returns is documented in ``docs/diff.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .checking import Analysis, check_plain
from .containers import Document
from .errors import InputError
from .loops import canonical_args

SAME, OTHER_ARGS, ANSWERED, ADDED, REMOVED = "same", "other_arguments", "answered_differently", "added", "removed"
STATUSES = (SAME, OTHER_ARGS, ANSWERED, ADDED, REMOVED)


@dataclass
class _Call:
    """One call of one side, with what answered it."""

    msg: int
    id: str | None
    name: str
    args: str  # canonical JSON
    result: str | None  # the result's text; None: no result
    failed: bool
    result_msg: int | None

    @property
    def key(self) -> tuple[str, str]:
        return (self.name, self.args)

    def plain(self) -> dict[str, Any]:
        shown = self.args.removeprefix("\x00")
        return {"message_index": self.msg, "tool_call_id": self.id, "arguments": shown,
                "result_index": self.result_msg, "result": _cut(self.result), "failed": self.failed}


def _cut(text: str | None, n: int = 300) -> str | None:
    if text is None:
        return None
    return text if len(text) <= n else text[:n] + f"… ({len(text):,} characters)"


def calls_of(a: Analysis) -> list[_Call]:
    """Every call of an analysed transcript in order, with its result's text (the dialect's
    ``text`` of the message holding it, or of the result block when a message holds several)."""
    from .loops import result_value

    answered = {id(link.call): link.result for link in a.pairing.links if link.status != "duplicate"}
    d = a.dialect
    out = []
    for m in a.msgs:
        for c in m.calls:
            r = answered.get(id(c))
            text, failed, at = None, False, None
            if r is not None:
                rm = a.msgs[r.msg]
                text = result_value(rm.raw, r.pos, len(rm.results) == 1, d.text)
                failed = d.result_failed(rm.raw, r.id)
                at = r.msg
                if text is None:
                    text = d.text(rm.raw)
            name = c.name if isinstance(c.name, str) else repr(c.name)
            out.append(_Call(c.msg, c.id if isinstance(c.id, str) else None, name, canonical_args(c.args), text,
                             failed, at))
    return out


def _id_anchors(a: list[_Call], b: list[_Call]) -> list[tuple[int, int]]:
    """Pairs (i, j) of calls with the same id on both sides (unique on each), kept in order on
    both (a greedy increasing run)."""
    def unique(calls: list[_Call]) -> dict[str, int]:
        seen: dict[str, int] = {}
        dup = set()
        for k, c in enumerate(calls):
            if c.id:
                if c.id in seen:
                    dup.add(c.id)
                seen[c.id] = k
        return {i: k for i, k in seen.items() if i not in dup}

    ua, ub = unique(a), unique(b)
    pairs = sorted((k, ub[i]) for i, k in ua.items() if i in ub)
    out: list[tuple[int, int]] = []
    for i, j in pairs:
        if not out or j > out[-1][1]:
            out.append((i, j))
    return out


def _align_gap(a: list[_Call], b: list[_Call], i0: int, i1: int, j0: int, j1: int,
               out: list[tuple[int | None, int | None, str]]) -> None:
    """Align ``a[i0:i1]`` with ``b[j0:j1]`` by (tool, arguments), then by tool, into ``out``."""
    import difflib

    ka = [c.key for c in a[i0:i1]]
    kb = [c.key for c in b[j0:j1]]
    sm = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    for op, x0, x1, y0, y1 in sm.get_opcodes():
        if op == "equal":
            out.extend((i0 + x, j0 + y0 + (x - x0), "tool_and_arguments") for x in range(x0, x1))
            continue
        # a replaced, deleted or inserted stretch: pair the same tool in order, the rest alone
        ys = list(range(y0, y1))
        for x in range(x0, x1):
            k = next((n for n, y in enumerate(ys) if b[j0 + y].name == a[i0 + x].name), None)
            if k is None:
                out.append((i0 + x, None, ""))
                continue
            for y in ys[:k]:
                out.append((None, j0 + y, ""))
            out.append((i0 + x, j0 + ys[k], "tool"))
            ys = ys[k + 1:]
        out.extend((None, j0 + y, "") for y in ys)


def align(a: list[_Call], b: list[_Call]) -> list[tuple[int | None, int | None, str]]:
    """``(i, j, matched_by)`` in order: a call of A and its counterpart in B (either None when
    the other side has none); ``matched_by`` is ``id``, ``tool_and_arguments``, ``tool`` or ""."""
    out: list[tuple[int | None, int | None, str]] = []
    pi = pj = 0
    for i, j in [*_id_anchors(a, b), (len(a), len(b))]:
        _align_gap(a, b, pi, i, pj, j, out)
        if i < len(a) and j < len(b):
            out.append((i, j, "id"))
        pi, pj = i + 1, j + 1
    return out


def _status(x: _Call | None, y: _Call | None) -> str:
    if x is None:
        return ADDED
    if y is None:
        return REMOVED
    if x.key != y.key:
        return OTHER_ARGS
    if (x.result, x.failed) != (y.result, y.failed):
        return ANSWERED
    return SAME


def _side(path: str, report: dict[str, Any], a: Analysis, k: int, calls: list[_Call]) -> dict[str, Any]:
    return {
        "path": path,
        "dialect": a.dialect.name,
        "target": report["transcript_targets"][k],
        "transcript": k,
        "messages": len(a.msgs),
        "calls": len(calls),
        "findings": [{key: f[key] for key in ("code", "rule", "severity", "message_index", "tool_call_id", "text")}
                     for f in report["findings"] if f["transcript"] == k],
        "loops": [{key: f[key] for key in ("code", "rule", "message_index", "tool", "count", "tokens", "text")}
                  for f in report["loops"] if f["transcript"] == k],
    }


def _rule_tally(fa: list[dict[str, Any]], fb: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per rule code, how many findings each side has (a break present in A and gone in B)."""
    codes: dict[str, list[Any]] = {}
    for side, fs in ((0, fa), (1, fb)):
        for f in fs:
            row = codes.setdefault(f["code"], [f["rule"], f["severity"], 0, 0])
            row[2 + side] += 1
    out = []
    for code, (rule, sev, na, nb) in sorted(codes.items()):
        change = "same" if na == nb else ("gone" if nb == 0 else "new" if na == 0 else "fewer" if nb < na else "more")
        out.append({"code": code, "rule": rule, "severity": sev, "a": na, "b": nb, "change": change})
    return out


def diff_documents(doc_a: Document, doc_b: Document, *, target: str | None = None, dialect: str | None = None,
                   transcript: int = 0, path_a: str = "A", path_b: str = "B") -> dict[str, Any]:
    """The diff of transcript ``transcript`` (0-based) of two documents, as the JSON of
    ``docs/diff.md``. Each side is checked for its own target unless ``target`` names one."""
    (ra, aa), (rb, ab) = (checked_side(doc, path, transcript, target, dialect)
                          for doc, path in ((doc_a, path_a), (doc_b, path_b)))
    return diff_analyses(ra, aa, rb, ab, transcript=transcript, path_a=path_a, path_b=path_b)


def checked_side(doc: Document, path: str, transcript: int, target: str | None = None,
                 dialect: str | None = None) -> tuple[dict[str, Any], Analysis]:
    """One side of a diff checked as ``check`` checks it: its report and transcript's analysis
    (``InputError`` when the file has no such transcript)."""
    report, analyses = check_plain(doc, target, dialect)
    if not analyses:
        raise InputError("no transcript in this file", path)
    if transcript >= len(analyses):
        raise InputError(f"has {len(analyses)} transcript(s), not {transcript + 1}", path)
    return report, analyses[transcript]


def diff_analyses(ra: dict[str, Any], aa: Analysis, rb: dict[str, Any], ab: Analysis, *, transcript: int = 0,
                  path_a: str = "A", path_b: str = "B") -> dict[str, Any]:
    """The diff of two checked transcripts (``checked_side``), as ``diff_documents`` returns it."""
    ca, cb = calls_of(aa), calls_of(ab)
    entries = []
    counts = dict.fromkeys(STATUSES, 0)
    aligned = align(ca, cb)
    for i, j, how in aligned:
        x = ca[i] if i is not None else None
        y = cb[j] if j is not None else None
        status = _status(x, y)
        counts[status] += 1
        name = (x or y).name  # type: ignore[union-attr]
        entries.append({"status": status, "tool": name, "matched_by": how or None,
                        "a": x.plain() if x else None, "b": y.plain() if y else None})
    first = _first_divergence(entries, aa, ab)
    if first is None and (ca or cb):
        after_a, after_b = _after_calls(aa, ca), _after_calls(ab, cb)
        if len(aa.msgs) - after_a != len(ab.msgs) - after_b:  # every call the same, one run goes on
            first = {"a_index": after_a if after_a < len(aa.msgs) else None,
                     "b_index": after_b if after_b < len(ab.msgs) else None, "status": "messages_after", "tool": None,
                     "text": f"every call is the same; after them A has {len(aa.msgs) - after_a} message(s) "
                             f"and B has {len(ab.msgs) - after_b}"}
    sa = _side(path_a, ra, aa, transcript, ca)
    sb = _side(path_b, rb, ab, transcript, cb)
    return {
        "a": sa,
        "b": sb,
        "same": first is None,
        "first_divergence": first,
        "counts": counts,
        "turns": _turns(entries),
        "calls": entries,
        "rules": _rule_tally(sa["findings"], sb["findings"]),
    }


def _after_calls(a: Analysis, calls: list[_Call]) -> int:
    """The first message after every call and result of ``calls``."""
    return max([-1, *(max(c.msg, c.result_msg if c.result_msg is not None else -1) for c in calls)]) + 1


def _first_divergence(entries: list[dict[str, Any]], aa: Analysis, ab: Analysis) -> dict[str, Any] | None:
    """The first entry that is not ``same``, located in both files: a call only one side has is
    placed, on the other side, at that side's next call (else after its last call and result)."""
    for k, e in enumerate(entries):
        if e["status"] == SAME:
            continue
        where = []
        for side, a in (("a", aa), ("b", ab)):
            if e[side] is not None:
                where.append(e[side]["message_index"])
                continue
            nxt = next((f[side]["message_index"] for f in entries[k + 1:] if f[side] is not None), None)
            if nxt is None:
                before = [f[side] for f in entries[:k] if f[side] is not None]
                last = max([-1, *(max(c["message_index"], c["result_index"] if c["result_index"] is not None else -1)
                                  for c in before)])
                nxt = last + 1 if last + 1 < len(a.msgs) else None
            where.append(nxt)
        x = e["a"]
        y = e["b"]
        return {"a_index": where[0], "b_index": where[1], "status": e["status"], "tool": e["tool"],
                "text": _divergence_text(e["status"], e["tool"], x, y, where[0], where[1])}
    return None


def _divergence_text(status: str, name: str, x: dict[str, Any] | None, y: dict[str, Any] | None, ia: int | None,
                     ib: int | None) -> str:
    at = f"A #{ia if ia is not None else 'end'}, B #{ib if ib is not None else 'end'}"
    if status == ADDED and y is not None:
        return f"{at}: B calls '{name}' with {y['arguments']} where A does not"
    if status == REMOVED and x is not None:
        return f"{at}: A calls '{name}' with {x['arguments']} where B does not"
    if status == OTHER_ARGS and x is not None and y is not None:
        return f"{at}: '{name}' is called with other arguments: A {x['arguments']}, B {y['arguments']}"
    return f"{at}: '{name}' with the same arguments is answered differently"


def _turns(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The aligned calls grouped by turn: an entry joins the turn before it when it shares that
    turn's call message on one side and contradicts it on neither."""
    out: list[dict[str, Any]] = []
    for k, e in enumerate(entries):
        ma = e["a"]["message_index"] if e["a"] else None
        mb = e["b"]["message_index"] if e["b"] else None
        t = out[-1] if out else None
        if t is not None and ((ma is not None and ma == t["a_index"]) or (mb is not None and mb == t["b_index"])) \
                and not (ma is not None and t["a_index"] is not None and ma != t["a_index"]) \
                and not (mb is not None and t["b_index"] is not None and mb != t["b_index"]):
            t["a_index"] = t["a_index"] if t["a_index"] is not None else ma
            t["b_index"] = t["b_index"] if t["b_index"] is not None else mb
            t["calls"].append(k)
            t["same"] = t["same"] and e["status"] == SAME
            continue
        out.append({"a_index": ma, "b_index": mb, "calls": [k], "same": e["status"] == SAME})
    return out


def diff_text(d: dict[str, Any]) -> str:
    """The text form: each side, the first divergence, each turn with its calls, the rule tally."""
    a, b = d["a"], d["b"]
    lines = [(f"A: {a['path']} ({a['dialect']}, {a['messages']} messages, {a['calls']} calls, "
             f"{len(a['findings'])} findings, {len(a['loops'])} loops)"),
             (f"B: {b['path']} ({b['dialect']}, {b['messages']} messages, {b['calls']} calls, "
             f"{len(b['findings'])} findings, {len(b['loops'])} loops)")]
    fd = d["first_divergence"]
    lines.append("The runs do not diverge: every call is the same, with the same arguments and results."
                 if fd is None else f"First divergence: {fd['text']}")
    c = d["counts"]
    lines.append(", ".join(f"{c[s]} {s.replace('_', ' ')}" for s in STATUSES))
    mark = {SAME: " ", OTHER_ARGS: "~", ANSWERED: "≠", ADDED: "+", REMOVED: "-"}
    for t in d["turns"]:
        where = f"A #{t['a_index'] if t['a_index'] is not None else '-'} / B #{t['b_index'] if t['b_index'] is not None else '-'}"
        lines.append(f"turn {where}{'' if t['same'] else ' (differs)'}")
        for k in t["calls"]:
            e = d["calls"][k]
            side = e["a"] or e["b"]
            args = side["arguments"] if len(side["arguments"]) <= 80 else side["arguments"][:80] + "…"
            extra = ""
            if e["status"] == OTHER_ARGS:
                extra = f"  (B: {e['b']['arguments'][:80]})"
            elif e["status"] == ANSWERED:
                extra = f"  (A: {_one_line(e['a'])}; B: {_one_line(e['b'])})"
            lines.append(f"  {mark[e['status']]} {e['tool']} {args} [{e['status'].replace('_', ' ')}]{extra}")
    for side, name in ((a, "A"), (b, "B")):
        for f in side["findings"]:
            lines.append(f"{name} #{f['message_index']}: {f['code']} {f['severity']} {f['rule']}: {f['text']}")
        for f in side["loops"]:
            lines.append(f"{name} #{f['message_index']}: {f['code']} {f['rule']}: {f['text']}")
    for r in d["rules"]:
        if r["change"] != "same":
            lines.append(f"{r['code']} {r['rule']}: A {r['a']}, B {r['b']} ({r['change']} in B)")
    return "\n".join(lines) + "\n"


def _one_line(side: dict[str, Any]) -> str:
    if side["result"] is None:
        return "no result"
    text = " ".join(side["result"].split())
    return ("failed: " if side["failed"] else "") + (text if len(text) <= 60 else text[:60] + "…")
