"""Depth-first proof-number search (df-pn) of the win/loss question alone, compiled with Numba.

The exact search (``exactcore``) values the rest of the game; many callers only ask whether the
player to move wins (issue 35: "proof-number search for the win/loss question alone"). A win is a
value > 0 in ``exactcore``'s terms (``2 * margin``, or +1/-1 for a tie settled by the tie-break), so
there is no draw: every position is won or lost for its mover. Proof-number search grows the tree
where a proof (or a disproof) looks cheapest, which an alpha-beta search at the null window 0 can
only approximate through its move ordering.

How it is built:

* **Nagai's df-pn on an explicit stack** (Numba's cache cannot hold a recursive function, as in
  ``exactcore``). Numbers are kept from the point of view of the player to move at each node, so
  every node is an OR node for its own mover: ``phi`` (proof number: "the mover wins") is the least
  of the children's, ``delta`` (disproof) their sum. Patchwork's player behind moves, so a player
  may move twice in a row: a child whose mover is the same player contributes its ``(phi, delta)``
  as it is, a child of the other player swapped (``(delta, phi)``); this follows ``to_move``, never
  alternation.
* **The 1+epsilon trick** (Pawlewicz & Lew): the best child's proof threshold is
  ``max(second + 1, second * (1 + epsilon))`` instead of ``second + 1``, so the search stays longer in
  one subtree instead of thrashing between two children of nearly equal proof numbers.
* **A transposition table of proof and disproof numbers** keyed as ``exactcore``'s table (both
  quilts in canonical form, the circle as the set of patches left and its first one, positions,
  buttons, income, the leather track, pending leather, bonus, who finished first, who moved last
  when the tokens share a space). Two-way buckets; the entry with less work below it is replaced.
  The game has no cycles (every move but a leather one moves a token forward; a leather move fills a
  cell), so df-pn's graph-history problem does not arise; transpositions only make proof numbers
  over-count, which costs nodes, never correctness.
* **Leaves settled without search**, as ``exactcore`` settles them: a finished game by
  ``final_value``, a last move by ``last_move_value``, and a node whose static bounds
  (``value_bounds``) say the mover's value is > 0 (proven) or <= 0 (disproven). Each child is
  valued this way when its parent is expanded, in the move ordering's order (``order_key``), so a
  node with a settled winning child is proven at once, most often at its first child. Unsettled
  children start at (1, 1).
* **A node budget**: the search stops cleanly once it has looked at ``node_limit`` positions and
  answers ``None``. A node is one non-terminal position generated and looked at (key, table, bounds):
  df-pn comes back to a node whenever its thresholds grow, and each such expansion lists and counts
  its children again (``ProofSearch.expanded``/``again`` tell how often).

``prove`` answers for a position, ``prove_moves`` for each of its root moves (``exactcore``'s root
moves) with one table shared across them; ``ProofSearch`` keeps the table and counters for callers
that ask many questions (the bench, ``bench/proofnumber.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.search.exactcore import (
    _NO_VALUE,
    FKEY,
    FSCORE,
    LEATHER_K,
    MAXM,
    MAXPLY,
    MCHI,
    MCLO,
    MHI,
    MI_ROWS,
    MK,
    MLO,
    MRANK,
    _bucket,
    _key_of,
    _root_moves,
    canonical,
    circle_set,
    final_value,
    gen_moves,
    last_move_value,
    new_scratch,
    order_key,
    play,
    value_bounds,
)
from patchwork_opt.ai.search.fastcore import (
    CIRCLE,
    QLO,
    SLEN,
    encode,
    is_terminal,
    to_move,
)
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State

_CACHE = True

#: Proof and disproof numbers live in 31 bits of a table word each: INF is "proven" / "disproven".
INF = (1 << 30) - 1
#: The 1+epsilon trick's epsilon (``ProofSearch``'s default).
EPSILON = 0.25
_NUM = (1 << 31) - 1
ENTRY_WORDS = 8  # six key words, proof|disproof, work
ENTRY_BYTES = ENTRY_WORDS * 8

# control words: nodes looked at, the budget, stop flag, nodes entered (MID calls), expansions
C_NODES, C_LIMIT, C_STOP, C_VISITS, C_EXPANDED, C_AGAIN = 0, 1, 2, 3, 4, 5
C_LEN = 8

# frame fields of one ply of the explicit stack
F_TPN, F_TDN, F_N, F_CHILD, F_P, F_START, F_BUCKET = 0, 1, 2, 3, 4, 5, 6
FRAME = 8


# --- the table ------------------------------------------------------------------------------------
@nb.njit(cache=_CACHE, inline="always")
def _probe(tt: np.ndarray, b: int, K: np.ndarray, row: int) -> tuple[bool, int, int]:
    """(found, proof, disproof) of the key ``K[row]`` in bucket ``b``."""
    for j in (b, b + 1):
        if (tt[j, 2] == K[row, 2] and tt[j, 0] == K[row, 0] and tt[j, 1] == K[row, 1] and tt[j, 3] == K[row, 3]
                and tt[j, 4] == K[row, 4] and tt[j, 5] == K[row, 5]):
            w = tt[j, 6]
            return True, w & _NUM, (w >> 31) & _NUM
    return False, 1, 1


@nb.njit(cache=_CACHE, inline="always")
def _store(tt: np.ndarray, b: int, K: np.ndarray, row: int, pn: int, dn: int, work: int) -> None:
    """Write the numbers of key ``K[row]``: over its own entry, else over the bucket's entry with less
    work below it (a settled entry counts as the most work: proofs are what the search is for)."""
    j = -1
    for i in (b, b + 1):
        if (tt[i, 2] == K[row, 2] and tt[i, 0] == K[row, 0] and tt[i, 1] == K[row, 1] and tt[i, 3] == K[row, 3]
                and tt[i, 4] == K[row, 4] and tt[i, 5] == K[row, 5]):
            j = i
            break
    if j < 0:
        j = b if tt[b, 7] <= tt[b + 1, 7] else b + 1
    if (pn == 0 or dn == 0) and work > 0:
        work = 1 << 50
    for w in range(6):
        tt[j, w] = K[row, w]
    tt[j, 6] = pn | (dn << 31)
    tt[j, 7] = work


# --- settling a position without search ----------------------------------------------------------------
@nb.njit(cache=_CACHE, inline="always")
def _settle(c: np.ndarray, rem: int, scratch: np.ndarray) -> tuple[int, int]:
    """The first proof and disproof numbers of "the mover of ``c`` (not finished) wins": (0, INF) when
    they surely win (a last move worth > 0, or a static lower bound > 0), (INF, 0) when they surely
    lose (a last move worth <= 0, or an upper bound <= 0), else (1, 1). (Leaning the numbers on the
    middle of the bounds, on the offers the mover can afford or on the move ordering's rank did not
    pay: issue 35's report.)"""
    v = last_move_value(c, scratch)
    if v != _NO_VALUE:
        return (0, INF) if v > 0 else (INF, 0)
    lo, hi = value_bounds(c, to_move(c), rem)
    if lo > 0:
        return 0, INF
    if hi <= 0:
        return INF, 0
    return 1, 1


@nb.njit(cache=_CACHE, inline="always")
def _sat(a: int, b: int) -> int:
    """a + b for disproof sums: INF stays INF, anything else stops just below it."""
    if a >= INF or b >= INF:
        return INF
    t = a + b
    return t if t < INF else INF - 1


# --- the search ------------------------------------------------------------------------------------------
@nb.njit(cache=_CACHE, nogil=True)
def dfpn(s0: np.ndarray, S: np.ndarray, NK: np.ndarray, MI: np.ndarray, MF: np.ndarray, CK: np.ndarray,
         CB: np.ndarray, CPN: np.ndarray, CDN: np.ndarray, CSAME: np.ndarray, FR: np.ndarray,
         scratch: np.ndarray, tt: np.ndarray, ctl: np.ndarray, epsilon: float) -> tuple[int, int]:
    """(proof, disproof) numbers of "the mover of ``s0`` wins" (``s0`` not finished): (0, INF) proven,
    (INF, 0) disproven. Returns early when the node budget ``ctl[C_LIMIT]`` is spent (``ctl[C_STOP]``
    raised: the caller checks it).

    Kept whole on purpose, as ``exactcore.search_from``: one loop that walks down and back up its own
    stack of plies. At each ply the node's children are valued once, when it is expanded (the table,
    a finished game, a last move, static bounds; unknown ones start at (1, 1)), into ``CPN``/``CDN``
    from the node's mover's side; a child searched updates its own pair when it returns."""
    entries = tt.shape[0]
    for i in range(SLEN):
        S[0, i] = s0[i]
    c0lo, c0hi = canonical(s0[QLO], s0[QLO + 1])
    c1lo, c1hi = canonical(s0[QLO + 2], s0[QLO + 3])
    k0, k1, k2, k3, k4, k5 = _key_of(s0, c0lo, c0hi, c1lo, c1hi, circle_set(s0))
    NK[0, 0], NK[0, 1], NK[0, 2], NK[0, 3], NK[0, 4], NK[0, 5] = k0, k1, k2, k3, k4, k5
    FR[0, F_BUCKET] = _bucket(k0, k1, k2, k3, k4, k5, entries)
    FR[0, F_TPN], FR[0, F_TDN] = INF, INF
    ctl[C_NODES] += 1
    pn, dn = _settle(s0, k3 & ((1 << 33) - 1), scratch)
    if pn == 0 or dn == 0:
        return pn, dn
    ply = 0
    entering = True
    ret_pn, ret_dn = -1, -1  # the numbers of the child just searched (from its own side)
    while True:
        if entering:
            entering = False
            ctl[C_VISITS] += 1
            found, pn, dn = _probe(tt, FR[ply, F_BUCKET], NK, ply)
            if found and (pn >= FR[ply, F_TPN] or dn >= FR[ply, F_TDN]):
                if ply == 0:
                    return pn, dn
                ply -= 1
                ret_pn, ret_dn = pn, dn
            else:
                ctl[C_EXPANDED] += 1
                if found:
                    ctl[C_AGAIN] += 1
                FR[ply, F_START] = ctl[C_NODES]
                p = to_move(S[ply])
                FR[ply, F_P] = p
                n = gen_moves(S[ply], MI, MF, ply, scratch)
                FR[ply, F_N] = n
                proven = False
                rem0 = NK[ply, 3] & ((1 << 33) - 1)
                q0lo, q1lo = NK[ply, 0], NK[ply, 1]
                q0hi, q1hi = NK[ply, 2] & ((1 << 18) - 1), (NK[ply, 2] >> 18) & ((1 << 18) - 1)
                for i in range(n):
                    MF[ply, FKEY, i] = order_key(S[ply], p, MI[ply, MK, i], MI[ply, MRANK, i], MF[ply, FSCORE, i])
                    CPN[ply, i], CDN[ply, i], CSAME[ply, i] = 1, 1, 1
                order = np.argsort(-MF[ply, FKEY, :n])
                for oi in range(n):
                    i = order[oi]
                    k = MI[ply, MK, i]
                    c = play(S[ply], k, MI[ply, MLO, i], MI[ply, MHI, i])
                    if is_terminal(c):
                        CSAME[ply, i] = 1
                        if final_value(c, p) > 0:
                            CPN[ply, i], CDN[ply, i] = 0, INF
                            proven = True
                            break
                        CPN[ply, i], CDN[ply, i] = INF, 0
                        continue
                    ctl[C_NODES] += 1
                    rem = rem0
                    a0lo, a0hi, a1lo, a1hi = q0lo, q0hi, q1lo, q1hi
                    if k >= 0 or k == LEATHER_K:
                        if k >= 0:
                            rem = rem0 & ~(1 << S[ply, CIRCLE + k])
                        if MI[ply, MCLO, i] >= 0:
                            clo, chi = MI[ply, MCLO, i], MI[ply, MCHI, i]
                        else:
                            clo, chi = canonical(c[QLO + 2 * p], c[QLO + 2 * p + 1])
                        if p == 0:
                            a0lo, a0hi = clo, chi
                        else:
                            a1lo, a1hi = clo, chi
                    k0, k1, k2, k3, k4, k5 = _key_of(c, a0lo, a0hi, a1lo, a1hi, rem)
                    CK[ply, i, 0], CK[ply, i, 1], CK[ply, i, 2] = k0, k1, k2
                    CK[ply, i, 3], CK[ply, i, 4], CK[ply, i, 5] = k3, k4, k5
                    b = _bucket(k0, k1, k2, k3, k4, k5, entries)
                    CB[ply, i] = b
                    same = to_move(c) == p
                    CSAME[ply, i] = 1 if same else 0
                    found, pn, dn = _probe(tt, b, CK[ply], i)
                    if not found:
                        pn, dn = _settle(c, rem, scratch)
                    if same:
                        CPN[ply, i], CDN[ply, i] = pn, dn
                    else:
                        CPN[ply, i], CDN[ply, i] = dn, pn
                    if CPN[ply, i] == 0:
                        proven = True
                        break
                    if ctl[C_NODES] >= ctl[C_LIMIT]:
                        ctl[C_STOP] = 1
                        return 0, 0
                if proven:
                    _store(tt, FR[ply, F_BUCKET], NK, ply, 0, INF, ctl[C_NODES] - FR[ply, F_START])
                    if ply == 0:
                        return 0, INF
                    ply -= 1
                    ret_pn, ret_dn = 0, INF
                else:
                    ret_pn = -1
        if ret_pn >= 0:  # fold in the child just searched (or just settled on entry)
            j = FR[ply, F_CHILD]
            if CSAME[ply, j] == 1:
                CPN[ply, j], CDN[ply, j] = ret_pn, ret_dn
            else:
                CPN[ply, j], CDN[ply, j] = ret_dn, ret_pn
            ret_pn = -1
        if ctl[C_STOP] != 0:
            return 0, 0
        # the node's numbers: the least proof number, the sum of disproof numbers
        n = FR[ply, F_N]
        phi, pn2, delta, best = INF + 1, INF + 1, 0, -1
        for i in range(n):
            pn = CPN[ply, i]
            delta = _sat(delta, CDN[ply, i])
            if pn < phi or (pn == phi and MF[ply, FKEY, i] > MF[ply, FKEY, best]):
                pn2, phi, best = phi, pn, i
            elif pn < pn2:
                pn2 = pn
        pn2 = min(pn2, INF)
        if phi >= FR[ply, F_TPN] or delta >= FR[ply, F_TDN]:
            _store(tt, FR[ply, F_BUCKET], NK, ply, phi, delta, ctl[C_NODES] - FR[ply, F_START])
            if ply == 0:
                return phi, delta
            ply -= 1
            ret_pn, ret_dn = phi, delta
            continue
        # the best child's thresholds, from this node's side (1 + epsilon on the proof side)
        grow = pn2 + 1
        if epsilon > 0.0 and pn2 < INF:
            scaled = pn2 + int(pn2 * epsilon)
            if scaled > grow:
                grow = scaled
        tpn = min(FR[ply, F_TPN], grow)
        tdn = INF if FR[ply, F_TDN] >= INF else FR[ply, F_TDN] - delta + CDN[ply, best]
        if tdn > INF:
            tdn = INF
        FR[ply, F_CHILD] = best
        c = play(S[ply], MI[ply, MK, best], MI[ply, MLO, best], MI[ply, MHI, best])
        for i in range(SLEN):
            S[ply + 1, i] = c[i]
        for w in range(6):
            NK[ply + 1, w] = CK[ply, best, w]
        FR[ply + 1, F_BUCKET] = CB[ply, best]
        if CSAME[ply, best] == 1:
            FR[ply + 1, F_TPN], FR[ply + 1, F_TDN] = tpn, tdn
        else:
            FR[ply + 1, F_TPN], FR[ply + 1, F_TDN] = tdn, tpn
        ply += 1
        entering = True


# --- Python side ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ProofResult:
    """The answer to "does the player to move win?": ``win`` True or False when proven, None when the
    node budget ran out first; ``nodes`` the positions looked at."""

    win: bool | None
    nodes: int


class ProofSearch:
    """A df-pn search's table, stack and counters, kept across questions (the table and stack are
    megabytes: one allocation for many questions). The table is emptied at the start of every
    ``prove``/``prove_moves`` (its key relies on one game's circle order); ``prove_moves`` shares it
    across the root moves. ``nodes``, ``visits``, ``expanded`` and ``again`` count the last question's
    work: positions looked at, nodes entered, nodes expanded, expansions of a node expanded before."""

    def __init__(self, megabytes: float = 64.0, epsilon: float = EPSILON) -> None:
        if not megabytes > 0:
            raise PatchworkError(f"the proof-number search's table needs a positive size, got {megabytes} MB")
        if not epsilon >= 0:
            raise PatchworkError(f"the proof-number search's epsilon must be >= 0, got {epsilon}")
        entries = 1 << max(4, int(math.log2(megabytes * (1 << 20) / ENTRY_BYTES)))
        self.tt = np.zeros((entries, ENTRY_WORDS), dtype=np.int64)
        self.epsilon = float(epsilon)
        self.ctl = np.zeros(C_LEN, dtype=np.int64)
        self.S = np.zeros((MAXPLY + 1, SLEN), dtype=np.int64)
        self.NK = np.zeros((MAXPLY + 1, 6), dtype=np.int64)
        self.MI = np.zeros((MAXPLY, MI_ROWS, MAXM), dtype=np.int64)
        self.MF = np.zeros((MAXPLY, 2, MAXM), dtype=np.float64)
        self.CK = np.zeros((MAXPLY, MAXM, 6), dtype=np.int64)
        self.CB = np.zeros((MAXPLY, MAXM), dtype=np.int64)
        self.CPN = np.zeros((MAXPLY, MAXM), dtype=np.int64)
        self.CDN = np.zeros((MAXPLY, MAXM), dtype=np.int64)
        self.CSAME = np.zeros((MAXPLY, MAXM), dtype=np.int64)
        self.FR = np.zeros((MAXPLY + 1, FRAME), dtype=np.int64)
        self.scratch = new_scratch()

    @property
    def nodes(self) -> int:
        return int(self.ctl[C_NODES])

    @property
    def visits(self) -> int:
        return int(self.ctl[C_VISITS])

    @property
    def expanded(self) -> int:
        return int(self.ctl[C_EXPANDED])

    @property
    def again(self) -> int:
        return int(self.ctl[C_AGAIN])

    def _start(self, state: State, node_limit: int) -> np.ndarray:
        if state.is_terminal():
            raise GameOverError("the game is over: there is nothing to prove")
        if node_limit < 1:
            raise PatchworkError(f"the proof-number search needs a node limit of at least 1, got {node_limit}")
        for p in (0, 1):  # the key packs buttons and income into fixed bit widths
            if not 0 <= state.buttons[p] < 1 << 24 or not 0 <= state.income[p] < 256:
                raise PatchworkError(f"proof-number search: player {p + 1}'s buttons or income are out of range")
        self.tt.fill(0)
        self.ctl[:] = 0
        self.ctl[C_LIMIT] = node_limit
        return encode(state)

    def _mover_wins(self, flat: np.ndarray) -> bool | None:
        """Whether the mover of ``flat`` (not finished) wins, or None once the budget is spent."""
        if self.ctl[C_STOP]:
            return None
        pn, dn = dfpn(flat, self.S, self.NK, self.MI, self.MF, self.CK, self.CB, self.CPN, self.CDN, self.CSAME,
                      self.FR, self.scratch, self.tt, self.ctl, self.epsilon)
        if self.ctl[C_STOP]:
            return None
        if pn != 0 and dn != 0:  # pragma: no cover (the root's thresholds are infinite)
            raise PatchworkError(f"proof-number search ended unproven ({pn}, {dn})")
        return bool(pn == 0)

    def prove(self, state: State, *, node_limit: int) -> ProofResult:
        """Whether the player to move at ``state`` wins (None: ``node_limit`` positions were not enough)."""
        flat = self._start(state, node_limit)
        return ProofResult(self._mover_wins(flat), self.nodes)

    def prove_moves(self, state: State, *, node_limit: int) -> list[tuple[Move, bool | None]]:
        """Each root move (``exactcore.root_moves``, in its order) with whether it wins for the player
        to move at ``state``. ``node_limit`` is for all the moves together: the moves still open when
        it runs out are None (a move that ends the game is always answered)."""
        flat = self._start(state, node_limit)
        p = int(to_move(flat))
        out: list[tuple[Move, bool | None]] = []
        for move, k, lo, hi in _root_moves(flat, list(state.circle)):
            child = play(flat, k, lo, hi)
            if is_terminal(child):
                out.append((move, bool(final_value(child, p) > 0)))
                continue
            wins = self._mover_wins(child)
            if wins is not None and int(to_move(child)) != p:
                wins = not wins
            out.append((move, wins))
        return out


def prove(state: State, *, node_limit: int, megabytes: float = 64.0) -> ProofResult:
    """Whether the player to move at ``state`` wins the game (value > 0 in ``exactcore``'s terms),
    by df-pn within ``node_limit`` positions (``win`` None when they were not enough). Raises
    ``GameOverError`` on a finished game."""
    return ProofSearch(megabytes).prove(state, node_limit=node_limit)


def prove_moves(state: State, *, node_limit: int, megabytes: float = 64.0) -> list[tuple[Move, bool | None]]:
    """Each root move of ``state`` (``exactcore.root_moves``' moves and order) with whether it wins for
    the player to move, one table shared across the moves and ``node_limit`` positions for all of
    them (None: not proven within it). Raises ``GameOverError`` on a finished game."""
    return ProofSearch(megabytes).prove_moves(state, node_limit=node_limit)
