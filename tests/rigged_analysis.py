"""An analysis with known figures, for the tests of what the service and the page do with a
verdict: in every position the first legal buy is the best move (90% to win, +10 points; the first
legal move when no buy is legal), and any other move compared alongside wins 10% and loses by 10,
a blunder by the review's rule. ``tests/test_web_teaching.py`` plugs it into the app in the test's
process; ``tests/browser/rigged_server.py`` serves an app with it for the browser tests."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from patchwork_opt.ai.base import AnalysedMove, Bot, SearchedPosition
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.apps.web.services import AnalysisOf, Services
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal


class Rigged:
    """``Services.analyse`` with known figures (see the module); ``calls`` counts the analyses made."""

    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()

    @staticmethod
    def best(state: State) -> Move:
        moves = list(state.legal_moves())
        return next((m for m in moves if m.kind == "buy"), moves[0])

    def __call__(self, state: State, seconds: float, extra: Sequence[Move], stop: StopSignal) -> SearchedPosition:
        with self.lock:
            self.calls += 1
        best = self.best(state)
        moves = [AnalysedMove(best, 0.9, 10.0, 1000, False, (best,))]
        moves += [AnalysedMove(m, 0.1, -10.0, 1000, False, (m,)) for m in extra if m != best]
        return SearchedPosition.of(state, moves, seconds=seconds)


def _bot(name: str, level: int, seed: int, cap: float, analysis_of: AnalysisOf) -> Bot:
    return make_bot(name, level=level, seed=seed, time_per_move=min(cap, 0.02))


def rigged_services(analyse: Rigged | None) -> Services:
    """The app's services with ``analyse`` (None: a server without the analysis) and the greedy AI."""
    return Services(analyse=analyse, make_bot=_bot, ai_names=("greedy",), default_ai="greedy")
