"""Where the solvers are plugged into the applications: the one place that wires CP-SAT work into
terminal play, matches and the web service, which never import ``solvers`` themselves.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.registry import BOT_NAMES, level_time, make_bot
from patchwork_opt.apps.play import HintLine
from patchwork_opt.apps.review import GameReview, render_review
from patchwork_opt.apps.web.schemas import SERVER_WORKERS, BonusRequest, FillRequest, HintRequest
from patchwork_opt.apps.web.services import Services, SolverEndpoint
from patchwork_opt.core.catalogue import check_patch_ids
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from solvers.advisor import SolverAdvisor
from solvers.bestfit import BestFitResult
from solvers.bonus import BonusResult, bonus_completion
from solvers.fill import FillResult, optimal_fill
from solvers.hints import AdvisedHints, advised_hints, hint_for, review_record
from solvers.model import SolverConfig

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


def web_hint(request: Any, time_cap: float, stop: StopSignal | None = None) -> AdvisedHints | BestFitResult:
    """``POST /api/hint`` (a ``HintRequest``): what ``patchwork hint WHAT ... --json`` prints, for the same inputs.

    ``stop`` ends the AI's search early (the client went away)."""
    return hint_for(
        request.load(), request.patch, request.next, request.pool,
        top_k=request.top if "top" in request.model_fields_set else None,  # the CLI's default when not given
        lookahead=request.lookahead, time_limit=min(request.time_limit, time_cap), stop=stop,
    )


def web_fill(request: Any, time_cap: float, stop: StopSignal | None = None) -> FillResult:
    """``POST /api/fill`` (a ``FillRequest``): what ``patchwork fill ... --json`` prints for the same options."""
    ids = check_patch_ids(request.patches)
    config = SolverConfig(
        time_limit=min(request.time_limit, time_cap), workers=min(request.workers, SERVER_WORKERS), seed=request.seed
    )
    return optimal_fill(
        request.quilt_mask(), ids, objective=request.objective, marks=request.marks, budget=request.budget,
        require_bonus=request.require_bonus, config=config, stop=stop,
    )


def web_bonus(request: Any, time_cap: float, stop: StopSignal | None = None) -> BonusResult:
    """``POST /api/bonus`` (a ``BonusRequest``): what ``patchwork bonus QUILT --patches ... --json`` prints."""
    ids = check_patch_ids(request.patches)
    config = SolverConfig(time_limit=min(request.time_limit, time_cap), workers=min(request.workers, SERVER_WORKERS))
    return bonus_completion(request.quilt_mask(), ids, config, stop=stop)


def web_review(record: Record, seconds_per_move: float, stop: StopSignal | None = None) -> GameReview:
    """``GET /api/games/{id}/review``: what ``patchwork analyze RECORD --time-per-move T`` reviews."""
    return review_record(record, seconds=seconds_per_move, stop=stop)


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

    def game_hint(state: State, time_cap: float, stop: StopSignal | None = None) -> Any:
        return web_hint(HintRequest(position=to_notation(state)), time_cap, stop)

    def bot_factory(name: str, level: int, seed: int, time_cap: float) -> Bot:
        seconds = min(level_time(level), time_cap, max_ai_seconds)
        advisor = SolverAdvisor() if name == "solver" else None
        return make_bot(name, level=level, seed=seed, time_per_move=seconds, advisor=advisor)

    return Services(
        solvers=solvers, game_hint=game_hint, review_game=web_review, make_bot=bot_factory, ai_names=BOT_NAMES,
        default_ai="solver",
    )
