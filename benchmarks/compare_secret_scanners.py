"""Our secret scan against Yelp's detect-secrets on a planted set (issue 33).

Not part of the suite and not a dependency: run it in a separate environment that has
detect-secrets (``python -m venv /tmp/ds && /tmp/ds/bin/pip install detect-secrets pytest orjson
google-re2 msgspec``), from the repository root: ``PYTHONPATH=. /tmp/ds/bin/python
benchmarks/compare_secret_scanners.py``. detect-secrets scans each planted line as a file (its
default plugins, entropy limits included); ours masks the line as a tool result. Printed: how many
planted secrets each catches, which it misses, false positives on benign lines, and the time of
each on plain text (ours on 10 MB, detect-secrets on 1 MB: its Python ``re`` plugins are slower).
Results of 2026-11-27 are in docs/sharing-secrets.md.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "redact"))
from test_redact_credentials import PLANTED, SECRETS

from inspector.sharing.redact import Redactor

EXTRA = ["glpat-a1B2c3D4e5F6g7H8i9J0", "npm_" + "a" * 18 + "B" * 18, "SG." + "a" * 22 + "." + "b" * 43, "gsk_" + "Ab" * 26,
         "xai-" + "Ab" * 40, "dop_v1_" + "ab12" * 16, "GOCSPX-" + "a" * 28, "123456789:AA" + "b" * 33,
         "sk-ant-api03-" + "AbCdEfGhIj" * 4, "ghp_" + "a1" * 18, "AKIAIOSFODNN7EXAMPLE", "xoxb-1234567890-abcdefghij",
         "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
         "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"]
BENIGN = ["max_tokens: 4096", "the key: value", "auth: true", "password: ${DB_PASSWORD}", "api_key: null",
          "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
          "commit 9fceb02d0ae598e95dc970b74767f19372d61af8", "uuid 123e4567-e89b-12d3-a456-426614174000",
          "call_id toolu_01A09q90qw90lq917835lq9",
          "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="]
R = Redactor.build()


def detect_secrets(text: str) -> list[str]:
    from detect_secrets import SecretsCollection
    from detect_secrets.settings import default_settings

    with tempfile.NamedTemporaryFile("w", suffix=".env", delete=False) as f:
        f.write(text + "\n")
    found = SecretsCollection()
    with default_settings():
        found.scan_file(f.name)
    os.unlink(f.name)
    return [s.secret_value for _, s in found if s.secret_value]


def ours(text: str) -> str:
    return json.loads(R.mask(json.dumps([{"role": "tool", "content": text}]).encode()))[0]["content"]


def main() -> None:
    lines = PLANTED.splitlines() + [f"token {e}" for e in EXTRA]
    result: dict = {"planted": len(SECRETS) + len(EXTRA), "benign": len(BENIGN)}
    for name, caught in (("detect-secrets", lambda t, line: any(t in v or (v in t and len(v) >= len(t) - 2)
                                                                  for v in detect_secrets(line))),
                         ("ours", lambda t, line: t not in ours(line))):
        missed = [t[:14] for t in SECRETS + EXTRA if not caught(t, next(ln for ln in lines if t in ln))]
        false = [b[:24] for b in BENIGN if (detect_secrets(b) if name == "detect-secrets" else ours(b) != b)]
        result[name] = {"caught": result["planted"] - len(missed), "missed": missed, "false_positives": false}
    text = ("x" * 70 + " ") * 150_000
    t0 = time.process_time()
    R.scan(json.dumps([{"role": "tool", "content": text}]).encode())
    result["ours"]["cpu_seconds_10MB"] = round(time.process_time() - t0, 2)
    t0 = time.process_time()
    detect_secrets(text[:1_000_000])
    result["detect-secrets"]["cpu_seconds_1MB"] = round(time.process_time() - t0, 2)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
