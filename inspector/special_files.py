"""Names that are no regular file (a named pipe, a socket, a device, a link to nothing), told from
their metadata alone: opening a named pipe waits for a writer, so a walk over a folder must never
open one it did not ask for (issue 33). ``check`` still reads a pipe it is given by name."""

from __future__ import annotations

import os
import stat

_SPECIAL = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"))


def not_a_file(path: str) -> str | None:
    """What ``path`` is when it is neither a regular file nor a directory, from its metadata alone
    (nothing is opened): "a named pipe, not a regular file", ...; None for a file or a directory."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a symbolic link to nothing" if os.path.islink(path) else None
    except OSError:
        return None  # left to the reading, which says why
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    what = next((name for test, name in _SPECIAL if test(mode)), "a special file")
    return f"{what}, not a regular file"
