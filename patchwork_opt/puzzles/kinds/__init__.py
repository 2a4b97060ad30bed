"""The registry of puzzle kinds: each kind is a type (``base.PuzzleKind``) in a module of its own, and
everything that depends on the kind asks it here instead of testing the kind's name.

* ``endgame`` (``endgame.py``): find the winning move of a late position where one decision wins;
* ``fill`` (``fill.py``): fill a quilt with some of a set of patches for a proven optimum;
* ``exercise`` (``exercise.py``): find a better move where you made a mistake in one of your games.

A new kind is a module of this folder (its puzzle type, file format, judge, verdict and the
``PuzzleKind`` that says them) and its entry in ``KINDS`` and in the two ``...Details`` unions below
(with, when it is made from seeded games, the module its ``maker`` names); the commands, the
terminal, the bank and the service serve it from there. Reading a puzzle of any
kind (``puzzle_from_json``, ``load_puzzle``) and judging an answer given as text (``check_answer``)
go through here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.i18n import N_, one_of
from patchwork_opt.puzzles.kinds.base import Answer, Judging, PuzzleKind, Verdict
from patchwork_opt.puzzles.kinds.endgame import ENDGAME, EndgameDetails, EndgamePuzzle, EndgameVerdictDetails
from patchwork_opt.puzzles.kinds.exercise import EXERCISE, Exercise, ExerciseDetails, ExerciseVerdictDetails
from patchwork_opt.puzzles.kinds.fill import FILL, FillDetails, FillPuzzle, FillVerdictDetails, read_placements
from patchwork_opt.puzzles.model import PuzzleFormatError, read_json, read_json_file

#: Every kind, by the name its files carry in ``kind``.
KINDS: dict[str, PuzzleKind[Any, Any]] = {kind.name: kind for kind in (ENDGAME, FILL, EXERCISE)}
#: A puzzle of any kind.
Puzzle = EndgamePuzzle | FillPuzzle | Exercise
#: What the page is told of a puzzle of each kind (``PuzzleKind.details``), told apart by ``kind``.
PuzzleDetails = Annotated[EndgameDetails | FillDetails | ExerciseDetails, Field(discriminator="kind")]
#: What the page is told of a verdict of each kind (``PuzzleKind.verdict_details``).
VerdictDetails = Annotated[EndgameVerdictDetails | FillVerdictDetails | ExerciseVerdictDetails,
                           Field(discriminator="kind")]
#: A puzzle's id: its kind's letter and 12 hex digits of its content's hash.
ID_PATTERN = "^[" + "".join(kind.prefix for kind in KINDS.values()) + "][0-9a-f]{12}$"
#: Every theme of every kind, and each theme in the words the page shows.
THEME_WORDS: dict[str, str] = {t: w for kind in KINDS.values() for t, w in kind.theme_words.items()}
THEMES: tuple[str, ...] = tuple(THEME_WORDS)
#: The kinds the shipped bank holds, in the bank's order.
BANKED: tuple[str, ...] = tuple(name for name, kind in KINDS.items() if kind.bank_file is not None)


def _article(word: str) -> str:
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def kind_named(name: str) -> PuzzleKind[Any, Any]:
    """The kind called ``name`` (``PatchworkError`` naming the kinds there are)."""
    kind = KINDS.get(name)
    if kind is None:
        # Translators: {kinds} lists the puzzle kinds' names (endgame, fill, exercise), kept as they are
        raise PatchworkError(N_("unknown puzzle kind {name!r}: the kind is {kinds}"), name=name,
                             kinds=one_of(repr(k) for k in KINDS))
    return kind


def kind_of(puzzle: Any) -> PuzzleKind[Any, Any]:
    """The kind of a puzzle of any kind."""
    return KINDS[puzzle.kind]


def puzzle_from_json(data: object) -> Puzzle:
    """A puzzle object of any kind checked field by field, then against the rules; one
    ``PuzzleFormatError`` naming the field otherwise."""
    if not isinstance(data, dict):
        raise PuzzleFormatError(N_("a puzzle is a JSON object, got {type}"), type=type(data).__name__)
    kind = KINDS.get(data.get("kind"))  # type: ignore[arg-type]
    if kind is None:
        # Translators: a puzzle file's "kind" field; {kinds} lists the kinds' names, kept as they are
        raise PuzzleFormatError(N_("kind: expected {kinds}, got {kind!r}"), kinds=one_of(repr(k) for k in KINDS),
                                kind=data.get("kind"))
    puzzle: Puzzle = kind.from_json(data)
    if not puzzle.id.startswith(kind.prefix):
        # Translators: a puzzle file's "id" field; {kind} is the kind's name (endgame, fill, exercise)
        raise PuzzleFormatError(N_("id: the id of a puzzle of kind {kind} starts with {prefix!r}, got {id!r}"),
                                kind=kind.name, prefix=kind.prefix, id=puzzle.id)
    return puzzle


def load_puzzle(path: str | Path) -> Puzzle:
    """The puzzle in a JSON file; a file that cannot be read or is no valid puzzle is one
    ``PuzzleFormatError`` naming the file and the field."""
    data = read_json_file(path)
    try:
        return puzzle_from_json(data)
    except PuzzleFormatError as exc:
        raise PuzzleFormatError(N_("{path}: {error}"), path=str(path), error=exc) from None


def read_answer(kind: PuzzleKind[Any, Any], move: object | None, placements: object | None,
                names: tuple[str, str] = ("move", "placements")) -> Answer:
    """An answer (parsed JSON) in the form the kind takes: a move, or a fill's placements;
    ``PatchworkError`` naming the options when the other one, or none, is given (``names``: what the
    two are called where they are given, e.g. ``--move`` and ``--placements``)."""
    # Translators: how a puzzle of a kind is answered: {given} and {other} are options (--move, --placements)
    answered = {"endgame": N_("an endgame puzzle is answered with {given} JSON (and no {other})"),
                "exercise": N_("an exercise puzzle is answered with {given} JSON (and no {other})"),
                "fill": N_("a fill puzzle is answered with {given} JSON (and no {other})")}
    said = answered.get(kind.name, f"{_article(kind.name)} puzzle is answered with {{given}} JSON (and no {{other}})")
    if kind.answer == "move":
        if move is None or placements is not None:
            raise PatchworkError(said, given=names[0], other=names[1])
        return Move.from_json(move)
    if placements is None or move is not None:
        raise PatchworkError(said, given=names[1], other=names[0])
    return read_placements(placements, names[1])


def judge(puzzle: Any, answer: Answer, judging: Judging | None = None) -> Verdict:
    """The verdict of the puzzle's kind on ``answer``."""
    verdict: Verdict = kind_of(puzzle).judge(puzzle, answer, judging or Judging())
    return verdict



def check_answer(puzzle: Any, *, move: str | None = None, placements: str | None = None,
                 judging: Judging | None = None) -> Verdict:
    """``puzzle check``: the verdict on an answer given as JSON text (``--move`` for a puzzle answered
    by a move, ``--placements`` for a fill)."""
    answer = read_answer(kind_of(puzzle), None if move is None else read_json(move, "--move"),
                         None if placements is None else read_json(placements, "--placements"),
                         names=("--move", "--placements"))
    return judge(puzzle, answer, judging)


def check_puzzle_request(kind: str, variant: str | None, theme: str | None = None) -> None:
    """The kind, variant and theme a new puzzle is asked for (``puzzles/making.py``'s ``new_puzzle``),
    refused before any game is dealt (so the command says nothing else first, not even the random
    seed it drew): a kind made from seeds, a variant of it, a theme of it the variant can have."""
    made = [k for k in KINDS.values() if k.maker is not None]
    found = next((k for k in made if k.name == kind), None)
    if found is None:
        # Translators: keep the kinds' and variants' names (endgame, fill; cells, points, bonus) as they are
        raise PatchworkError(N_("kind must be {kinds}, not {kind!r}"), kinds=one_of(k.name for k in made),
                             kind=kind)
    if variant is not None:
        if not found.variants:
            with_variants = one_of(k.name for k in made if k.variants)
            raise PatchworkError(N_("--variant is for {kinds} puzzles"), kinds=with_variants)
        if variant not in found.variants:
            raise PatchworkError(N_("variant must be {variants}, not {variant!r}"),
                                 variants=one_of(found.variants), variant=variant)
    if theme is None:
        return
    if theme not in found.themes:
        # Translators: keep the themes' names (7x7-race, leather, budget ...) as they are
        themes = {"endgame": N_("an endgame theme is {themes}, not {theme!r}"),
                  "fill": N_("a fill theme is {themes}, not {theme!r}")}
        raise PatchworkError(themes.get(kind, f"{_article(kind)} theme is {{themes}}, not {{theme!r}}"),
                             themes=one_of(found.themes), theme=theme)
    variants = found.theme_variants.get(theme, found.variants)
    if variant is not None and variant not in variants:
        raise PatchworkError(N_("the theme {theme} is for the {variants} variant, not {variant}"), theme=theme,
                             variants=one_of(variants), variant=variant)
