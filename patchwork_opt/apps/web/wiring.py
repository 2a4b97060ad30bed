"""The web service's solver endpoints and AI, wired for ``create_app``: ``POST /api/hint``,
``/api/fill`` and ``/api/bonus`` answer what the CLI prints for the same inputs, and the game AI
and hints share the service's analysis cache.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from patchwork_opt.ai.base import Bot, SearchedPosition
from patchwork_opt.ai.bots.registry import BOT_NAMES, LEVEL_BLUNDER, level_time, make_bot
from patchwork_opt.apps.hints import MOVES_SHOWN, AdvisedHints, hint_for, hints_of
from patchwork_opt.apps.web.analyses import AnalysisBot
from patchwork_opt.apps.web.schemas import SERVER_WORKERS, BonusRequest, FillRequest, HintRequest
from patchwork_opt.apps.web.services import AnalysisOf, Services, SolverEndpoint
from patchwork_opt.apps.wiring import analyse, bot_advisor, live, warm_compiled_searches
from patchwork_opt.core.catalogue import check_patch_ids
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.puzzles.making import new_puzzle
from patchwork_opt.puzzles.model import Puzzle
from solvers.bestfit import BestFitResult
from solvers.bonus import BonusResult, bonus_completion
from solvers.fill import FillResult, optimal_fill
from solvers.model import SolverConfig


def web_hint(
    request: Any, time_cap: float, stop: StopSignal | None = None, analysis_of: AnalysisOf | None = None
) -> AdvisedHints | BestFitResult:
    """``POST /api/hint`` (a ``HintRequest``): what ``patchwork hint WHAT ... --json`` prints, for the same inputs.

    ``stop`` ends the AI's search early (the client went away); the ranked moves of a position come
    from ``analysis_of`` (the service's analysis cache) when given."""
    loaded = request.load()
    top = request.top if "top" in request.model_fields_set else None  # the CLI's default when not given
    seconds = min(request.time_limit, time_cap)  # capped once: the hint makes its deadline of it
    state = loaded.state
    if analysis_of is not None and state is not None and request.patch is None and not state.is_terminal():
        return hints_of(state, analysis_of(state, seconds), top or MOVES_SHOWN)
    return hint_for(loaded, request.patch, request.next, request.pool, top_k=top, lookahead=request.lookahead,
                    time_limit=seconds, stop=stop)


def web_fill(
    request: Any, time_cap: float, stop: StopSignal | None = None, analysis_of: AnalysisOf | None = None
) -> FillResult:
    """``POST /api/fill`` (a ``FillRequest``): what ``patchwork fill ... --json`` prints for the same options."""
    ids = check_patch_ids(request.patches)
    config = SolverConfig(
        time_limit=min(request.time_limit, time_cap), workers=min(request.workers, SERVER_WORKERS), seed=request.seed
    )
    return optimal_fill(
        request.quilt_mask(), ids, objective=request.objective, marks=request.marks, budget=request.budget,
        require_bonus=request.require_bonus, config=config, stop=stop,
    )


def web_bonus(
    request: Any, time_cap: float, stop: StopSignal | None = None, analysis_of: AnalysisOf | None = None
) -> BonusResult:
    """``POST /api/bonus`` (a ``BonusRequest``): what ``patchwork bonus QUILT --patches ... --json`` prints."""
    ids = check_patch_ids(request.patches)
    config = SolverConfig(time_limit=min(request.time_limit, time_cap), workers=min(request.workers, SERVER_WORKERS))
    return bonus_completion(request.quilt_mask(), ids, config, stop=stop)


def live_events(notation: str, stop: StopSignal, max_seconds: float, lines: int) -> Iterator[dict[str, Any]]:
    """The analysis stream's events: the live analysis of the position (``wiring.live``, the CP-SAT
    advisor placing the offers) as ``snapshot_json`` objects. Run by the analysis workers (``streams.py``)."""
    from patchwork_opt.ai.analysis.live import snapshot_json

    state = from_notation(notation)
    for snapshot in live(state, stop=stop, max_seconds=max_seconds):
        if stop.is_set():  # the client has gone: nobody reads the last snapshot
            return
        yield snapshot_json(state, snapshot, lines)


def web_services(max_ai_seconds: float) -> Services:
    """The solver-backed endpoints and the AI, for ``create_app``."""
    solvers: dict[str, SolverEndpoint] = {
        "hint": SolverEndpoint(
            HintRequest, AdvisedHints | BestFitResult, web_hint,
            "Ranked moves of a position, or best placements of a patch (as patchwork hint --json)",
        ),
        "fill": SolverEndpoint(
            FillRequest, FillResult, web_fill, "Patches and placements that cover the most (as patchwork fill --json)"
        ),
        "bonus": SolverEndpoint(
            BonusRequest, BonusResult, web_bonus, "Can a 7x7 square be completed (as patchwork bonus --json)"
        ),
    }

    def game_hint(state: State, analysis: SearchedPosition) -> AdvisedHints:
        return hints_of(state, analysis, MOVES_SHOWN)

    def web_analyse(state: State, seconds: float, extra: Sequence[Move], stop: StopSignal) -> SearchedPosition:
        return analyse(state, seconds, extra, stop)

    def bot_factory(name: str, level: int, seed: int, time_cap: float, analysis_of: AnalysisOf) -> Bot:
        # the service's caps, taken here once: the bot (or the analysis) makes its deadline of it
        seconds = min(level_time(level), time_cap, max_ai_seconds)
        if name == "solver" and LEVEL_BLUNDER[level] == 0:  # its best play: the shared analysis's best move
            return AnalysisBot(analysis_of, seconds)
        return make_bot(name, level=level, seed=seed, time_per_move=seconds, advisor=bot_advisor(name))

    def make_puzzle(kind: str, difficulty: int | None, seed: int, stop: StopSignal) -> Puzzle:
        return new_puzzle(kind, difficulty, seed, stop=stop)

    return Services(
        solvers=solvers, analyse=web_analyse, game_hint=game_hint, make_bot=bot_factory, ai_names=BOT_NAMES,
        default_ai="solver", make_puzzle=make_puzzle, warm_up=warm_compiled_searches, live=live_events,
    )
