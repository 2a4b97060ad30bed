"""The exact search's root: ``solve`` values every root move, anytime, and keeps what it proved.

A root move's exact value comes from null-window probes ("at least v?", MTD(f)) from a first guess
(``bounds.estimate_value``), the table's bounds carried from probe to probe (``_Run.exact``). With
``every_move`` False a move that cannot beat the best so far is refuted by one probe (and one more
tells whether it still wins). Each root move keeps the bounds its probes proved (``_RootWork``), so
a stop loses nothing: searching every move, a first round asks only whether each move wins, so
hints and reviews know every move's outcome long before every margin; a search stopped (deadline,
node budget, a caller's ``StopSignal``) returns what it proved, ``solved`` False. The root moves
are split over threads (``threads.py``) sharing one table.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from patchwork_opt.ai.base import AnalysedMove, SearchedPosition
from patchwork_opt.ai.search.exact import exact_move, won_move
from patchwork_opt.ai.search.exactcore.bounds import INF, estimate_value, final_value
from patchwork_opt.ai.search.exactcore.moves import ADVANCE_K, play, root_move_rows
from patchwork_opt.ai.search.exactcore.search import (
    COUNTER0,
    COUNTER_STRIDE,
    LIMIT,
    MAX_THREADS,
    SHARED_LEN,
    STOP,
    SearchStats,
    Stack,
    search_from,
)
from patchwork_opt.ai.search.exactcore.table import ExactTable
from patchwork_opt.ai.search.exactcore.threads import run_on, stacks, stop_at, thread_table
from patchwork_opt.ai.search.fastcore import CIRCLE, CLEN, encode, is_terminal, to_move
from patchwork_opt.core.clock import Deadline, solver_seconds
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.i18n import N_


class _Stopped(Exception):
    """The stop flag was raised (deadline, node budget, a caller) during a search."""


class _Run:
    """One ``solve``: the shared control array, the threads' stacks and the probes of positions."""

    def __init__(self, table: ExactTable, node_limit: int, threads: int) -> None:
        self.table = table
        self.shared = np.zeros(SHARED_LEN, dtype=np.int64)
        self.shared[LIMIT] = node_limit
        self.workers = stacks(table, threads)

    @property
    def nodes(self) -> int:
        return int(sum(self.shared[COUNTER0 + COUNTER_STRIDE * t] for t in range(MAX_THREADS)))

    def stop(self) -> None:
        self.shared[STOP] = 1

    def value(self, worker: Stack, child: np.ndarray, p: int, alpha: int, beta: int) -> int:
        """The value for ``p`` of position ``child`` (fail-soft within alpha, beta)."""
        if is_terminal(child):
            return int(final_value(child, p))
        same = int(to_move(child)) == p
        lo, hi = (alpha, beta) if same else (-beta, -alpha)
        v = int(search_from(child, lo, hi, worker.S, worker.CQ, worker.REM, worker.MI, worker.MF, worker.FR,
                            worker.s, worker.scratch, self.table.tt, self.table.generation, self.table.salt,
                            self.shared, worker.slot))
        if self.shared[STOP]:
            raise _Stopped
        return v if same else -v

    def exact(self, worker: Stack, child: np.ndarray, p: int, guess: int, known: list[int]) -> int:
        """The exact value for ``p`` of ``child`` by null-window probes from ``guess`` (MTD(f)), knowing it
        lies in ``known`` = [lower, upper]; each probe narrows ``known`` in place, so a search stopped
        part way keeps what its probes proved."""
        g = min(max(guess, known[0]), known[1])
        while known[0] < known[1]:
            beta = g + 1 if g == known[0] else g
            g = self.value(worker, child, p, beta - 1, beta)
            if g < beta:
                known[1] = g
            else:
                known[0] = g
        return known[0]

    def line(self, worker: Stack, flat: np.ndarray, circle_of: Callable[[np.ndarray], list[int]],
             value: int, plies: int) -> list[Move]:
        """A principal line from ``flat`` (whose value for its mover is ``value``): at each step
        the first move (in root order) whose value reaches the position's."""
        out: list[Move] = []
        s = flat
        while len(out) < plies and not is_terminal(s):
            p = int(to_move(s))
            for move, k, lo, hi in root_move_rows(s, circle_of(s)):
                child = play(s, k, lo, hi)
                if self.value(worker, child, p, value - 1, value) >= value:
                    out.append(move)
                    if not is_terminal(child):
                        value = value if int(to_move(child)) == p else -value
                    s = child
                    break
            else:  # cannot happen with exact values; stop rather than loop
                break
        return out


def _circle_of(s: np.ndarray) -> list[int]:
    return [int(x) for x in s[CIRCLE : CIRCLE + int(s[CLEN])]]


def _check_range(state: State) -> None:
    """The table key packs buttons and income into fixed bit widths."""
    for p in (0, 1):
        if not 0 <= state.buttons[p] < 1 << 24 or not 0 <= state.income[p] < 256:
            # Translators: the exact search cannot take a position whose player {player} (1 or 2) has so many buttons
            raise PatchworkError(N_("exact search: player {player}'s buttons or income are out of range"), player=p + 1)


def solve(
    state: State,
    *,
    deadline: Deadline | None = None,
    node_limit: int | None = None,
    every_move: bool = False,
    threads: int = 1,
    table: ExactTable | None = None,
    pv_plies: int = 4,
    stop: Callable[[Callable[[], None]], None] | None = None,
    stats: SearchStats | None = None,
) -> SearchedPosition:
    """Solve the rest of the game from ``state`` over every legal move.

    Returns the root moves best first as ``AnalysedMove`` (``exact`` with the exact ``value``, ``win``
    1 or 0 and ``margin``; with ``every_move`` False the moves a better one refuted have ``bound`` True
    and an upper bound as ``value``, their ``win`` still proved 1 or 0). When ``deadline`` passed or
    ``node_limit`` ran out (or ``stop``'s callback was called: pass ``StopSignal.attach``) ``solved`` is
    False and ``moves`` holds what was proven before the stop, without lines: the root moves valued as
    above, then those only proven to win (``floor``: the value they reach at least) and those only
    proven to lose (``bound``: an upper bound at most 0); a caller keeps those and values the rest
    otherwise. With ``every_move`` a first round proves each move's win or loss before any margin.
    ``threads`` (1..8) split the root moves, sharing ``table`` (keep one per game to reuse it; by
    default the calling thread's own 128 MB one). ``stats``, when given, gains what the tree did."""
    if state.is_terminal():
        raise GameOverError(N_("the game is over: there is nothing to solve"))
    if not 1 <= threads <= MAX_THREADS:
        raise PatchworkError(f"exact search: threads must be 1..{MAX_THREADS}, got {threads}")
    _check_range(state)
    started = time.perf_counter()
    table = table if table is not None else thread_table()
    table.adopt(list(state.circle))
    run = _Run(table, node_limit if node_limit is not None else 1 << 62, threads)
    if deadline is not None:
        if deadline.expired():
            run.stop()
        else:  # the watcher keeps the real clock: the time left, on it
            stop_at(time.perf_counter() + solver_seconds(deadline), run.shared)
    if stop is not None:
        stop(run.stop)
    flat = encode(state)
    roots = root_move_rows(flat, list(state.circle))
    rootwork = _RootWork(run, flat, roots, every_move)
    if every_move:  # whether each move wins first, then each one's value
        rootwork.run(range(len(roots)), threads, outcomes_only=True)
        if stats is not None and not rootwork.stopped:
            stats.outcomes_seconds = time.perf_counter() - started
        rootwork.run(range(len(roots)), threads)
    else:  # the first move's value first: the others are then only tested against it
        rootwork.run(range(1), 1)
        rootwork.run(range(1, len(roots)), threads)
    if rootwork.stopped:  # what was proven before the stop stands: those root moves, no lines
        if stats is not None:
            stats.add(run.shared)
        return SearchedPosition.of(state, rootwork.proven(), nodes=run.nodes, seconds=time.perf_counter() - started)
    moves = rootwork.moves(pv_plies)
    if stats is not None:
        stats.add(run.shared)
    return SearchedPosition.of(state, moves, exact=True, nodes=run.nodes, seconds=time.perf_counter() - started)


def _narrow(known: list[int], v: int) -> None:
    """Narrow a root move's proven [lower, upper] by a fail-soft probe at the window (0, 1): a value
    above 0 is a lower bound (a win), one at or below 0 an upper bound (a loss)."""
    if v > 0:
        known[0] = v
    else:
        known[1] = v


class _RootWork:
    """The root moves of one ``solve`` and their values, handed out to the threads one by one.

    Each root move keeps the bounds its probes proved (``known``: [lower, upper] for the player to
    move), so a stop part way loses nothing: a move whose lower bound is above 0 is a proven win, one
    whose upper bound is at most 0 a proven loss. With ``every_move`` the search is anytime in two
    rounds: first whether each move wins (one null-window probe at 0 each), then each move's exact
    value from there; hints and reviews then know every move's outcome long before every margin."""

    def __init__(self, run: _Run, flat: np.ndarray, roots: list[tuple[Move, int, int, int]], every_move: bool) -> None:
        self.run_ = run
        self.p = int(to_move(flat))
        self.roots = roots
        self.children = [play(flat, k, lo, hi) for _, k, lo, hi in roots]
        self.known = [[-INF, INF] for _ in roots]
        self.results: list[AnalysedMove | None] = [None] * len(roots)
        self.every_move = every_move
        self.alpha = -INF  # the best exact value so far
        self.stopped = False
        self.error: Exception | None = None
        self._lock = threading.Lock()
        self._queue: list[int] = []
        self._outcomes_only = False

    def run(self, indices: range, threads: int, *, outcomes_only: bool = False) -> None:
        """Value the root moves ``indices`` on ``threads`` threads (each with its own stack); with
        ``outcomes_only``, only whether each wins."""
        self._queue = list(indices)
        self._outcomes_only = outcomes_only
        run_on(self.run_.workers[: max(1, min(threads, len(self._queue)))], self._work)
        if self.error is not None:  # a search failed: fail in the caller's thread
            raise self.error

    def _work(self, worker: Stack) -> None:
        run, p = self.run_, self.p
        try:
            while True:
                with self._lock:
                    if not self._queue or self.stopped:
                        return
                    i = self._queue.pop(0)
                    alpha = self.alpha
                child, known = self.children[i], self.known[i]
                if is_terminal(child):
                    known[0] = known[1] = int(final_value(child, p))
                if self._outcomes_only:
                    if known[0] <= 0 < known[1]:
                        _narrow(known, run.value(worker, child, p, 0, 1))
                    continue
                guess = int(estimate_value(child, p)) if not is_terminal(child) else 0
                if self.every_move or alpha == -INF:
                    v, exact = run.exact(worker, child, p, guess, known), True
                else:  # is it better than the best so far? if so, by how much
                    v = run.value(worker, child, p, alpha, alpha + 1)
                    exact = v > alpha
                    if exact:
                        known[0] = v
                        v = run.exact(worker, child, p, max(guess, v), known)
                    else:
                        known[1] = v
                        if v > 0:  # refuted, and maybe still a win: prove which
                            w = run.value(worker, child, p, 0, 1)
                            _narrow(known, w)
                            v = v if w > 0 else w
                with self._lock:
                    if exact and v > self.alpha:
                        self.alpha = v
                    move = self.roots[i][0]
                    self.results[i] = exact_move(move, v, (move,), bound=not exact)
        except _Stopped:
            with self._lock:
                self.stopped = True
        except Exception as exc:
            with self._lock:  # stop the other threads; ``run`` raises it
                self.error, self.stopped = exc, True

    def _done(self) -> list[tuple[AnalysedMove, np.ndarray]]:
        """The root moves valued so far with their positions, best first (exact values before bounds)."""
        done = [(m, c) for m, c in zip(self.results, self.children, strict=True) if m is not None]
        done.sort(key=lambda mc: (not mc[0].exact, -(mc[0].value or 0)))
        return done

    def proven(self) -> list[AnalysedMove]:
        """What a stop leaves proven, best first, whatever the other moves turn out to be: the moves
        valued (exact values, refuted moves' bounds), then the moves only known to win (by at least
        their floor, highest first), then those only known to lose (their bound)."""
        valued = [m for m, _ in self._done()]
        wins, losses = [], []
        for (move, *_), m, (lower, upper) in zip(self.roots, self.results, self.known, strict=True):
            if m is not None:
                continue
            if lower > 0:
                wins.append(won_move(move, lower))
            elif upper <= 0:
                losses.append(exact_move(move, upper, (move,), bound=True))
        wins.sort(key=lambda m: -(m.floor or 0))
        losses.sort(key=lambda m: -(m.value or 0))
        return [*valued, *wins, *losses]

    def moves(self, pv_plies: int) -> list[AnalysedMove]:
        """The root moves best first (exact values before bounds), exact ones with their line."""
        out = []
        for m, child in self._done():
            if m.exact and m.value is not None and pv_plies > 1 and not is_terminal(child):
                value = m.value if int(to_move(child)) == self.p else -m.value
                try:
                    rest = self.run_.line(self.run_.workers[0], child, _circle_of, value, pv_plies - 1)
                except _Stopped:  # the budget ran out while reading lines: the values stand
                    rest = []
                m = exact_move(m.move, m.value, (m.move, *rest))
            out.append(m)
        return out


_warm = False


def warm_up() -> None:
    """Load the compiled search (from Numba's cache, or compile it) before any clock starts."""
    global _warm
    if not _warm:
        state = State.new(seed=0)
        state.pos = [49, 50]  # a few plies from the end: every compiled function runs once
        solve(state, every_move=True, table=ExactTable(1), pv_plies=2)
        final_value(play(encode(state), ADVANCE_K, 0, 0), 0)
        _warm = True
