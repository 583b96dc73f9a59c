"""Every finding's payload is typed: ``model.IssueData`` names each key a rule break may carry
and its type. ``Issue(..., **data)`` is checked by mypy in the typed modules; this test holds the
whole package to it, the dialects' files included, since a misspelt key would otherwise fail
silently (a ``.get`` returns None, a sentence loses its words).

Read statically with ``ast``: every keyword of an ``Issue(...)`` call, and every literal key read
or written on a ``.data`` (``x.data["k"]``, ``x.data.get("k")``, ``"k" in x.data``, and the same
through a local name bound to ``x.data``) is a key of ``IssueData``. No other object in the
package has a ``.data`` read by a literal key.
"""

from __future__ import annotations

import ast
from pathlib import Path

from inspector.model import Issue, IssueData

PKG = Path(__file__).resolve().parents[2] / "inspector"
KEYS = set(IssueData.__optional_keys__) | set(IssueData.__required_keys__)
OWN = {"code", "index", "call_id", "other", "say"}  # Issue's own parameters


def _is_data(node: ast.AST, aliases: set[str]) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "data") or (
        isinstance(node, ast.Name) and node.id in aliases)


def _keys_in(scope: ast.AST, aliases: set[str]) -> set[tuple[int, str, str]]:
    out: set[tuple[int, str, str]] = set()
    for n in ast.walk(scope):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "Issue":
            out.update((n.lineno, k.arg, "Issue(...)") for k in n.keywords if k.arg is not None and k.arg not in OWN)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("get", "pop", "setdefault") \
                and _is_data(n.func.value, aliases) and n.args and isinstance(n.args[0], ast.Constant):
            out.add((n.lineno, n.args[0].value, f".data.{n.func.attr}"))
        elif isinstance(n, ast.Subscript) and _is_data(n.value, aliases) and isinstance(n.slice, ast.Constant):
            out.add((n.lineno, n.slice.value, ".data[...]"))
        elif isinstance(n, ast.Compare) and isinstance(n.left, ast.Constant) and any(
                isinstance(op, (ast.In, ast.NotIn)) for op in n.ops) and any(_is_data(c, aliases) for c in n.comparators):
            out.add((n.lineno, n.left.value, "in .data"))
    return out


def _keys_used(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, key, how) for each payload key the code names; a local name bound to ``x.data``
    counts in the function that binds it."""
    out = _keys_in(tree, set())
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            aliases = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Attribute)
                       and n.value.attr == "data" for t in n.targets if isinstance(t, ast.Name)}
            if aliases:
                out |= _keys_in(fn, aliases)
    return sorted(out)


def test_every_payload_key_the_package_names_is_declared():
    wrong, seen = [], set()
    for path in sorted(PKG.rglob("*.py")):
        for line, key, how in _keys_used(ast.parse(path.read_text(encoding="utf-8"))):
            seen.add(key)
            if key not in KEYS:
                wrong.append(f"inspector/{path.relative_to(PKG).as_posix()}:{line}: {how} {key!r}")
    assert not wrong, "payload keys IssueData does not declare:\n" + "\n".join(wrong)
    assert {"pos", "side", "ids", "first", "got", "kind"} <= seen  # the reading above finds the keys in use
    assert not KEYS - seen, f"declared keys no code uses: {sorted(KEYS - seen)}"


def test_a_misspelt_key_is_caught():
    tree = ast.parse('def f(iss):\n    d = iss.data\n    Issue("TC001", 0, nmae="x")\n'
                     '    return d.get("poss"), iss.data["sid"], "knd" in iss.data\n')
    assert sorted(k for _, k, _ in _keys_used(tree)) == ["knd", "nmae", "poss", "sid"]


def test_the_payload_is_the_keywords_given():
    iss = Issue("TC008", 3, None, side="call", pos=1, value=None, name="f")
    assert iss.data == {"side": "call", "pos": 1, "value": None, "name": "f"}
