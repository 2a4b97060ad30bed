"""The live analysis of a position: one loop that thinks until it is stopped or its time is up,
telling what it knows as it goes. The service's analysis stream, ``patchwork hint --watch`` and the
engine's ``go infinite`` are its three faces; each reads the same snapshots (``LiveSnapshot``) and
says a line in the same words (``snapshot_json``).

The loop keeps one compiled UCT search (``fastcore.CompiledSearch``) over the analysis's candidate
moves (``position.candidate_moves``: the hint's own) and continues it in slices (``run.run_until``),
so its figures grow as it thinks instead of starting afresh. UCT spends its visits on the move it
values best: a line whose figures trail the best by more than its exploration makes up gets no visit
for seconds (the page's lines 2 and 3 stood still while line 1 grew). So each round the one search
runs first; every line shown (the best ``MAX_LINES``) it left unvisited then thinks on in a tree of
its own from that move (``clock.LINES_SHARE`` of the round, shared among them), and a move's figures
are both trees' together (root parallelism: visits summed, win and margin weighted by visits, then
the win map), so every line shown grows in every snapshot. Late in the game the compiled exact
search (``exactcore.solve``, every move) takes its share of each round (``clock.EXACT_SHARE`` where
its estimate says it can finish within the time the loop has, a probe of it, ``clock.PROBE_SHARE``,
elsewhere), restarted each round on one table kept for the whole analysis: what earlier rounds
proved is found again in the table at once (measured on noisy-greedy positions from spaces 36 to
44: rounds of 0.1 s solved each as soon as one long search did). So its anytime root proves
outcomes ("a sure win by at least 3 points") while the sampled figures grow beside it, and what any
round proved stands (``with_proven``). Once it has solved the position every figure is exact and the
loop ends.

A snapshot comes ``FIRST_SNAPSHOT`` seconds after the start, then every ``SNAPSHOT_EVERY`` seconds
(the service promises 0.3 s and 0.5 s); a stop (``StopSignal``, from any thread) ends the slice
running within milliseconds and the loop with one last snapshot.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from patchwork_opt.ai.analysis import position, run
from patchwork_opt.ai.base import AnalysedMove, SearchedPosition, move_key
from patchwork_opt.ai.heuristic import leather_cell
from patchwork_opt.ai.learned.winmap import track_progress
from patchwork_opt.ai.search import exactcore
from patchwork_opt.ai.search.exact import final_value, value_margin
from patchwork_opt.ai.search.fastcore import MAX_CHILDREN, CompiledEvaluator, CompiledSearch
from patchwork_opt.ai.seeding import require_running
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.clock import EXACT_SHARE, LINES_SHARE, PROBE_SHARE, Clock, Deadline, bounded
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import words_in
from patchwork_opt.i18n import _

#: seconds from the start to the first snapshot, and between snapshots after it
FIRST_SNAPSHOT = 0.15
SNAPSHOT_EVERY = 0.4
#: seconds the placement advisor has to rank the offers' placements before the search starts
CANDIDATE_SECONDS = 0.08
#: lines a snapshot reports at most, and plies of each line
MAX_LINES = 5
LINE_PLIES = 6
#: the exact search's reach without a maximum duration: the seconds it looks ahead to
OPEN_HORIZON = 600.0

End = Literal["solved", "time", "stopped"]
SearchKind = Literal["exact", "partly exact", "sampled"]


@dataclass(frozen=True, slots=True)
class LiveSnapshot:
    """What the analysis knows ``seconds`` after it started, over ``nodes`` (the sampling's
    iterations and the exact search's positions so far): ``analysis``, every move it valued, best
    first. ``end`` says why the last snapshot is the last (solved, time up, stopped); None before."""

    seconds: float
    nodes: int
    analysis: SearchedPosition
    end: End | None = None

    @property
    def done(self) -> bool:
        return self.end is not None

    @property
    def search(self) -> SearchKind:
        """exact: every move proven; partly exact: some outcomes proven; sampled: none."""
        if self.analysis.solved:
            return "exact"
        return "partly exact" if any(m.outcome_proven for m in self.analysis.moves) else "sampled"

    def lines(self, count: int = MAX_LINES) -> list[AnalysedMove]:
        """The best ``count`` moves worth showing (at most three placements of a patch)."""
        return self.analysis.shown()[:count]


# --- the sampling search, continued ---------------------------------------------------------------


class _Sampler:
    """The compiled UCT over the root moves, continued round after round, and a tree of its own for
    each line shown that it left unvisited in a round (made the first time, continued after)."""

    def __init__(self, state: State, moves: Sequence[Move], *, seed: int, capacity: int,
                 evaluator: CompiledEvaluator) -> None:
        self.state = state
        self.search = CompiledSearch(state, list(moves), seed=seed, capacity=capacity, evaluator=evaluator)
        self.seed, self.evaluator = seed, evaluator
        # a line's tree has a share of the share of the time: no more nodes than that needs
        self.own_capacity = int(capacity * LINES_SHARE / 2) + 1000
        self.own: dict[Move, CompiledSearch] = {}

    @property
    def iterations(self) -> int:
        return self.search.iterations + sum(tree.iterations for tree in self.own.values())

    def think(self, until: Deadline, stop: StopSignal) -> None:
        before = _root_visits(self.search)
        run.run_until(self.search, until.share(1.0 - LINES_SHARE), None, stop, False)
        after = _root_visits(self.search)
        left = [m for m in self._shown() if after.get(m, 0) == before.get(m, 0)]
        if not left:
            run.run_until(self.search, until, None, stop, False)
        for i, move in enumerate(left):  # the time left, shared equally
            run.run_until(self._own(move), until.share(1.0 / (len(left) - i)), None, stop, False)

    def _own(self, move: Move) -> CompiledSearch:
        if move not in self.own:
            seed = self.seed + 1 + self.search.root_moves.index(move)
            self.own[move] = CompiledSearch(self.state, [move], seed=seed, capacity=self.own_capacity,
                                            evaluator=self.evaluator)
        return self.own[move]

    def _shown(self) -> list[Move]:
        """The moves of the lines a snapshot would show now."""
        found = SearchedPosition.of(self.state, self.moves())
        return [m.move for m in replace(found, moves=position.ranked(found)).shown()[:MAX_LINES]]

    def moves(self) -> list[AnalysedMove]:
        """Every move's figures, most visited first: the one search's with its own tree's added
        (visits summed, the search's win and margin weighted by visits), through the win map."""
        if not self.own:
            return run.searched_moves(self.search, LINE_PLIES)
        own = {m: tree.analysed(LINE_PLIES)[0] for m, tree in self.own.items() if tree.iterations}
        joined = [_joined(m, own.get(m.move)) for m in self.search.analysed(LINE_PLIES)]
        mapped = run.search_map_for(self.evaluator)
        if mapped is not None:
            progress = track_progress(self.state)
            joined = [replace(m, win=run.mapped_win(mapped, self.state, m.move, m.win, progress)) for m in joined]
        return sorted(joined, key=lambda m: -m.visits)


def _root_visits(search: CompiledSearch) -> dict[Move, int]:
    return {r.move: r.visits for r in search.stats()}


def _joined(shared: AnalysedMove, own: AnalysedMove | None) -> AnalysedMove:
    """A move's figures from two trees (root parallelism): the visits summed, the win chance and the
    margin the searches backed up weighted by their visits, the line of the tree that visited it more."""
    if own is None:
        return shared
    n = shared.visits + own.visits
    win = (shared.win * shared.visits + own.win * own.visits) / n
    margin = (shared.margin * shared.visits + own.margin * own.visits) / n
    line = shared.line if shared.visits >= own.visits else own.line
    return replace(shared, win=win, margin=margin, visits=n, line=line, searched=win)


class _LeatherSampler:
    """A pending leather patch: the heuristic's cell, valued by sampling the position it leads to
    (as ``run``'s analysis does); the other cells are left to the exact search."""

    def __init__(self, state: State, advisor: PlacementAdvisor | None, *, seed: int, capacity: int,
                 evaluator: CompiledEvaluator) -> None:
        self.player = state.to_move()
        self.move = Move("leather", -1, leather_cell(state.quilts[self.player], state.bonus < 0))
        self.after = state.clone()
        self.after.leather_unchecked(self.player, self.move.mask)
        self.inner: _Sampler | None = None
        if not self.after.is_terminal():
            moves = run.root_moves(self.after, advisor)
            self.inner = _Sampler(self.after, moves, seed=seed, capacity=capacity, evaluator=evaluator)

    @property
    def iterations(self) -> int:
        return 0 if self.inner is None else self.inner.iterations

    def think(self, until: Deadline, stop: StopSignal) -> None:
        if self.inner is not None:
            self.inner.think(until, stop)

    def moves(self) -> list[AnalysedMove]:
        if self.inner is None:  # the leather patch ends the game
            v = final_value(self.after, self.player)
            return [AnalysedMove(self.move, 1.0 if v > 0 else 0.0, value_margin(v), 0, True, (self.move,), v)]
        best = self.inner.moves()[0]
        line = (self.move, *best.line)
        if self.after.to_move() == self.player:
            return [replace(best, move=self.move, line=line)]
        searched = None if best.searched is None else 1.0 - best.searched
        return [AnalysedMove(self.move, 1.0 - best.win, -best.margin, best.visits, False, line, searched=searched)]


def _sampler(state: State, advisor: PlacementAdvisor | None, *, seed: int, capacity: int,
             evaluator: CompiledEvaluator) -> _Sampler | _LeatherSampler:
    if state.pending >= 0:
        return _LeatherSampler(state, advisor, seed=seed, capacity=capacity, evaluator=evaluator)
    moves = position.candidate_moves(state, advisor)[:MAX_CHILDREN]
    return _Sampler(state, moves, seed=seed, capacity=capacity, evaluator=evaluator)


# --- the exact search, round after round ---------------------------------------------------------


class _Prover:
    """The compiled exact search over every move, restarted each round on one table: what a round
    proved is kept (the strongest proof of each move up to symmetry) until one round solves it all."""

    def __init__(self, state: State, horizon: float, stop: StopSignal) -> None:
        self.state = state
        self.quilt = state.quilts[state.to_move()]
        self.idle = exactcore.out_of_reach(state)  # no round is worth running (nor compiling)
        estimate = math.inf if self.idle else exactcore.estimate_seconds(state, every_move=True,
                                                                          quantile=run.EXACT_QUANTILE)
        self.in_reach = estimate <= run.PROBE_REACH * EXACT_SHARE * horizon
        self.table = run.table_for(EXACT_SHARE * horizon, None)
        self.proofs: dict[tuple[str, int, int], AnalysedMove] = {}
        self.solved: SearchedPosition | None = None
        self.nodes = 0
        self._stop = stop
        self._stopper: Callable[[], None] | None = None
        stop.attach(self._stop_round)

    def _stop_round(self) -> None:
        stopper = self._stopper
        if stopper is not None:
            stopper()

    def _register(self, stopper: Callable[[], None]) -> None:
        """The running round's stopper (``exactcore.solve`` hands it over as it starts)."""
        self._stopper = stopper
        if self._stop.is_set():
            stopper()

    def round(self, until: Deadline) -> None:
        """One round within its share of the time to ``until`` (none where the search is out of reach)."""
        if self.idle:
            return
        share = until.share(EXACT_SHARE)
        budget = share if self.in_reach else share.share(PROBE_SHARE)
        found = exactcore.solve(self.state, deadline=budget, every_move=True, table=self.table, pv_plies=LINE_PLIES,
                                stop=self._register)
        self.nodes += found.nodes
        if found.solved:
            self.solved = found
            return
        for m in found.moves:
            key = move_key(self.quilt, m.move)
            old = self.proofs.get(key)
            if old is None or _stronger(m, old):
                self.proofs[key] = m


def _stronger(new: AnalysedMove, old: AnalysedMove) -> bool:
    """Whether proof ``new`` of a move says at least as much as ``old``: an exact value over a bound,
    a higher floor of a win, a lower bound of a loss."""
    if new.exact or old.exact:
        return new.exact
    if new.floor is not None and old.floor is not None:
        return new.floor >= old.floor
    if new.bound and old.bound:
        return (new.value or 0) <= (old.value or 0)
    return True


# --- the loop ----------------------------------------------------------------------------------------


def live_analysis(state: State, *, stop: StopSignal | None = None, max_seconds: float | None = None,
                  advisor: PlacementAdvisor | None = None, seed: int = 0,
                  evaluator: CompiledEvaluator | None = None, clock: Clock = time.perf_counter,
                  ) -> Iterator[LiveSnapshot]:
    """Snapshots of the analysis of ``state`` as it thinks: the first ``FIRST_SNAPSHOT`` seconds
    after the start, then every ``SNAPSHOT_EVERY`` seconds, until ``stop`` is set, ``max_seconds``
    have passed (None: no limit) or the exact search has solved the position; the last snapshot
    says which (``end``). ``advisor`` places the offers' candidate placements (within
    ``CANDIDATE_SECONDS``), ``evaluator`` values the sampling's leaves (None: the default)."""
    require_running(state)
    stop = stop if stop is not None else StopSignal()
    started = clock()
    total = Deadline.after(max_seconds, clock) if max_seconds is not None else None
    horizon = max_seconds if max_seconds is not None else OPEN_HORIZON
    evaluator = evaluator if evaluator is not None else run.default_evaluator()
    capacity = min(run.MAX_NODES, int(horizon * run.capacity_per_second(evaluator)) + 1000)
    sampler = _sampler(state, bounded(advisor, Deadline.after(CANDIDATE_SECONDS, clock)), seed=seed,
                       capacity=capacity, evaluator=evaluator)
    prover = _Prover(state, horizon, stop)
    due = started + FIRST_SNAPSHOT
    while True:
        until = Deadline(due if total is None else min(due, total.at), clock)
        prover.round(until)
        if prover.solved is None:
            sampler.think(until, stop)
        end: End | None = ("solved" if prover.solved is not None else "stopped" if stop.is_set()
                           else "time" if total is not None and total.expired() else None)
        yield LiveSnapshot(clock() - started, sampler.iterations + prover.nodes, _known(state, sampler, prover), end)
        if end is not None:
            return
        due = clock() + SNAPSHOT_EVERY


def _known(state: State, sampler: _Sampler | _LeatherSampler, prover: _Prover) -> SearchedPosition:
    """Every move valued so far, best first: the exact search's when it solved the position, else the
    sampled figures with what the exact search proved standing (``with_proven``)."""
    if prover.solved is not None:
        return replace(prover.solved, moves=position.ranked(prover.solved))
    sampled = SearchedPosition.of(state, sampler.moves(), iterations=sampler.iterations)
    found = run.with_proven(sampled, list(prover.proofs.values()))
    return replace(found, moves=position.ranked(found), nodes=prover.nodes)


# --- one way of saying it ------------------------------------------------------------------------------


def spoken_line(state: State, line: Sequence[Move]) -> list[tuple[int, Move, str]]:
    """Each move of ``line`` from ``state`` with its mover and in their words (``core.words.words_in``).
    The sampling search places a leather patch a move earns on the heuristic's cell without listing
    it (``fastcore.resolve_leather``): that placement is said where it happens."""
    walk = state.clone()
    out = []
    for move in line:
        if walk.pending >= 0 and move.kind != "leather":
            p = walk.to_move()
            placed = Move("leather", -1, leather_cell(walk.quilts[p], walk.bonus < 0))
            out.append((p, placed, words_in(walk, placed)))
            walk.apply(placed)
        if walk.is_terminal():
            break
        out.append((walk.to_move(), move, words_in(walk, move)))
        walk.apply(move)
    return out


def margin_bounds(m: AnalysedMove) -> tuple[float | None, float | None]:
    """The final margin a move is proven to reach at least and at most (None: not proven)."""
    if m.exact:
        return m.margin, m.margin
    if m.floor is not None:
        return value_margin(m.floor), None
    if m.bound and m.value is not None:
        return None, value_margin(m.value)
    return None, None


def line_step_words(player: int, move_words: str) -> str:
    """A move of a line with who makes it: ``Player 2: advance 3 spaces (+3 buttons)``."""
    # Translators: a move of the analysis's line: who makes it (Player 1 or 2) and the move in words
    return _("Player {number}: {move}", number=player + 1, move=move_words)


def line_json(state: State, m: AnalysedMove) -> dict[str, Any]:
    """One line of a snapshot as the stream, ``hint --watch --json`` and the page read it."""
    said = spoken_line(state, m.line or (m.move,))
    at_least, at_most = margin_bounds(m)
    return {
        "move": m.move.to_json(),
        "words": words_in(state, m.move),
        "win": round(m.win, 4),
        "margin": round(m.margin, 2),
        "proven": m.exact,
        "outcome_proven": m.outcome_proven,
        "margin_at_least": at_least,
        "margin_at_most": at_most,
        "outcome": position.outcome_words(m),
        "visits": m.visits,
        "line": [line_step_words(p, text) for p, _, text in said],
        "line_moves": [{"player": p, "move": move.to_json()} for p, move, _ in said],
    }


def snapshot_json(state: State, snapshot: LiveSnapshot, count: int = MAX_LINES) -> dict[str, Any]:
    """A snapshot as one JSON object: ``seconds``, ``nodes``, ``player`` (to move), ``search``,
    ``done``, ``end`` and ``lines`` (``line_json``, best first)."""
    return {
        "seconds": round(snapshot.seconds, 3),
        "nodes": snapshot.nodes,
        "player": snapshot.analysis.player,
        "search": snapshot.search,
        "done": snapshot.done,
        "end": snapshot.end,
        "lines": [line_json(state, m) for m in snapshot.lines(count)],
    }
