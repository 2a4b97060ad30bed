"""The exact search's tree: fail-soft alpha-beta on an explicit stack, compiled, one call per probe.

``search_from`` values a position for its player to move within a window (alpha, beta), with the
table's bounds (``table.py``), the static bounds (``bounds.py``) and the moves in order
(``moves.py``). The stack is explicit (Numba's cache cannot hold a recursive function): per ply a
position, its canonical quilts, its circle set, its move lists and a frame of fields (``F_*``), all
in the arrays of one ``Stack``; arrays are indexed in place (a row view costs an atomic reference
count), and a child's table entry is prefetched as soon as its key is known (``numba_prefetch``,
the one module on Numba's internals, with a plain fallback).

Searches release the GIL, so threads search side by side, each on its own ``Stack``, sharing the
table and one control array (``shared``): the stop flag (raised at the deadline or by a caller),
the node budget, and per thread its node counter followed by the counts of ``SEARCH_STATS``, what
the tree did (``SearchStats`` adds them up). A search stopped returns at once; the caller checks
the flag.

The helpers a node calls (``_enter``, ``_close``, ``gen_moves``, the bounds, the table's ``probe`` and
``store``) are compiled once each and called, not inlined by Numba: inlined, ``search_from``
compiled each of them again inside itself (``score_bounds`` twice, ``fits_any`` four times,
``gen_moves`` once more beside its own compile for the root's moves), which doubled the search's
first-use compile (issue 44). The tree is the same node for node (``tests/test_exact_nodes.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.search.exactcore.bounds import (
    INF,
    NO_VALUE,
    circle_set,
    final_value,
    last_move_value,
    value_bounds,
)
from patchwork_opt.ai.search.exactcore.moves import (
    ADVANCE_K,
    FKEY,
    FSCORE,
    LEATHER_K,
    MAXM,
    MCHI,
    MCLO,
    MHI,
    MI_ROWS,
    MK,
    MLO,
    MRANK,
    gen_moves,
    new_scratch,
    order_key,
)
from patchwork_opt.ai.search.exactcore.symmetry import canonical
from patchwork_opt.ai.search.exactcore.table import bucket_of, position_key, probe, store
from patchwork_opt.ai.search.fastcore import (
    CIRCLE,
    QLO,
    SLEN,
    advance,
    buy,
    is_terminal,
    place_leather,
    to_move,
)
from patchwork_opt.ai.search.numba_prefetch import prefetch_row

_CACHE = True

MAXPLY = 128  # plies from a root: each move but a leather one moves a token; 5 leather patches
# the shared control array: stop flag, node limit, then per thread (two cache lines apart) its node
# counter and after it the counts of ``SEARCH_STATS`` (what the tree did: ``SearchStats``)
STOP, LIMIT, COUNTER0, COUNTER_STRIDE, MAX_THREADS = 0, 1, 8, 16, 8
SHARED_LEN = COUNTER0 + COUNTER_STRIDE * MAX_THREADS
#: The statistics a search keeps beside its node count, in their offsets after the thread's counter.
SEARCH_STATS: tuple[str, ...] = ("table_found", "table_settled", "bounds_settled", "expanded", "cutoffs",
                                 "first_move_cutoffs", "moves_tried", "moves_listed", "last_move_leaves")
(ST_TABLE_FOUND, ST_TABLE_SETTLED, ST_BOUNDS_SETTLED, ST_EXPANDED, ST_CUTOFFS, ST_FIRST_CUTOFFS, ST_MOVES_TRIED,
 ST_MOVES_LISTED, ST_LAST_MOVE) = range(1, len(SEARCH_STATS) + 1)


@nb.njit(cache=_CACHE, inline="always")
def _count(shared: np.ndarray, slot: int) -> bool:
    """Count a node; False once the search must stop (stop flag, or the node budget spent)."""
    c = shared[slot] + 1
    shared[slot] = c
    if (c & 1023) == 0:
        total = 0
        for t in range(MAX_THREADS):
            total += shared[COUNTER0 + COUNTER_STRIDE * t]
        if total >= shared[LIMIT]:
            shared[STOP] = 1
    return shared[STOP] == 0



# frame fields of one ply of the explicit stack (Numba's cache cannot hold a recursive function)
F_ALPHA, F_BETA, F_ALPHA0, F_BETA0, F_LOWER, F_UPPER, F_BEST, F_BEST_I = 0, 1, 2, 3, 4, 5, 6, 7
F_N, F_BUCKET, F_STARTED, F_SIGN, F_P, F_MOVE, F_TRIED, F_K0 = 8, 9, 10, 11, 12, 13, 14, 15
FRAME = F_K0 + 6
_NOTHING = -(1 << 40)  # no child value to fold in
_TRIED = -1e300  # the ordering key of a move already searched


@nb.njit(cache=_CACHE)
def _prepare(ply: int, s: np.ndarray, CQ: np.ndarray, REM: np.ndarray, FR: np.ndarray, tt: np.ndarray) -> None:
    """The table key and bucket of position ``s`` at ``ply`` into its frame, and the bucket's
    entries on their way into the cache (``numba_prefetch``)."""
    k0, k1, k2, k3, k4, k5 = position_key(s, CQ, ply, REM[ply])
    b = bucket_of(k0, k1, k2, k3, k4, k5, tt.shape[0])
    prefetch_row(tt, b)
    FR[ply, F_BUCKET] = b
    FR[ply, F_K0], FR[ply, F_K0 + 1], FR[ply, F_K0 + 2] = k0, k1, k2
    FR[ply, F_K0 + 3], FR[ply, F_K0 + 4], FR[ply, F_K0 + 5] = k3, k4, k5


@nb.njit(cache=_CACHE)
def _enter(ply: int, s: np.ndarray, CQ: np.ndarray, REM: np.ndarray, MI: np.ndarray, MF: np.ndarray,
           FR: np.ndarray, scratch: np.ndarray, tt: np.ndarray, salt: int, shared: np.ndarray,
           slot: int) -> tuple[bool, int]:
    """Open the node at ``ply`` (position ``s``, window in its frame): (True, value) when the table
    or the static bounds settle it, else (False, 0) with its moves listed and ordered."""
    p = to_move(s)
    rem = REM[ply]
    b = FR[ply, F_BUCKET]
    k0, k1, k2 = FR[ply, F_K0], FR[ply, F_K0 + 1], FR[ply, F_K0 + 2]
    k3, k4, k5 = FR[ply, F_K0 + 3], FR[ply, F_K0 + 4], FR[ply, F_K0 + 5]
    found, lower, upper, hint = probe(tt, b, k0, k1, k2, k3, k4, k5, salt)
    alpha, beta = FR[ply, F_ALPHA], FR[ply, F_BETA]
    if found:
        shared[slot + ST_TABLE_FOUND] += 1
        if lower >= beta:
            shared[slot + ST_TABLE_SETTLED] += 1
            return True, lower
        if upper <= alpha or lower == upper:
            shared[slot + ST_TABLE_SETTLED] += 1
            return True, upper
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
    vlo, vhi = value_bounds(s, p, rem)
    if vhi <= alpha:
        shared[slot + ST_BOUNDS_SETTLED] += 1
        return True, vhi
    if vlo >= beta:
        shared[slot + ST_BOUNDS_SETTLED] += 1
        return True, vlo
    FR[ply, F_ALPHA], FR[ply, F_BETA], FR[ply, F_ALPHA0], FR[ply, F_BETA0] = alpha, beta, alpha, beta
    FR[ply, F_LOWER], FR[ply, F_UPPER], FR[ply, F_BEST], FR[ply, F_BEST_I] = lower, upper, -INF, 0
    FR[ply, F_P], FR[ply, F_MOVE], FR[ply, F_TRIED] = p, 0, 0
    n = gen_moves(s, MI, MF, ply, scratch)
    shared[slot + ST_EXPANDED] += 1
    shared[slot + ST_MOVES_LISTED] += n
    for i in range(n):
        MF[ply, FKEY, i] = order_key(s, p, MI[ply, MK, i], MI[ply, MRANK, i], MF[ply, FSCORE, i])
    if 0 <= hint < n:
        MF[ply, FKEY, hint] = 1e18
    FR[ply, F_N] = n
    return False, 0


@nb.njit(cache=_CACHE)
def _close(FR: np.ndarray, ply: int, tt: np.ndarray, gen: int, salt: int, done: int) -> int:
    """Store the node's result in the table (bounds merged with what the table knew); its value."""
    best = FR[ply, F_BEST]
    if best <= FR[ply, F_ALPHA0]:
        lower, upper = FR[ply, F_LOWER], best
    elif best >= FR[ply, F_BETA0]:
        lower, upper = best, FR[ply, F_UPPER]
    else:
        lower, upper = best, best
    work = 0
    while done > 1 and work < 63:
        done >>= 1
        work += 1
    store(tt, FR[ply, F_BUCKET], FR[ply, F_K0], FR[ply, F_K0 + 1], FR[ply, F_K0 + 2], FR[ply, F_K0 + 3],
           FR[ply, F_K0 + 4], FR[ply, F_K0 + 5], lower, upper, FR[ply, F_BEST_I], work, gen, salt)
    return best


@nb.njit(cache=_CACHE, nogil=True)
def search_from(s0: np.ndarray, alpha: int, beta: int, S: np.ndarray, CQ: np.ndarray, REM: np.ndarray,
                MI: np.ndarray, MF: np.ndarray, FR: np.ndarray, s: np.ndarray, scratch: np.ndarray,
                tt: np.ndarray, gen: int, salt: int, shared: np.ndarray, slot: int) -> int:
    """The value of running position ``s0`` for its player to move: fail-soft alpha-beta with the
    table's bounds, on an explicit stack of plies (``s`` is the working position). Returns 0 at
    once when the search must stop (``shared[STOP]`` raised, or the node budget spent: the caller
    checks the flag).

    Kept whole on purpose: it is one loop that walks down and back up its own stack instead of
    recursing (no call per node, and a stop honoured at any depth), so opening a node, trying its
    next move and returning to the parent share that loop's state; the work at a node is in
    ``_prepare`` and ``gen_moves``."""
    for i in range(SLEN):
        S[0, i] = s0[i]
        s[i] = s0[i]
    CQ[0, 0], CQ[0, 1] = canonical(s0[QLO], s0[QLO + 1])
    CQ[0, 2], CQ[0, 3] = canonical(s0[QLO + 2], s0[QLO + 3])
    REM[0] = circle_set(s0)
    FR[0, F_ALPHA], FR[0, F_BETA] = alpha, beta
    _prepare(0, s, CQ, REM, FR, tt)
    ply = 0
    entering = True  # ``s`` holds S[ply], to be opened
    ret = _NOTHING
    while True:
        if entering:
            entering = False
            if not _count(shared, slot):
                return 0
            FR[ply, F_STARTED] = shared[slot]
            settled, v = _enter(ply, s, CQ, REM, MI, MF, FR, scratch, tt, salt, shared, slot)
            if settled:
                if ply == 0:
                    return v
                ply -= 1
                ret = v * FR[ply, F_SIGN]
            else:
                ret = _NOTHING
        n = FR[ply, F_N]
        if ret != _NOTHING:  # fold the value of the move just searched (from this node's side)
            if ret > FR[ply, F_BEST]:
                FR[ply, F_BEST], FR[ply, F_BEST_I] = ret, FR[ply, F_MOVE]
                if ret > FR[ply, F_ALPHA]:
                    FR[ply, F_ALPHA] = ret
            if FR[ply, F_ALPHA] >= FR[ply, F_BETA]:
                n = 0  # a cutoff: no further move
                shared[slot + ST_CUTOFFS] += 1
                if FR[ply, F_TRIED] == 1:
                    shared[slot + ST_FIRST_CUTOFFS] += 1
        j = -1
        top = _TRIED
        for i in range(n):
            if MF[ply, FKEY, i] > top:
                top, j = MF[ply, FKEY, i], i
        if j < 0:  # every move searched, or a cutoff: store and return to the parent
            v = _close(FR, ply, tt, gen, salt, shared[slot] - FR[ply, F_STARTED])
            if ply == 0:
                return v
            ply -= 1
            ret = v * FR[ply, F_SIGN]
            continue
        MF[ply, FKEY, j] = _TRIED
        FR[ply, F_MOVE] = j
        FR[ply, F_TRIED] += 1
        shared[slot + ST_MOVES_TRIED] += 1
        p = FR[ply, F_P]
        for i in range(SLEN):
            s[i] = S[ply, i]
        CQ[ply + 1, 0], CQ[ply + 1, 1] = CQ[ply, 0], CQ[ply, 1]
        CQ[ply + 1, 2], CQ[ply + 1, 3] = CQ[ply, 2], CQ[ply, 3]
        REM[ply + 1] = REM[ply]
        k = MI[ply, MK, j]
        if k == ADVANCE_K:
            advance(s, p)
        else:
            if k == LEATHER_K:
                place_leather(s, p, MI[ply, MLO, j], MI[ply, MHI, j])
            else:
                REM[ply + 1] = REM[ply] & ~(1 << s[CIRCLE + k])
                buy(s, p, k, MI[ply, MLO, j], MI[ply, MHI, j])
            if MI[ply, MCLO, j] >= 0:
                CQ[ply + 1, 2 * p], CQ[ply + 1, 2 * p + 1] = MI[ply, MCLO, j], MI[ply, MCHI, j]
            else:
                CQ[ply + 1, 2 * p], CQ[ply + 1, 2 * p + 1] = canonical(s[QLO + 2 * p], s[QLO + 2 * p + 1])
        if is_terminal(s):
            ret = final_value(s, p)
            continue
        _prepare(ply + 1, s, CQ, REM, FR, tt)
        v = last_move_value(s, scratch)
        if v != NO_VALUE:
            if not _count(shared, slot):
                return 0
            shared[slot + ST_LAST_MOVE] += 1
            ret = v if to_move(s) == p else -v
            continue
        for i in range(SLEN):
            S[ply + 1, i] = s[i]
        if to_move(s) == p:
            FR[ply, F_SIGN] = 1
            FR[ply + 1, F_ALPHA], FR[ply + 1, F_BETA] = FR[ply, F_ALPHA], FR[ply, F_BETA]
        else:
            FR[ply, F_SIGN] = -1
            FR[ply + 1, F_ALPHA], FR[ply + 1, F_BETA] = -FR[ply, F_BETA], -FR[ply, F_ALPHA]
        ply += 1
        entering = True


# --- Python side ------------------------------------------------------------------------------------
class Stack:
    """One thread's search stack (the arrays ``search_from`` works in): positions, canonical quilts,
    circle sets, move lists and frames per ply; ``slot`` is where the counters of the thread
    (``thread``: 0, 1, ...) sit in ``shared``."""

    def __init__(self, thread: int) -> None:
        self.slot = COUNTER0 + COUNTER_STRIDE * thread
        self.S = np.zeros((MAXPLY + 1, SLEN), dtype=np.int64)
        self.CQ = np.zeros((MAXPLY + 1, 4), dtype=np.int64)
        self.REM = np.zeros(MAXPLY + 1, dtype=np.int64)
        self.MI = np.zeros((MAXPLY, MI_ROWS, MAXM), dtype=np.int64)
        self.MF = np.zeros((MAXPLY, 2, MAXM), dtype=np.float64)
        self.FR = np.zeros((MAXPLY + 1, FRAME), dtype=np.int64)
        self.s = np.zeros(SLEN, dtype=np.int64)
        self.scratch = new_scratch()


@dataclass
class SearchStats:
    """What a ``solve`` did in its tree (pass one to ``solve`` to have it filled): the figures that tell
    why a search is as big as it is (issue 35). Counts over every thread and every probe of the solve.

    ``nodes``: positions visited (the node budget's count); ``table_found``: visits whose position the
    table held; ``table_settled``: visits the table's bounds decided without a move; ``bounds_settled``:
    visits the static score bounds decided; ``expanded``: visits whose moves were listed and searched;
    ``cutoffs``: expanded nodes left early because a move reached the window's top, ``first_move_cutoffs``
    those where the first move tried did (how good the ordering is); ``moves_tried`` and ``moves_listed``:
    moves searched and moves listed at expanded nodes; ``last_move_leaves``: positions valued on the spot
    as a last move. ``outcomes_seconds``: with ``every_move``, the seconds until every root move's win or
    loss was proven (the first round; None when the search stopped before)."""

    nodes: int = 0
    table_found: int = 0
    table_settled: int = 0
    bounds_settled: int = 0
    expanded: int = 0
    cutoffs: int = 0
    first_move_cutoffs: int = 0
    moves_tried: int = 0
    moves_listed: int = 0
    last_move_leaves: int = 0
    outcomes_seconds: float | None = None

    def add(self, shared: np.ndarray) -> None:
        """Add the counts a search left in its shared control array."""
        for t in range(MAX_THREADS):
            slot = COUNTER0 + COUNTER_STRIDE * t
            self.nodes += int(shared[slot])
            for offset, name in enumerate(SEARCH_STATS, start=1):
                setattr(self, name, getattr(self, name) + int(shared[slot + offset]))

    def as_dict(self) -> dict[str, float]:
        """The counts and the shares derived from them: table hit rate (visits the table held), first-move
        cutoff share, moves tried per expanded node, and the share of visits settled without a move."""
        out: dict[str, float] = {name: getattr(self, name) for name in ("nodes", *SEARCH_STATS)}
        out["table_hit_rate"] = self.table_found / self.nodes if self.nodes else 0.0
        out["first_move_cutoff_share"] = self.first_move_cutoffs / self.cutoffs if self.cutoffs else 0.0
        out["moves_tried_per_expanded"] = self.moves_tried / self.expanded if self.expanded else 0.0
        out["moves_listed_per_expanded"] = self.moves_listed / self.expanded if self.expanded else 0.0
        out["settled_share"] = (self.table_settled + self.bounds_settled) / self.nodes if self.nodes else 0.0
        return out
