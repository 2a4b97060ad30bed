"""The strongest bot: the compiled UCT with advisor-placed root buys, and the exact endgame.

Each move is ``search.run_analysis`` by the move's one deadline (``core.clock.Deadline``, made as
the move starts from ``time_per_move``; the advisor and ``bonus_feasible`` are bounded by it): late
in the game the compiled exact search (``exactcore``) over every legal move (all placements, every
leather cell) tries to solve the rest of the game within its share of the move's time
(``clock.EXACT_SHARE``), from wherever its estimate says it can, with a table kept across
the game's moves, and a winning move is played whenever one exists; otherwise the compiled UCT
(``fastcore``, ~30x the iterations of ``mcts``) compares advance, each affordable offer placed
where the plugged-in ``PlacementAdvisor`` ranks first (the CP-SAT best fit with lookahead, when the
caller plugs it in) and any placement completing a 7x7 square. Below the root it branches on
buy/advance with heuristic placements and values its leaves with the evaluator it is given (the
learned value by default, ``search.default_evaluator``), so it sees an opponent about to
complete their 7x7 with an offered patch and buys it away when that wins more games; it stops
once its most visited move can no longer change. After an exact attempt that ran out of time it
waits two spaces before trying again. ``bonus_feasible`` is asked when a window is nearly
covered, and the reason reports it.

``reference=True`` is today's solver kept fixed as ``solver-rollout`` (the registry builds it):
the rollout evaluator, the Python exact search (``exact.ExactSearch``) from space ``EXACT_FROM``
with its node caps, no early stop.

``max_iterations`` stops a timed search early and ``blunder`` (the easy levels) plays, with that
chance, a random legal move (a random move kind, then a random placement: ``random_play.random_move``)
instead of the best. Without an advisor the bot uses ``HeuristicAdvisor`` and says so in its name:
``solver(heuristic)``.
"""

from __future__ import annotations

import random
import time

from patchwork_opt.ai.analysis.run import (
    COMPILED_NODES_PER_ITERATION,
    EXACT_FROM,
    default_evaluator,
    run_analysis,
    table_for,
)
from patchwork_opt.ai.base import AnalysedMove, Decision, SearchedPosition
from patchwork_opt.ai.explain import describe, reason
from patchwork_opt.ai.heuristic import window_progress
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.ai.search import exactcore, fastcore
from patchwork_opt.ai.search.candidates import completing_placement
from patchwork_opt.ai.search.exact import ExactSearch
from patchwork_opt.ai.search.exactcore import ExactTable
from patchwork_opt.ai.search.fastcore import CompiledEvaluator
from patchwork_opt.ai.seeding import decision_rng, require_running
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.clock import EXACT_SHARE, Clock, Deadline, bounded
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import _

BONUS_CHECK_FROM = 38  # ask the advisor about the 7x7 once a window has this many cells covered
BONUS_POOL = 12  # patches of the circle offered to bonus_feasible
EXACT_RETRY = 2  # after a failed exact attempt, wait until both tokens are this many spaces further
ROOT_PLACEMENTS = 3  # placements of each offer compared at the root (3 beat 1: 26-14 at 8,000 iterations)
TABLE_LIMIT = 500_000  # the reference's exact-search table entries kept between moves (~150 MB)


def bonus_notes(state: State, advisor: PlacementAdvisor | None) -> list[str]:
    """What the reason says about the 7x7 square: completions on offer, for either player."""
    if state.bonus >= 0:
        return []
    p = state.to_move()
    notes: list[str] = []
    for pid in (state.circle[k] for k in state.affordable_offers(p)):
        if completing_placement(state.quilts[p], pid):
            notes.append(f"#{pid} completes the 7x7 square")
    opponent = 1 - p
    for pid in (state.circle[k] for k in state.affordable_offers(opponent)):
        if completing_placement(state.quilts[opponent], pid):
            notes.append(f"the opponent could complete their 7x7 with #{pid}")
    if advisor is not None and window_progress(state.quilts[p]) >= BONUS_CHECK_FROM:
        feasible = advisor.bonus_feasible(state.quilts[p], state.circle[:BONUS_POOL])
        if feasible is True:
            notes.append("my 7x7 square can still be completed")
        elif feasible is False:
            notes.append("my 7x7 square is out of reach")
    return notes


def explain(analysis: SearchedPosition, chosen: AnalysedMove) -> str:
    """The one sentence of ``explain.reason`` for the move chosen from ``analysis``."""
    others = [m for m in analysis.moves if m.move != chosen.move and m.valued]
    return reason(chosen, others[0] if others else None, analysis.nodes if analysis.exact else None)


class SolverBot:
    """Exact endgame + compiled UCT; ``iterations`` gives a repeatable fixed budget.

    ``evaluator`` values the search's leaves (None: the default, the learned value; the rollout
    when ``reference``); ``clock`` times its moves (tests pass a fake one)."""

    def __init__(
        self,
        advisor: PlacementAdvisor | None,
        *,
        seed: int | None = None,
        time_per_move: float = 0.5,
        iterations: int | None = None,
        top_k: int = ROOT_PLACEMENTS,
        exact: bool = True,
        blunder: float = 0.0,
        max_iterations: int | None = None,
        evaluator: CompiledEvaluator | None = None,
        reference: bool = False,
        clock: Clock = time.perf_counter,
    ) -> None:
        self.advisor = advisor
        self.name = "solver" if advisor is not None else "solver(heuristic)"
        self.seed = seed
        self.time_per_move = time_per_move
        self.iterations = iterations
        self.top_k = top_k
        self.exact = exact
        self.blunder = blunder
        self.max_iterations = max_iterations  # caps a timed search (the easier levels)
        self.reference = reference
        self.clock = clock
        if evaluator is None:
            evaluator = fastcore.ROLLOUT if reference else default_evaluator()
        self.evaluator = evaluator
        # the exact search is tried from this space on (raised after an attempt ran out of budget)
        self._exact_from = EXACT_FROM if reference else 0
        self._failed_at = -1  # where that attempt was: a position behind it is another game's
        self._reference_table = ExactSearch()
        self._table: ExactTable | None = None  # made at the first exact attempt, kept for the game
        fastcore.warm_up(evaluator)
        if exact and not reference:
            exactcore.warm_up()

    def _exact_table(self, state: State) -> ExactTable | ExactSearch:
        """The exact search's table for this move: the compiled one kept across a game (it starts
        afresh by itself on another game's position), or the reference's."""
        behind = min(state.pos)
        if self.reference:
            if behind < EXACT_FROM:
                self._exact_from = EXACT_FROM  # a new game
                self._reference_table = ExactSearch()
            if len(self._reference_table.table) > TABLE_LIMIT:
                self._reference_table = ExactSearch()
            return self._reference_table
        if behind < self._failed_at:
            self._exact_from, self._failed_at = 0, -1  # a new game
        if self._table is None:
            if self.iterations is not None:
                self._table = table_for(None, int(self.iterations * COMPILED_NODES_PER_ITERATION))
            else:
                self._table = table_for(EXACT_SHARE * self.time_per_move, None)
        return self._table

    def deadline(self) -> Deadline | None:
        """A move's deadline, made as it starts (None with an iteration budget)."""
        return None if self.iterations is not None else Deadline.after(self.time_per_move, self.clock)

    def analyse(self, state: State, deadline: Deadline | None = None,
                stop: StopSignal | None = None) -> SearchedPosition:
        """The move's analysis by ``deadline`` (None: a fresh one of ``time_per_move``), cut short
        when ``stop`` is set (an engine's ``stop``: the best move so far is played)."""
        behind = min(state.pos)
        table = self._exact_table(state)
        rng = decision_rng(self.seed, state)
        analysis = run_analysis(
            state,
            deadline=deadline if deadline is not None else self.deadline(),
            iterations=self.iterations,
            seed=rng.randrange(1 << 31),
            advisor=self.advisor,
            top_k=self.top_k,
            exact=self.exact and behind >= self._exact_from,
            every_move=False,
            exact_solver=table,
            max_iterations=self.max_iterations,
            evaluator=self.evaluator,
            early_stop=not self.reference,
            stop=stop,
        )
        if analysis.exact_failed:
            self._exact_from, self._failed_at = behind + EXACT_RETRY, behind
        return analysis

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
        """The move for ``state`` within the move's time (or iterations); ``stop`` ends the
        search early with the best move found so far."""
        require_running(state)
        started = time.perf_counter()
        deadline = self.deadline()
        analysis = self.analyse(state, deadline, stop)
        chosen = analysis.best
        reason = explain(analysis, chosen)
        if self.blunder > 0:
            rng = random.Random(decision_rng(self.seed, state).random())
            if rng.random() < self.blunder:
                guess = random_move(state, rng)
                chosen = next((m for m in analysis.moves if m.move == guess),
                              AnalysedMove(guess, 0.5, 0.0, 0, False, (guess,)))  # not valued
                # Translators: why an easy AI level plays {move}: a guess made on purpose
                reason = _("{move} (an easy level's deliberate guess)", move=describe(guess))
        notes = bonus_notes(state, bounded(self.advisor, deadline)) if state.pending < 0 else []
        if notes:
            reason += "; " + "; ".join(notes)
        stats = {
            "iterations": float(analysis.iterations),
            "nodes": float(analysis.nodes),
            "seconds": time.perf_counter() - started,
            "visits": float(chosen.visits),
            "exact": float(chosen.exact),
        }
        if chosen.valued and not chosen.bound:
            stats["margin"] = float(chosen.margin)
        return Decision(chosen.move, reason, expected=chosen.win if chosen.valued else None, stats=stats)
