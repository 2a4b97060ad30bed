"""Where the solvers are plugged into the applications: the one place that wires CP-SAT work into
terminal play, ``move``, matches and the web service, which never import ``solvers`` themselves.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Any

from patchwork_opt.ai.analysis import PositionAnalysis, analyse_position
from patchwork_opt.ai.base import Bot, PlacementAdvisor
from patchwork_opt.ai.registry import ADVISED_BOTS, BOT_NAMES, LEVEL_BLUNDER, level_time, make_bot
from patchwork_opt.apps.play import HintLine
from patchwork_opt.apps.review import render_review
from patchwork_opt.apps.web.analyses import AnalysisBot
from patchwork_opt.apps.web.schemas import SERVER_WORKERS, BonusRequest, FillRequest, HintRequest
from patchwork_opt.apps.web.services import AnalysisOf, Services, SolverEndpoint
from patchwork_opt.core.catalogue import check_patch_ids
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.model import Puzzle
from solvers.advisor import SolverAdvisor
from solvers.bestfit import BestFitResult
from solvers.bonus import BonusResult, bonus_completion
from solvers.fill import FillResult, optimal_fill
from solvers.hints import ADVISOR_SHARE, MOVES_SHOWN, AdvisedHints, advised_hints, hint_for, hints_of, review_record
from solvers.model import SolverConfig
from solvers.puzzles import new_puzzle

PLAY_HINT_SECONDS = 1.0  # the AI's time for a hint in terminal play
PLAY_REVIEW_SECONDS = 0.2  # the AI's time per position for the review offered after a game

#: The CP-SAT advisor, by import path: match workers (processes, Ray tasks) import it themselves.
SOLVER_ADVISOR = "solvers.advisor:SolverAdvisor"


def solver_advisor_path() -> str | None:
    """``SOLVER_ADVISOR`` when its module can be imported here, else None (the heuristic stands in)."""
    try:
        found = importlib.util.find_spec(SOLVER_ADVISOR.split(":")[0]) is not None
    except ModuleNotFoundError:
        found = False
    return SOLVER_ADVISOR if found else None


def play_hinter(state: State, count: int) -> list[HintLine]:
    """The AI's ranked moves of the position with their win chances, as terminal play shows them."""
    result = advised_hints(state, time_limit=PLAY_HINT_SECONDS, top=count)
    return [HintLine(Move.from_json(h.line[0]), h.reason) for h in result.hints]


def play_reviewer(record: Record) -> str:
    """The review of a finished game, as terminal play offers it."""
    return render_review(review_record(record, seconds=PLAY_REVIEW_SECONDS))


def play_bot(ai: str, level: int, seed: int | None) -> tuple[Bot, SolverAdvisor]:
    """The AI for terminal play, with the CP-SAT advisor plugged in (also used for suggestions)."""
    advisor = SolverAdvisor()
    return make_bot(ai, level=level, seed=seed, advisor=advisor), advisor


def bot_advisor(ai: str) -> PlacementAdvisor | None:
    """The placement advisor a bot named ``ai`` takes: the CP-SAT one for the advised bots
    (``registry.ADVISED_BOTS``), else none (``patchwork move`` and the service's bots)."""
    return SolverAdvisor() if ai.strip().lower() in ADVISED_BOTS else None


def match_advisor(p1: str, p2: str) -> str | None:
    """The advisor the match workers import (``SOLVER_ADVISOR``) when an advised bot plays and the
    module can be imported here; None when none plays or the heuristic stands in."""
    if not {p1.strip().lower(), p2.strip().lower()} & set(ADVISED_BOTS):
        return None
    return solver_advisor_path()


def analyse(
    state: State, seconds: float, extra: Sequence[Move] = (), stop: StopSignal | None = None
) -> PositionAnalysis:
    """The AI's analysis of a position with the CP-SAT advisor placing the offers, as ``patchwork
    hint`` and ``patchwork analyze`` make it: the service caches it for hints, reviews and AI moves."""
    advisor = SolverAdvisor(budget=ADVISOR_SHARE * seconds)
    return analyse_position(state, seconds=seconds, advisor=advisor, extra=extra, stop=stop)


def web_hint(
    request: Any, time_cap: float, stop: StopSignal | None = None, analysis_of: AnalysisOf | None = None
) -> AdvisedHints | BestFitResult:
    """``POST /api/hint`` (a ``HintRequest``): what ``patchwork hint WHAT ... --json`` prints, for the same inputs.

    ``stop`` ends the AI's search early (the client went away); the ranked moves of a position come
    from ``analysis_of`` (the service's analysis cache) when given."""
    loaded = request.load()
    top = request.top if "top" in request.model_fields_set else None  # the CLI's default when not given
    seconds = min(request.time_limit, time_cap)
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

    def game_hint(state: State, analysis: PositionAnalysis) -> AdvisedHints:
        return hints_of(state, analysis, MOVES_SHOWN)

    def web_analyse(state: State, seconds: float, extra: Sequence[Move], stop: StopSignal) -> PositionAnalysis:
        return analyse(state, seconds, extra, stop)

    def bot_factory(name: str, level: int, seed: int, time_cap: float, analysis_of: AnalysisOf) -> Bot:
        seconds = min(level_time(level), time_cap, max_ai_seconds)
        if name == "solver" and LEVEL_BLUNDER[level] == 0:  # its best play: the shared analysis's best move
            return AnalysisBot(analysis_of, seconds)
        return make_bot(name, level=level, seed=seed, time_per_move=seconds, advisor=bot_advisor(name))

    def make_puzzle(kind: str, difficulty: int | None, seed: int, stop: StopSignal) -> Puzzle:
        return new_puzzle(kind, difficulty, seed, stop=stop)

    return Services(
        solvers=solvers, analyse=web_analyse, game_hint=game_hint, make_bot=bot_factory, ai_names=BOT_NAMES,
        default_ai="solver", make_puzzle=make_puzzle, warm_up=warm_compiled_searches,
    )


def warm_compiled_searches() -> None:
    """Load every compiled search the service uses (from Numba's cache, or compile it: about a minute
    the first time an install runs): the game search with the learned evaluation, the exact
    endgame and the packing search of fills."""
    from patchwork_opt.ai import exactcore, fastcore
    from patchwork_opt.ai.search import default_evaluator
    from solvers.search import warm_up as warm_packing

    fastcore.warm_up()
    fastcore.CompiledSearch(State.new(seed=0), [ADVANCE], seed=0, capacity=4,
                            evaluator=default_evaluator()).run(1)
    exactcore.warm_up()
    warm_packing()
