"""The one error a user ever sees for unreadable input.

Every structural problem (not JSON, no message list, a message that is not an object) becomes an
``InputError`` whose ``str()`` is a single line saying what and where: ``line 3 column 17: ...``
or ``$.messages[4]: expected an object``. The CLI prints it and exits 2; the UI shows it.
"""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be read as a transcript. ``where`` is a line/column or a JSON path."""

    def __init__(self, what: str, where: str | None = None):
        self.what = what
        self.where = where
        super().__init__(f"{where}: {what}" if where else what)


class PythonReprInput(InputError):
    """Input that is a Python ``print(messages)`` repr, not JSON; ``readable`` when
    ``ast.literal_eval`` can read it as plain data (the user may then choose to)."""

    def __init__(self, readable: bool, where: str | None = None):
        self.readable = readable
        what = "this looks like a Python repr (what print(messages) shows), not JSON"
        if readable:
            what += "; it can be read as a Python literal (CLI: --python-repr; app: 'Read it as a Python literal')"
        else:
            what += ", and it cannot be read safely as a plain Python literal; save it with json.dumps instead"
        super().__init__(what, where)


class NothingToCheck(InputError):
    """A message list with no message in it: a request the provider refuses, or a log with
    nothing to check (``checking.refuse_empty``). A live view (``watch``) waits for more lines."""
