"""The solver bot's search core compiled with Numba: transitions, the rollout evaluator and the tree.

It plays the same game as ``State`` (the tests replay its moves through ``State.apply``) and the
same policies as ``mcts.py``/``policy.py`` (heuristic placement in the tree, noisy greedy with
sampled placements in rollouts), on a flat int64 position: an 81-bit quilt is two words, rows
0-6 in the low word (63 bits) and rows 7-8 in the high one, so row shifts cross words only
between rows 6 and 7. The heuristic and the rollout here are compiled copies of
``heuristic.py``/``policy.py`` (the Python ones stay for the ``mcts`` reference bot);
``tests/test_compiled_core.py`` holds the copies equal, the rollout move for move when both draw
the same uniform numbers. The result value is ``policy.outcome_value`` itself, compiled.

The tree lives in preallocated arrays; ``CompiledSearch.run`` adds iterations in slices so the
caller keeps the clock. Its leaves are valued by a ``CompiledEvaluator`` passed in (the rollout
by default; a learned value plugs in the same way) and its randomness is a
``numpy.random.Generator`` of its own, seeded from the search's seed, so searches side by side
never share or reset each other's random numbers and a budget gives the same tree however it is
sliced.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.base import AnalysedMove
from patchwork_opt.ai.heuristic import (
    ADVANCE_VALUE,
    HOLE_PENALTY,
    LEATHER_IN_WINDOW,
    QUICK_SAMPLES,
    VALUE_PER_TIME,
    WINDOW_WEIGHT,
)
from patchwork_opt.ai.search.evaluator_slot import GENERATOR_TYPE, SLOT_TYPE, slot_for
from patchwork_opt.ai.search.policy import EXPLORATION, ROLLOUT_NOISE
from patchwork_opt.ai.search.policy import outcome_value as _outcome_value_py
from patchwork_opt.core.bitboard import COL0, COL8, ROW0, ROW8, WINDOW_MASKS
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import BONUS_POINTS, END, MARKS_UPTO, SPACES_AFTER, State

# --- tables ----------------------------------------------------------------------------------
LOW_BITS = 63
LOW = (1 << LOW_BITS) - 1
HIGH = (1 << 18) - 1
N_PATCHES = len(PATCHES)
MAX_PLACEMENTS = max(len(p) for p in PLACEMENTS)
PL_N = np.array([len(p) for p in PLACEMENTS], dtype=np.int64)
PL_LO = np.zeros((N_PATCHES, MAX_PLACEMENTS), dtype=np.int64)
PL_HI = np.zeros((N_PATCHES, MAX_PLACEMENTS), dtype=np.int64)
for _pid, _masks in enumerate(PLACEMENTS):
    for _i, _m in enumerate(_masks):
        PL_LO[_pid, _i] = _m & LOW
        PL_HI[_pid, _i] = _m >> LOW_BITS
WIN_LO = np.array([w & LOW for w in WINDOW_MASKS], dtype=np.int64)
WIN_HI = np.array([w >> LOW_BITS for w in WINDOW_MASKS], dtype=np.int64)
COST_A = np.array([p.cost for p in PATCHES], dtype=np.int64)
TIME_A = np.array([p.time for p in PATCHES], dtype=np.int64)
INCOME_A = np.array([p.income for p in PATCHES], dtype=np.int64)
AREA_A = np.array([p.area for p in PATCHES], dtype=np.int64)
VPT = np.array(VALUE_PER_TIME, dtype=np.float64)
MARKS = np.array(MARKS_UPTO, dtype=np.int64)
AFTER = np.array(SPACES_AFTER, dtype=np.int64)


# the engine's board edges as (low word, high word)
NOT_C0_LO, NOT_C0_HI = ~COL0 & LOW, (~COL0 >> LOW_BITS) & HIGH
NOT_C8_LO, NOT_C8_HI = ~COL8 & LOW, (~COL8 >> LOW_BITS) & HIGH
C0_LO, C0_HI = COL0 & LOW, COL0 >> LOW_BITS
C8_LO, C8_HI = COL8 & LOW, COL8 >> LOW_BITS
ROW0_LO = ROW0
ROW8_HI = ROW8 >> LOW_BITS

# flat position layout
POS, BUT, INC, QLO, QHI = 0, 2, 4, 6, 8
LEATHER, PENDING, LAST, BONUS, FIRST_END, CLEN, CIRCLE = 10, 11, 12, 13, 14, 15, 16
SLEN = CIRCLE + N_PATCHES
MAX_CHILDREN = 16  # root moves at most; other nodes have at most four (advance, three offers)

_CACHE = True


# --- bit helpers --------------------------------------------------------------------------------
@nb.njit(cache=_CACHE, inline="always")
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@nb.njit(cache=_CACHE)
def full_window(lo: int, hi: int) -> bool:
    if popcount(lo) + popcount(hi) < 49:
        return False
    for w in range(WIN_LO.shape[0]):  # noqa: SIM110 (a plain loop: Numba compiles it best)
        if (lo & WIN_LO[w]) == WIN_LO[w] and (hi & WIN_HI[w]) == WIN_HI[w]:
            return True
    return False


@nb.njit(cache=_CACHE)
def window_progress(lo: int, hi: int) -> int:
    best = 0
    for w in range(WIN_LO.shape[0]):
        c = popcount(lo & WIN_LO[w]) + popcount(hi & WIN_HI[w])
        if c > best:
            best = c
    return best


@nb.njit(cache=_CACHE, inline="always")
def isolated(elo: int, ehi: int) -> tuple[int, int]:
    """Empty cells none of whose neighbours is empty (``empty`` as two words)."""
    s_lo = ((elo << 9) & LOW) | (elo >> 9) | (((ehi & 511) << 54) & LOW)
    s_hi = (((ehi << 9) | (elo >> 54)) & HIGH) | (ehi >> 9)
    s_lo |= ((elo & NOT_C8_LO) << 1) | ((elo & NOT_C0_LO) >> 1)
    s_hi |= ((ehi & NOT_C8_HI) << 1) | ((ehi & NOT_C0_HI) >> 1)
    return elo & ~s_lo, ehi & ~s_hi


@nb.njit(cache=_CACHE)
def placement_score(qlo: int, qhi: int, mlo: int, mhi: int, holes_before: int,
                    bonus_free: bool, progress: bool) -> float:
    # contact planes: cells whose neighbour that way is covered or off the quilt
    up_lo = ((qlo << 9) & LOW) | ROW0_LO
    up_hi = ((qhi << 9) | (qlo >> 54)) & HIGH
    down_lo = (qlo >> 9) | (((qhi & 511) << 54) & LOW)
    down_hi = (qhi >> 9) | ROW8_HI
    left_lo = ((qlo & NOT_C8_LO) << 1) | C0_LO
    left_hi = ((qhi & NOT_C8_HI) << 1) | C0_HI
    right_lo = ((qlo & NOT_C0_LO) >> 1) | C8_LO
    right_hi = ((qhi & NOT_C0_HI) >> 1) | C8_HI
    contact = (popcount(mlo & up_lo) + popcount(mhi & up_hi) + popcount(mlo & down_lo)
               + popcount(mhi & down_hi) + popcount(mlo & left_lo) + popcount(mhi & left_hi)
               + popcount(mlo & right_lo) + popcount(mhi & right_hi))
    alo, ahi = qlo | mlo, qhi | mhi
    ilo, ihi = isolated(LOW & ~alo, HIGH & ~ahi)
    holes = popcount(ilo) + popcount(ihi) - holes_before
    score = contact - HOLE_PENALTY * holes
    if bonus_free:
        if full_window(alo, ahi):
            score += 2.0 * BONUS_POINTS
        elif progress:
            score += WINDOW_WEIGHT * window_progress(alo, ahi)
    return score


@nb.njit(cache=_CACHE)
def holes_of(qlo: int, qhi: int) -> int:
    ilo, ihi = isolated(LOW & ~qlo, HIGH & ~qhi)
    return popcount(ilo) + popcount(ihi)


@nb.njit(cache=_CACHE)
def fits_anywhere(pid: int, qlo: int, qhi: int) -> bool:
    if 81 - popcount(qlo) - popcount(qhi) < AREA_A[pid]:
        return False
    for i in range(PL_N[pid]):  # noqa: SIM110 (a plain loop: Numba compiles it best)
        if (PL_LO[pid, i] & qlo) == 0 and (PL_HI[pid, i] & qhi) == 0:
            return True
    return False


@nb.njit(cache=_CACHE)
def best_placement(pid: int, qlo: int, qhi: int, bonus_free: bool) -> tuple[int, int]:
    """The heuristic's placement (every fit scored, 7x7 progress included; ties: lowest mask)."""
    hb = holes_of(qlo, qhi)
    best_lo, best_hi, best = 0, 0, -1e18
    for i in range(PL_N[pid]):
        mlo, mhi = PL_LO[pid, i], PL_HI[pid, i]
        if (mlo & qlo) != 0 or (mhi & qhi) != 0:
            continue
        s = placement_score(qlo, qhi, mlo, mhi, hb, bonus_free, True)
        if s > best or (s == best and (mhi < best_hi or (mhi == best_hi and mlo < best_lo))):
            best, best_lo, best_hi = s, mlo, mhi
    return best_lo, best_hi


@nb.njit(cache=_CACHE)
def quick_placement(pid: int, qlo: int, qhi: int, bonus_free: bool, rng: np.random.Generator) -> tuple[int, int]:
    """``heuristic.quick_placement``: the best of ``QUICK_SAMPLES`` random fits (every fit when
    sampling misses), without 7x7 progress; it draws ``rng.random()`` as the Python one does."""
    n = PL_N[pid]
    found = np.empty(QUICK_SAMPLES, dtype=np.int64)
    nf = 0
    for _ in range(3 * QUICK_SAMPLES):
        i = int(rng.random() * n)
        if (PL_LO[pid, i] & qlo) == 0 and (PL_HI[pid, i] & qhi) == 0:
            found[nf] = i
            nf += 1
            if nf == QUICK_SAMPLES:
                break
    hb = holes_of(qlo, qhi)
    best_lo, best_hi, best = 0, 0, -1e18
    if nf == 0:
        for i in range(n):
            mlo, mhi = PL_LO[pid, i], PL_HI[pid, i]
            if (mlo & qlo) == 0 and (mhi & qhi) == 0:
                s = placement_score(qlo, qhi, mlo, mhi, hb, bonus_free, False)
                if s > best:
                    best, best_lo, best_hi = s, mlo, mhi
        return best_lo, best_hi
    if nf == 1:
        return PL_LO[pid, found[0]], PL_HI[pid, found[0]]
    for j in range(nf):
        i = found[j]
        s = placement_score(qlo, qhi, PL_LO[pid, i], PL_HI[pid, i], hb, bonus_free, False)
        if s > best:
            best, best_lo, best_hi = s, PL_LO[pid, i], PL_HI[pid, i]
    return best_lo, best_hi


@nb.njit(cache=_CACHE)
def leather_cell(qlo: int, qhi: int, bonus_free: bool) -> tuple[int, int]:
    """``heuristic.leather_cell``: a 7x7-completing cell, else the most enclosed empty one."""
    elo, ehi = LOW & ~qlo, HIGH & ~qhi
    if elo == 0 and ehi == 0:
        return 0, 0
    preferred = -1
    if bonus_free:
        best_cov = -1
        for w in range(WIN_LO.shape[0]):
            mlo, mhi = WIN_LO[w] & elo, WIN_HI[w] & ehi
            if popcount(mlo) + popcount(mhi) == 1:
                return mlo, mhi
            cov = popcount(qlo & WIN_LO[w]) + popcount(qhi & WIN_HI[w])
            if cov > best_cov:
                best_cov, preferred = cov, w
    best_lo, best_hi, best = 0, 0, -1.0
    for cell in range(81):
        clo = (1 << cell) if cell < LOW_BITS else 0
        chi = 0 if cell < LOW_BITS else 1 << (cell - LOW_BITS)
        if (clo & elo) == 0 and (chi & ehi) == 0:
            continue
        r, c = cell // 9, cell % 9
        s = 0.0
        s += 1.0 if r == 0 or _covered(qlo, qhi, cell - 9) else 0.0
        s += 1.0 if r == 8 or _covered(qlo, qhi, cell + 9) else 0.0
        s += 1.0 if c == 0 or _covered(qlo, qhi, cell - 1) else 0.0
        s += 1.0 if c == 8 or _covered(qlo, qhi, cell + 1) else 0.0
        if preferred >= 0 and ((clo & WIN_LO[preferred]) != 0 or (chi & WIN_HI[preferred]) != 0):
            s += LEATHER_IN_WINDOW
        if s > best:
            best, best_lo, best_hi = s, clo, chi
    return best_lo, best_hi


@nb.njit(cache=_CACHE, inline="always")
def _covered(qlo: int, qhi: int, cell: int) -> bool:
    if cell < LOW_BITS:
        return (qlo >> cell) & 1 == 1
    return (qhi >> (cell - LOW_BITS)) & 1 == 1


# --- transitions ----------------------------------------------------------------------------------
@nb.njit(cache=_CACHE, inline="always")
def to_move(s: np.ndarray) -> int:
    if s[PENDING] >= 0:
        return s[PENDING]
    if s[POS] < s[POS + 1]:
        return 0
    if s[POS + 1] < s[POS]:
        return 1
    return s[LAST]


@nb.njit(cache=_CACHE, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[POS] == END and s[POS + 1] == END and s[PENDING] < 0


@nb.njit(cache=_CACHE)
def token_to(s: np.ndarray, p: int, new: int) -> None:
    old = s[POS + p]
    crossed = MARKS[new] - MARKS[old]
    if crossed:
        s[BUT + p] += crossed * s[INC + p]
    taken = s[LEATHER] & AFTER[old] & ~AFTER[new]
    taken = taken & -taken
    if taken:
        s[LEATHER] ^= taken
        if s[QLO + 2 * p] != LOW or s[QLO + 2 * p + 1] != HIGH:
            s[PENDING] = p
    s[POS + p] = new
    s[LAST] = p
    if new == END and s[FIRST_END] < 0:
        s[FIRST_END] = p


@nb.njit(cache=_CACHE)
def advance(s: np.ndarray, p: int) -> None:
    target = s[POS + 1 - p] + 1
    if target > END:
        target = END
    s[BUT + p] += target - s[POS + p]
    token_to(s, p, target)


@nb.njit(cache=_CACHE)
def buy(s: np.ndarray, p: int, k: int, mlo: int, mhi: int) -> None:
    n = s[CLEN]
    pid = s[CIRCLE + k]
    s[BUT + p] -= COST_A[pid]
    qlo = s[QLO + 2 * p] | mlo
    qhi = s[QLO + 2 * p + 1] | mhi
    s[QLO + 2 * p] = qlo
    s[QLO + 2 * p + 1] = qhi
    s[INC + p] += INCOME_A[pid]
    rotated = np.empty(n - 1, dtype=np.int64)
    j = 0
    for i in range(k + 1, n):
        rotated[j] = s[CIRCLE + i]
        j += 1
    for i in range(k):
        rotated[j] = s[CIRCLE + i]
        j += 1
    for i in range(n - 1):
        s[CIRCLE + i] = rotated[i]
    s[CIRCLE + n - 1] = 0
    s[CLEN] = n - 1
    if s[BONUS] < 0 and full_window(qlo, qhi):
        s[BONUS] = p
    target = s[POS + p] + TIME_A[pid]
    token_to(s, p, target if target < END else END)


@nb.njit(cache=_CACHE)
def place_leather(s: np.ndarray, p: int, mlo: int, mhi: int) -> None:
    qlo = s[QLO + 2 * p] | mlo
    qhi = s[QLO + 2 * p + 1] | mhi
    s[QLO + 2 * p] = qlo
    s[QLO + 2 * p + 1] = qhi
    s[PENDING] = -1
    if s[BONUS] < 0 and full_window(qlo, qhi):
        s[BONUS] = p


@nb.njit(cache=_CACHE)
def resolve_leather(s: np.ndarray) -> None:
    while s[PENDING] >= 0:
        p = s[PENDING]
        mlo, mhi = leather_cell(s[QLO + 2 * p], s[QLO + 2 * p + 1], s[BONUS] < 0)
        place_leather(s, p, mlo, mhi)


@nb.njit(cache=_CACHE)
def score(s: np.ndarray, p: int) -> int:
    empty = 81 - popcount(s[QLO + 2 * p]) - popcount(s[QLO + 2 * p + 1])
    return s[BUT + p] + (BONUS_POINTS if s[BONUS] == p else 0) - 2 * empty


#: ``policy.outcome_value`` compiled: the one definition of the value a game is worth.
outcome_value = nb.njit(cache=_CACHE)(_outcome_value_py)


@nb.njit(cache=_CACHE)
def outcome(s: np.ndarray) -> tuple[float, float, float]:
    """(value, win, margin) of a finished game for player 0, as an evaluator returns them: the
    value is ``policy.result_value``'s, win 1 or 0 (a tie goes to who reached the end first)."""
    diff = score(s, 0) - score(s, 1)
    winner = (0 if diff > 0 else 1) if diff != 0 else s[FIRST_END]
    win = 1.0 if winner == 0 else 0.0
    return outcome_value(win, float(diff)), win, float(diff)


@nb.njit(cache=_CACHE)
def rollout(s: np.ndarray, noise: float, rng: np.random.Generator) -> None:
    """``policy.rollout``: the noisy greedy player to the end, in place, drawing ``rng.random()``
    where the Python one draws ``rng.random()`` (same numbers, same game)."""
    while True:
        if s[PENDING] >= 0:
            resolve_leather(s)
            continue
        if s[POS] == END and s[POS + 1] == END:
            return
        p = to_move(s)
        n = s[CLEN]
        buttons = s[BUT + p]
        position = s[POS + p]
        best_k, best_v = -1, ADVANCE_VALUE
        second_k, second_v = -1, ADVANCE_VALUE
        for k in range(3 if n >= 3 else n):
            pid = s[CIRCLE + k]
            if COST_A[pid] > buttons:
                continue
            v = VPT[pid, position] + noise * (rng.random() - 0.5)
            if v > best_v:
                second_k, second_v = best_k, best_v
                best_k, best_v = k, v
            elif v > second_v:
                second_k, second_v = k, v
        qlo, qhi = s[QLO + 2 * p], s[QLO + 2 * p + 1]
        bought = False
        for k in (best_k, second_k):
            if k < 0:
                break
            mlo, mhi = quick_placement(s[CIRCLE + k], qlo, qhi, s[BONUS] < 0, rng)
            if mlo != 0 or mhi != 0:
                buy(s, p, k, mlo, mhi)
                bought = True
                break
        if not bought:
            advance(s, p)


@nb.njit(cache=_CACHE)
def rollout_value(s: np.ndarray, params: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    """The rollout evaluator (``params = [noise]``): one noisy-greedy game from a copy of ``s``,
    valued for player 0 as ``policy.RolloutEvaluator`` values it (win 1 or 0)."""
    game = s.copy()
    rollout(game, params[0], rng)
    return outcome(game)


# --- the tree ---------------------------------------------------------------------------------------
@nb.njit(cache=_CACHE)
def init_node(node: int, states: np.ndarray, n_moves: np.ndarray, move_k: np.ndarray,
              player: np.ndarray) -> None:
    """Macro moves of a new node, in the order ``mcts.macro_moves`` tries them: affordable fitting
    offers and advance, best purchase value first (ties: advance, then the lower offer)."""
    s = states[node]
    if is_terminal(s):
        player[node] = -1
        n_moves[node] = 0
        return
    p = to_move(s)
    player[node] = p
    values = np.empty(4, dtype=np.float64)
    ks = np.empty(4, dtype=np.int64)
    m = 0
    values[0], ks[0] = ADVANCE_VALUE, -1
    m = 1
    n = s[CLEN]
    for k in range(3 if n >= 3 else n):
        pid = s[CIRCLE + k]
        if COST_A[pid] <= s[BUT + p] and fits_anywhere(pid, s[QLO + 2 * p], s[QLO + 2 * p + 1]):
            values[m], ks[m] = VPT[pid, s[POS + p]], k
            m += 1
    # stable insertion sort, best value first: entered as advance, offer 0, 1, 2, ties keep that order
    for i in range(1, m):
        v, k = values[i], ks[i]
        j = i - 1
        while j >= 0 and values[j] < v:
            values[j + 1], ks[j + 1] = values[j], ks[j]
            j -= 1
        values[j + 1], ks[j + 1] = v, k
    n_moves[node] = m
    for i in range(m):
        move_k[node, i] = ks[i]


@nb.njit(cache=_CACHE)
def run_iterations(iterations: int, exploration: float, slot: Any, params: np.ndarray,
                   rng: np.random.Generator, used: np.ndarray, states: np.ndarray, n_moves: np.ndarray,
                   n_exp: np.ndarray, move_k: np.ndarray, move_lo: np.ndarray, move_hi: np.ndarray,
                   child: np.ndarray, player: np.ndarray, mover: np.ndarray, visits: np.ndarray,
                   wsum: np.ndarray, wins: np.ndarray, msum: np.ndarray) -> int:
    """``iterations`` UCT iterations from node 0 (once the arrays are full the tree stops growing);
    leaves are valued by the evaluator in ``slot`` (``evaluator_slot.slot_for``), finished games
    by ``outcome``.

    One loop over select, expand, evaluate and back up, kept whole on purpose: an iteration costs a
    few microseconds, and split into compiled helpers the tree's fourteen arrays would be passed down
    at every step of every iteration; the steps it calls (``init_node``, the transitions, the
    placement) are functions of their own."""
    evaluate = slot[0]
    capacity = states.shape[0]
    path = np.empty(256, dtype=np.int64)
    done = 0
    while done < iterations:
        node = 0
        depth = 0
        path[0] = 0
        while player[node] >= 0:
            if n_exp[node] < n_moves[node]:
                if used[0] >= capacity:
                    break  # the arrays are full: simulate from here without growing the tree
                i = n_exp[node]
                n_exp[node] += 1
                new = used[0]
                used[0] += 1
                s, parent = states[new], states[node]
                for j in range(s.shape[0]):  # a loop: a row copy compiles Numba's broadcasting, seconds
                    s[j] = parent[j]
                p = player[node]
                k = move_k[node, i]
                if k < 0:
                    advance(s, p)
                else:
                    mlo, mhi = move_lo[node, i], move_hi[node, i]
                    if mlo == 0 and mhi == 0:
                        mlo, mhi = best_placement(s[CIRCLE + k], s[QLO + 2 * p], s[QLO + 2 * p + 1],
                                                  s[BONUS] < 0)
                        move_lo[node, i], move_hi[node, i] = mlo, mhi
                    buy(s, p, k, mlo, mhi)
                resolve_leather(s)
                mover[new] = p
                init_node(new, states, n_moves, move_k, player)
                child[node, i] = new
                depth += 1
                path[depth] = new
                node = new
                break
            log_n = math.log(visits[node])
            best_child, best_ucb = child[node, 0], -1e300
            for i in range(n_exp[node]):
                ch = child[node, i]
                ucb = wsum[ch] / visits[ch] + exploration * math.sqrt(log_n / visits[ch])
                if ucb > best_ucb:
                    best_child, best_ucb = ch, ucb
            node = best_child
            depth += 1
            path[depth] = node
        if player[node] >= 0:
            value, win, margin = evaluate(states[node], params, rng)
        else:
            value, win, margin = outcome(states[node])
        visits[0] += 1
        for d in range(1, depth + 1):
            ch = path[d]
            visits[ch] += 1
            if mover[ch] == 0:
                wsum[ch] += value
                msum[ch] += margin
                wins[ch] += win
            else:
                wsum[ch] -= value
                msum[ch] -= margin
                wins[ch] += 1.0 - win
        done += 1
    return done


# --- Python side -------------------------------------------------------------------------------------
def encode(state: State) -> np.ndarray:
    s = np.zeros(SLEN, dtype=np.int64)
    s[POS], s[POS + 1] = state.pos
    s[BUT], s[BUT + 1] = state.buttons
    s[INC], s[INC + 1] = state.income
    for p in (0, 1):
        s[QLO + 2 * p] = state.quilts[p] & LOW
        s[QLO + 2 * p + 1] = state.quilts[p] >> LOW_BITS
    s[LEATHER] = state.leather
    s[PENDING] = state.pending
    s[LAST] = state.last_mover
    s[BONUS] = state.bonus
    s[FIRST_END] = state.first_end
    s[CLEN] = len(state.circle)
    s[CIRCLE : CIRCLE + len(state.circle)] = state.circle
    return s


@dataclass(frozen=True, slots=True)
class CompiledEvaluator:
    """A leaf evaluator of ``CompiledSearch``: ``function`` is an ``@numba.njit`` function
    ``evaluate(s, params, rng) -> (value, win, margin)`` on the flat int64 position ``s`` (not
    finished; it must not change ``s``), the float64 array of ``params`` and the search's
    ``numpy.random.Generator``, returning for player 0 the value UCT backs up (in [-1, 1], on
    ``policy.outcome_value``'s scale), the chance player 0 wins and the expected final margin.
    ``name`` says which evaluator a search used; ``exploration`` is the UCT constant that suits its
    values (a noisy rollout's one-game results need more exploring than a deterministic learned
    value, whose small differences are real)."""

    name: str
    function: Any  # a numba dispatcher
    params: tuple[float, ...] | np.ndarray = field(default=(), repr=False)  # kept as a tuple of floats
    exploration: float = EXPLORATION
    _array: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        params = tuple(float(x) for x in np.asarray(self.params, dtype=np.float64).ravel())
        object.__setattr__(self, "params", params)
        array = np.array(params, dtype=np.float64)
        array.flags.writeable = False
        object.__setattr__(self, "_array", array)

    def params_array(self) -> np.ndarray:
        """A fresh float64 array of the params (each search gets its own, writable as Numba wants)."""
        return self._array.copy()

    def slot(self) -> Any:
        """``function`` in the search's evaluator slot (``evaluator_slot.slot_for``: compiled on first
        use, refused with a TypeError when it is no evaluator); ``function`` must outlive it."""
        return slot_for(self.function, self.name)


def rollout_evaluator(noise: float = ROLLOUT_NOISE) -> CompiledEvaluator:
    """The noisy-greedy rollout as a leaf evaluator (the default of ``CompiledSearch``)."""
    return CompiledEvaluator("rollout", rollout_value, (noise,))


ROLLOUT = rollout_evaluator()


@dataclass(frozen=True, slots=True)
class RootStats:
    """The core's raw figures of one root move (``CompiledSearch.analysed`` turns them into the
    one analysed-move type for everything outside this module)."""

    move: Move
    visits: int
    value: float  # mean result value in [-1, 1] for the player to move
    win_rate: float
    margin: float  # mean final margin for the player to move


class CompiledSearch:
    """UCT from ``state`` whose root moves are given (placed buys, advance); below the root the
    tree branches on buy/advance with heuristic placements, as ``mcts.Mcts`` does, and values its
    leaves with ``evaluator`` and its own generator."""

    def __init__(self, state: State, root_moves: Sequence[Move], *, seed: int, capacity: int,
                 exploration: float | None = None, noise: float = ROLLOUT_NOISE,
                 evaluator: CompiledEvaluator | None = None) -> None:
        """``evaluator`` values the leaves (default: the rollout with ``noise``, which is then its
        only use); ``exploration`` is the UCT constant (default: the evaluator's own); ``seed``
        seeds the search's own ``numpy.random.Generator``."""
        if state.pending >= 0 or state.is_terminal():
            raise ValueError("the compiled search starts from a buy/advance decision")
        if not 1 <= len(root_moves) <= MAX_CHILDREN:
            raise ValueError(f"the compiled search takes 1..{MAX_CHILDREN} root moves")
        capacity = max(capacity, len(root_moves) + 2)
        width = max(4, len(root_moves))
        self.state = state
        self.root_moves = list(root_moves)
        self.evaluator = evaluator if evaluator is not None else rollout_evaluator(noise)
        self.exploration = exploration if exploration is not None else self.evaluator.exploration
        self._slot = self.evaluator.slot()  # the evaluator (which the search holds) as compiled code takes it
        self.params = self.evaluator.params_array()
        self.rng = np.random.default_rng(seed % (1 << 64))
        self.used = np.ones(1, dtype=np.int64)
        self.states = np.zeros((capacity, SLEN), dtype=np.int64)
        self.states[0] = encode(state)
        self.n_moves = np.zeros(capacity, dtype=np.int64)
        self.n_exp = np.zeros(capacity, dtype=np.int64)
        self.move_k = np.zeros((capacity, width), dtype=np.int64)
        self.move_lo = np.zeros((capacity, width), dtype=np.int64)
        self.move_hi = np.zeros((capacity, width), dtype=np.int64)
        self.child = np.zeros((capacity, width), dtype=np.int64)
        self.player = np.zeros(capacity, dtype=np.int64)
        self.mover = np.full(capacity, -1, dtype=np.int64)
        self.visits = np.zeros(capacity, dtype=np.float64)
        self.wsum = np.zeros(capacity, dtype=np.float64)
        self.wins = np.zeros(capacity, dtype=np.float64)
        self.msum = np.zeros(capacity, dtype=np.float64)
        self.player[0] = state.to_move()
        self.n_moves[0] = len(root_moves)
        for i, move in enumerate(root_moves):
            if move.kind == "advance":
                self.move_k[0, i] = -1
            elif move.kind == "buy":
                self.move_k[0, i] = state.circle.index(move.patch)
                self.move_lo[0, i] = move.mask & LOW
                self.move_hi[0, i] = move.mask >> LOW_BITS
            else:
                raise ValueError("root moves are buys and advance")
        self.seed = seed
        self.iterations = 0

    @property
    def full(self) -> bool:
        return int(self.used[0]) >= self.states.shape[0]

    def run(self, iterations: int) -> int:
        """Add ``iterations`` iterations (the same tree whether run at once or in slices)."""
        done = int(run_iterations(
            iterations, self.exploration, self._slot, self.params, self.rng, self.used,
            self.states, self.n_moves, self.n_exp, self.move_k, self.move_lo, self.move_hi, self.child,
            self.player, self.mover, self.visits, self.wsum, self.wins, self.msum,
        ))
        self.iterations += done
        return done

    def stats(self) -> list[RootStats]:
        out = []
        for i in range(int(self.n_exp[0])):
            ch = int(self.child[0, i])
            n = float(self.visits[ch])
            if n <= 0:
                continue
            move = self.root_moves[i]
            out.append(RootStats(move, int(n), self.wsum[ch] / n, self.wins[ch] / n, self.msum[ch] / n))
        return out

    def analysed(self, pv_plies: int) -> list[AnalysedMove]:
        """The root statistics as the one analysed-move type (best first: most visited, then the
        higher mean value), each with its line of ``pv_plies`` plies; ``win`` and ``searched`` are
        the search's own win rate (the analysis maps it where it has a win map)."""
        stats = sorted(self.stats(), key=lambda r: (-r.visits, -r.value))
        return [AnalysedMove(r.move, float(r.win_rate), float(r.margin), r.visits, False,
                             self.principal_line(r.move, pv_plies), searched=float(r.win_rate))
                for r in stats]

    def principal_line(self, first: Move, plies: int) -> tuple[Move, ...]:
        """The most visited line after root move ``first`` (``plies`` moves in all)."""
        line = [first]
        node = int(self.child[0, self.root_moves.index(first)])
        while len(line) < plies and self.n_exp[node] > 0:
            best_i = max(range(int(self.n_exp[node])), key=lambda i: self.visits[self.child[node, i]])
            k = int(self.move_k[node, best_i])
            if k < 0:
                line.append(ADVANCE)
            else:
                pid = int(self.states[node, CIRCLE + k])
                mask = int(self.move_lo[node, best_i]) | (int(self.move_hi[node, best_i]) << LOW_BITS)
                line.append(Move("buy", pid, mask))
            node = int(self.child[node, best_i])
        return tuple(line)


def compile_search() -> None:
    """Load the tree search (``run_iterations``) from Numba's cache, or compile it, alone: for the one
    signature ``CompiledSearch.run`` calls it with, whatever the evaluator (a value of the slot's
    type), so that it and an evaluator can compile side by side in two processes."""
    i1, i2, f1 = nb.int64[::1], nb.int64[:, ::1], nb.float64[::1]
    run_iterations.compile((nb.int64, nb.float64, SLOT_TYPE, f1, GENERATOR_TYPE, i1, i2, i1, i1, i2, i2, i2, i2,
                            i1, i1, f1, f1, f1, f1))


_warmed: set[str] = set()


def warm_up(evaluator: CompiledEvaluator | None = None) -> None:
    """Load the compiled search with ``evaluator`` (default: the rollout) from Numba's cache, or
    compile it, before any clock starts. Only that evaluator is compiled: the solver's learned value
    needs nothing of the rollout's (about a third of the search's first-use compile)."""
    evaluator = evaluator if evaluator is not None else ROLLOUT
    if evaluator.name not in _warmed:
        state = State.new(seed=0)
        CompiledSearch(state, [ADVANCE], seed=0, capacity=4, evaluator=evaluator).run(1)
        _warmed.add(evaluator.name)
