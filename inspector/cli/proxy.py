"""``inspector proxy``: run the guard as an HTTP proxy (``inspector.guard.proxy``; needs the
``[guard]`` extra). Starlette and uvicorn are imported only when the command runs."""

from __future__ import annotations

import argparse
import sys

from .parser import EXIT_INPUT, EXIT_OK, command


def _add_proxy_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8787, help="port to listen on (default: 8787)")
    p.add_argument("--mode", choices=("observe", "block", "repair"), default="observe",
                   help="observe: forward and record what would be rejected; block: answer 400 instead of sending "
                        "it; repair: send the repaired request (default: observe)")
    p.add_argument("--upstream-openai", metavar="URL", help="OpenAI-compatible base URL, as the SDK's base_url "
                   "(default: https://api.openai.com/v1)")
    p.add_argument("--upstream-anthropic", metavar="URL", help="Anthropic base URL with its /v1 "
                   "(default: https://api.anthropic.com/v1)")
    p.add_argument("--upstream-gemini", metavar="URL", help="Gemini base URL (default: "
                   "https://generativelanguage.googleapis.com)")
    p.add_argument("--max-body-mb", type=float, default=110.0, metavar="MB",
                   help="refuse a request body above this many MB with a 413 in the provider's error shape (default: "
                        "110, Gemini's 100 MB of inline data and its JSON; toward api.anthropic.com at most 32 MiB, "
                        "which Anthropic refuses itself)")
    p.add_argument("--upstream-timeout", type=float, default=300.0, metavar="S",
                   help="answer 504 when the upstream's response headers have not all arrived this many seconds "
                        "after connecting (in all, not per read); after them, cut a response that pauses longer "
                        "(default: 300)")
    p.add_argument("--header-timeout", type=float, default=10.0, metavar="S",
                   help="close a connection whose request headers have not all arrived after this many seconds (default: 10)")
    p.add_argument("--body-timeout", type=float, default=30.0, metavar="S",
                   help="answer 408 when a request body pauses longer than this many seconds (default: 30; "
                        "300 s for the whole body)")
    p.add_argument("--check-workers", type=int, default=2, metavar="N",
                   help="check a body over --worker-above-mb in one of N worker processes, so that it never "
                        "stalls the proxy's other requests (default: 2; 0: every body in the proxy itself)")
    p.add_argument("--worker-above-mb", type=float, default=1.0, metavar="MB",
                   help="the body size above which a body is checked in a worker process (default: 1)")
    p.add_argument("--worker-mb", type=int, default=2048, metavar="MB",
                   help="the memory one worker process may use, as the app's INSPECTOR_WORKER_MB (default: 2048); "
                        "a body that needs more is answered as too large to read")
    p.add_argument("--worker-seconds", type=float, default=120.0, metavar="S",
                   help="the time one worker process may take to check one body, as the app's "
                        "INSPECTOR_WORKER_SECONDS (default: 120; 0: no limit); past it the worker is killed "
                        "and the client gets a 503, no verdict")
    p.add_argument("--record", action="store_true", help="keep every refused, would-be-refused or repaired request "
                   "(redacted) for the team inbox (also INSPECTOR_RECORD=1)")


def run_proxy(args: argparse.Namespace) -> int:
    for name in ("upstream_openai", "upstream_anthropic", "upstream_gemini"):
        value = getattr(args, name)
        if value and not value.startswith(("http://", "https://")):
            sys.stderr.write(f"inspector: --{name.replace('_', '-')} {value!r} must start with http:// or https://\n")
            return EXIT_INPUT
    if not 0 < args.port < 65536:
        sys.stderr.write(f"inspector: --port {args.port} is not a port number\n")
        return EXIT_INPUT
    for flag in ("max_body_mb", "upstream_timeout", "header_timeout", "body_timeout"):
        if not getattr(args, flag) > 0:
            sys.stderr.write(f"inspector: --{flag.replace('_', '-')} {getattr(args, flag):g} must be more than 0\n")
            return EXIT_INPUT
    for flag in ("check_workers", "worker_above_mb", "worker_mb", "worker_seconds"):
        if getattr(args, flag) < 0:
            sys.stderr.write(f"inspector: --{flag.replace('_', '-')} {getattr(args, flag):g} must not be negative\n")
            return EXIT_INPUT
    try:
        from ..guard.proxy import serve
    except ModuleNotFoundError as exc:
        sys.stderr.write(f"inspector: the proxy needs the guard extra ({exc.name} is missing): "
                         "pip install 'tool-call-inspector[guard]'\n")
        return EXIT_INPUT
    serve(host=args.host, port=args.port, mode=args.mode, record=True if args.record else None,
          max_body_bytes=int(args.max_body_mb * 1_000_000), upstream_seconds=args.upstream_timeout,
          header_seconds=args.header_timeout, body_idle_seconds=args.body_timeout,
          body_seconds=max(300.0, args.body_timeout), check_workers=args.check_workers,
          worker_threshold=int(args.worker_above_mb * 1_000_000), worker_mb=args.worker_mb,
          worker_seconds=args.worker_seconds,
          upstreams={"openai": args.upstream_openai, "anthropic": args.upstream_anthropic,
                     "gemini": args.upstream_gemini})
    return EXIT_OK


command("proxy", "run the guard as an OpenAI/Anthropic/Gemini-compatible HTTP proxy", _add_proxy_args)(run_proxy)
