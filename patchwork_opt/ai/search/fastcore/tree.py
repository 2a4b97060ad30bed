"""The search tree compiled: a node's moves in the reference bot's order, and UCT iterations over preallocated arrays.

The tree plays as ``mcts.Mcts`` does: a node's moves are advance and each affordable fitting offer
(``init_node``, in ``mcts.macro_moves``' order), an offer placed by ``heuristic.best_placement``
below the root (the root's placements are given), leather patches where the heuristic puts them.
``run_iterations`` selects by UCT, adds one node an iteration, values it with the evaluator in its
slot (``evaluator_slot``; a finished game by ``rules.outcome``) and backs the value up. The arrays
are owned by ``search.CompiledSearch``.
"""

from __future__ import annotations

import math
from typing import Any

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.heuristic import ADVANCE_VALUE
from patchwork_opt.ai.search.fastcore.geometry import fits_anywhere
from patchwork_opt.ai.search.fastcore.heuristic import best_placement, resolve_leather
from patchwork_opt.ai.search.fastcore.position import BONUS, BUT, CIRCLE, CLEN, POS, QLO
from patchwork_opt.ai.search.fastcore.rules import advance, buy, is_terminal, outcome, to_move
from patchwork_opt.ai.search.fastcore.tables import COST_A, VPT

MAX_CHILDREN = 16  # root moves at most; other nodes have at most four (advance, three offers)


@nb.njit(cache=True)
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


@nb.njit(cache=True)
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
