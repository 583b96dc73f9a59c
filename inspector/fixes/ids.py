"""Deterministic tool call ids that fit a target's format.

A new id is a hash of a seed (the old id, or where a missing id was), written in base 62 and
cut to the target's shape: 9 alphanumerics for Mistral, ``call_`` and 24 alphanumerics for the
others (well under OpenAI's 40 and the Responses API's 64, and inside Anthropic's charset).
The same seed always gives the same id, so repair stays deterministic and idempotent; a seed
that would collide with an id already in use is salted until it does not.
"""

from __future__ import annotations

import hashlib

from ..rules.sequence import id_format_ok

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _base62(data: bytes, n: int) -> str:
    x = int.from_bytes(data, "big")
    out = []
    for _ in range(n):
        x, r = divmod(x, 62)
        out.append(ALPHABET[r])
    return "".join(out)


def _shape(seed: str, target: str) -> str:
    digest = hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest()
    if target == "mistral":
        return _base62(digest, 9)
    return "call_" + _base62(digest, 24)


def fits(cid: str, target: str) -> bool:
    """True when ``cid`` already fits the target's id format."""
    return id_format_ok(cid, target)


def make_id(seed: str, target: str, taken: set[str]) -> str:
    """A new id for ``seed`` that fits ``target`` and is not in ``taken`` (which it joins)."""
    salt = 0
    while True:
        cid = _shape(seed if not salt else f"{seed}\x00{salt}", target)
        if cid not in taken:
            taken.add(cid)
            return cid
        salt += 1
