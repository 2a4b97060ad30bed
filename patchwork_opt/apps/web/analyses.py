"""The analysis cache: the AI's analysis of a position, made once and reused by every game hint,
solver-AI move and review asking for one no deeper, on every server sharing the games database.

Entries are keyed by the position's notation and the budget (a ``ThinkBudget``, stored as its
seconds) the analysis was made with. A request for a budget takes the deepest stored analysis made
with at least that many seconds, or an exact one (an exhaustive search answers any budget). The
budget becomes the analysis's deadline as the analysis starts, so a request that waited in the job
queue is answered as deep as its key says. An analysis cut short because its client went away is
not kept: it is shallower than its budget says. The store keeps at most
``Limits.cached_analyses`` entries, deleting the oldest written.

An entry is JSON written by ``analysis_to_json`` and read by ``analysis_from_json``, the one place
that knows the analysis types; an entry that does not read back (an older format) is a miss, not
an error. Moves are kept in their text form (``12@34,35``), the best ``STORED_MOVES`` of them
with lines of ``LINE_PLIES`` plies, so an entry stays a few kilobytes.

``AnalysisBot`` is the solver AI as the service plays it at the levels without deliberate guesses:
the best move of the cached analysis, so a position the AI analysed for its move is reviewed (and
hinted) from the cache, and the other way round.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from patchwork_opt.ai.analysis.position import LINE_PLIES
from patchwork_opt.ai.base import AnalysedMove, Decision, SearchedPosition
from patchwork_opt.ai.explain import reason
from patchwork_opt.apps.web.analysis_store import AnalysisStore
from patchwork_opt.apps.web.errors import ServiceMissingError
from patchwork_opt.apps.web.services import Analyser, AnalysisOf
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.i18n import N_

#: the version of an entry's JSON; entries of another version are misses (2: ``searched``; 3: ``floor``,
#: without which a move proven won but not by how much read back as unproven, and a review from the cache
#: labelled it otherwise than the fresh analysis of a teaching game's verdict or a hint)
FORMAT = 3
STORED_MOVES = 32  # best moves kept per entry (a hint shows at most 20; an exact search lists all)


def analysis_to_json(analysis: SearchedPosition) -> str:
    """An analysis as the cache stores it (compact JSON)."""
    moves = [
        [str(m.move), m.win, m.margin, m.visits, int(m.exact), [str(x) for x in m.line[:LINE_PLIES]],
         m.value, int(m.bound), m.searched, m.floor]
        for m in analysis.moves[:STORED_MOVES]
    ]
    data = {"v": FORMAT, "player": analysis.player, "seconds": analysis.seconds, "quilt": analysis.quilt,
            "moves": moves}
    return json.dumps(data, separators=(",", ":"))


def analysis_from_json(text: str) -> SearchedPosition | None:
    """The analysis stored as ``text``; None when it does not read back (another format)."""
    try:
        data: Any = json.loads(text)
        if not isinstance(data, dict) or data.get("v") != FORMAT:
            return None
        moves = [
            AnalysedMove(
                move=Move.parse(move), win=float(win), margin=float(margin), visits=int(visits), exact=bool(exact),
                line=tuple(Move.parse(x) for x in line), value=None if value is None else int(value),
                bound=bool(bound), searched=None if searched is None else float(searched),
                floor=None if floor is None else int(floor),
            )  # ``searched`` and ``floor`` too: an analysis from the cache reads as the fresh one did
            for move, win, margin, visits, exact, line, value, bound, searched, floor in data["moves"]
        ]
        return SearchedPosition(player=int(data["player"]), quilt=int(data["quilt"]), moves=moves,
                                seconds=float(data["seconds"]))
    except (ValueError, TypeError, KeyError, PatchworkError):
        return None


def is_exact(analysis: SearchedPosition) -> bool:
    """Every move's figures come from an exhaustive search: no budget would change them."""
    return bool(analysis.moves) and all(m.exact for m in analysis.moves)


class AnalysisCache:
    """``Services.analyse`` behind the store's cache; counts what it made and what it reused."""

    def __init__(self, store: AnalysisStore, analyse: Analyser | None) -> None:
        self.store = store
        self.analyse = analyse
        self.made = 0
        self.reused = 0

    def analysis(self, state: State, budget: ThinkBudget, stop: StopSignal,
                 extra: Sequence[Move] = ()) -> SearchedPosition:
        """An analysis of ``state`` at least ``budget`` deep: stored, or made now (its deadline
        starting now, not when the request came in) and stored."""
        if self.analyse is None:
            raise ServiceMissingError(N_("this server runs without the AI's analysis"))
        if state.is_terminal():
            raise GameOverError(N_("the game is over: there is nothing to analyse"))
        position = to_notation(state)
        stored = self.store.cached_analysis(position, budget.seconds)
        found = analysis_from_json(stored) if stored is not None else None
        if found is not None and found.moves:
            self.reused += 1
            return found
        made = self.analyse(state, budget, extra, stop)
        self.made += 1
        if not stop.is_set() and made.moves:
            self.store.keep_analysis(position, budget.seconds, is_exact(made), analysis_to_json(made))
        return made

    def bound_to(self, stop: StopSignal) -> AnalysisOf:
        """``analysis_of(state, budget, extra)`` for one job, ending early when ``stop`` is set."""

        def analysis_of(state: State, budget: ThinkBudget, extra: Sequence[Move] = ()) -> SearchedPosition:
            return self.analysis(state, budget, stop, extra)

        return analysis_of

    def stats(self) -> dict[str, int]:
        return {"made": self.made, "reused": self.reused}


class AnalysisBot:
    """The solver AI playing the best move of the (cached) analysis of ``budget``."""

    name = "solver"

    def __init__(self, analysis_of: AnalysisOf, budget: ThinkBudget) -> None:
        self.analysis_of = analysis_of
        self.budget = budget

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
        """The analysis's best move (the analysis it was given ends early with its job's stop)."""
        if state.is_terminal():
            raise GameOverError()
        analysis = self.analysis_of(state, self.budget)
        best = analysis.best
        runner_up = analysis.moves[1] if len(analysis.moves) > 1 else None
        stats = {"margin": best.margin, "exact": float(best.exact), "visits": float(best.visits)}
        return Decision(best.move, reason(best, runner_up), expected=best.win, stats=stats)
