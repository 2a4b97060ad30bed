"""The endgame kind: "find a winning move" in a late position where exactly one decision wins.

Its file: ``{"kind": "endgame", "id", "record", "position", "player", "winning": [moves],
"refutation": {"move", "line", "margin"}, "difficulty", "margin", "legal", "bots", "seed", "themes",
"rating"}``: the game ``record`` up to the puzzle's position (whose notation is ``position``), the
``player`` to move, one move of each class that wins (placements equal up to the board's symmetries
are one move), a natural wrong move with the line of best play that refutes it to the end of the
game, the best ``margin``, the number of distinct ``legal`` moves, the share of trials the bots of
levels 1-5 found a win, the ``themes`` its proof shows (``ENDGAME_THEMES``) and its ``rating`` after
the bots' answers. How they are made: ``puzzles/endgame.py``.

An answer is a move of the position. The exact search gives its value under best play and the line
that follows: a win by some margin (correct), or a loss with the line that refutes it. A move the
rules refuse there is an ``IllegalMoveError`` naming why (422 on the web).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import player_name, words_in
from patchwork_opt.formats.models import MoveModel, RecordModel, move_model
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import N_, _, ngettext
from patchwork_opt.puzzles.kinds.base import Answer, Judging, PuzzleKind, themes_sentence
from patchwork_opt.puzzles.model import (
    Difficulty,
    PuzzleFormatError,
    PuzzleIdText,
    Strict,
    legal_moves_of,
    line_from,
    moves_of,
    position_of,
    validated,
)
from patchwork_opt.puzzles.proof import Prover, margin_of

#: Themes an endgame puzzle is tagged with from its proof (``puzzles/themes.py`` says when each holds).
ENDGAME_THEMES: tuple[str, ...] = ("7x7-race", "leather", "income-timing", "tie-break", "placement", "buttons",
                                   "long-line")
EndgameTheme = Literal["7x7-race", "leather", "income-timing", "tie-break", "placement", "buttons", "long-line"]
#: Each theme in words (English, marked for the catalogue: said through ``_`` where it is shown).
THEME_WORDS: dict[str, str] = {
    # Translators: a theme of an endgame puzzle (what decides it), shown as "Themes: ..."
    "7x7-race": N_("the race for the 7x7 bonus"), "leather": N_("leather patches"),
    "income-timing": N_("income in time"), "tie-break": N_("who reaches the end first"),
    "placement": N_("where the patch goes"), "buttons": N_("buttons saved"),
    "long-line": N_("a long line of best play"),
}


class RefutationModel(Strict):
    move: MoveModel = Field(description="a natural wrong move (the best-looking losing one)")
    line: list[MoveModel] = Field(min_length=1, max_length=80,
                                  description="the move and best play after it, to the end of the game")
    margin: float = Field(description="the final margin for the player after the move, with best play (< 0, or 0 "
                                      "lost on the tie-break)")


class EndgamePuzzleModel(Strict):
    kind: Literal["endgame"]
    id: PuzzleIdText
    record: RecordModel
    position: str = Field(max_length=400, description="the notation of the record's last position")
    player: int = Field(ge=0, le=1, strict=True, description="the player to move, who has a win")
    winning: list[MoveModel] = Field(min_length=1, description="one move of each winning class")
    refutation: RefutationModel
    difficulty: Difficulty
    margin: float = Field(description="the best final margin for the player (0: a tie won on the tie-break)")
    legal: int = Field(ge=1, strict=True, description="distinct legal moves (equal up to the board's symmetries)")
    bots: list[Annotated[float, Field(ge=0, le=1)]] = Field(
        default_factory=list, max_length=5, description="share of trials the bots of levels 1-5 found a win")
    seed: int | None = Field(default=None, description="the seed of the self-play game it comes from")
    rating: float | None = Field(default=None, description="its Glicko-2 rating after the bots' answers")
    themes: list[EndgameTheme] = Field(default_factory=list, max_length=len(ENDGAME_THEMES),
                                       json_schema_extra={"uniqueItems": True},
                                       description="what the proof shows decides it (puzzles/themes.py)")


@dataclass(frozen=True, slots=True)
class EndgamePuzzle:
    """Find a winning move: the position after ``record``, ``player`` to move."""

    id: str
    record: Record
    player: int
    winning: tuple[Move, ...]
    refutation: Move
    refutation_line: tuple[Move, ...]  # starts with ``refutation``
    refutation_margin: float
    margin: float
    legal: int
    difficulty: int
    bots: tuple[float, ...] = ()
    seed: int | None = None
    themes: tuple[str, ...] = ()
    rating: float | None = None

    kind = "endgame"

    def state(self) -> State:
        return self.record.replay()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "endgame",
            "id": self.id,
            "record": self.record.to_json(),
            "position": to_notation(self.state()),
            "player": self.player,
            "winning": [m.to_json() for m in self.winning],
            "refutation": {"move": self.refutation.to_json(), "line": [m.to_json() for m in self.refutation_line],
                           "margin": self.refutation_margin},
            "difficulty": self.difficulty,
            "margin": self.margin,
            "legal": self.legal,
            "bots": [round(x, 3) for x in self.bots],
            "seed": self.seed,
            "themes": list(self.themes),
            "rating": self.rating,
        }


def endgame_from_json(data: dict[str, Any]) -> EndgamePuzzle:
    model = validated(EndgamePuzzleModel, data)
    record, state = position_of(model.record, model.position, model.player)
    winning = legal_moves_of(state, model.winning, "winning")
    (refutation,) = moves_of([model.refutation.move], "refutation.move")
    line = line_from(state, model.refutation.line, "refutation.line")
    if line[0] != refutation:
        # Translators: a puzzle file's fields (refutation.line ...) keep their names
        raise PuzzleFormatError(N_("refutation.line: must start with the refutation's move"))
    return EndgamePuzzle(
        id=model.id, record=record, player=model.player, winning=tuple(winning), refutation=refutation,
        refutation_line=tuple(line), refutation_margin=model.refutation.margin, margin=model.margin,
        legal=model.legal, difficulty=model.difficulty, bots=tuple(model.bots), seed=model.seed,
        themes=tuple(model.themes), rating=model.rating,
    )


@dataclass(frozen=True, slots=True)
class EndgameVerdict:
    """``correct`` when the move wins; ``margin`` the final margin for the player under best play (0
    for a tie decided by who reached the end first); ``line`` the move and best play after it."""

    correct: bool
    margin: float
    line: tuple[Move, ...]
    text: str

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.line

    def to_json(self) -> dict[str, Any]:
        return {"correct": self.correct, "margin": self.margin, "line": [m.to_json() for m in self.line],
                "text": self.text}


def _verdict_text(won: bool, margin: float, winning: str) -> str:
    """The verdict in words: won or lost, by how much or on the tie-break (one whole sentence each)."""
    if won and margin == 0:
        return _("correct: you win on the tie-break (equal scores; the first to reach the end wins) with best play")
    if won:
        # Translators: an endgame puzzle's verdict: you win by {count} points with best play
        return ngettext("correct: you win by {count} with best play", "correct: you win by {count} with best play",
                        abs(margin))
    if margin == 0:
        # Translators: {move} is a winning move in words ("buy #12 ...", as the move words say it)
        return _("wrong: best play refutes it and you lose on the tie-break (equal scores; the first to reach the "
                 "end wins); a winning move was to {move}", move=winning)
    # Translators: an endgame puzzle's verdict: you lose by {count} points; {move} a winning move in words
    return ngettext("wrong: best play refutes it and you lose by {count}; a winning move was to {move}",
                    "wrong: best play refutes it and you lose by {count}; a winning move was to {move}",
                    abs(margin), move=winning)


def judge_endgame(puzzle: EndgamePuzzle, move: Move, prover: Prover | None = None) -> EndgameVerdict:
    """The verdict on ``move`` with its proof (``IllegalMoveError`` when the rules refuse it)."""
    state = puzzle.state()
    state.check(move)
    prover = prover or Prover(Judging().seconds)
    value, rest = prover.after(state, move)
    won = value > 0
    margin = margin_of(value)
    line = (move, *rest)
    text = _verdict_text(won, margin, "" if won else words_in(state, puzzle.winning[0]))
    return EndgameVerdict(won, margin, line, text)


class EndgameDetails(BaseModel):
    """An endgame's counts: how many distinct moves there are and how many of them win."""

    kind: Literal["endgame"] = "endgame"
    legal: int = Field(description="distinct legal moves (placements equal up to the board's symmetries count once)")
    winning: int = Field(description="how many of them win")


class EndgameVerdictDetails(BaseModel):
    """The answer revealed: one move of each winning class, drawn and in words."""

    kind: Literal["endgame"] = "endgame"
    winning: list[MoveModel] = Field(description="one move of each winning class")
    winning_words: list[str] = Field(description="each winning move in words (core/words.py)")


class EndgameKind(PuzzleKind[EndgamePuzzle, EndgameVerdict]):
    name = "endgame"
    # Translators: a kind of puzzle, as its menu names it
    label = N_("find the winning move")
    prefix = "e"
    answer = "move"
    themes = ENDGAME_THEMES
    theme_words = THEME_WORDS
    bank_file = "endgames.json"
    # Translators: the label of the progress bar while the puzzle bank's puzzles of a kind are made
    bank_words = N_("endgame puzzles")
    comes_back_as = "endgame"
    queued = True
    maker = "patchwork_opt.puzzles.endgame"
    bank_shares = {"advance": 0.2, "leather": 0.25}  # noqa: RUF012  (read only)

    def from_json(self, data: dict[str, Any]) -> EndgamePuzzle:
        return endgame_from_json(data)

    def task(self, puzzle: EndgamePuzzle) -> str:
        wins = len(puzzle.winning)
        # Translators: an endgame puzzle's task; {player} is "Player 1" or "Player 2"
        asked = _("{player} (you) to move: find a winning move.", player=player_name(puzzle.player))
        # Translators: how many distinct moves an endgame puzzle's position has (the first part of a sentence)
        moves = ngettext("{count} distinct move", "{count} distinct moves", puzzle.legal)
        # Translators: how many of the distinct moves win (the second part: "12 distinct moves, 3 of them win")
        winning = ngettext("{count} of them wins", "{count} of them win", wins)
        # Translators: {moves} and {winning} are the two counts above; {difficulty} is 1 to 5
        counts = _("{moves}, {winning}; difficulty {difficulty} of 5.", moves=moves, winning=winning,
                   difficulty=puzzle.difficulty)
        return f"{asked} {counts}{themes_sentence(puzzle.themes, THEME_WORDS)}"

    def judge(self, puzzle: EndgamePuzzle, answer: Answer, judging: Judging) -> EndgameVerdict:
        assert isinstance(answer, Move)
        return judge_endgame(puzzle, answer, Prover(judging.seconds, judging.table_mb, stop=judging.stop))

    def position(self, puzzle: EndgamePuzzle) -> State:
        return puzzle.state()

    def measured_rating(self, puzzle: EndgamePuzzle) -> float | None:
        return puzzle.rating

    def details(self, puzzle: EndgamePuzzle) -> EndgameDetails:
        return EndgameDetails(legal=puzzle.legal, winning=len(puzzle.winning))

    def verdict_details(self, puzzle: EndgamePuzzle, verdict: EndgameVerdict) -> EndgameVerdictDetails:
        state = puzzle.state()
        return EndgameVerdictDetails(winning=[move_model(m) for m in puzzle.winning],
                                     winning_words=[words_in(state, m) for m in puzzle.winning])


ENDGAME = EndgameKind()
