"""The package's imports point one way: the doors (``cli/``, ``ui/``, ``guard/``, ``hosting/``) and
what sharing keeps (``sharing/``) stand on the engine, which never imports them; the wire formats
(``dialects/``) never reach up into the rules, the check or repair, the value types import nothing
above them, and no import cycle exists
(top-level and function-level imports alike; imports for annotations only do not count), so any module can be read and tested on its own."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "inspector"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PKG.rglob("*.py")}


def _resolve(current: str, is_pkg: bool, level: int, target: str | None) -> str:
    base = current.split(".") if is_pkg else current.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _is_type_checking(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` blocks never run: imports for annotations only are no edge."""
    return (isinstance(test, ast.Name) and test.id in ("TYPE_CHECKING", "_TYPE_CHECKING")) or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph() -> dict[str, set[str]]:
    """module -> the package modules it imports (``from . import x`` counts x when x is a module)."""
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        is_pkg = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for b in ast.walk(tree) if isinstance(b, ast.If) and _is_type_checking(b.test)
                       for s in b.body for n in ast.walk(s)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            found: list[str] = []
            if isinstance(node, ast.ImportFrom):
                src = _resolve(name, is_pkg, node.level, node.module) if node.level else (node.module or "")
                for alias in node.names:
                    sub = f"{src}.{alias.name}"
                    found.append(sub if sub in mods else src)
            elif isinstance(node, ast.Import):
                found.extend(a.name for a in node.names)
            graph[name].update(f for f in found if f in mods and f != name)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_dialects_never_import_rules_check_or_repair():
    graph = import_graph()
    above = ("inspector.rules", "inspector.checking", "inspector.fixes", "inspector.repairing", "inspector.ui",
             "inspector.render", "inspector.export")
    bad = {(m, t) for m, ts in graph.items() if m.startswith("inspector.dialects") for t in ts
           if t == "inspector" or t.startswith(above)}
    assert not bad


def test_value_types_import_nothing_of_the_package():
    graph = import_graph()
    assert graph["inspector.model"] == set()
    assert graph["inspector.report"] == set()


def test_the_package_has_no_import_cycle():
    assert _cycle(import_graph()) is None


# The rooms above the engine: the doors a user comes in by (``python -m inspector`` is the command
# line's), and sharing, which only they use.
DOORS = ("inspector.cli", "inspector.__main__", "inspector.ui", "inspector.guard", "inspector.hosting")
SHARING = "inspector.sharing"


def _in(module: str, rooms: tuple[str, ...] | str) -> bool:
    return any(module == r or module.startswith(r + ".") for r in ((rooms,) if isinstance(rooms, str) else rooms))


def test_the_engine_never_imports_a_door_nor_sharing():
    graph = import_graph()
    engine = [m for m in graph if not _in(m, DOORS + (SHARING,))]
    assert "inspector.checking" in engine and "inspector.reading" in engine and "inspector.dialects.base" in engine
    bad = sorted((m, t) for m in engine for t in graph[m] if _in(t, DOORS + (SHARING,)))
    assert bad == []


def test_sharing_never_imports_a_door():
    graph = import_graph()
    bad = sorted((m, t) for m, ts in graph.items() if _in(m, SHARING) for t in ts if _in(t, DOORS))
    assert bad == []


def test_the_app_never_imports_the_command_line():
    graph = import_graph()
    bad = sorted((m, t) for m, ts in graph.items() if _in(m, "inspector.ui") for t in ts if _in(t, "inspector.cli"))
    assert bad == []
