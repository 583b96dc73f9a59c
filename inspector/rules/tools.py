"""TC026: a call to a tool the request does not declare (rules.md, added 2026-11-23).

Only for request bodies that carry a tool list (``tools``, ``functions``, ``toolConfig``,
``functionDeclarations``): a log without one says nothing about which tools existed. A typo such
as ``get_weathr`` beside a declared ``get_weather`` is named in the finding.
"""

from __future__ import annotations

from ..model import Issue, Msg


def undeclared_tools(msgs: list[Msg], declared: frozenset[str]) -> list[Issue]:
    out: list[Issue] = []
    for m in msgs:
        for c in m.calls:
            if isinstance(c.name, str) and c.name and c.name not in declared:
                import difflib  # only for an undeclared name: a check loads it when it has one

                near = difflib.get_close_matches(c.name, sorted(declared), n=1)
                out.append(Issue("TC026", m.index, c.id, None, name=c.name, pos=c.pos,
                                 declared=sorted(declared), near=near[0] if near else None))
    return out
