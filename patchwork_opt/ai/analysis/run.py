"""Position analysis: every root move with its win chance, expected margin, visits and line.

The one entry point the solver bot, ``patchwork move`` and reviews use. Late in the game the
exact search tries to solve the rest of the game over every legal move within a share of the
budget; when it finishes the figures are exact (win 1 or 0, the final margin under best play).
It is the compiled one (``exactcore``), tried wherever its estimate says it can finish in that
share (not from a fixed space; probed where the estimate is a little over it: ``exact_budget``),
with the bot's table kept across a game's moves.
When it runs out of its share, the root moves it proved stand (``with_proven``: exact figures for
those, the rest sampled) and the sampling search has all the time left. Otherwise the
compiled UCT (``fastcore``) samples: root moves are advance and each affordable offer placed
where the advisor ranks first, plus any placement completing a 7x7 (this search's options of the
one candidate list, ``candidates``), leaves valued by the evaluator passed in (the learned value
by default, ``default_evaluator``). A search may stop early once its most visited root move can
no longer change (``settled``; the bot's always, the analysis's when timed). Every move comes
back as the one analysed-move type, ``AnalysedMove``, in the one searched-position type,
``SearchedPosition``.

Time is one ``Deadline`` (``core.clock``) made by the caller: the exact search takes its share of
it, the advisor and the sampling search what that leaves; nothing here cuts time otherwise. An
iteration budget replaces the clock (repeatable searches).

The reference bot ``solver-rollout`` keeps the search as it was before the learned value: the
rollout evaluator, the rollout's tree capacity, no early stop, and the Python exact search
(``exact.ExactSearch``: pass one as ``exact_solver``) from space ``EXACT_FROM`` with its node caps.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from patchwork_opt.ai.base import AnalysedMove, SearchedPosition, move_key
from patchwork_opt.ai.heuristic import leather_cell
from patchwork_opt.ai.learned.value import (
    SHIPPED_WEIGHTS,
    learned_evaluator,
    win_after,
)
from patchwork_opt.ai.learned.winmap import SHIPPED_SEARCH_MAP, SearchMap, file_digest, read_search_map, track_progress
from patchwork_opt.ai.search import exactcore
from patchwork_opt.ai.search.candidates import candidate_moves
from patchwork_opt.ai.search.exact import ExactSearch, final_value, value_margin
from patchwork_opt.ai.search.exactcore import ExactTable
from patchwork_opt.ai.search.fastcore import MAX_CHILDREN, ROLLOUT, CompiledEvaluator, CompiledSearch
from patchwork_opt.ai.seeding import require_running
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.clock import EXACT_SHARE, PROBE_SHARE, Deadline, bounded
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal

SLICE = 256  # iterations per call into the compiled core between clock checks (at most)
MAX_NODES = 400_000  # tree nodes at most (about 220 MB)
#: Tree capacity per second of search, by evaluator name (the core's speed with it, generously);
#: an evaluator not named here gets the rollout's.
NODES_PER_SECOND = 120_000  # the rollout's (``solver-rollout``'s, kept as it was)
CAPACITY_PER_SECOND: dict[str, int] = {ROLLOUT.name: NODES_PER_SECOND, "learned": 250_000}
#: The compiled exact search's nodes per iteration of an iteration budget: its share of the time
#: the iterations take (it visits about 4.4 nodes in the time UCT with the learned value runs one
#: iteration, measured in one process on the same late positions).
COMPILED_NODES_PER_ITERATION = 2.0
#: The exact search gets its share (``clock.EXACT_SHARE``) where its estimate's ``EXACT_QUANTILE`` fits in
#: it: one position in four like it finishes there, enough to risk half a move on (an exact answer plays
#: perfectly; half the sampling costs little); the median alone turned away a late endgame at level 3
#: (0.5 s a move) that is solved in 0.02 s. The estimate is fitted on every style of play (issue 35) but
#: its spread is wide, so where that estimate is at most ``PROBE_REACH`` times the share a probe of
#: ``clock.PROBE_SHARE`` of it still runs: a few hundredths of a second that solve the positions the
#: estimate over-prices most. Nowhere else for the best move alone; for every move (hints, reviews) a
#: probe runs wherever no full attempt does: its first round proves who wins after each move in a
#: decided game at any stage (issue 35: 6 of the 40 suite positions from 40 and 36 had every move's
#: outcome proven within 0.2 s though the estimate was 47-3,300x over), for 5% of the time.
EXACT_QUANTILE = 0.25
PROBE_REACH = 10.0
EXACT_TABLE_MB = 128.0  # a bot's exact-search table at most
#: a bot's table entries per node its exact search may visit in one move (the table is cleared and
#: touched whole when made, once a game: no larger than the searches need)
TABLE_ENTRIES_PER_NODE = 2.0
#: the reference (Python) exact search: from this space, with this many nodes per iteration
EXACT_FROM = 40
NODES_PER_ITERATION = 0.5


@functools.cache
def default_evaluator() -> CompiledEvaluator:
    """The leaf evaluator of every search not told otherwise: the learned value of the shipped
    weights alone. Measured against the rollout with the same search: 76 of 120 games at 0.1 s a
    move, where mixing in rollouts did no better (half and half: 22 of 40; four or eight plies of
    rollout before the value: 50 of 80, 45 of 80) and cost time."""
    return learned_evaluator()


# --- the search's win map (``learned/winmap.py``) ---------------------------------------------


@functools.cache
def shipped_search_map() -> SearchMap | None:
    """The map shipped beside the weights, when it was fitted with them and the default evaluator
    at its UCT constant (None otherwise: the figures are then the search's own)."""
    if not SHIPPED_SEARCH_MAP.exists():
        return None
    found = read_search_map(SHIPPED_SEARCH_MAP)
    default = default_evaluator()
    if (found.weights != file_digest(SHIPPED_WEIGHTS) or found.evaluator != default.name
            or found.exploration != default.exploration):
        return None
    return found


def search_map_for(evaluator: CompiledEvaluator) -> SearchMap | None:
    """The win map of a search valued by ``evaluator``: the shipped one for the default evaluator
    (the shipped weights), none for any other (the rollout's figures stay as they were)."""
    default = default_evaluator()
    if evaluator is default or evaluator == default:
        return shipped_search_map()
    return None


def mapped_win(mapped: SearchMap, state: State, move: Move, win: float, progress: float) -> float:
    """``win``, the chance the search backed up for ``move``, through ``mapped``."""
    return mapped.apply(float(win), progress, win_after(state, move)[0] if mapped.d else 0.5)


def capacity_per_second(evaluator: CompiledEvaluator) -> int:
    return CAPACITY_PER_SECOND.get(evaluator.name, NODES_PER_SECOND)


def root_moves(state: State, advisor: PlacementAdvisor | None, top_k: int = 1) -> list[Move]:
    """This search's candidates: advance, each affordable offer at the ``top_k`` placements the
    advisor ranks first (the heuristic while the quilt is nearly empty), and any placement that
    completes a 7x7 square."""
    return candidate_moves(state, per_offer=top_k, advisor=advisor)[:MAX_CHILDREN]


def settled(visits: np.ndarray, left: float) -> bool:
    """Whether ``left`` more iterations cannot change the most visited root move (``visits`` of
    each root move): its lead over the runner-up is more than they could add to the runner-up."""
    if len(visits) < 2:
        return True
    top, second = np.partition(visits, len(visits) - 2)[-2:][::-1]
    return bool(top - second > left)


def _root_visits(search: CompiledSearch) -> np.ndarray:
    """Visits of every root move (0 for those not tried yet)."""
    out = np.zeros(len(search.root_moves))
    n = int(search.n_exp[0])
    out[:n] = search.visits[search.child[0, :n]]
    return out


def sampled_analysis(state: State, moves: Sequence[Move], *, deadline: Deadline | None,
                     iterations: int | None, seed: int, pv_plies: int = 4,
                     max_iterations: int | None = None, stop: StopSignal | None = None,
                     evaluator: CompiledEvaluator | None = None, early_stop: bool = False) -> SearchedPosition:
    """The compiled UCT over ``moves`` with leaves valued by ``evaluator`` (None: the default,
    ``default_evaluator``): exactly ``iterations``, or until ``deadline`` (stopping early at
    ``max_iterations``, the easier levels' cap, or when ``stop`` is set: what it has so far).

    A timed search runs in slices of at most ``SLICE`` iterations, the clock read between them: the
    first visits each root move once, every later one holds at most half the iterations the time
    left fits at the rate so far (half: a slice slowed by a busy machine still ends in time), so the
    last one ends by the deadline (a search whose deadline has passed still runs that first slice:
    every move gets a figure). ``early_stop`` ends the search once
    the most visited root move can no longer change: with a fixed ``iterations`` budget exactly
    (the move chosen is the full budget's), with a clock by the iterations the time left is
    expected to hold."""
    started = time.perf_counter()
    evaluator = evaluator if evaluator is not None else default_evaluator()
    if iterations is not None:
        capacity = iterations + 2
    else:
        left = deadline.remaining() if deadline is not None else 0.0
        capacity = int(min(MAX_NODES, left * capacity_per_second(evaluator) + 1000))
        if max_iterations is not None:
            capacity = min(capacity, max_iterations + 2)
    search = CompiledSearch(state, list(moves), seed=seed, capacity=capacity, evaluator=evaluator)
    if iterations is not None:
        if early_stop:
            while search.iterations < iterations:
                search.run(min(SLICE, iterations - search.iterations))
                if settled(_root_visits(search), iterations - search.iterations):
                    break
        else:
            search.run(iterations)
    else:
        run_until(search, deadline, max_iterations, stop, early_stop)
    return SearchedPosition.of(state, searched_moves(search, pv_plies), iterations=search.iterations,
                               seconds=time.perf_counter() - started)


def searched_moves(search: CompiledSearch, pv_plies: int) -> list[AnalysedMove]:
    """The compiled core's root figures as the one analysed-move type at its boundary
    (``CompiledSearch.analysed``), its evaluator's map (if it has one) making the win chances calibrated."""
    out = search.analysed(pv_plies)
    mapped = search_map_for(search.evaluator)
    if mapped is not None:
        state = search.state
        progress = track_progress(state)
        out = [replace(m, win=mapped_win(mapped, state, m.move, m.win, progress)) for m in out]
    return out


def run_until(search: CompiledSearch, deadline: Deadline | None, max_iterations: int | None,
               stop: StopSignal | None, early_stop: bool) -> None:
    """Run ``search`` in slices until ``deadline`` (see ``sampled_analysis``)."""
    cap = max_iterations if max_iterations is not None else 1 << 62
    clock = deadline.clock if deadline is not None else time.perf_counter
    at = deadline.at if deadline is not None else clock()
    ran = clock()
    search.run(min(len(search.root_moves), cap))
    while search.iterations < cap and not (stop is not None and stop.is_set()):
        now = clock()
        if now >= at:
            break
        fits = search.iterations / max(now - ran, 1e-9) * (at - now)  # iterations the time left holds
        if early_stop and settled(_root_visits(search), min(cap - search.iterations, fits)):
            break
        step = min(SLICE, int(fits / 2), cap - search.iterations)
        if step < 1:
            break
        search.run(step)


# --- the exact endgame ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExactBudget:
    """What the compiled exact search may spend on one position: a share of the clock
    (``deadline``) or a node count (``node_limit``, an iteration budget's share); ``probe`` when
    only a probe of it."""

    deadline: Deadline | None
    node_limit: int | None
    probe: bool = False


def within_reach(state: State, deadline: Deadline | None) -> bool:
    """Whether the exact search's result over every move can arrive within the whole time left on
    ``deadline``: its estimate (``EXACT_QUANTILE``: one position in four like it finishes there)
    fits in it. The analysis behind hints and reviews then waits for it (``resume_exact``)."""
    if deadline is None or exactcore.out_of_reach(state):
        return False
    return exactcore.estimate_seconds(state, every_move=True, quantile=EXACT_QUANTILE) <= deadline.remaining()


def exact_budget(state: State, *, deadline: Deadline | None, iterations: int | None,
                 every_move: bool, reach: bool = False) -> ExactBudget | None:
    """The compiled exact search's share of a budget (``clock.EXACT_SHARE`` of the time left, or
    ``COMPILED_NODES_PER_ITERATION`` nodes an iteration) when its estimate (``EXACT_QUANTILE``) says
    it finishes within it, or ``reach`` says it may finish within the whole budget (``within_reach``),
    a probe of it (``clock.PROBE_SHARE``) when the estimate is within ``PROBE_REACH`` of it, or at any
    distance for ``every_move`` (its first round proves outcomes); None when not worth trying: the
    sampling search then has the whole budget, as always where the search is out of reach
    (``exactcore.out_of_reach``). An iteration budget, when given, rules (the search is repeatable)."""
    if exactcore.out_of_reach(state):
        return None
    if iterations is not None:
        nodes = max(1, int(iterations * COMPILED_NODES_PER_ITERATION))
        over = exactcore.estimate_nodes(state, every_move=every_move, quantile=EXACT_QUANTILE) / nodes
        full = ExactBudget(None, nodes)
        short = ExactBudget(None, max(1, int(PROBE_SHARE * nodes)), probe=True)
    else:
        if deadline is None:
            return None
        share = deadline.share(EXACT_SHARE)
        seconds = share.remaining()
        if seconds <= 0:
            return None
        over = exactcore.estimate_seconds(state, every_move=every_move, quantile=EXACT_QUANTILE) / seconds
        full, short = ExactBudget(share, None), ExactBudget(share.share(PROBE_SHARE), None, probe=True)
    if over <= 1.0 or (reach and iterations is None):
        return full
    return short if over <= PROBE_REACH or every_move else None


def table_for(seconds: float | None, node_limit: int | None) -> ExactTable:
    """A table to keep for a game's exact searches of ``seconds`` each or a node limit: about the
    entries they can fill, at most ``EXACT_TABLE_MB`` (an analysis not given one uses its
    thread's, ``exactcore``'s own)."""
    nodes = node_limit if node_limit is not None else (seconds or 0.0) * exactcore.NODES_PER_SECOND
    megabytes = TABLE_ENTRIES_PER_NODE * nodes * exactcore.ENTRY_BYTES / (1 << 20)
    return ExactTable(min(EXACT_TABLE_MB, max(1.0, megabytes)))


def exact_analysis(state: State, *, deadline: Deadline | None, iterations: int | None, every_move: bool,
                   table: ExactTable | None = None, stop: StopSignal | None = None,
                   pv_plies: int = 4, reach: bool = False) -> SearchedPosition | None:
    """The compiled exact search over every legal move within its share of the budget, where it is
    worth trying (``exact_budget``, ``reach`` as there); None where it is not. Its result is
    ``solved``, or not, with the root moves it proved before its share ran out (``exactcore.solve``):
    pass those on to ``with_proven``. ``table`` is one kept across a game (``table_for``; None: the
    calling thread's, kept by ``exactcore``)."""
    budget = exact_budget(state, deadline=deadline, iterations=iterations, every_move=every_move, reach=reach)
    if budget is None:
        return None
    return _attempt(state, budget, every_move=every_move, table=table, stop=stop, pv_plies=pv_plies)


def resume_exact(state: State, deadline: Deadline, *, stop: StopSignal | None = None,
                 pv_plies: int = 4) -> SearchedPosition:
    """The exact search over every move again, until ``deadline``, after an attempt of the same
    thread ran out: the thread's table keeps what that attempt proved, so it goes on from there."""
    return _attempt(state, ExactBudget(deadline, None), every_move=True, table=None, stop=stop, pv_plies=pv_plies)


def _attempt(state: State, budget: ExactBudget, *, every_move: bool, table: ExactTable | None,
             stop: StopSignal | None, pv_plies: int = 4) -> SearchedPosition:
    return exactcore.solve(state, deadline=budget.deadline, node_limit=budget.node_limit, every_move=every_move,
                           table=table, pv_plies=pv_plies, stop=stop.attach if stop is not None else None)


def with_proven(sampled: SearchedPosition, proven: Sequence[AnalysedMove]) -> SearchedPosition:
    """``sampled`` with the root moves an unfinished exact search proved (``proven``): an exact value
    replaces the sampled figures of the same move (up to the board's symmetries); a move only proven to
    win or lose (a floor or a bound on its value) keeps its sampled visits and margin, the margin held
    within the proven bound, with the proven outcome as its win; a proven move the sampling did not list
    joins. Best first: the proven wins (exact values, best margin first, then the others by margin), the
    sampled moves in their order, the proven losses. The result is not ``exact`` (not every move is
    proven): each move's own ``exact`` says whether it is, ``outcome_proven`` whether its win or loss is."""
    if not proven:
        return sampled
    by_key = {move_key(sampled.quilt, m.move): m for m in sampled.moves}
    merged = [m if m.exact else _with_sample(m, by_key.get(move_key(sampled.quilt, m.move))) for m in proven]
    keys = {move_key(sampled.quilt, m.move) for m in proven}
    rest = [m for m in sampled.moves if move_key(sampled.quilt, m.move) not in keys]
    wins = sorted((m for m in merged if m.win > 0), key=lambda m: (not m.exact, -m.margin))
    losses = sorted((m for m in merged if m.win <= 0), key=lambda m: (not m.exact, -m.margin))
    return replace(sampled, moves=[*wins, *rest, *losses])


def _with_sample(proof: AnalysedMove, sample: AnalysedMove | None) -> AnalysedMove:
    """A move proven to win or lose, with the sampling's margin and visits where it has them: the margin
    within the proof's bound (at least a floor, at most a bound)."""
    if sample is None:
        return proof
    margin = sample.margin
    if proof.floor is not None:
        margin = max(margin, value_margin(proof.floor))
    elif proof.value is not None:
        margin = min(margin, value_margin(proof.value))
    return replace(proof, margin=margin, visits=sample.visits, line=sample.line or proof.line)


def reference_exact_analysis(state: State, solver: ExactSearch, *, deadline: Deadline | None,
                             iterations: int | None, every_move: bool,
                             stop: StopSignal | None = None) -> SearchedPosition | None:
    """The Python exact search as ``solver-rollout`` tries it: from ``EXACT_FROM``, for
    ``clock.EXACT_SHARE`` of the time left or ``NODES_PER_ITERATION`` nodes per iteration."""
    if min(state.pos) < EXACT_FROM:
        return None
    solver.nodes = 0
    solver.given_up = False
    if iterations is not None:
        solver.node_limit, solver.deadline = max(1, int(iterations * NODES_PER_ITERATION)), None
    else:
        solver.node_limit = 10**9
        solver.deadline = deadline.share(EXACT_SHARE) if deadline is not None else None
    if stop is not None:
        stop.attach(solver.give_up)
    return solver.solve(state, every_move=every_move)


def _leather_analysis(state: State, *, deadline: Deadline | None, iterations: int | None, seed: int,
                      advisor: PlacementAdvisor | None, max_iterations: int | None,
                      stop: StopSignal | None = None, evaluator: CompiledEvaluator | None = None,
                      early_stop: bool = False) -> SearchedPosition:
    """A pending leather patch outside the exact search's reach: the heuristic's cell, valued by
    sampling the position it leads to."""
    p = state.to_move()
    move = Move("leather", -1, leather_cell(state.quilts[p], state.bonus < 0))
    after = state.clone()
    after.leather_unchecked(p, move.mask)
    if after.is_terminal():
        v = final_value(after, p)
        return SearchedPosition.of(state, [AnalysedMove(move, 1.0 if v > 0 else 0.0, value_margin(v), 0, True,
                                                        (move,), v)], exact=True)
    inner = sampled_analysis(after, root_moves(after, advisor), deadline=deadline, iterations=iterations,
                             seed=seed, max_iterations=max_iterations, stop=stop, evaluator=evaluator,
                             early_stop=early_stop)
    best = inner.best
    same = after.to_move() == p
    win = best.win if same else 1.0 - best.win
    margin = best.margin if same else -best.margin
    searched = best.searched if same or best.searched is None else 1.0 - best.searched
    return SearchedPosition.of(state, [AnalysedMove(move, win, margin, best.visits, False, (move, *best.line),
                                                    searched=searched)],
                               iterations=inner.iterations, seconds=inner.seconds)


def run_analysis(
    state: State,
    *,
    deadline: Deadline | None = None,
    iterations: int | None = None,
    seed: int = 0,
    advisor: PlacementAdvisor | None = None,
    top_k: int = 1,
    exact: bool = True,
    every_move: bool = True,
    exact_solver: ExactTable | ExactSearch | None = None,
    max_iterations: int | None = None,
    stop: StopSignal | None = None,
    evaluator: CompiledEvaluator | None = None,
    early_stop: bool = False,
) -> SearchedPosition:
    """The analysis behind ``analyse`` (with the search's counts and which search answered), by
    ``deadline`` or for exactly ``iterations`` (which rule when given: the search is repeatable).

    The exact search takes its share of the time left (``exact_budget``); sampling, and the
    ``advisor`` placing its root buys (bounded by the deadline where it can be: ``clock.bounded``),
    take what it leaves, and the moves the exact search proved before it ran out keep their proofs
    (``with_proven``; ``exact_failed`` and ``nodes`` then tell of the attempt). ``exact_solver``
    passes the exact search's table kept from earlier moves of
    the same game: an ``ExactTable`` of the compiled search, or a Python ``ExactSearch``, which makes
    the exact part the reference's (``reference_exact_analysis``); ``max_iterations`` caps a timed
    sampling search (the easier levels); ``evaluator`` values the sampling search's leaves (None:
    the default) and ``early_stop`` lets it stop once its best move is settled (``sampled_analysis``)."""
    require_running(state)
    if deadline is None and iterations is None:
        raise ValueError("analysis needs a deadline or an iteration budget")
    if iterations is not None:
        deadline = None  # a fixed budget stays whole: its figures are repeatable
    attempt: SearchedPosition | None = None
    probe = False
    if exact:
        if isinstance(exact_solver, ExactSearch):
            attempt = reference_exact_analysis(state, exact_solver, deadline=deadline, iterations=iterations,
                                               every_move=every_move, stop=stop)
            if attempt is None and min(state.pos) >= EXACT_FROM:
                attempt = SearchedPosition.of(state, [])  # tried, ran out: the reference keeps nothing
        else:
            budget = exact_budget(state, deadline=deadline, iterations=iterations, every_move=every_move)
            probe = budget is not None and budget.probe  # a probe that fails is no reason to wait
            attempt = None if budget is None else _attempt(state, budget, every_move=every_move, table=exact_solver,
                                                           stop=stop)
        if attempt is not None and attempt.solved:
            return attempt
    # the exact search did not finish, or was not worth trying: sampling has the time left, and what the
    # exact search proved before it stopped stands
    sampled = _sampled(state, deadline=deadline, iterations=iterations, seed=seed,
                       advisor=bounded(advisor, deadline), top_k=top_k, max_iterations=max_iterations, stop=stop,
                       evaluator=evaluator, early_stop=early_stop)
    if attempt is None:
        return sampled
    return replace(with_proven(sampled, attempt.moves), exact_failed=not probe, nodes=attempt.nodes)


def _sampled(state: State, *, deadline: Deadline | None, iterations: int | None, seed: int,
             advisor: PlacementAdvisor | None, top_k: int, max_iterations: int | None, stop: StopSignal | None,
             evaluator: CompiledEvaluator | None, early_stop: bool) -> SearchedPosition:
    """``run_analysis`` without the exact search."""
    if state.pending >= 0:
        return _leather_analysis(state, deadline=deadline, iterations=iterations, seed=seed, advisor=advisor,
                                 max_iterations=max_iterations, stop=stop, evaluator=evaluator, early_stop=early_stop)
    moves = root_moves(state, advisor, top_k)
    if len(moves) == 1:
        # the only move, played without a search: its figures are not ``valued``
        return SearchedPosition.of(state, [AnalysedMove(ADVANCE, 0.5, 0.0, 0, False, (ADVANCE,))],
                                   notes=["no affordable patch fits"])
    return sampled_analysis(state, moves, deadline=deadline, iterations=iterations, seed=seed,
                            max_iterations=max_iterations, stop=stop, evaluator=evaluator, early_stop=early_stop)


def analyse(state: State, *, deadline: Deadline | None = None, iterations: int | None = None,
            seed: int = 0, advisor: PlacementAdvisor | None = None,
            evaluator: CompiledEvaluator | None = None) -> list[AnalysedMove]:
    """Every root move of ``state`` with its figures, best first (see ``AnalysedMove``)."""
    return run_analysis(state, deadline=deadline, iterations=iterations, seed=seed, advisor=advisor,
                        evaluator=evaluator, early_stop=iterations is None).moves
