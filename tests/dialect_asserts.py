"""Assertions the per-dialect rule tests share: a rule is reported (and which finding), or not."""

from __future__ import annotations

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
