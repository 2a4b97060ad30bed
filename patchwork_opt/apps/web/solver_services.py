"""The web service's solver endpoints and AI, wired for ``create_app``: ``POST /api/hint``,
``/api/fill`` and ``/api/bonus`` answer what the CLI prints for the same inputs, and the game AI
and hints share the service's analysis cache; the workshop's placements, fill and 7x7 jobs call
the same solvers through the same functions.

Each endpoint's function takes the validated request, its ``Deadline`` (made once, where the request
came in, of its time as the server's caps allow) and a stop signal (set when nobody waits for the
answer any more): what a job runner needs to call them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from patchwork_opt.ai.base import Bot, SearchedPosition
from patchwork_opt.ai.bots.registry import BOT_NAMES, LEVEL_BLUNDER, level_time, make_bot
from patchwork_opt.apps.hints import MOVES_SHOWN, AdvisedHints, hint_for, hints_of
from patchwork_opt.apps.web.analyses import AnalysisBot
from patchwork_opt.apps.web.schemas import (
    SERVER_WORKERS,
    BonusRequest,
    FillRequest,
    HintRequest,
    PlacementsRequest,
    PlacementsView,
    placements_view,
)
from patchwork_opt.apps.web.services import (
    AnalysisOf,
    Endpoint,
    JobProgress,
    PositionAnalysis,
    Services,
    SolverEndpoint,
    Workshop,
)
from patchwork_opt.apps.wiring import analyse, bot_advisor, compiled_searches_cached, live, warm_compiled_searches
from patchwork_opt.core.catalogue import check_patch_ids
from patchwork_opt.core.clock import Deadline, ThinkBudget
from patchwork_opt.core.move import Move
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.inputs import LoadedInput
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.puzzles.kinds import Puzzle
from patchwork_opt.puzzles.making import new_puzzle
from solvers.bestfit import BestFitResult
from solvers.bonus import BonusResult, bonus_completion
from solvers.fill import FillResult, optimal_fill
from solvers.model import SolverConfig


def web_hint(
    request: HintRequest, deadline: Deadline, stop: StopSignal | None = None, analysis: PositionAnalysis | None = None
) -> AdvisedHints | BestFitResult:
    """``POST /api/hint`` (a ``HintRequest``): what ``patchwork hint WHAT ... --json`` prints, for the same inputs,
    by ``deadline``.

    ``stop`` ends the AI's search early (the client went away); the ranked moves of a position come
    from ``analysis`` (the service's analysis cache, with the request's budget) when given."""
    loaded = request.load()
    top = request.top if "top" in request.model_fields_set else None  # the CLI's default when not given
    state = loaded.state
    if analysis is not None and state is not None and request.patch is None and not state.is_terminal():
        return hints_of(state, analysis(state), top or MOVES_SHOWN)
    return hint_for(loaded, request.patch, request.next, request.pool, deadline=deadline, top_k=top,
                    lookahead=request.lookahead, stop=stop)


def web_fill(
    request: FillRequest, deadline: Deadline, stop: StopSignal | None = None, analysis: PositionAnalysis | None = None,
    progress: JobProgress | None = None,
) -> FillResult:
    """``POST /api/fill`` and the workshop's fill jobs (a ``FillRequest``): what ``patchwork fill ...
    --json`` prints for the same options, by ``deadline``; ``progress`` hears the best value and bound
    as they improve."""
    ids = check_patch_ids(request.patches)
    config = SolverConfig(workers=min(request.workers, SERVER_WORKERS), seed=request.seed)
    return optimal_fill(
        request.quilt_mask(), ids, deadline=deadline, objective=request.objective, marks=request.marks,
        budget=request.budget, require_bonus=request.require_bonus, config=config, progress=progress, stop=stop,
    )


def web_bonus(
    request: BonusRequest, deadline: Deadline, stop: StopSignal | None = None, analysis: PositionAnalysis | None = None
) -> BonusResult:
    """``POST /api/bonus`` (a ``BonusRequest``): what ``patchwork bonus QUILT --patches ... --json`` prints,
    by ``deadline``."""
    ids = check_patch_ids(request.patches)
    config = SolverConfig(workers=min(request.workers, SERVER_WORKERS))
    return bonus_completion(request.quilt_mask(), ids, deadline=deadline, config=config, stop=stop)


def workshop_placements(
    request: PlacementsRequest, deadline: Deadline, stop: StopSignal | None = None
) -> PlacementsView:
    """``POST /api/workshop/placements`` (a ``PlacementsRequest``): the best fit ``patchwork hint QUILT
    --patch ID --next IDS`` finds by ``deadline``, each placement with its reasons in words."""
    quilt = Quilt.from_cells(request.quilt)
    result = hint_for(LoadedInput(quilt=quilt), request.patch, request.next, request.pool, top_k=request.top,
                      deadline=deadline, stop=stop)
    assert isinstance(result, BestFitResult)  # a bare quilt's hint is a best fit
    return placements_view(quilt.mask, result)


def workshop_fill(request: FillRequest, deadline: Deadline, stop: StopSignal, progress: JobProgress) -> FillResult:
    """A workshop fill job (a ``FillRequest``): ``POST /api/fill``'s answer, its progress heard."""
    return web_fill(request, deadline, stop, progress=progress)


def workshop_bonus(request: BonusRequest, deadline: Deadline, stop: StopSignal, progress: JobProgress) -> BonusResult:
    """A workshop 7x7 job (a ``BonusRequest``): ``POST /api/bonus``'s answer (the completion reports no
    figures as it goes: its progress is its phase and time)."""
    progress(None, 0.0, "the 7x7 squares, one by one")
    return web_bonus(request, deadline, stop)


def live_events(notation: str, stop: StopSignal, max_seconds: float, lines: int) -> Iterator[dict[str, object]]:
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
    # each typed by its request model (a subscripted call would not build a frozen, slotted dataclass)
    hint: SolverEndpoint[HintRequest] = SolverEndpoint(
        HintRequest, AdvisedHints | BestFitResult, web_hint,
        "Ranked moves of a position, or best placements of a patch (as patchwork hint --json)",
    )
    fill: SolverEndpoint[FillRequest] = SolverEndpoint(
        FillRequest, FillResult, web_fill, "Patches and placements that cover the most (as patchwork fill --json)"
    )
    bonus: SolverEndpoint[BonusRequest] = SolverEndpoint(
        BonusRequest, BonusResult, web_bonus, "Can a 7x7 square be completed (as patchwork bonus --json)"
    )
    solvers: dict[str, Endpoint] = {"hint": hint, "fill": fill, "bonus": bonus}

    def game_hint(state: State, analysis: SearchedPosition) -> AdvisedHints:
        return hints_of(state, analysis, MOVES_SHOWN)

    def web_analyse(state: State, budget: ThinkBudget, extra: Sequence[Move], stop: StopSignal) -> SearchedPosition:
        return analyse(state, budget, extra, stop)

    def bot_factory(name: str, level: int, seed: int, time_cap: float, analysis_of: AnalysisOf) -> Bot:
        # the service's caps, taken here once: the bot (or the analysis) makes its deadline of it
        seconds = min(level_time(level), time_cap, max_ai_seconds)
        if name == "solver" and LEVEL_BLUNDER[level] == 0:  # its best play: the shared analysis's best move
            return AnalysisBot(analysis_of, ThinkBudget(seconds))
        return make_bot(name, level=level, seed=seed, time_per_move=seconds, advisor=bot_advisor(name))

    def make_puzzle(kind: str, difficulty: int | None, seed: int, stop: StopSignal) -> Puzzle:
        return new_puzzle(kind, difficulty, seed, stop=stop)

    return Services(
        solvers=solvers, analyse=web_analyse, game_hint=game_hint, make_bot=bot_factory, ai_names=BOT_NAMES,
        default_ai="solver", make_puzzle=make_puzzle, warm_up=warm_compiled_searches,
        searches_cached=compiled_searches_cached, live=live_events,
        workshop=Workshop(placements=workshop_placements, fill=workshop_fill, bonus=workshop_bonus),
    )
