"""``inspector repair`` on a JSON Lines dataset: streamed, a record at a time, over processes.

Each line goes through the public ``repair`` on its own, so a dataset of any size needs the
memory of one range per worker. Every record lands in exactly one place: the repaired dataset
(clean records byte for byte as they came), or, with ``--unfixable OUT``, that file when repair
could not make it acceptable safely (its original line, untouched), so that a user can train on
the rest. Nothing is dropped: without ``--unfixable``, such a record stays in the output,
repaired as far as it safely goes, and the exit code says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any

from ..errors import InputError
from ..jsonio import dumps
from .sources import Part


@dataclass
class Outcome:
    k: int  # line within the part, from 0
    output: bytes  # the repaired record, one line with its newline
    original: bytes | None  # the input line, kept only when repair could not fix it
    changed: bool
    problems: list[str]  # why it is not fixed (empty: fixed or clean)
    # the record's repair report as one line of JSON (an object, no newline), when something
    # changed or is left; bytes, because quarantined content may nest deeper than pydantic or
    # orjson write (and than pickle carries between processes)
    report: bytes | None


def repair_part(part: Part, target: str | None, options: Any, dialect: str | None) -> tuple[list[Outcome], int]:
    from ..repairing import repair
    from . import lines

    outs: list[Outcome] = []
    n = 0
    for k, ln in lines.read_range(part.path, part.start, part.end):
        n = k + 1
        if not ln.strip():
            continue
        try:
            res = repair(ln, target, options, dialect=dialect)
        except InputError as exc:
            msg = str(exc).replace("line 1 column", "column")
            outs.append(Outcome(k, ln + b"\n", ln, False, [msg], dumps({"unreadable": msg}, indent=False).rstrip()))
            continue
        rep = res.report
        out = res.output if res.output.endswith(b"\n") else res.output + b"\n"
        changed = out.rstrip(b"\n") != ln
        report = rep.to_json(indent=False).rstrip() if (changed or rep.unfixed) else None
        outs.append(Outcome(k, out, None if rep.ok else ln, changed, list(rep.unfixed), report))
    return outs, n


def _open(name: str, stdout: IO[bytes]) -> IO[bytes]:
    if name == "-":
        return stdout
    try:
        return open(name, "wb")
    except OSError as exc:
        raise InputError(f"cannot write the file ({exc.strerror or exc})", name) from None


def repair_dataset(path: str, output: str, unfixable: str | None, report: str | None, target: str | None,
                   options: Any, dialect: str | None, jobs: int, stdout: IO[bytes], progress: Any) -> dict[str, Any]:
    """Repair every record of a JSON Lines dataset; returns the tally."""
    from .local import LineNumbers, ordered_map
    from .sources import plan

    parts = plan([path])
    tally: dict[str, Any] = {"records": 0, "clean": 0, "repaired": 0, "unfixed": 0, "held_out": 0, "unreadable": 0,
             "first_problem": None}
    files = [_open(output, stdout)]
    held = _open(unfixable, stdout) if unfixable else None
    rep = _open(report, stdout) if report else None
    numbers = LineNumbers()
    try:
        for part, (outs, nlines) in ordered_map(repair_part, parts, jobs, target, options, dialect):
            base = numbers._base.get(part.path, 0)
            numbers.fix(part, [], nlines)
            chunk, held_chunk, rep_chunk = [], [], []
            for o in outs:
                line = base + o.k + 1
                tally["records"] += 1
                if o.original is not None:
                    tally["unfixed"] += 1
                    if o.report is not None and o.report.startswith(b'{"unreadable"'):
                        tally["unreadable"] += 1
                    if tally["first_problem"] is None:
                        tally["first_problem"] = f"line {line}: {o.problems[0] if o.problems else 'not fixed'}"
                    if held is not None:
                        tally["held_out"] += 1
                        held_chunk.append(o.original + b"\n")
                    else:
                        chunk.append(o.output)
                else:
                    tally["repaired" if o.changed else "clean"] += 1
                    chunk.append(o.output)
                if o.report is not None and rep is not None:
                    rep_chunk.append(b'{"line":%d,' % line + o.report[1:] + b"\n")
            files[0].write(b"".join(chunk))
            if held is not None:
                held.write(b"".join(held_chunk))
            if rep is not None:
                rep.write(b"".join(rep_chunk))
            progress.advance(part.weight, len(outs))
    finally:
        for f in (files[0], held, rep):
            if f is not None and f is not stdout:
                f.close()
    return tally
