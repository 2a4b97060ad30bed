"""What the caller plugs into the app: solver-backed functions and the AI, plus the server's limits.

The app (``app.py``, the routers) never runs a solver: ``patchwork_opt/apps/web/solver_services.py``
builds these for ``patchwork serve`` from the solvers and the AI registry, and tests plug in their own.
The workshop's router and its bodies (``schemas/workshop.py``) import the solvers' result models alone
(``FillResult``, ``BonusResult``, ``BestFitResult``, ``PlacedPatch``, ``SolveStatus``), to read a job's answer.

One computation serves game hints, the solver AI's moves and reviews: ``Services.analyse``, the AI's
analysis of a position. The app wraps it in the analysis cache (``analyses.py``) and hands the
cached form, an ``AnalysisOf``, to whatever needs an analysis.

The server's caps are applied in one place, ``Limits``, where each request comes in (its route),
which makes the request's time a ``ThinkBudget`` there (``core.clock``): seconds not yet started. A
solver request's budget (``Limits.solver_budget``) becomes its ``Deadline`` as its job starts; an
analysis's (a game hint's, a review's positions'), the analysis cache's key, becomes its deadline as
the analysis starts. A request waiting in the job queue keeps its whole thinking time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import UnionType
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel

from patchwork_opt.ai.base import Bot, SearchedPosition
from patchwork_opt.apps.web.schemas import BonusRequest, FillRequest, PlacementsRequest
from patchwork_opt.core.clock import Deadline, ThinkBudget
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.puzzles.kinds import Puzzle


class AnalysisOf(Protocol):
    """``analysis_of(state, budget, extra)``: an analysis of ``state`` at least ``budget`` deep
    (from the cache, or made now and cached), ``extra`` moves compared alongside when it is made."""

    def __call__(self, state: State, budget: ThinkBudget, extra: Sequence[Move] = ()) -> SearchedPosition: ...


#: a request model: what a solver endpoint or a workshop job is called with
RequestT = TypeVar("RequestT", bound=BaseModel)

#: ``analyse(state, budget, extra, stop)``: the AI's analysis of the position (made now, not cached),
#: thinking for ``budget`` from when it starts, ending early when ``stop`` is set.
Analyser = Callable[[State, ThinkBudget, Sequence[Move], StopSignal], SearchedPosition]
#: ``analysis(state)``: the cached analysis of a position with the request's budget (made now and
#: cached when none is stored; see ``AnalysisOf``).
PositionAnalysis = Callable[[State], SearchedPosition]
#: ``run(request, deadline, stop, analysis)``: the solver's result for a validated request, ending by
#: ``deadline`` (made as the job starts, of the request's budget as the server's caps allow:
#: ``Limits.solver_budget``), and early
#: when ``stop`` is set (the client went away: nobody reads the answer); ``analysis`` gives the cached
#: analysis of a position with the same budget (a hint of a position uses it).
SolverRun = Callable[[RequestT, Deadline, StopSignal, PositionAnalysis], BaseModel]
#: ``make_bot(name, level, seed, time_cap, analysis_of)``: a fresh bot for one decision; a bot that
#: plays the analysis's best move takes it from ``analysis_of``.
BotFactory = Callable[[str, int, int, float, AnalysisOf], Bot]
#: ``game_hint(state, analysis)``: the hint for the player to move, as ``patchwork hint --json``.
GameHint = Callable[[State, SearchedPosition], BaseModel]
#: ``live(notation, stop, max_seconds, lines)``: the snapshots of a live analysis of the position as JSON
#: objects (``ai/analysis/live.py``'s ``snapshot_json``), until ``stop`` is set or ``max_seconds`` have passed.
#: A top-level function: the analysis workers (``streams.py``), processes of their own, import it by name.
LiveEvents = Callable[[str, StopSignal, float, int], Iterator[dict[str, object]]]
#: ``make_puzzle(kind, difficulty, seed, stop)``: a new puzzle (``puzzle new``'s), when the bank has
#: none left for a visitor; ends early (``PatchworkError``) when ``stop`` is set.
PuzzleMaker = Callable[[str, int | None, int, StopSignal], Puzzle]


#: ``progress(best, bound, phase)``: how far a workshop job has got (the fill's best value and bound so far).
JobProgress = Callable[[float | None, float, str], None]
#: ``run(request, deadline, stop, progress)``: a workshop job's result for a validated request (the
#: CLI's ``--json`` object) by ``deadline`` (made as the job starts, of the request's time as the
#: server's caps allow), ending early with the best found when ``stop`` is set.
JobRun = Callable[[RequestT, Deadline, StopSignal, JobProgress], BaseModel]


@dataclass(frozen=True, slots=True)
class Workshop:
    """The workshop's solvers: the best placements of a patch (answered at once, in the job queue),
    and the optimal fill and the 7x7 question (jobs that are submitted, then polled)."""

    #: ``placements(request, deadline, stop)``: the best placements with their reasons in words
    placements: Callable[[PlacementsRequest, Deadline, StopSignal], BaseModel]
    fill: JobRun[FillRequest]
    bonus: JobRun[BonusRequest]


class Endpoint(Protocol):
    """What the solvers' router reads of a ``SolverEndpoint``, whatever its request model."""

    @property
    def request(self) -> type[BaseModel]: ...

    @property
    def response(self) -> type[BaseModel] | UnionType: ...

    @property
    def summary(self) -> str: ...

    def run(self, request: BaseModel, deadline: Deadline, stop: StopSignal, analysis: PositionAnalysis) -> BaseModel:
        ...


@dataclass(frozen=True, slots=True)
class SolverEndpoint(Generic[RequestT]):
    """``POST /api/<name>``: the same request and result objects as the CLI's ``--json``."""

    request: type[RequestT]
    #: the result model, or a union of models (``AdvisedHints | BestFitResult``)
    response: type[BaseModel] | UnionType
    solve: SolverRun[RequestT]
    summary: str

    def run(self, request: BaseModel, deadline: Deadline, stop: StopSignal, analysis: PositionAnalysis) -> BaseModel:
        """``solve`` of a request the route validated as ``self.request``."""
        if not isinstance(request, self.request):
            raise TypeError(f"a {self.request.__name__} was expected, not a {type(request).__name__}")
        return self.solve(request, deadline, stop, analysis)


#: The review depth the page asks for by default (its Analysis select's "normal", index.html), and
#: the API's when a request names none: seconds of analysis a position.
PAGE_REVIEW_SECONDS = 0.3


@dataclass(frozen=True, slots=True)
class Limits:
    """Server-side caps; a request can ask for less, never for more."""

    max_body_bytes: int = 64 * 1024
    max_solver_seconds: float = 5.0
    max_ai_seconds: float = 5.0
    #: a whole game review: its time per position is cut to fit (``time_per_move <= this / positions``)
    max_review_seconds: float = 30.0
    #: the analysis budget of a game hint (``GET /api/games/{id}/hint``), at most ``max_solver_seconds``:
    #: the page's default review depth, so that the default review of a game reads the very analyses
    #: its hints showed (the analysis cache answers a review from an analysis at least as deep): one
    #: voice, the hint's first move the review's best (docs/review.md). The learned-value search at
    #: 0.25 s is already no weaker than the rollout search at 1 s (the hints' old budget): 122-78 over
    #: 200 games (docs/strength.md)
    game_hint_seconds: float = PAGE_REVIEW_SECONDS
    #: the workshop's best placements (answered at once), at most ``max_solver_seconds``: the page draws
    #: them within 0.5 s of the button, round trip included (``patchwork bench workshop``)
    placements_seconds: float = 0.3
    #: solver and AI jobs running at once (more wait their turn; the event loop never blocks)
    solver_workers: int = 2
    #: jobs waiting for a slot at most; past this the answer is 503 with ``Retry-After``
    max_queued: int = 32
    #: nor may a job join the line when it would wait longer than this for its answer, by the
    #: running mean of job times (the line holds many quick hints, few long AI moves)
    max_queue_wait_seconds: float = 1.5
    #: jobs one client (address) may have running at once: ``solver_workers - 1``, at least 1
    client_running: int | None = None
    #: jobs one client may have queued or running; past this the answer is 429 with ``Retry-After``
    client_jobs: int = 4
    #: games one client may create per ``game_window_seconds``
    client_games: int = 30
    game_window_seconds: float = 3600.0
    #: a game with no move (nor undo) for this long is deleted; 0 keeps games for ever
    game_idle_seconds: float = 30 * 86400.0
    #: analyses the games database keeps for reuse (the oldest written go first); 0 keeps none
    cached_analyses: int = 10_000
    #: a workshop job (fill, 7x7) is kept this long after it ends, for its answer and exports ...
    kept_job_seconds: float = 600.0
    #: ... and at most this many ended jobs (the oldest go first)
    kept_jobs: int = 1000
    #: names the ``Host`` header may carry (any port); ``"*"`` accepts any (behind a proxy that checks)
    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")
    #: live analyses (``GET /api/analysis/stream``) running at once; past this the answer is 503 with
    #: ``Retry-After``. They run in worker processes of their own, never in the job queue's slots
    max_analyses: int = 8
    #: live analyses one client may run at once; past this the answer is 429 with ``Retry-After``
    client_analyses: int = 2
    #: the longest a live analysis thinks (a stream may ask for less)
    max_analysis_seconds: float = 30.0
    #: live games' streams (``GET /api/games/{id}/events``) this process keeps open at once; past this
    #: the answer is 503 with ``Retry-After``
    max_game_streams: int = 2000
    #: game streams one client may keep open at once (a player, a spectator or two); past this 429
    client_game_streams: int = 8
    #: worker processes the live analyses share (each loads the compiled searches once)
    analysis_processes: int = 2
    #: the workers' scheduling priority below the server's (``nice``): hints and AI moves come first
    analysis_nice: int = 10

    def solver_seconds(self, asked: float) -> float:
        """A solver request's time: the seconds it asked for, at most ``max_solver_seconds``."""
        return min(asked, self.max_solver_seconds)

    def solver_budget(self, asked: float) -> ThinkBudget:
        """A solver request's budget (``solver_seconds``), made where the request comes in; its
        deadline starts with its job."""
        return ThinkBudget(self.solver_seconds(asked))

    @property
    def hint_budget(self) -> ThinkBudget:
        """A game hint's analysis budget: ``game_hint_seconds``, at most ``max_solver_seconds``."""
        return ThinkBudget(min(self.game_hint_seconds, self.max_solver_seconds))

    def review_seconds(self, asked: float, positions: int) -> float:
        """A review's analysis budget per position: what it asked for, cut so that the whole review
        takes at most ``max_review_seconds``."""
        return min(asked, self.max_review_seconds / max(1, positions))

    @property
    def per_client_running(self) -> int:
        if self.client_running is not None:
            return max(1, self.client_running)
        return max(1, self.solver_workers - 1)


@dataclass(frozen=True, slots=True)
class Services:
    solvers: Mapping[str, Endpoint] = field(default_factory=dict)
    #: the AI's analysis behind game hints, reviews and the solver AI's moves; None: none of these
    analyse: Analyser | None = None
    game_hint: GameHint | None = None
    make_bot: BotFactory | None = None
    ai_names: Sequence[str] = ()
    default_ai: str = ""
    #: new puzzles beyond the shipped bank; None: the bank alone (a visitor may meet a puzzle again)
    make_puzzle: PuzzleMaker | None = None
    #: the live analysis behind the analysis stream; None: the server offers no stream (503)
    live: LiveEvents | None = None
    #: loads the compiled searches (compiling them, about a minute on one core, the first time an install runs).
    #: ``serve`` runs it, here and in the analysis workers, before it says it is ready when
    #: ``searches_cached`` says it only loads them (seconds); otherwise the app runs it in the background
    #: as it starts, so the first visitor's hint, AI move or puzzle answer does not wait for a compile.
    #: None: nothing to load
    warm_up: Callable[[], None] | None = None
    #: whether ``warm_up`` would only load the compiled searches from the cache, compiling none; None:
    #: not known (``warm_up`` runs in the background)
    searches_cached: Callable[[], bool] | None = None
    #: the workshop's solvers (``/api/workshop/...``); None: this server runs without them
    workshop: Workshop | None = None
