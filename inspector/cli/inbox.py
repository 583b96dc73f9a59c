"""``inspector inbox``: the requests the guard recorded (``INSPECTOR_RECORD=1`` or the proxy's
``--record``), newest first, from the share store (``INSPECTOR_STORE_URL`` or the SQLite file).

``--format json`` prints a list of records: ``time`` (ISO 8601, UTC), ``source`` (proxy, sdk,
litellm, langchain, test), ``provider`` (the target whose rules applied), ``model``, ``verdict``
(``would_reject``, ``rejected``, ``repaired``, ``unreadable``), ``status`` (the provider's HTTP
status, when it answered), ``provider_error`` (the provider's text, or the words it would use),
``findings`` (as ``check --format json`` gives them), ``first_finding``, ``message_index`` (the
culprit), ``url`` (without its query) and ``link`` (opens the request in the app, on the culprit,
the provider's error applied).

Exit codes: 0 listed (even none), 2 a bad option or setting, 3 the store cannot be reached.
"""

from __future__ import annotations

import argparse
import re
import sys
import time

from .parser import EXIT_INPUT, EXIT_OK, command

EXIT_STORE = 3
_SINCE = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_since(text: str) -> float:
    """Seconds in ``30m``, ``1h``, ``2d``, ``1w`` (also ``1h30m``); ValueError for anything else."""
    t = text.strip().lower()
    pos, total = 0, 0.0
    for m in _SINCE.finditer(t):
        if m.start() != pos:
            break
        total += float(m.group(1)) * _UNIT[m.group(2)]
        pos = m.end()
    if pos != len(t) or not t or total <= 0:
        raise ValueError(f"--since {text!r} is not a duration like 30m, 1h, 2d or 1w")
    return total


def public_record(r: dict, base_url: str) -> dict:
    """A stored record as ``inbox --format json`` prints it (and the app lists it)."""
    from ..sharing.store import inbox_link

    return {
        "id": r["id"],
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(r["created_at"])),
        "source": r["source"],
        "provider": r["provider"],
        "model": r["model"],
        "verdict": r["verdict"],
        "status": r["status"],
        "provider_error": r["provider_error"],
        "first_finding": r["first_finding"],
        "message_index": r["culprit"],
        "findings": r["findings"],
        "url": r["url"],
        "link": inbox_link(base_url, r["id"], r["culprit"]),
    }


def _add_inbox_args(p: argparse.ArgumentParser) -> None:
    from ..targets import TARGETS

    p.add_argument("--since", metavar="DURATION", help="only records newer than this (30m, 1h, 2d, 1w)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output (default: text)")
    p.add_argument("--provider", choices=TARGETS, help="only records for this target")
    p.add_argument("--rule", metavar="CODE", help="only records with an error of this rule (TC001)")
    p.add_argument("--source", choices=("proxy", "sdk", "litellm", "langchain", "test"), help="only records from this source")
    p.add_argument("--limit", type=int, default=200, help="at most this many records (default: 200)")
    p.add_argument("--base-url", metavar="URL", help="where the app is (default: INSPECTOR_BASE_URL)")


def run_inbox(args: argparse.Namespace) -> int:
    from ..jsonio import dumps
    from ..sharing.config import ConfigError, Settings
    from ..sharing.store import Store
    from .share import store_failed

    try:
        since = time.time() - parse_since(args.since) if args.since is not None else None
        settings = Settings.from_env()
    except (ValueError, ConfigError) as exc:
        sys.stderr.write(f"inspector: {exc}\n")
        return EXIT_INPUT
    if args.rule and not re.fullmatch(r"TC\d{3}", args.rule.upper()):
        sys.stderr.write(f"inspector: --rule {args.rule!r} is not a rule code like TC001\n")
        return EXIT_INPUT
    try:
        store = Store.from_env(settings)
        try:
            rows = store.records(since=int(since) if since is not None else None, provider=args.provider,
                                 rule=args.rule.upper() if args.rule else None, source=args.source,
                                 limit=max(1, args.limit))
        finally:
            store.close()
    except Exception as exc:  # noqa: BLE001 - any driver error: one generic line, as share and unshare say it
        return store_failed(exc, "inbox")
    out = [public_record(r, args.base_url or settings.base_url) for r in rows]
    if args.format == "json":
        sys.stdout.flush()
        sys.stdout.buffer.write(dumps(out))
        return EXIT_OK
    if not out:
        sys.stdout.write("no guard records" + (f" in the last {args.since}" if args.since else "") + "\n")
        return EXIT_OK
    for r in out:
        said = (r["provider_error"] or "").replace("\n", " ")
        sys.stdout.write(f"{r['time']}  {r['verdict']:<12} {r['source']:<9} {r['provider'] or '?'}"
                         f"{'/' + r['model'] if r['model'] else ''}  {r['first_finding'] or ''}\n")
        if said:
            sys.stdout.write(f"    provider: {said[:300]}\n")
        sys.stdout.write(f"    {r['link']}\n")
    return EXIT_OK


run_inbox.arguments = _add_inbox_args
command("inbox", "list the requests the guard recorded (refused, would be refused, repaired)")(run_inbox)
