"""The exact search's transposition table: a power of two of 64-byte entries, shared by threads.

``ExactTable`` sizes it by memory; entries sit in two-way buckets (one slot keeps the entry with the
most work below it, or from this search; the other is always replaced). An entry holds a lower and
an upper bound on the position's value, so the null-window probes of one root move share it, and
the index of the best move found there (tried first on the next visit).

The key (``key``) is the whole position with both quilts in canonical form (``symmetry.py``: quilts
equal up to the 8 rotations/reflections play the same from here) and the circle as the set of
patches left and the first one: the cyclic order never changes within a game, so the table
remembers it and starts afresh for another game (``ExactTable.adopt``). Entries are written without
locks and carry the XOR of their words (and the table's salt), so threads share one table and a
half-written entry never reads as valid; a new salt empties the table at once.
"""

from __future__ import annotations

import itertools
import math
import random

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.search.exactcore.bounds import INF
from patchwork_opt.ai.search.fastcore import BONUS, BUT, CIRCLE, CLEN, FIRST_END, INC, LAST, LEATHER, PENDING, POS
from patchwork_opt.core.errors import PatchworkError

_CACHE = True

_OFF = 1 << 15  # values are stored as 16-bit offsets
# entry words
ENTRY_WORDS = 8
ENTRY_BYTES = ENTRY_WORDS * 8
_VALID = 1 << 61
_M1 = 0x9E3779B97F4A7C15 - (1 << 64)
_M2 = 0xC2B2AE3D27D4EB4F - (1 << 64)
_M3 = 0x165667B19E3779F9
_M4 = 0x27D4EB2F165667C5


@nb.njit(cache=_CACHE, inline="always")
def position_key(s: np.ndarray, CQ: np.ndarray, ply: int, rem: int) -> tuple[int, int, int, int, int, int]:
    return _key_of(s, CQ[ply, 0], CQ[ply, 1], CQ[ply, 2], CQ[ply, 3], rem)


@nb.njit(cache=_CACHE, inline="always")
def _key_of(s: np.ndarray, c0: int, c1: int, c2: int, c3: int, rem: int) -> tuple[int, int, int, int, int, int]:
    """The table key of position ``s`` with canonical quilts (c0, c1) and (c2, c3) and circle set ``rem``."""
    first = s[CIRCLE] if s[CLEN] > 0 else 63
    # who moved last decides only between tokens on one space (every later move sets it anew)
    last = s[LAST] if s[POS] == s[POS + 1] else 0
    k2 = (c1 | (c3 << 18) | (s[POS] << 36) | (s[POS + 1] << 42) | ((s[PENDING] + 1) << 48)
          | (last << 50) | ((s[BONUS] + 1) << 51) | ((s[FIRST_END] + 1) << 53) | (first << 55) | _VALID)
    k3 = rem | (s[INC] << 33) | (s[INC + 1] << 41)
    k5 = s[BUT] | (s[BUT + 1] << 24)
    return c0, c2, k2, k3, s[LEATHER], k5


@nb.njit(cache=_CACHE, inline="always")
def bucket_of(k0: int, k1: int, k2: int, k3: int, k4: int, k5: int, entries: int) -> int:
    h = k0 * _M1 + k1 * _M2 + k2 * _M3 + k3 * _M4 + k4 * _M1 + k5 * _M2
    h ^= (h >> 29) & 0x7FFFFFFFF
    h *= _M3
    h ^= (h >> 32) & 0xFFFFFFFF
    return h & (entries - 1) & ~1


@nb.njit(cache=_CACHE, inline="always")
def _matches(tt: np.ndarray, j: int, k0: int, k1: int, k2: int, k3: int, k4: int, k5: int) -> bool:
    return (tt[j, 0] == k0 and tt[j, 1] == k1 and tt[j, 2] == k2 and tt[j, 3] == k3 and tt[j, 4] == k4
            and tt[j, 5] == k5)


@nb.njit(cache=_CACHE)
def probe(tt: np.ndarray, b: int, k0: int, k1: int, k2: int, k3: int, k4: int, k5: int,
           salt: int) -> tuple[bool, int, int, int]:
    """(found, lower, upper, hint) of the position's entry (an entry whose words do not XOR to its
    check word was being written by another thread: not found)."""
    for j in (b, b + 1):
        w0, w1, w2, w3, w4, w5, w6, w7 = tt[j, 0], tt[j, 1], tt[j, 2], tt[j, 3], tt[j, 4], tt[j, 5], tt[j, 6], tt[j, 7]
        if (w0 == k0 and w1 == k1 and w2 == k2 and w3 == k3 and w4 == k4 and w5 == k5
                and (w0 ^ w1 ^ w2 ^ w3 ^ w4 ^ w5 ^ w6 ^ salt) == w7):
            return True, (w6 & 0xFFFF) - _OFF, ((w6 >> 16) & 0xFFFF) - _OFF, (w6 >> 32) & 0xFFF
    return False, -INF, INF, -1


@nb.njit(cache=_CACHE)
def store(tt: np.ndarray, b: int, k0: int, k1: int, k2: int, k3: int, k4: int, k5: int,
           lower: int, upper: int, hint: int, work: int, gen: int, salt: int) -> None:
    """Write an entry: over the same position's, else into the bucket's work-preferred slot when
    this search did more below it (or the slot's entry is from an older search; the old entry
    then moves to the other slot), else into the other, always-replaced slot."""
    data = (lower + _OFF) | ((upper + _OFF) << 16) | (hint << 32) | (work << 44) | (gen << 50)
    if _matches(tt, b, k0, k1, k2, k3, k4, k5):
        j = b
    elif _matches(tt, b + 1, k0, k1, k2, k3, k4, k5):
        j = b + 1
    else:
        old = tt[b, 6]
        if ((old >> 50) & 255) != gen or ((old >> 44) & 63) <= work:
            j = b
            if tt[b, 2] != 0:
                for w in range(ENTRY_WORDS):
                    tt[b + 1, w] = tt[b, w]
        else:
            j = b + 1
    tt[j, 7] = 0
    tt[j, 0], tt[j, 1], tt[j, 2], tt[j, 3], tt[j, 4], tt[j, 5], tt[j, 6] = k0, k1, k2, k3, k4, k5, data
    tt[j, 7] = k0 ^ k1 ^ k2 ^ k3 ^ k4 ^ k5 ^ data ^ salt


# --- Python side ------------------------------------------------------------------------------------
class ExactTable:
    """The transposition table: ``megabytes`` of memory as a power of two of 64-byte entries.

    Keep one for a whole game to reuse what earlier moves' searches found; a position from another
    game (another circle order) starts it afresh. The threads of one ``solve`` share it; two
    ``solve`` calls at once need a table each."""

    def __init__(self, megabytes: float = 128.0) -> None:
        if not megabytes > 0:
            raise PatchworkError(f"the exact search's table needs a positive size, got {megabytes} MB")
        entries = 1 << max(4, int(math.log2(megabytes * (1 << 20) / ENTRY_BYTES)))
        self.entries = entries
        # zero pages the system maps as they are first written: a short search pays only for the pages
        # it touches (touching all 128 MB up front took 0.23 s, more than a hint's probe of the search)
        self.tt = np.zeros((entries, ENTRY_WORDS), dtype=np.int64)
        self.generation = 0
        self.salt = 0  # XORed into every entry's check word: a new salt empties the table at once
        self._order: dict[int, int] = {}  # patch id -> place in the circle's cyclic order
        self._rng = random.Random()

    @property
    def megabytes(self) -> float:
        return self.entries * ENTRY_BYTES / (1 << 20)

    def clear(self) -> None:
        """Forget every entry (without touching the memory: no entry checks under a new salt)."""
        self.salt = self._rng.getrandbits(63)
        self.generation = 0

    def adopt(self, circle: list[int]) -> None:
        """Make the table ready for a search from a position with this circle: a new search
        generation, and an empty table when the circle's cyclic order is not the table's."""
        places = [self._order.get(pid, -1) for pid in circle]
        wraps = sum(1 for a, b in itertools.pairwise(places) if b < a)
        same_game = bool(places) and -1 not in places and (
            wraps == 0 or (wraps == 1 and places[-1] < places[0]))
        if not same_game:
            self.clear()
            self._order = {pid: i for i, pid in enumerate(circle)}
        self.generation = (self.generation + 1) % 256
