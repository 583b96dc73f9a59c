"""``inspector check --format json`` before and after a change: the same bytes for every input.

Runs the check of every file of sample_logs/ and ../shared/corpus, of a compact copy of each JSON
file (``orjson.dumps`` of its value: the form a fast path for the common file is likely to take),
of the benchmark transcript, a broken copy of it and a request body holding part of it, once with
no target and once for each target, with two packages: the one beside this script and one given
with ``--base`` (a checkout of the package before the change: ``git archive main inspector | tar
-x -C /tmp/base``). Prints every input whose output (bytes, error text or exit status) differs, and
exits 1 when any does.

Run: ``.venv/bin/python benchmarks/compare_check_output.py --base /tmp/base [N_MESSAGES]``.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

TARGETS = ("openai", "deepseek", "mistral", "anthropic", "bedrock", "gemini", "responses")

# Run in a process whose package is the one on PYTHONPATH: every (file, target) check's exit status,
# output and errors, as JSON on stdout.
RUNNER = r"""
import contextlib, io, json, sys
from inspector.cli import main
out = {}
for f in json.loads(sys.argv[1]):
    for target in [None, *json.loads(sys.argv[2])]:
        argv = ["check", f, "--format", "json"] + (["--target", target] if target else [])
        buf, err = io.BytesIO(), io.StringIO()
        wrapper = io.TextIOWrapper(buf, encoding="utf-8")
        with contextlib.redirect_stdout(wrapper), contextlib.redirect_stderr(err):
            code = main(argv)
            wrapper.flush()
        out[f + " " + str(target)] = [code, buf.getvalue().decode("utf-8", "replace"), err.getvalue()]
print(json.dumps(out))
"""


def inputs(tmp: Path, n: int) -> list[str]:
    from gen import build_transcript, drop_results

    found = [p for d in (ROOT / "sample_logs", ROOT.parent / "shared" / "corpus") if d.is_dir()
             for p in sorted(d.rglob("*")) if p.is_file() and p.suffix in (".json", ".jsonl", ".har")]
    out = [str(p) for p in found]
    for k, p in enumerate(found):
        if p.suffix != ".json":
            continue
        try:
            value = orjson.loads(p.read_bytes())
        except orjson.JSONDecodeError:
            continue
        compact = tmp / f"compact_{k}_{p.name}"
        compact.write_bytes(orjson.dumps(value))
        out.append(str(compact))
    msgs = build_transcript(n)
    for name, value in (("big.json", msgs), ("broken.json", drop_results(msgs, 0.01)),
                        ("body.json", {"model": "gpt-4o", "messages": msgs[:100]}),
                        ("body_deepseek.json", {"model": "deepseek-chat", "messages": msgs[:100]})):
        (tmp / name).write_bytes(orjson.dumps(value))
        out.append(str(tmp / name))
    return out


def run(package_dir: str, files: list[str]) -> dict[str, list]:
    env = {**os.environ, "PYTHONPATH": package_dir, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(files), json.dumps(TARGETS)],
                          env=env, capture_output=True, text=True, check=True, cwd=package_dir)
    result: dict[str, list] = json.loads(done.stdout)
    return result


def main() -> int:
    args = sys.argv[1:]
    base = args[args.index("--base") + 1]
    rest = [a for k, a in enumerate(args) if a != "--base" and (k == 0 or args[k - 1] != "--base")]
    n = int(rest[0]) if rest else 20_000
    with tempfile.TemporaryDirectory() as tmp:
        files = inputs(Path(tmp), n)
        before, after = run(base, files), run(str(ROOT), files)
    differ = [k for k in before if before[k] != after.get(k)]
    for k in differ:
        print(f"DIFFERS: {k}\n  before: {str(before[k])[:300]}\n  after:  {str(after.get(k))[:300]}")
    print(f"{len(before)} checks ({len(files)} inputs x {len(TARGETS) + 1} targets): {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
