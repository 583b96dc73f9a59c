"""``inspector share PATH`` and ``inspector unshare LINK``: share links from the command line.

``share`` stores the transcript in the configured store (``INSPECTOR_STORE_URL`` or the SQLite
file, see ``inspector.sharing.config``) and prints the link, built on ``INSPECTOR_BASE_URL`` or
``--base-url``. Secrets found in the file stop the share unless ``--redact`` masks them or
``--keep-secrets`` says they are meant to be there: a link is easy to forward, a leaked key is
hard to take back.

Exit codes: 0 shared (or deleted), 1 not shared because of secrets (or nothing to delete),
2 the input or a setting cannot be used (one line on stderr, as for ``check``), 3 the store
cannot be reached.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..errors import InputError
from ..sharing.config import ConfigError, Settings, check_ttl_days
from .parser import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, command

EXIT_STORE = 3


def _fail(message: str, code: int = EXIT_INPUT) -> int:
    sys.stderr.write(f"inspector: {message}\n")
    return code


def _open_store(settings: Settings):
    from ..sharing.store import Store

    return Store.from_env(settings)


def _add_share_args(p: argparse.ArgumentParser) -> None:
    from ..dialects import names
    from ..targets import TARGETS

    p.add_argument("path", help="transcript file (JSON, JSON Lines, request body, log) or - for stdin")
    p.add_argument("--redact", action="store_true", help="mask secrets (API keys, tokens, private keys) before sharing")
    p.add_argument("--keep-secrets", action="store_true", help="share even if secrets are found, unmasked")
    p.add_argument("--ttl-days", type=float, metavar="N", help="days until the link expires (default: INSPECTOR_SHARE_TTL_DAYS or 30)")
    p.add_argument("--base-url", metavar="URL", help="where colleagues open the app (default: INSPECTOR_BASE_URL)")
    p.add_argument("--target", choices=TARGETS, help="provider whose rules the shared view applies")
    p.add_argument("--from", dest="dialect", choices=names(), help="read as this dialect instead of detecting it")
    p.add_argument("--message", type=int, metavar="INDEX", help="open the link on this message (adds &m=INDEX)")
    p.add_argument("--name", help="file name shown to whoever opens the link (default: the file's own)")


def run_share(args: argparse.Namespace) -> int:
    from .. import load
    from ..reading import read_source
    from ..sharing.redact import MaskingError, PatternError, Redactor, check_masked
    from ..sharing.store import ShareTooLarge, share_link

    data, label = read_source(args.path)
    doc = load(data, name=label)  # refuse what is not a transcript before storing it
    if args.message is not None:
        count = len(doc.transcripts[0].items) if doc.transcripts else 0
        if not 0 <= args.message < count:
            raise InputError(f"--message {args.message} is not a message index (the transcript has {count})", label)
    try:
        if args.ttl_days is not None:
            check_ttl_days(args.ttl_days, "--ttl-days")
        settings = Settings.from_env()
        redactor = Redactor.build(settings.redact_patterns)
    except (ConfigError, PatternError) as exc:
        return _fail(str(exc))

    try:
        found = redactor.scan(data)
    except PatternError as exc:  # the patterns ran past their time budget
        return _fail(f"not shared: {label}: {exc}")
    for s in found:
        sys.stderr.write(f"{label}:{s.line}:{s.column}: {s.kind} {s.preview}\n")
    if found or args.redact:  # a refusal for another reason stays one line
        sys.stderr.write(f"checked {len(redactor.kinds)} kinds of secret: {len(found) or 'none'} found\n")
    if found and args.redact:
        masked = redactor.mask(data, found)
        try:
            check_masked(data, masked)
        except MaskingError as exc:
            return _fail(f"not shared: {label}: {exc}", EXIT_FINDINGS)
        data = masked
        sys.stderr.write(f"masked {len(found)} secret(s)\n")
    elif found and not args.keep_secrets:
        return _fail(
            f"not shared: {len(found)} possible secret(s) in {label}; "
            "use --redact to mask them or --keep-secrets to share them as they are",
            EXIT_FINDINGS,
        )

    view = {"target": args.target, "dialect": args.dialect, "options": {}, "selected": args.message, "transcript": 0}
    name = args.name or ("stdin.json" if label == "<stdin>" else label.replace("\\", "/").rsplit("/", 1)[-1])
    try:
        store = _open_store(settings)
        try:
            token = store.put(data, name, view, ttl_days=args.ttl_days)
        finally:
            store.close()
    except ShareTooLarge as exc:
        return _fail(f"{label}: {exc}")
    except Exception as exc:  # noqa: BLE001 - any driver error: say which store, not a traceback
        return store_failed(exc, "share")
    ttl = settings.share_ttl_days if args.ttl_days is None else args.ttl_days
    expires = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(time.time() + ttl * 86400))
    sys.stdout.write(share_link(args.base_url or settings.base_url, token, args.message) + "\n")
    sys.stderr.write(f"expires {expires}; delete it with: inspector unshare LINK\n")
    return EXIT_OK


def _add_unshare_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("link", help="the share link (or its token)")


def run_unshare(args: argparse.Namespace) -> int:
    from ..sharing.store import token_from_link

    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        return _fail(str(exc))
    token = token_from_link(args.link)
    try:
        store = _open_store(settings)
        try:
            deleted = store.delete(token)
        finally:
            store.close()
    except Exception as exc:  # noqa: BLE001
        return store_failed(exc, "unshare")
    if not deleted:
        return _fail("no such share (it may have expired or been deleted already)", EXIT_FINDINGS)
    sys.stderr.write("deleted\n")
    return EXIT_OK


def store_failed(exc: BaseException, where: str) -> int:
    """Exit 3 with a generic line: the database's host, port and the driver's words are not shown
    (they go to the ``inspector.store`` log, and to stderr when ``INSPECTOR_LOG_FORMAT`` is set)."""
    import os

    from ..sharing.store import error_detail, error_line

    said = error_line(exc, where)
    if os.environ.get("INSPECTOR_LOG_FORMAT", "").strip():
        sys.stderr.write(f"share store error ({where}): {type(exc).__name__}: {error_detail(exc)}\n")
    return _fail(f"cannot use the share store: {said}", EXIT_STORE)


run_share.arguments = _add_share_args
run_unshare.arguments = _add_unshare_args
command("share", "store a transcript in the share store and print its link")(run_share)
command("unshare", "delete a shared transcript by its link")(run_unshare)
