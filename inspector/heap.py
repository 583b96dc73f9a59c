"""Keeping the C heap from holding freed buffers of a big read (glibc only; elsewhere nothing).

A big file is parsed a few MB at a time: every piece's text, its write-back (the duplicate-key
check) and the read-ahead buffer are multi-MB ``bytes`` that live for a moment. glibc serves the
first of them with ``mmap`` and, on freeing it, raises its mmap threshold to that size (up to
32 MB), so the following ones come from the heap instead. The strings of the parsed document are
allocated between them and stay, so the freed pieces become holes the heap cannot give back: on
a 108 MB transcript that was about 30 MB of resident memory beyond what the document holds (a
tenth of the peak of ``inspector check``). A fixed threshold of 1 MiB keeps every such buffer in
its own mapping, returned to the system when it is freed, and it also keeps a long-running app
from holding the buffers of a big upload after the session has closed.
"""

from __future__ import annotations

import sys

_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number (malloc.h)
THRESHOLD = 1 << 20
_done = False


def return_big_buffers() -> bool:
    """Have glibc ``mmap`` every allocation of ``THRESHOLD`` bytes or more (``mallopt``), once
    per process. True when that is in effect; False where the C library is not glibc."""
    global _done
    if _done:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import platform

        if platform.libc_ver()[0] != "glibc":
            return False
        libc = ctypes.CDLL(None)
        _done = bool(libc.mallopt(_M_MMAP_THRESHOLD, THRESHOLD))
    except (OSError, AttributeError, ValueError):
        return False
    return _done
