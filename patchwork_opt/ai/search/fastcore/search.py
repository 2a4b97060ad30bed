"""The compiled UCT search from Python: ``CompiledSearch`` over given root moves, run in slices, and its results.

The tree lives in preallocated arrays (``tree.run_iterations`` grows it); ``CompiledSearch.run``
adds iterations in slices so the caller keeps the clock. Its leaves are valued by a
``CompiledEvaluator`` (the rollout by default) and its randomness is a ``numpy.random.Generator`` of
its own, seeded from the search's seed, so searches side by side never share or reset each other's
random numbers and a budget gives the same tree however it is sliced. ``warm_up`` and
``compile_search`` load the compiled code before any clock starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba as nb
import numpy as np

from patchwork_opt.ai.base import AnalysedMove
from patchwork_opt.ai.search.evaluator_slot import GENERATOR_TYPE, SLOT_TYPE
from patchwork_opt.ai.search.fastcore.evaluators import ROLLOUT, CompiledEvaluator, rollout_evaluator
from patchwork_opt.ai.search.fastcore.position import CIRCLE, SLEN, encode
from patchwork_opt.ai.search.fastcore.tree import MAX_CHILDREN, run_iterations
from patchwork_opt.ai.search.policy import ROLLOUT_NOISE
from patchwork_opt.core.bitwords import join, split
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State


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
                self.move_lo[0, i], self.move_hi[0, i] = split(move.mask)
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
                mask = join(self.move_lo[node, best_i], self.move_hi[node, best_i])
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
