"""The command line, ``inspector COMMAND``: a door onto the engine, never imported by it.

``parser`` holds the registry of commands, the parser and the entry point; ``options`` the
options several commands share; every other module is one command (``check``, ``repair``,
``fit``, ``share`` and ``unshare``, ``explain``, ``scan``, ``proxy``, ``inbox``), registered with
``parser.command`` when it is imported and listed in ``parser.COMMAND_MODULES``.
"""

from __future__ import annotations

from .parser import entry, main

__all__ = ["entry", "main"]
