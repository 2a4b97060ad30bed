"""Position analysis: every root move with its win chance, expected margin, visits and line.

The one entry point the solver bot, ``patchwork move`` and reviews use. Late in the game the
exact search (``exact``) tries to solve the rest of the game over every legal move within a share
of the budget; when it finishes the figures are exact (win 1 or 0, the final margin under best
play). Otherwise the compiled UCT (``fastcore``) samples: root moves are advance and each
affordable offer placed where the advisor ranks first, plus any placement completing a 7x7 (this
search's options of the one candidate list, ``candidates``). Every move comes back as the one
analysed-move type, ``AnalysedMove``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from patchwork_opt.ai.base import AnalysedMove, PlacementAdvisor
from patchwork_opt.ai.candidates import candidate_moves
from patchwork_opt.ai.exact import ExactSearch, final_value, value_margin
from patchwork_opt.ai.fastcore import MAX_CHILDREN, CompiledSearch
from patchwork_opt.ai.heuristic import leather_cell
from patchwork_opt.ai.policy import EXPLORATION
from patchwork_opt.ai.seeding import require_running
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal

EXACT_FROM = 40  # try the exact search once both tokens have reached this space
EXACT_SHARE = 0.5  # share of the budget the exact search may use before sampling takes over
NODES_PER_ITERATION = 0.5  # exact-search nodes allowed per iteration of an iteration budget
SLICE = 256  # iterations per call into the compiled core between clock checks
NODES_PER_SECOND = 120_000  # tree capacity per second of search (the core's speed, generously)
MAX_NODES = 400_000


@dataclass(frozen=True, slots=True)
class Analysis:
    moves: list[AnalysedMove]  # best first
    exact: bool
    iterations: int = 0
    nodes: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def best(self) -> AnalysedMove:
        return self.moves[0]


def root_moves(state: State, advisor: PlacementAdvisor | None, top_k: int = 1) -> list[Move]:
    """This search's candidates: advance, each affordable offer at the ``top_k`` placements the
    advisor ranks first (the heuristic while the quilt is nearly empty), and any placement that
    completes a 7x7 square."""
    return candidate_moves(state, per_offer=top_k, advisor=advisor)[:MAX_CHILDREN]


def exact_analysis(state: State, solver: ExactSearch, every_move: bool) -> Analysis | None:
    solved = solver.solve(state, every_move=every_move)
    if solved is None:
        return None
    return Analysis(solved.moves, True, nodes=solved.nodes, seconds=solved.seconds)


def sampled_analysis(state: State, moves: Sequence[Move], *, seconds: float | None,
                     iterations: int | None, seed: int, pv_plies: int = 4,
                     max_iterations: int | None = None, stop: StopSignal | None = None) -> Analysis:
    """The compiled UCT over ``moves``: exactly ``iterations``, or for ``seconds`` (stopping early
    at ``max_iterations``, the easier levels' cap, or when ``stop`` is set: what it has so far)."""
    started = time.perf_counter()
    if iterations is not None:
        capacity = iterations + 2
    else:
        capacity = int(min(MAX_NODES, (seconds or 0.0) * NODES_PER_SECOND + 1000))
        if max_iterations is not None:
            capacity = min(capacity, max_iterations + 2)
    search = CompiledSearch(state, list(moves), seed=seed, capacity=capacity, exploration=EXPLORATION)
    if iterations is not None:
        search.run(iterations)
    else:
        deadline = started + (seconds or 0.0)
        cap = max_iterations if max_iterations is not None else 1 << 62
        while search.iterations < cap:
            search.run(min(SLICE, cap - search.iterations))
            if time.perf_counter() >= deadline or (stop is not None and stop.is_set()):
                break
    stats = sorted(search.stats(), key=lambda r: (-r.visits, -r.value))
    # the compiled core's root figures become the one analysed-move type here, and only here
    out = [
        AnalysedMove(r.move, float(r.win_rate), float(r.margin), r.visits, False,
                     search.principal_line(r.move, pv_plies))
        for r in stats
    ]
    return Analysis(out, False, iterations=search.iterations, seconds=time.perf_counter() - started)


def _leather_analysis(state: State, *, seconds: float | None, iterations: int | None, seed: int,
                      advisor: PlacementAdvisor | None, max_iterations: int | None,
                      stop: StopSignal | None = None) -> Analysis:
    """A pending leather patch outside the exact search's reach: the heuristic's cell, valued by
    sampling the position it leads to."""
    p = state.to_move()
    move = Move("leather", -1, leather_cell(state.quilts[p], state.bonus < 0))
    after = state.clone()
    after.leather_unchecked(p, move.mask)
    if after.is_terminal():
        v = final_value(after, p)
        return Analysis([AnalysedMove(move, 1.0 if v > 0 else 0.0, value_margin(v), 0, True, (move,), v)], True)
    inner = sampled_analysis(after, root_moves(after, advisor), seconds=seconds, iterations=iterations,
                             seed=seed, max_iterations=max_iterations, stop=stop)
    best = inner.best
    same = after.to_move() == p
    win = best.win if same else 1.0 - best.win
    margin = best.margin if same else -best.margin
    return Analysis([AnalysedMove(move, win, margin, best.visits, False, (move, *best.line))], False,
                    iterations=inner.iterations, seconds=inner.seconds)


def run_analysis(
    state: State,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
    advisor: PlacementAdvisor | None = None,
    top_k: int = 1,
    exact: bool = True,
    every_move: bool = True,
    exact_solver: ExactSearch | None = None,
    max_iterations: int | None = None,
    stop: StopSignal | None = None,
) -> Analysis:
    """The analysis behind ``analyse`` (with the search's counts and which search answered).

    ``exact_solver`` passes a table kept from earlier moves of the same game; ``max_iterations``
    caps a timed sampling search (the easier levels)."""
    require_running(state)
    if seconds is None and iterations is None:
        raise ValueError("analysis needs a time or an iteration budget")
    started = time.perf_counter()
    if exact and min(state.pos) >= EXACT_FROM:
        solver = exact_solver if exact_solver is not None else ExactSearch()
        solver.nodes = 0
        if iterations is not None:
            solver.node_limit, solver.deadline = max(1, int(iterations * NODES_PER_ITERATION)), math.inf
        else:
            solver.node_limit = 10**9
            solver.deadline = started + EXACT_SHARE * (seconds or 0.0)
        if stop is not None:
            stop.attach(solver.give_up)
        solved = exact_analysis(state, solver, every_move)
        if solved is not None:
            return solved
    if state.pending >= 0:
        return _leather_analysis(state, seconds=_left(seconds, started), iterations=iterations, seed=seed,
                                 advisor=advisor, max_iterations=max_iterations, stop=stop)
    moves = root_moves(state, advisor, top_k)
    if len(moves) == 1:
        # the only move, played without a search: its figures are not ``valued``
        return Analysis([AnalysedMove(ADVANCE, 0.5, 0.0, 0, False, (ADVANCE,))], False,
                        notes=["no affordable patch fits"])
    return sampled_analysis(state, moves, seconds=_left(seconds, started), iterations=iterations, seed=seed,
                            max_iterations=max_iterations, stop=stop)


def _left(seconds: float | None, started: float) -> float | None:
    """What is left of the budget for sampling (at least 30% of it, after a failed exact try)."""
    if seconds is None:
        return None
    return max(seconds - (time.perf_counter() - started), 0.3 * seconds)


def analyse(state: State, *, seconds: float | None = None, iterations: int | None = None,
            seed: int = 0, advisor: PlacementAdvisor | None = None) -> list[AnalysedMove]:
    """Every root move of ``state`` with its figures, best first (see ``AnalysedMove``)."""
    return run_analysis(state, seconds=seconds, iterations=iterations, seed=seed, advisor=advisor).moves
