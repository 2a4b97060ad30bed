"""The engine protocol's lines as small typed values: reading commands, writing answers.

Modelled on chess's UCI (docs/engine.md): a program writes one command a line on the engine's
stdin and reads its answers on stdout. This module only reads and writes lines; the loop that
acts on them is ``server.py``, a program on the other side of the pipe is ``client.py``. Both use
the same functions here, so what the server writes is what the client reads.

A line that cannot be read is a ``ProtocolError`` (a ``NotationError``: input that cannot be
read), which the server answers with one ``info string error: ...`` line.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Literal

from patchwork_opt.core.errors import NotationError, PatchworkError
from patchwork_opt.core.move import Move


class ProtocolError(NotationError):
    """A command line the engine cannot read (unknown command, missing or malformed argument)."""


@dataclass(frozen=True, slots=True)
class Upi:
    """``upi``: the engine names itself and its options, then ``upiok``."""


@dataclass(frozen=True, slots=True)
class IsReady:
    """``isready``: answered ``readyok`` once the compiled searches are loaded."""


@dataclass(frozen=True, slots=True)
class SetOption:
    """``setoption name NAME value VALUE`` (the name is matched without regard to case)."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class NewGame:
    """``newgame``: what follows is another game (the search's tables start afresh)."""


@dataclass(frozen=True, slots=True)
class Position:
    """``position startpos [seed S | circle IDS] [moves ...]`` or ``position notation <9 fields>
    [moves ...]``: exactly one of ``seed``, ``circle`` and ``notation`` is set, or none (a new
    game on a random circle)."""

    seed: int | None = None
    circle: tuple[int, ...] | None = None
    notation: str | None = None
    moves: tuple[Move, ...] = ()


GoLimit = Literal["movetime", "nodes", "infinite", "level"]


@dataclass(frozen=True, slots=True)
class Go:
    """``go movetime MS``, ``go nodes N`` (the search's iterations), ``go infinite`` (until
    ``stop``), or a bare ``go``: the budget of the ``Level`` option (its time, iteration cap and
    root placements, as ``patchwork move --level`` plays)."""

    limit: GoLimit
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Stop:
    """``stop``: end the search now and answer ``bestmove``."""


@dataclass(frozen=True, slots=True)
class Quit:
    """``quit`` (or the end of the input): stop any search and exit."""


Command = Upi | IsReady | SetOption | NewGame | Position | Go | Stop | Quit

_BARE: dict[str, Command] = {"upi": Upi(), "isready": IsReady(), "newgame": NewGame(), "stop": Stop(), "quit": Quit()}
NOTATION_FIELDS = 9


def _integer(text: str, what: str, low: int = 0) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ProtocolError(f"{what}: expected a whole number, got {text!r}") from None
    if value < low:
        raise ProtocolError(f"{what}: must be at least {low}, got {value}")
    return value


def parse_command(line: str) -> Command | None:
    """The command of one input line; None for a blank line (ignored, as UCI engines do)."""
    words = line.split()
    if not words:
        return None
    head, rest = words[0], words[1:]
    if head in _BARE:
        if rest:
            raise ProtocolError(f"{head} takes no arguments, got {' '.join(rest)!r}")
        return _BARE[head]
    if head == "setoption":
        return _parse_setoption(rest)
    if head == "position":
        return _parse_position(rest)
    if head == "go":
        return _parse_go(rest)
    raise ProtocolError(f"unknown command {head!r} (commands: upi, isready, setoption, newgame, position, go, "
                        "stop, quit)")


def _parse_setoption(words: list[str]) -> SetOption:
    if len(words) < 4 or words[0] != "name" or "value" not in words[2:]:
        raise ProtocolError("setoption: expected 'setoption name NAME value VALUE'")
    at = words.index("value", 2)
    return SetOption(" ".join(words[1:at]), " ".join(words[at + 1:]))


def _parse_moves(words: list[str]) -> tuple[Move, ...]:
    moves = []
    for i, word in enumerate(words):
        try:
            moves.append(Move.parse(word))
        except PatchworkError as exc:  # cells that are no placement of the patch: no move text either
            raise ProtocolError(f"moves[{i}] {word!r}: {exc}") from None
    return tuple(moves)


def _split_moves(words: list[str]) -> tuple[list[str], tuple[Move, ...]]:
    if "moves" not in words:
        return words, ()
    at = words.index("moves")
    return words[:at], _parse_moves(words[at + 1:])


def _parse_position(words: list[str]) -> Position:
    if not words or words[0] not in ("startpos", "notation"):
        raise ProtocolError("position: expected 'position startpos ...' or 'position notation ...'")
    head, moves = _split_moves(words[1:])
    if words[0] == "notation":
        if len(head) != NOTATION_FIELDS:
            raise ProtocolError(f"position notation: a position has {NOTATION_FIELDS} space-separated fields, "
                                f"found {len(head)}")
        return Position(notation=" ".join(head), moves=moves)
    if not head:
        return Position(moves=moves)
    if len(head) == 2 and head[0] == "seed":
        return Position(seed=_integer(head[1], "position startpos seed"), moves=moves)
    if len(head) == 2 and head[0] == "circle":
        ids = tuple(_integer(t, f"position startpos circle[{i}]") for i, t in enumerate(head[1].split(",")))
        return Position(circle=ids, moves=moves)
    raise ProtocolError(f"position startpos: expected 'seed S', 'circle IDS' or 'moves ...', got {' '.join(head)!r}")


def _parse_go(words: list[str]) -> Go:
    if not words:
        return Go("level")
    if words == ["infinite"]:
        return Go("infinite")
    if len(words) == 2 and words[0] in ("movetime", "nodes"):
        limit: GoLimit = "movetime" if words[0] == "movetime" else "nodes"
        return Go(limit, _integer(words[1], f"go {words[0]}", low=1))
    raise ProtocolError(f"go: expected 'movetime MS', 'nodes N' or 'infinite', got {' '.join(words)!r}")


# --- the engine's answers --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Info:
    """One ``info`` line of a search: the figures are for the player to move (``win`` 0-1, the
    expected final ``margin``, ``exact`` when the rest of the game was searched), ``pv`` the move
    and its expected continuation; ``multipv`` its rank among the lines of one report (``go
    infinite`` with the ``MultiPV`` option over 1), None for a single line."""

    millis: int
    nodes: int
    win: float | None
    margin: float | None
    exact: bool
    pv: tuple[Move, ...]
    multipv: int | None = None


def format_info(info: Info) -> str:
    parts = ["info" if info.multipv is None else f"info multipv {info.multipv}",
             f"time {info.millis} nodes {info.nodes}"]
    if info.win is not None:
        parts.append(f"win {info.win:.4f}")
    if info.margin is not None:
        parts.append(f"margin {info.margin:+.2f}")
    parts.append(f"exact {'yes' if info.exact else 'no'}")
    if info.pv:
        parts.append("pv " + " ".join(str(m) for m in info.pv))
    return " ".join(parts)


def parse_info(line: str) -> Info:
    """The figures of an ``info`` line written by ``format_info`` (for clients and tests)."""
    words = line.split()
    if words[:1] != ["info"]:
        raise ProtocolError(f"not an info line: {line!r}")
    fields: dict[str, str] = {}
    pv: tuple[Move, ...] = ()
    i = 1
    while i < len(words):
        if words[i] == "pv":
            pv = _parse_moves(words[i + 1:])
            break
        if i + 1 >= len(words):
            raise ProtocolError(f"info: {words[i]!r} has no value")
        fields[words[i]] = words[i + 1]
        i += 2
    try:
        return Info(int(fields["time"]), int(fields["nodes"]),
                    float(fields["win"]) if "win" in fields else None,
                    float(fields["margin"]) if "margin" in fields else None,
                    fields.get("exact") == "yes", pv, int(fields["multipv"]) if "multipv" in fields else None)
    except (KeyError, ValueError) as exc:
        raise ProtocolError(f"info: cannot read {line!r}: {exc}") from None


def format_words(said: list[str]) -> str:
    """The ``info`` line's pv in words, for a person watching (``core.words.line_words``): ``info
    string pv buy #12 at rows 0-2, cols 1-3, turned right; advance 3 spaces (+3 buttons)``."""
    return f"info string pv {'; '.join(said)}"


def format_error(message: str) -> str:
    """The one answer to a line the engine cannot act on; the engine keeps running."""
    return f"info string error: {' '.join(message.split())}"


def format_bestmove(move: Move) -> str:
    return f"bestmove {move}"


def parse_bestmove(line: str) -> Move | None:
    """The move of a ``bestmove`` line; None for any other line."""
    words = line.split()
    if len(words) != 2 or words[0] != "bestmove":
        return None
    return Move.parse(words[1])


def command_words(command: str) -> list[str]:
    """The argv of an ``engine:CMD`` player's command, split as a shell would (no shell is run)."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ProtocolError(f"engine command {command!r}: {exc}") from None
    if not words:
        raise ProtocolError("engine: the command to start is empty (expected engine:CMD, e.g. 'engine:patchwork "
                            "engine')")
    return words
