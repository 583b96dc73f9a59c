"""The list as a target that combines consecutive messages of one role sees it.

The Anthropic Messages API combines consecutive ``user`` (or ``assistant``) messages into a single
turn before it checks them ("Consecutive `user` or `assistant` turns in your request will be
combined into a single turn", docs/provider-evidence.md). Its errors then name the combined list:
in oh-my-pi #1165 an orphan ``tool_result`` in message 1 is reported as ``messages.0.content.1``
because messages 0-4 were one user turn. ``Turns`` maps our messages to the provider's turns and
blocks and back, so that pairing and order rules run on what the provider sees while findings
keep our own indexes (with the provider's beside them), and a pasted index finds our message.
"""

from __future__ import annotations

from collections.abc import Callable

from .model import Msg

MERGED_ROLES = frozenset({"user", "assistant"})  # the Messages API combines runs of either role


class Turns:
    """``turn_of[i]``: the provider's index of our message ``i``; ``offset[i]``: how many content
    blocks of its turn come before it; ``starts[t]``: our first message of turn ``t``."""

    __slots__ = ("exact", "offset", "roles", "sizes", "starts", "turn_of")

    def __init__(self, msgs: list[Msg], size: Callable[[object], int | None], roles: frozenset[str] = MERGED_ROLES):
        # Built in local names, set on self at the end: this loop sees every message.
        turn_of: list[int] = []
        offset: list[int] = []
        starts: list[int] = []
        sizes: list[int] = []  # content blocks of each of our messages
        turn_roles: list[str] = []  # role of each turn
        prev = None
        at = 0
        # False when the dialect cannot say how its messages map to the API's (a history whose
        # adapter drops some messages or splits parts): turns are still combined, but no index is given.
        exact = True
        for m in msgs:
            n = size(m.raw)
            role = m.role
            if n is None:
                exact, n = False, 1
            if role in roles and role == prev:
                at += sizes[-1] if sizes else 0
            else:
                starts.append(m.index)
                turn_roles.append(role)
                at = 0
            turn_of.append(len(starts) - 1)
            offset.append(at)
            sizes.append(n)
            prev = role
        self.turn_of, self.offset, self.starts, self.sizes, self.roles = turn_of, offset, starts, sizes, turn_roles
        self.exact = exact

    @property
    def merged(self) -> bool:
        """True when at least two messages share a turn."""
        return len(self.starts) < len(self.turn_of)

    def members(self, t: int) -> range:
        """Our messages in turn ``t``."""
        end = self.starts[t + 1] if t + 1 < len(self.starts) else len(self.turn_of)
        return range(self.starts[t], end)

    def shared(self, i: int) -> bool:
        """True when our message ``i`` shares its turn with another message."""
        return len(self.members(self.turn_of[i])) > 1

    def where(self, i: int, j: int | None = None) -> str | None:
        """The provider's name for our message ``i`` (block ``j`` of it): ``messages.0.content.1``;
        None when the dialect's messages do not map exactly to the API's."""
        if not self.exact:
            return None
        if not 0 <= i < len(self.turn_of):
            return f"messages.{i}" if j is None else f"messages.{i}.content.{j}"
        t = self.turn_of[i]
        return f"messages.{t}" if j is None else f"messages.{t}.content.{self.offset[i] + j}"

    def span(self, i: int) -> str:
        """``messages #0-#4`` for the turn holding our message ``i``."""
        r = self.members(self.turn_of[i])
        return f"#{r[0]}-#{r[-1]}" if len(r) > 2 else f"#{r[0]} and #{r[-1]}"

    def ours(self, t: int, j: int | None = None) -> tuple[int, int | None] | None:
        """Our message (and its block) for the provider's turn ``t`` (block ``j``); None beyond the list."""
        if not 0 <= t < len(self.starts):
            return None
        r = self.members(t)
        if j is None:
            return r[0], None
        for i in r:
            if self.offset[i] <= j < self.offset[i] + self.sizes[i]:
                return i, j - self.offset[i]
        return r[-1], None  # past the last block: the turn's last message
