"""No module outside ``inspector/dialects/`` names a dialect.

Which format a list is in is the dialects' to say: detection, ``Dialect.names_list`` (a body's
``input`` or ``contents``, an InvokeModel body), ``dialects.of_target`` (the format of a
provider's own API), ``dialects.fallback``, or a container recogniser's ``Transcript.dialect``.
The engine, repair, the renderer, the app and the guard ask; they never name one.

The rule, as this test applies it to every module of the package outside ``dialects/``:

- a string literal (not a docstring) equal to the name of a registered dialect is a reference
  to that dialect, and fails;
- except a name that is also a target (``anthropic``, ``bedrock``, ``gemini``: a provider whose
  rules apply, whose API a request went to or whose error shape a refusal takes) in a module of
  ``TARGET_MODULES``, which speak of targets and providers, never of formats;
- except the few literals in ``NOT_A_DIALECT``, each with why it is no dialect reference;
- and never, even there, as the argument of ``get(...)``/``of_target(...)`` or a ``dialect=``
  keyword: that is a dialect reference whatever the module.

Every allowance must still be used (a stale entry fails), so the lists only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

from inspector.dialects import names
from inspector.targets import TARGETS

PKG = Path(__file__).resolve().parents[1] / "inspector"

# Modules whose provider names are targets (the rules' severities and words, a model's or URL's
# provider, the id formats per target, the guard's APIs and error shapes, the proxy's upstreams).
TARGET_MODULES = {
    "targets.py": "the targets and the provider a name or URL means",
    "target_from_model.py": "the target a model name means",
    "provider_errors.py": "which target a pasted provider error comes from",
    "rules/catalogue.py": "each rule's severity and words keyed by target",
    "rules/sequence.py": "each target's id format",
    "guard/inspect.py": "the API a request URL is for and the target whose API it is",
    "guard/proxy.py": "the upstream of each provider's API",
    "guard/refusal.py": "a refusal in each provider's error shape",
    "cli/proxy.py": "the upstream of each provider's API",
}

# (module, literal): why that literal there is not a reference to the dialect of that name.
NOT_A_DIALECT = {
    ("guard/recorder.py", "langchain"): "a guard record's source: the LangChain middleware recorded it",
    ("cli/inbox.py", "langchain"): "the --source choices of guard records",
    ("ui/inbox.py", "langchain"): "the inbox's Source filter",
    ("guard/langchain.py", "langchain"): "the middleware's recorder source",
    ("guard/inspect.py", "langchain"): "the LangChain middleware's endpoint: an adapter to one framework "
                                       "receives that framework's own message objects",
}


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body:
            first = n.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _as_dialect(tree: ast.AST) -> set[int]:
    """Literals handed to the registry (``get``, ``of_target``, ``dialect_of``, bare or as
    ``dialects.get``) or as a ``dialect=`` keyword."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            f = n.func
            fn = f.id if isinstance(f, ast.Name) else (
                f.attr if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "dialects"
                else "")
            if fn in ("get", "of_target", "dialect_of"):
                out.update(id(a) for a in n.args if isinstance(a, ast.Constant))
            out.update(id(k.value) for k in n.keywords if k.arg == "dialect" and isinstance(k.value, ast.Constant))
    return out


def test_no_module_outside_the_dialects_names_one():
    dialects = set(names())
    assert {"openai-chat", "anthropic", "gemini"} <= dialects
    shared = dialects & set(TARGETS)
    used: set[tuple[str, str]] = set()
    used_modules: set[str] = set()
    wrong: list[str] = []
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        if rel.startswith("dialects/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs, handed = _docstrings(tree), _as_dialect(tree)
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Constant) and isinstance(n.value, str)) or n.value not in dialects or id(n) in docs:
                continue
            where = f"inspector/{rel}:{n.lineno}: {n.value!r}"
            if id(n) in handed:
                wrong.append(where + " (handed over as a dialect)")
            elif (rel, n.value) in NOT_A_DIALECT:
                used.add((rel, n.value))
            elif n.value in shared and rel in TARGET_MODULES:
                used_modules.add(rel)
            else:
                wrong.append(where)
    assert not wrong, "dialects named outside inspector/dialects/:\n" + "\n".join(wrong)
    assert set(NOT_A_DIALECT) <= used, f"allowances no longer needed: {sorted(set(NOT_A_DIALECT) - used)}"
    assert set(TARGET_MODULES) <= used_modules, f"target modules naming no provider: {sorted(set(TARGET_MODULES) - used_modules)}"


def test_the_rule_catches_what_it_says():
    """The checks above find a dialect named in code, and not in a docstring."""
    src = 'def f():\n    """Reads openai-chat."""\n    return get("openai-chat"), "claude-code", g(dialect="gemini")\n'
    tree = ast.parse(src)
    hits = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in set(names())
            and id(n) not in _docstrings(tree)]
    assert sorted(hits) == ["claude-code", "gemini", "openai-chat"]
    assert len(_as_dialect(tree)) == 2
    assert not _as_dialect(ast.parse('upstreams.get("anthropic")'))  # a dict's get is no registry
