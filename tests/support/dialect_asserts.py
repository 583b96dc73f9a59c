"""What the per-dialect tests share: a rule is reported (and which finding) or not, and every string
of a value (to show that repair lost nothing)."""

from __future__ import annotations

import json

import inspector


def findings(items, dialect, target=None):
    return inspector.check(items, target=target, dialect=dialect).findings


def found(items, code, dialect, target=None):
    """The first finding of ``code``; fails listing what was reported instead."""
    fs = findings(items, dialect, target)
    hit = [f for f in fs if f.code == code]
    assert hit, f"{code} not reported: {[(f.code, f.message_index) for f in fs]}"
    return hit[0]


def absent(items, code, dialect, target=None):
    fs = findings(items, dialect, target)
    assert code not in [f.code for f in fs], [(f.code, f.message_index) for f in fs]


def strings(x, out=None):
    out = set() if out is None else out
    if isinstance(x, str):
        out.add(x)
        if x[:1] in "{[":
            try:
                strings(json.loads(x), out)
            except ValueError:
                pass
    elif isinstance(x, dict):
        for k, v in x.items():
            out.add(k)
            strings(v, out)
    elif isinstance(x, list):
        for v in x:
            strings(v, out)
    return out
