"""An analysis with known figures, for the tests of what the service and the page do with a
verdict and a review: a small world whose values the tests know in advance, consistent from ply to
ply as a review's chained figures need (the value of a position is the value of its best move).

In every position the first legal buy is the best move (the first legal move when no buy is legal);
any other move the analysis is asked about (a move played, compared alongside) is a deviation, and
each deviation costs its player ``POINTS`` points: a blunder by the review's rule. A position's value
follows from the deviations of each player on the way to it: Player 1's expected margin is ``POINTS``
times Player 2's deviations less Player 1's, and their win chance the logistic of that lead
(``figures``). The analysis learns a position's deviations when it analyses the position before it
with the move played (as a review, a teaching verdict and the exercises do: the position before a
move first); a position reached by moves it was not asked about (the AI's own) takes the deviations
of its nearest ancestor it knows: moves it was not asked about count as the best.
``tests/test_web_teaching.py`` plugs it into the app in the test's process;
``tests/browser/rigged_server.py`` serves an app with it for the browser tests."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence

from patchwork_opt.ai.base import AnalysedMove, Bot, SearchedPosition
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.apps.web.services import AnalysisOf, Services
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import to_notation

#: What each deviation from the rigged best move costs its player, in points (a blunder: 8 or more).
POINTS = 10.0
Deviations = tuple[int, int]


def figures(deviations: Deviations, player: int) -> tuple[float, float]:
    """(win chance, expected margin) of ``player`` in a position reached with ``deviations`` (by seat)."""
    lead = deviations[1 - player] - deviations[player]
    return 1.0 / (1.0 + math.exp(-lead)), POINTS * lead


def _ancestor(state: State, other: State) -> bool:
    """Whether ``other`` can come before ``state`` in the same game: the same printing, no further on
    the track, its quilts and its leather patches left within, and ``state``'s circle its circle less
    patches bought, in order."""
    if other.printing != state.printing or state.leather & ~other.leather or not all(
            other.pos[p] <= state.pos[p] and other.quilts[p] & ~state.quilts[p] == 0 for p in (0, 1)):
        return False
    if not state.circle:
        return True
    if state.circle[0] not in other.circle:
        return False
    start = other.circle.index(state.circle[0])
    rest = iter(other.circle[start:] + other.circle[:start])
    return all(patch in rest for patch in state.circle)


class Rigged:
    """``Services.analyse`` with known figures (see the module); ``calls`` counts the analyses made."""

    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()
        self.known: dict[str, tuple[State, Deviations]] = {}

    @staticmethod
    def best(state: State) -> Move:
        moves = list(state.legal_moves())
        return next((m for m in moves if m.kind == "buy"), moves[0])

    def deviations(self, state: State) -> Deviations:
        """The deviations on the way to ``state``: known, else its nearest known ancestor's (the one
        furthest on the track), else none (a game's start)."""
        found = self.known.get(to_notation(state))
        if found is not None:
            return found[1]
        ancestors = [(sum(s.pos), d) for s, d in self.known.values() if _ancestor(state, s)]
        return max(ancestors)[1] if ancestors else (0, 0)

    def _learn(self, state: State, deviations: Deviations) -> None:
        self.known.setdefault(to_notation(state), (state.clone(), deviations))

    def __call__(self, state: State, budget: ThinkBudget, extra: Sequence[Move], stop: StopSignal) -> SearchedPosition:
        with self.lock:
            self.calls += 1
            here = self.deviations(state)
            self._learn(state, here)
            mover = state.to_move()
            best = self.best(state)
            moves = [AnalysedMove(best, *figures(here, mover), 1000, False, (best,))]
            for move in extra:
                if move == best:
                    continue
                after = state.clone()
                after.apply(move)
                worse = (here[0] + (mover == 0), here[1] + (mover == 1))
                self._learn(after, worse)
                moves.append(AnalysedMove(move, *figures(worse, mover), 1000, False, (move,)))
        return SearchedPosition.of(state, moves, seconds=budget.seconds)


def _bot(name: str, level: int, seed: int, cap: float, analysis_of: AnalysisOf) -> Bot:
    return make_bot(name, level=level, seed=seed, time_per_move=min(cap, 0.02))


def rigged_services(analyse: Rigged | None) -> Services:
    """The app's services with ``analyse`` (None: a server without the analysis) and the greedy AI."""
    return Services(analyse=analyse, make_bot=_bot, ai_names=("greedy",), default_ai="greedy")
