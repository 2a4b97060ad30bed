"""Puzzles: the Puzzles page, a puzzle without its answer, and the verdict on an answer with its proof.

A puzzle comes from the shipped bank (``puzzles/bank.py``), one the visitor has not answered yet;
when the bank has none left for them, a new one is made in the bounded job queue (``Services.make_puzzle``,
the solvers' ``puzzle new``) and kept in the games store. An answer is judged (an endgame's by the
exact search, in the job queue), then the visitor's and the puzzle's Glicko-2 ratings move in one
transaction of the store; only a visitor's first answer to a puzzle counts. A visitor is an id the
server hands out with the first answer (the page keeps it); an unknown one is 404.
"""

from __future__ import annotations

import json
import random
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from patchwork_opt.apps.web.deps import (
    ClientDep,
    CreationsDep,
    ServicesDep,
    StoreDep,
    WholeNumbersRoute,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import ServiceMissingError, answers
from patchwork_opt.apps.web.jobs import BusyError
from patchwork_opt.apps.web.routers.service import STATIC_DIR
from patchwork_opt.apps.web.schemas import OfferView, PlayerBoard, optional_field, piece_view, refuse_nulls
from patchwork_opt.apps.web.store import GameStore, new_game_id
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.models import CellModel, MoveModel, PositionModel, move_from_model, move_model
from patchwork_opt.puzzles.bank import Bank, PuzzleNotFoundError, shipped_bank
from patchwork_opt.puzzles.glicko import Rating, rate_answer
from patchwork_opt.puzzles.judge import (
    JUDGE_SECONDS,
    EndgameVerdict,
    FillVerdict,
    judge_endgame,
    judge_fill,
    read_placements,
)
from patchwork_opt.puzzles.model import (
    ID_PATTERN,
    EndgamePuzzle,
    FillPuzzle,
    PlacementModel,
    Puzzle,
    puzzle_from_json,
)
from patchwork_opt.puzzles.proof import Prover

PuzzleId = Annotated[str, PathParam(pattern=ID_PATTERN, description="the puzzle's id")]
VisitorId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{16,64}$", description="the visitor's id (from an answer)")]
#: A puzzle's rating before anyone answers it, by difficulty; a newcomer's is Glicko-2's own.
START_RATINGS: dict[int, float] = {1: 1100.0, 2: 1300.0, 3: 1500.0, 4: 1700.0, 5: 1900.0}
START_DEVIATION = 250.0
JUDGE_TABLE_MB = 16.0  # the exact search's table for judging one answer

router = APIRouter(tags=["puzzles"], route_class=WholeNumbersRoute)


class TooManyVisitorsError(BusyError):
    """A client that started its share of new visitors (as of new games) for now (429)."""

    http_status = 429


class AnswerError(PatchworkError):
    """An answer of the other kind: a move for a fill, placements for an endgame (422)."""

    http_status = 422


class NewPuzzleRequest(BaseModel):
    """A puzzle of a kind (and difficulty), one the visitor has not answered yet when possible."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["endgame", "fill"] = Field(default="endgame", description="find the winning move, or fill the quilt")
    difficulty: Annotated[int, Field(ge=1, le=5)] | SkipJsonSchema[None] = optional_field(
        "1 (easy) to 5; any when left out")
    visitor: VisitorId | SkipJsonSchema[None] = optional_field("the visitor asking (their rating comes back)")

    @model_validator(mode="after")
    def _no_nulls(self) -> NewPuzzleRequest:
        refuse_nulls(self, ("difficulty", "visitor"))
        return self


class AnswerRequest(BaseModel):
    """An endgame's ``move``, or a fill's ``placements`` (exactly one); ``visitor`` left out the first time."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [
        {"required": ["move"], "not": {"required": ["placements"]}},
        {"required": ["placements"], "not": {"required": ["move"]}},
    ]})

    move: MoveModel | SkipJsonSchema[None] = optional_field("an endgame's answer")
    placements: Annotated[list[PlacementModel], Field(max_length=33)] | SkipJsonSchema[None] = optional_field(
        "a fill's answer: the patches and the cells each covers")
    visitor: VisitorId | SkipJsonSchema[None] = optional_field("the visitor answering; a new one is made when left out")

    @model_validator(mode="after")
    def _exactly_one(self) -> AnswerRequest:
        refuse_nulls(self, ("move", "placements", "visitor"))
        if (self.move is None) == (self.placements is None):
            raise ValueError("give exactly one of move (an endgame) or placements (a fill)")
        return self


class RatingView(BaseModel):
    rating: float
    deviation: float


class VisitorView(RatingView):
    id: str


class EndgameView(BaseModel):
    """What the page draws: the position as a game view draws it, and whose move it is."""

    player: int = Field(description="the player to move (the visitor plays them)")
    legal: int = Field(description="distinct legal moves (placements equal up to the board's symmetries count once)")
    winning: int = Field(description="how many of them win")
    state: PositionModel
    boards: list[PlayerBoard]
    offers: list[OfferView]
    upcoming: list[int]


class FillView(BaseModel):
    quilt: list[CellModel] = Field(description="covered cells")
    patches: list[int] = Field(description="the patches to choose from, each at most once")
    objective: Literal["cells", "points"]
    marks: int = Field(description="income marks ahead (the points objective counts income at each)")
    budget: int | None = Field(description="buttons to spend at most, or null")
    require_bonus: bool = Field(description="a 7x7 square must be completed")


class PuzzleView(BaseModel):
    """A puzzle without its answer."""

    id: str
    kind: Literal["endgame", "fill"]
    difficulty: int
    rating: RatingView = Field(description="the puzzle's Glicko-2 rating")
    visitor: VisitorView | None = Field(description="the visitor's rating, when the request named one")
    endgame: EndgameView | None
    fill: FillView | None


class AnswerView(BaseModel):
    """The verdict with its proof, the answer revealed, and both ratings after the answer."""

    puzzle: str
    correct: bool
    text: str
    margin: float = Field(
        description="endgame: the final margin for the visitor under best play; fill: value - optimum")
    line: list[MoveModel] = Field(description="endgame: the move and best play after it, to the end")
    line_players: list[int] = Field(description="endgame: who makes each move of the line (0 or 1)")
    winning: list[MoveModel] = Field(description="endgame: one move of each winning class")
    value: int | None = Field(description="fill: what the answer reaches")
    best: int | None = Field(description="fill: the proven optimum")
    optimum: list[PlacementModel] = Field(description="fill: the optimum's placements")
    visitor: VisitorView
    rating: RatingView = Field(description="the puzzle's rating after the answer")
    rated: bool = Field(description="False when the visitor had answered this puzzle before (nothing moved)")


async def _bank(request: Request) -> Bank:
    """The bank on ``app.state.puzzle_bank`` (tests put their own there), else the shipped one (read
    and validated once, off the event loop)."""
    given = getattr(request.app.state, "puzzle_bank", None)
    return cast(Bank, given) if given is not None else await in_thread(shipped_bank)


BankDep = Annotated[Bank, Depends(_bank)]


def start_rating(puzzle: Puzzle) -> Rating:
    return Rating(START_RATINGS[puzzle.difficulty], START_DEVIATION)


def rating_view(rating: Rating) -> RatingView:
    return RatingView(rating=round(rating.rating, 1), deviation=round(rating.deviation, 1))


def find_puzzle(bank: Bank, store: GameStore, puzzle_id: str) -> Puzzle:
    """A bank puzzle, or one made on demand and kept in the store; ``PuzzleNotFoundError`` (404)."""
    found = bank.find(puzzle_id)
    if found is not None:
        return found
    data = store.stored_puzzle(puzzle_id)
    if data is None:
        raise PuzzleNotFoundError(f"no puzzle with id {puzzle_id!r}")
    return puzzle_from_json(json.loads(data))


def puzzle_view(puzzle: Puzzle, rating: Rating, visitor: VisitorView | None) -> PuzzleView:
    endgame = fill = None
    if isinstance(puzzle, EndgamePuzzle):
        state = puzzle.state()
        buyable = set(state.buyable())
        endgame = EndgameView(
            player=puzzle.player, legal=puzzle.legal, winning=len(puzzle.winning), state=PositionModel.of(state),
            boards=[PlayerBoard(pieces=[piece_view(pid, mask) for pid, mask in state.placed[p]],
                                covered=state.quilts[p].bit_count()) for p in (0, 1)],
            offers=[OfferView(patch=pid, cost=PATCHES[pid].cost, time=PATCHES[pid].time, income=PATCHES[pid].income,
                              buyable=pid in buyable) for pid in state.offers()],
            upcoming=state.circle[len(state.offers()):],
        )
    else:
        fill = FillView(quilt=cells_of(puzzle.quilt), patches=list(puzzle.patches), objective=puzzle.objective,
                        marks=puzzle.marks, budget=puzzle.budget, require_bonus=puzzle.require_bonus)
    return PuzzleView(id=puzzle.id, kind="endgame" if endgame else "fill", difficulty=puzzle.difficulty,
                      rating=rating_view(rating), visitor=visitor, endgame=endgame, fill=fill)


@router.get("/puzzles", include_in_schema=False)
async def puzzles_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "puzzles.html")


@router.post("/api/puzzles", responses=answers(404, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(NewPuzzleRequest))])
async def new_puzzle(body: NewPuzzleRequest, store: StoreDep, bank: BankDep, services: ServicesDep,
                     worker: WorkerDep) -> PuzzleView:
    """A puzzle without its answer: from the shipped bank (one the visitor has not answered), or made
    now in the job queue when the bank has none left for them (404: an unknown visitor)."""
    visitor = body.visitor

    def pick() -> tuple[Puzzle | None, VisitorView | None]:
        seen: set[str] = set()
        shown = None
        if visitor is not None:
            mine = store.visitor_rating(visitor)
            shown = VisitorView(id=visitor, **rating_view(mine).model_dump())
            seen = store.answered(visitor)
        return bank.pick(body.kind, body.difficulty, random.Random(), seen), shown

    puzzle, shown = await in_thread(pick)
    if puzzle is None:
        puzzle = await _made_or_repeated(body, store, bank, services, worker)
    rating = await in_thread(lambda: store.puzzle_rating(puzzle.id, start_rating(puzzle)))
    return puzzle_view(puzzle, rating, shown)


async def _made_or_repeated(body: NewPuzzleRequest, store: GameStore, bank: Bank, services: Any,
                            worker: Any) -> Puzzle:
    """A new puzzle made in the job queue and kept in the store; without a maker, a bank puzzle again."""
    make = services.make_puzzle
    if make is None:
        again = bank.pick(body.kind, body.difficulty, random.Random())
        if again is None:
            raise ServiceMissingError(f"this server has no {body.kind} puzzles of that difficulty")
        return again
    seed = random.randrange(1 << 31)
    made = cast(Puzzle, await worker.run(lambda stop: make(body.kind, body.difficulty, seed, stop)))
    await in_thread(lambda: store.keep_puzzle(made.id, made.kind, json.dumps(made.to_json())))
    return made


@router.get("/api/puzzles/{puzzle_id}", responses=answers(404, 422))
async def read_puzzle(puzzle_id: PuzzleId, store: StoreDep, bank: BankDep) -> PuzzleView:
    """A puzzle without its answer, by id (404: no such puzzle)."""
    puzzle = await in_thread(lambda: find_puzzle(bank, store, puzzle_id))
    rating = await in_thread(lambda: store.puzzle_rating(puzzle.id, start_rating(puzzle)))
    return puzzle_view(puzzle, rating, None)


def _judged(puzzle: Puzzle, body: AnswerRequest) -> tuple[bool, Any]:
    """What an answer of the puzzle's kind is: ``AnswerError`` (422) for the other kind."""
    if isinstance(puzzle, EndgamePuzzle):
        if body.move is None:
            raise AnswerError("an endgame puzzle is answered with a move, not placements")
        return True, move_from_model(body.move)
    if body.placements is None:
        raise AnswerError("a fill puzzle is answered with placements, not a move")
    return False, read_placements([p.model_dump() for p in body.placements])


@router.post("/api/puzzles/{puzzle_id}/answer", responses=answers(404, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(AnswerRequest))])
async def answer_puzzle(puzzle_id: PuzzleId, body: AnswerRequest, store: StoreDep, bank: BankDep,
                        worker: WorkerDep, creations: CreationsDep, client: ClientDep) -> AnswerView:
    """The verdict with its proof (an endgame: the exact search, in the job queue) and both ratings
    after it. 422 names why a move or placement is illegal; 404: no such puzzle or visitor."""
    puzzle = await in_thread(lambda: find_puzzle(bank, store, puzzle_id))
    is_endgame, answer = _judged(puzzle, body)
    verdict: EndgameVerdict | FillVerdict
    if is_endgame:
        assert isinstance(puzzle, EndgamePuzzle)
        game = puzzle

        def prove(stop: StopSignal) -> EndgameVerdict:
            return judge_endgame(game, answer, Prover(JUDGE_SECONDS, JUDGE_TABLE_MB, stop=stop.attach))

        game.state().check(answer)  # an illegal move is refused before it takes a slot in the queue
        verdict = await worker.run(prove)
    else:
        assert isinstance(puzzle, FillPuzzle)
        verdict = judge_fill(puzzle, answer)
    visitor = body.visitor
    if visitor is None:
        wait = creations.take(client)
        if wait:
            raise TooManyVisitorsError(f"too many new visitors from you; retry in {wait}s", wait)
        visitor = new_game_id()
        await in_thread(lambda: store.new_visitor(visitor, Rating()))
    rated = await in_thread(lambda: store.rate_answer(visitor, puzzle.id, verdict.correct, start_rating(puzzle),
                                                      rate_answer))
    return _answer_view(puzzle, verdict, VisitorView(id=visitor, **rating_view(rated.visitor).model_dump()),
                        rating_view(rated.puzzle), rated.rated)


def _answer_view(puzzle: Puzzle, verdict: EndgameVerdict | FillVerdict, visitor: VisitorView, rating: RatingView,
                 rated: bool) -> AnswerView:
    common: dict[str, Any] = {"puzzle": puzzle.id, "correct": verdict.correct, "text": verdict.text,
                              "margin": verdict.margin, "visitor": visitor, "rating": rating, "rated": rated}
    if isinstance(verdict, EndgameVerdict):
        assert isinstance(puzzle, EndgamePuzzle)
        state, players = puzzle.state(), []
        for move in verdict.line:
            players.append(state.to_move())
            state.apply(move)
        return AnswerView(**common, line=[move_model(m) for m in verdict.line], line_players=players,
                          winning=[move_model(m) for m in puzzle.winning], value=None, best=None, optimum=[])
    optimum = [PlacementModel(patch=pid, cells=cells_of(mask)) for pid, mask in verdict.line]
    return AnswerView(**common, line=[], line_players=[], winning=[], value=verdict.value, best=verdict.best,
                      optimum=optimum)
