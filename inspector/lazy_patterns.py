"""Regular expressions compiled on first use, not on import: every start-up of the CLI imports the
modules that hold them, and compiling them all cost a 4-message check a few milliseconds of its
start-up (issue 37). ``lazy(r"...")`` stands where ``re.compile(r"...")`` stood; the pattern's
methods (``match``, ``fullmatch``, ``search``, ...) are the compiled pattern's own once it is
compiled, so a hot loop pays nothing for the laziness."""

from __future__ import annotations

import functools
import re
from typing import Any, cast

# ``re.compile`` kept per pattern: ``compiled(SOURCE)`` where a pattern is used compiles it the first
# time and returns the same pattern after (str or bytes), for code that names its patterns by source.
compiled = functools.cache(re.compile)


class _Lazy:
    """A pattern's source until something is asked of it; then its compiled methods, kept."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # only for what is not kept yet: the first use
        compiled = re.compile(*self._source)
        for attr in dir(compiled):
            if not attr.startswith("_"):
                self.__dict__[attr] = getattr(compiled, attr)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done the first time the pattern is used."""
    return cast("re.Pattern[str]", _Lazy(pattern, flags))
