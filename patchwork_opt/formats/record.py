"""Game records of RULES.md: ``{"circle": [...], "moves": [...], "leather": [...]}``.

A record may also list the moves a player took back (``takebacks``: where each was played and what it
was), which the review counts; the moves that stand are ``moves`` alone, so replaying ignores them."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from patchwork_opt.core.catalogue import LEATHER_PRINTINGS
from patchwork_opt.core.errors import PatchworkError, RecordError, ReplayError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.i18n import N_

DEFAULT_LEATHER = LEATHER_PRINTINGS["revised"]


@dataclass(frozen=True, slots=True)
class TakeBack:
    """A move taken back: played as ply ``ply`` (the position before it is the record's, since the
    moves before it stand), then undone; the player played ``moves[ply]`` there instead (or nothing
    yet when ``ply`` is the record's length)."""

    ply: int
    move: Move

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "move": self.move.to_json()}


@dataclass(slots=True)
class Record:
    circle: list[int]
    moves: list[Move] = field(default_factory=list)
    leather: tuple[int, ...] = DEFAULT_LEATHER
    players: list[str] | None = None  # names of the first and the second player, when known
    takebacks: list[TakeBack] = field(default_factory=list)  # moves taken back, in the order they were

    @classmethod
    def start(cls, state: State) -> Record:
        """An empty record for a game set up as ``state`` (which must be a starting position)."""
        return cls(circle=state.circle[:], moves=[], leather=state.printing)

    def initial_state(self) -> State:
        return State.new(self.circle, leather=self.leather)

    def replay(self, upto: int | None = None) -> State:
        """The position after the moves (or the first ``upto``); ReplayError names the ply at fault."""
        state = self.initial_state()
        for ply, move in enumerate(self.moves[:upto]):
            try:
                state.apply(move)
            except PatchworkError as exc:
                raise ReplayError(ply, exc) from None
        return state

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"circle": self.circle, "moves": [m.to_json() for m in self.moves]}
        if self.leather != DEFAULT_LEATHER:
            data["leather"] = list(self.leather)
        if self.players is not None:
            data["players"] = list(self.players)
        if self.takebacks:
            data["takebacks"] = [t.to_json() for t in self.takebacks]
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: object) -> Record:
        """A record checked against the published schema (``RecordModel``); a malformed move is a
        ReplayError naming its ply (exit code 2; 1 for cells that are no placement of the patch),
        anything else a RecordError naming the field."""
        # pydantic and the published models cost about 60 ms to import: only when a record is read
        from pydantic import ValidationError

        from patchwork_opt.formats.models import RecordModel, first_error, move_from_model, refused_at

        try:
            model = RecordModel.model_validate(data)
        except ValidationError as exc:
            loc, error = first_error(exc)
            if len(loc) > 1 and loc[0] == "moves" and isinstance(loc[1], int):  # a move that cannot be read
                raise ReplayError(loc[1], refused_at(error, loc[2:], "move"), exit_code=2) from None
            problem = refused_at(error, loc, "record")
            raise RecordError(problem.template, **problem.values) from None
        moves = []
        for ply, move in enumerate(model.moves):
            try:
                moves.append(move_from_model(move))
            except PatchworkError as exc:  # unreadable (exit code 2) or no placement of its patch (1)
                raise ReplayError(ply, exc, exit_code=exc.exit_code) from None
        leather = tuple(sorted(model.leather)) if model.leather is not None else DEFAULT_LEATHER
        players = list(model.players) if model.players is not None else None
        return cls(circle=list(model.circle), moves=moves, leather=leather, players=players,
                   takebacks=_takebacks(model.takebacks or [], len(moves)))

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(N_("not JSON: {problem} at line {line}, column {column}"),
                              problem=exc.msg, line=exc.lineno, column=exc.colno) from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """The record in the file at ``path``; a file that is not a record says which file."""
        text = read_text(path)
        if not text.lstrip().startswith("{"):
            # A position line or a quilt handed where a game is needed: "not JSON: Extra data at
            # line 1, column 3" would not tell the user what the command wants.
            raise RecordError(N_("{path}: not a game record (a record is a JSON object, as `new --save`, `play --save` "
                                 "and `match --save` write)"), path=path)
        try:
            return cls.loads(text)
        except RecordError as exc:
            raise RecordError(N_("{path}: {error}"), path=path, error=exc) from None

    def save(self, path: str | Path) -> None:
        write_atomic(path, json.dumps(self.to_json(), indent=1) + "\n")


def _takebacks(models: list[Any], plies: int) -> list[TakeBack]:
    """The record's take-backs, each at a ply the record reaches (RecordError names the one that is not)."""
    from patchwork_opt.formats.models import move_from_model

    out = []
    for i, model in enumerate(models):
        if model.ply > plies:
            raise RecordError(N_("takebacks[{i}].ply: {ply} is past the record's {plies} moves"), i=i, ply=model.ply,
                              plies=plies)
        try:
            out.append(TakeBack(model.ply, move_from_model(model.move)))
        except PatchworkError as exc:
            raise RecordError(N_("takebacks[{i}].move: {error}"), i=i, error=exc) from None
    return out


def read_text(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(N_("{path}: no such file"), path=path) from None
    except IsADirectoryError:
        raise RecordError(N_("{path}: is a directory"), path=path) from None
    except UnicodeDecodeError:
        raise RecordError(N_("{path}: not a UTF-8 text file"), path=path) from None
    except OSError as exc:
        raise RecordError(N_("{path}: {error}"), path=path, error=exc.strerror) from None


def writable_dir(directory: str | Path, option: str) -> Path:
    """The directory ``option`` names, made now when missing, or a ``PatchworkError`` naming why it
    cannot hold files: called before long work (a match, a review) whose results go there."""
    path = Path(directory)
    if path.exists() and not path.is_dir():
        # Translators: {option} is a command-line option (--out), {directory} the directory it names
        raise PatchworkError(N_("{option} {directory}: exists and is not a directory"), option=option,
                             directory=directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PatchworkError(N_("{option} {directory}: cannot create it: {error}"), option=option, directory=directory,
                             error=exc.strerror or exc) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise PatchworkError(N_("{option} {directory}: cannot write there (permission denied)"), option=option,
                             directory=directory)
    return path


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a file; the file gets the
    usual permissions (0666 less the umask), not the temporary file's private 0600. ``bytes`` are
    written as they are (NumPy files), text as UTF-8."""
    target = Path(path)
    tmp: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise RecordError(N_("{path}: cannot write: {error}"), path=path, error=exc.strerror) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)

