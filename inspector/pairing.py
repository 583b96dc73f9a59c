"""Block-scoped pairing of calls and results (rules.md §2), shared by the rules, repair and the UI.

Pairing never uses one global set of ids: some models restart ids every round
(``search_web:0``), so a result is first matched against the calls of *its own* call block, and
only a result that finds no call there is looked up in a global index, which then tells a
displaced result (TC003) from an early one (TC004), an orphan (TC002) and a duplicate (TC005).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from .model import Call, Issue, Msg, Result

if TYPE_CHECKING:
    from .turns import Turns

Note = Callable[[Issue], None]  # where a pass puts the issues it finds (``issues.append``)

# Link status values, also used by the timeline to colour the connector.
OK, DISPLACED, EARLY, DUPLICATE = "ok", "displaced", "early", "duplicate"


class Link(msgspec.Struct, eq=False, gc=False):
    """A call and the result that answers it (or a duplicate extra result pointing at a call).
    A struct like ``Call`` (``model.py``): built in C, untracked by the collector, one per answer."""

    call: Call
    result: Result
    status: str


class Block(msgspec.Struct, eq=False, gc=False):
    """A message with calls and the messages holding the results found inside its block."""

    index: int  # the message holding the calls
    calls: list[Call]
    result_msgs: list[int] = msgspec.field(default_factory=list)
    ends: int = 0  # index of the last message of the block
    last_pos: int = -1  # position of the last call answered inside the block
    disordered: bool = False  # a result inside the block answered an earlier call than the one before it


class Pairing(msgspec.Struct):
    """What ``pair`` found (a struct: a dataclass costs a millisecond of every start-up to create)."""

    links: list[Link]
    blocks: list[Block]
    missing: list[Call]  # calls with no result anywhere (TC001), pending ones included
    pending: list[Call]  # the subset that is a pending trailing call (TC022)
    orphans: list[Result]  # results with no call anywhere (TC002)
    issues: list[Issue]
    # Results that answer calls held outside the transcript (a Responses request continuing an
    # earlier response): the outputs before its first call item. Not orphans.
    external: list[Result] = msgspec.field(default_factory=list)
    # How a target that combines consecutive messages of one role sees the list (``pair_turns``).
    turns: Any = None
    # Every call of the blocks, in their order (the rules that look at each call walk it flat).
    calls: list[Call] = msgspec.field(default_factory=list)


# Roles (of items-mode dialects) that neither answer nor end a call block that has no results yet.
TRANSPARENT = frozenset({"reasoning", "hosted", "approval", "reference"})
# Messages no model sees (AG-UI ``activity``: clients leave them out of the next run's input,
# rules.md 2026-11-27): they neither break a call block nor end the transcript.
UNSEEN = frozenset({"activity"})
# A Responses ``item_reference`` stands for an item the provider stores (a call among them): the
# outputs that follow it may answer that call, so they are not orphans.
REFERENCE = "reference"


def pair(msgs: list[Msg], block_mode: str = "run", external_calls: bool = False,
         unseen: frozenset[str] = UNSEEN) -> Pairing:
    """Pair every result with its call and record pairing issues (TC001-TC005, TC013-TC015, TC017, TC022).

    ``block_mode``: ``"run"`` (openai-chat: the unbroken run of result messages after the call
    message), ``"next"`` (anthropic, bedrock, gemini: only the next message; results for the same
    block in the messages after it are TC015), ``"items"`` (Responses: a run of call items is one
    block, and the outputs that follow it answer it). ``unseen``: the roles the receiver does not
    see in the list (AG-UI's activity messages; system messages a gateway lifts out of it).
    """
    by_id = _CallIndex(msgs)
    answered: dict[Call, Result] = {}  # call -> first result that answers it (calls hash by identity)
    links: list[Link] = []
    blocks: list[Block] = []
    orphans: list[Result] = []
    issues: list[Issue] = []
    note = issues.append
    block: Block | None = None  # the open call block, while results may still join it
    prev_block: Block | None = None  # the block just closed (for TC015 in "next" dialects)
    run_mode = block_mode != "next"
    items_mode = block_mode == "items"

    for m in msgs:
        if m.role in unseen:
            continue
        # Responses input: a run of call items is one block; reasoning and hosted-tool items
        # between them (and approval markers) stay inside it.
        if (items_mode and block is not None and not block.result_msgs and not m.results
                and (m.calls or m.role in TRANSPARENT)):
            block.calls.extend(m.calls)
            block.ends = m.index
            continue
        if m.results:
            if block is not None:
                # The usual reply, inline (a third of a transcript's messages): one result with an
                # id, answering the first unanswered call of that id in the block, after the calls
                # answered so far, with no name of its own. Anything else: ``_match_block``.
                r = m.results[0]
                c = None
                if len(m.results) == 1 and r.id is not None and r.name is None:  # (else no call is looked for twice)
                    for c in block.calls:
                        if c.id == r.id and c not in answered:
                            break
                    else:
                        c = None
                if c is not None and c.pos > block.last_pos:
                    answered[c] = r
                    links.append(Link(c, r, OK))
                    block.last_pos = c.pos
                else:
                    _match_block(m, block, answered, links, by_id, orphans, note)
                block.result_msgs.append(m.index)
                block.ends = m.index
                if not run_mode or m.has_other:
                    prev_block, block = block, None
            else:
                split = prev_block if (not run_mode and prev_block is not None) else None
                for r in m.results:
                    if split is not None and _answer_split(r, split, answered, links):
                        note(Issue("TC015", r.msg, r.id, split.index))
                        continue
                    _lookup(r, by_id, answered, links, orphans, note)
                if split is not None:
                    split.result_msgs.append(m.index)
        else:
            prev_block = block = None
        if m.calls:
            block = Block(m.index, list(m.calls) if items_mode or type(m.calls) is not list else m.calls, ends=m.index)
            blocks.append(block)

    # Calls never answered: TC001, or TC022 for the last block when nothing follows it and none
    # of its calls has a result yet. A half-answered block is not pending: the log did not stop
    # while the tools ran, a result was dropped, and every provider rejects it (rules.md TC022).
    calls = [c for b in blocks for c in b.calls]
    missing = [c for c in calls if c not in answered]
    pending: list[Call] = []
    if missing and blocks:
        last = blocks[-1]
        end = len(msgs) - 1
        while end > last.ends and msgs[end].role in unseen:
            end -= 1
        if last.ends == end and not any(c in answered for c in last.calls):
            pending = list(last.calls)
    pending_set = set(pending)  # calls hash by identity
    for c in missing:
        if c in pending_set:
            note(Issue("TC022", c.msg, c.id, None, name=c.name, pos=c.pos))
        else:
            note(Issue("TC001", c.msg, c.id, None, name=c.name, pos=c.pos))

    # Results all present in their own block but in another order than the calls.
    for b in blocks:
        if b.disordered:
            _order(b, answered, note)
    external: list[Result] = []
    if orphans and (external_calls or items_mode):
        first_call = blocks[0].index if blocks else len(msgs)
        external = [r for r in orphans if not r.legacy and (
            (external_calls and r.msg < first_call) or (items_mode and _after_reference(msgs, r.msg)))]
        if external:
            held = {(r.msg, r.pos) for r in external}
            orphans = [r for r in orphans if (r.msg, r.pos) not in held]
            issues = [i for i in issues if not (i.code == "TC002" and (i.index, i.data.get("pos", 0)) in held)]
    return Pairing(links, blocks, missing, pending, orphans, issues, external, calls=calls)


def pair_turns(msgs: list[Msg], turns: Turns) -> Pairing:
    """``pair`` in ``"next"`` mode over the turns a target that combines consecutive messages of
    one role sees (``turns.Turns``): the calls of a whole assistant turn are one block, answered
    by the results of the whole user turn after it. Issues, links and blocks keep our message
    indexes (a block's ``index`` is the message of its first call, ``ends`` the last message of
    the turn that answers it)."""
    if not turns.merged:
        return pair(msgs, "next")
    tmsgs: list[Msg] = []
    for t, start in enumerate(turns.starts):
        r = turns.members(t)
        if len(r) == 1:
            m = msgs[start]
            tmsgs.append(Msg(t, m.role, m.calls, m.results, m.raw, m.has_other))
            continue
        group = [msgs[i] for i in r]
        tmsgs.append(Msg(t, group[0].role, [c for m in group for c in m.calls],
                         [x for m in group for x in m.results], group[0].raw, any(m.has_other for m in group)))
    p = pair(tmsgs, "next")
    first_call = {b.index: b.calls[0].msg for b in p.blocks}  # turn -> our message of its first call
    for iss in p.issues:
        if iss.code in ("TC014", "TC015", "TC017") and iss.other is not None:
            iss.other = first_call.get(iss.other, iss.other)
    with_results = {m.index for m in msgs if m.results}
    for b in p.blocks:
        b.index = b.calls[0].msg
        b.result_msgs = [i for t in dict.fromkeys(b.result_msgs) for i in turns.members(t) if i in with_results]
        # The block ends with its last result message (a placeholder goes right after it), or
        # with the call turn when nothing answers it.
        b.ends = b.result_msgs[-1] if b.result_msgs else turns.members(b.ends)[-1]
    p.turns = turns
    return p


class _CallIndex:
    """Every call by id, built on first use: only results outside their block need it."""

    __slots__ = ("index", "msgs")

    def __init__(self, msgs: list[Msg]):
        self.msgs = msgs
        self.index: dict[str, list[Call]] | None = None

    def get(self, cid: str) -> list[Call] | None:
        if self.index is None:
            index: dict[str, list[Call]] = {}
            for m in self.msgs:
                for c in m.calls:
                    if c.id is not None:
                        index.setdefault(c.id, []).append(c)
            self.index = index
        return self.index.get(cid)


def _match_block(m: Msg, block: Block, answered: dict[Call, Result], links: list[Link], by_id: _CallIndex,
                 orphans: list[Result], note: Note) -> None:
    for r in m.results:
        if r.id is None:
            c = _match_idless(r, block, answered)
            if c is not None:
                answered[c] = r
                links.append(Link(c, r, OK))
                if c.pos < block.last_pos:
                    block.disordered = True
                block.last_pos = c.pos
                if r.name is not None and c.name is not None and r.name != c.name:
                    note(Issue("TC013", r.msg, c.id, c.msg, name=c.name, result_name=r.name))
                continue
            if r.legacy:
                note(Issue("TC017", r.msg, None, block.index, name=r.name))
                orphans.append(r)
                continue
            _lookup(r, by_id, answered, links, orphans, note)
            continue
        seen = None
        rid = r.id
        for c in block.calls:
            if c.id == rid:
                if c not in answered:
                    answered[c] = r
                    links.append(Link(c, r, OK))
                    if c.pos < block.last_pos:
                        block.disordered = True
                    block.last_pos = c.pos
                    if r.name is not None and c.name is not None and r.name != c.name:
                        note(Issue("TC013", r.msg, c.id, c.msg, name=c.name, result_name=r.name))
                    break
                seen = c
        else:
            if seen is not None:
                first = answered[seen]
                links.append(Link(seen, r, DUPLICATE))
                note(Issue("TC005", r.msg, r.id, first.msg, name=seen.name, first=first.msg, pos=r.pos))
            else:
                _lookup(r, by_id, answered, links, orphans, note)


def _match_idless(r: Result, block: Block, answered: dict[Call, Result]) -> Call | None:
    """Id-less pairing: by position within the block, preferring a call of the same name."""
    free = [c for c in block.calls if c not in answered and (c.id is None or not r.legacy)]
    if r.legacy:
        free = [c for c in free if c.id is None]
        same = [c for c in free if c.name == r.name]
        if r.name is None or not same:
            return None  # TC017: no unanswered function_call of that name
        return same[0]
    if not free:
        return None
    same = [c for c in free if c.name == r.name]
    return same[0] if same else free[0]


def _answer_split(r: Result, block: Block, answered: dict[Call, Result], links: list[Link]) -> bool:
    if r.id is None and not r.legacy:  # id-less (Gemini): by name and position, as inside the block
        c = _match_idless(r, block, answered)
        if c is not None and (c.id is None or c.name == r.name):
            answered[c] = r
            links.append(Link(c, r, OK))
            return True
        return False
    for c in block.calls:
        if c.id == r.id and r.id is not None and c not in answered:
            answered[c] = r
            links.append(Link(c, r, OK))
            return True
    return False


def _after_reference(msgs: list[Msg], k: int) -> bool:
    """True when item ``k`` is in the run of call, output and transparent items right after an item_reference."""
    k -= 1
    while k >= 0:
        m = msgs[k]
        if m.role == REFERENCE:
            return True
        if not (m.results or m.calls or m.role in TRANSPARENT):
            return False
        k -= 1
    return False


def _lookup(r: Result, by_id: _CallIndex, answered: dict[Call, Result], links: list[Link], orphans: list[Result],
            note: Note) -> None:
    """A result outside its call's block: displaced (TC003), early (TC004), duplicate or orphan."""
    if r.legacy:
        note(Issue("TC017", r.msg, None, None, name=r.name))
        orphans.append(r)
        return
    cands = by_id.get(r.id) if r.id is not None else None
    if not cands:
        orphans.append(r)
        note(Issue("TC002", r.msg, r.id, None, name=r.name, pos=r.pos))
        return
    earlier = [c for c in cands if c.msg < r.msg]
    if earlier:
        free = [c for c in earlier if c not in answered]
        if free:
            c = free[-1]
            answered[c] = r
            links.append(Link(c, r, DISPLACED))
            note(Issue("TC003", r.msg, r.id, c.msg, name=c.name, pos=r.pos))
        else:
            c = earlier[-1]
            first = answered[c]
            links.append(Link(c, r, DUPLICATE))
            note(Issue("TC005", r.msg, r.id, first.msg, name=c.name, first=first.msg, pos=r.pos))
        return
    c = cands[0]
    if c not in answered:
        answered[c] = r
        links.append(Link(c, r, EARLY))
    else:
        links.append(Link(c, r, DUPLICATE))
    note(Issue("TC004", r.msg, r.id, c.msg, name=c.name, pos=r.pos))


def _order(b: Block, answered: dict[Call, Result], note: Note) -> None:
    if any(c not in answered for c in b.calls):
        return
    res = [answered[c] for c in b.calls]
    keys = [(r.msg, r.pos) for r in res]
    if keys == sorted(keys):
        return
    # The first result (in transcript order) that answers a later call than the one after it.
    order = sorted(range(len(res)), key=lambda k: keys[k])
    for a, bpos in itertools.pairwise(order):
        if a > bpos:
            first = res[a]
            note(Issue("TC014", first.msg, first.id, b.index))
            return
