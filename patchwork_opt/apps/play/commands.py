"""What a person types during ``patchwork play``, read into small typed commands.

Parsing here knows only the grammar; whether a command makes sense now (placing a patch
before buying one, say) is the session's business. Every error is one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from patchwork_opt.core.bitboard import bit
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.i18n import N_, _


class CommandError(PatchworkError):
    """A line that is not a command, or a command the game refuses now; the person re-types it."""


@dataclass(frozen=True, slots=True)
class PlaceSpec:
    """Where to put the patch being placed: a suggestion number, an orientation and top-left cell,
    or the exact cells. Exactly one form is set."""

    suggestion: int | None = None
    orientation: int | None = None
    cell: tuple[int, int] | None = None
    cells: int = 0  # mask of the exact cells


@dataclass(frozen=True, slots=True)
class Buy:
    """``buy 2`` (2nd offer, 1-based) or ``buy #12`` (patch id), optionally placed at once."""

    offer: int | None = None
    patch: int | None = None
    place: PlaceSpec | None = None


@dataclass(frozen=True, slots=True)
class Place:
    spec: PlaceSpec


@dataclass(frozen=True, slots=True)
class PlayMove:
    """A move in the record's text form (``A``, ``12@34,35,45``, ``L@44``)."""

    move: Move


@dataclass(frozen=True, slots=True)
class Advance:
    pass


@dataclass(frozen=True, slots=True)
class Hint:
    count: int = 5


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class Cancel:
    pass


@dataclass(frozen=True, slots=True)
class Save:
    path: str


@dataclass(frozen=True, slots=True)
class Show:
    pass


@dataclass(frozen=True, slots=True)
class Help:
    pass


@dataclass(frozen=True, slots=True)
class Quit:
    pass


Command = Buy | Place | PlayMove | Advance | Hint | Undo | Cancel | Save | Show | Help | Quit

#: The terminal's help, in English (said through ``_``: ``draw.help_text``); the command words stay English.
# Translators: the terminal game's help; keep the command words (buy, cancel, advance, hint, undo, save,
# show, help, quit) and the examples as they are: they are what the player types
HELP_TEXT = N_("""\
commands (case does not matter):
  buy N          buy the N-th patch on offer (1-3); buy #ID buys patch ID
  buy N 1        ... and place it at once on suggestion 1 (or o3 4,5 or 34,35)
  1 .. 9         place the patch (or leather patch) on that suggestion
  o3 4,5         place it in orientation o3, top-left of its box on row 4 col 5
  34,35,45       place it on exactly these cells (row digit, column digit)
  4,5  or  45    put a leather patch on that cell
  cancel         put back the patch you were about to place
  advance  (a)   move just past the AI's token, one button per space moved
  hint [N]       the N best moves (5 unless given), with reasons
  undo  (u)      take back your last move and the AI's replies
  save FILE      write the game record (patchwork replay FILE reads it)
  show           draw the board again
  help  (?)      this text
  quit  (q)      stop (the record is saved if --save was given)
  12@34,35 / A / L@44   a move in record notation""")

_CELL_PAIR = re.compile(r"^([0-8])\s*[, ]\s*([0-8])$|^([0-8])([0-8])$")
_CELL_LIST = re.compile(r"^[0-8]{2}(?:\s*,\s*[0-8]{2})+$")
_ORIENTATION = re.compile(r"^o(\d+)\s+(.+)$")
_MOVE_TEXT = re.compile(r"^(?:\d+@[0-8]{2}(?:,[0-8]{2})*|L@[0-8]{2})$", re.IGNORECASE)


def parse_cell_text(text: str) -> tuple[int, int]:
    """``4,5``, ``4 5`` or ``45``: row then column, both 0..8."""
    match = _CELL_PAIR.match(text.strip())
    if not match:
        raise CommandError(_("cannot read cell {given}: give row and column 0-8, like 4,5 or 45",
                               given=repr(text.strip())))
    if match.group(1) is not None:
        return int(match.group(1)), int(match.group(2))
    return int(match.group(3)), int(match.group(4))


def parse_place(text: str) -> PlaceSpec:
    """A placement: ``2`` (suggestion), ``o3 4,5`` (orientation + top-left), ``34,35,45`` (cells),
    or one cell ``4,5`` / ``45`` (for a leather patch)."""
    token = text.strip().lower()
    if token.startswith("place "):
        token = token[len("place ") :].strip()
    if re.fullmatch(r"\d", token):
        number = int(token)
        if number == 0:
            raise CommandError(_("suggestions are numbered from 1"))
        return PlaceSpec(suggestion=number)
    match = _ORIENTATION.match(token)
    if match:
        return PlaceSpec(orientation=int(match.group(1)), cell=parse_cell_text(match.group(2)))
    if _CELL_LIST.match(token):
        mask = 0
        for pair in token.split(","):
            pair = pair.strip()
            cell_bit = bit(int(pair[0]), int(pair[1]))
            if mask & cell_bit:
                raise CommandError(_("cell {cell} is listed twice", cell=pair))
            mask |= cell_bit
        return PlaceSpec(cells=mask)
    if _CELL_PAIR.match(token):
        return PlaceSpec(cell=parse_cell_text(token))
    raise CommandError(
        # Translators: keep "o<orientation> row,col" and the example as they are: they are what the player types
        _("cannot read placement {given}: give a suggestion number, o<orientation> row,col, or cells like 34,35,45",
          given=repr(text.strip()))
    )


def parse_command(line: str) -> Command | None:
    """One line of input as a command; None for a blank line."""
    text = line.strip()
    if not text:
        return None
    if _MOVE_TEXT.match(text) or text in ("A",):
        try:
            return PlayMove(Move.parse(text.upper() if text[0] in "lL" else text))
        except PatchworkError as exc:
            raise CommandError(exc.template, **exc.values) from None
    word, _sep, rest = text.partition(" ")
    word = word.lower()
    rest = rest.strip()
    if word in ("buy", "b"):
        return _parse_buy(rest)
    if word in ("place", "p"):
        if not rest:
            raise CommandError(_("place what? give a suggestion number, o<orientation> row,col, or cells"))
        return Place(parse_place(rest))
    if word in ("advance", "a", "pass"):
        _no_arguments(word, rest)
        return Advance()
    if word == "hint":
        if not rest:
            return Hint()
        if not rest.isdigit() or not 1 <= int(rest) <= 20:
            raise CommandError(_("hint takes a number of moves 1-20, not {given}", given=repr(rest)))
        return Hint(int(rest))
    if word in ("undo", "u"):
        _no_arguments(word, rest)
        return Undo()
    if word == "cancel":
        _no_arguments(word, rest)
        return Cancel()
    if word == "save":
        if not rest:
            raise CommandError(_("save needs a file name: save FILE"))
        return Save(rest)
    if word in ("show", "board"):
        return Show()
    if word in ("help", "?", "h"):
        return Help()
    if word in ("quit", "q", "exit"):
        return Quit()
    if text[0].isdigit() or re.match(r"^o\d", text, re.IGNORECASE):
        # a bare placement (suggestion number, orientation, cells) while placing
        return Place(parse_place(text))
    raise CommandError(_("unknown command {given} (type help for the list)", given=repr(text)))


def _no_arguments(word: str, rest: str) -> None:
    if rest:
        raise CommandError(_("{word} takes nothing after it, got {given}", word=word, given=repr(rest)))


def _parse_buy(rest: str) -> Buy:
    if not rest:
        raise CommandError(_("buy which patch? buy 1-3 (the offer) or buy #ID"))
    first, _sep, place_text = rest.partition(" ")
    place = parse_place(place_text) if place_text.strip() else None
    if first.startswith("#"):
        if not first[1:].isdigit():
            raise CommandError(_("cannot read patch id {given}: expected #ID like #12", given=repr(first)))
        return Buy(patch=int(first[1:]), place=place)
    if not first.isdigit():
        raise CommandError(_("cannot read {given}: buy 1-3 (the offer) or buy #ID", given=repr(first)))
    offer = int(first)
    if not 1 <= offer <= 3:
        raise CommandError(_("there are at most 3 patches on offer, numbered 1-3, not {offer}", offer=offer))
    return Buy(offer=offer, place=place)
