"""Typed errors: every one is a ValueError whose message is one line naming what is wrong.

The one error table: each error carries what the CLI exits with (``exit_code``, mapped in
``apps/typer_app.py``) and what the web service answers (``http_status``, mapped by the one
exception handler of ``apps/web/errors.py``):

=====================================================  =========  ===========
error                                                  exit code  HTTP status
=====================================================  =========  ===========
input that cannot be read (notation, record, quilt)    2          400
a well-formed request the rules refuse (illegal move)  1          422
the game is over (``GameOverError``)                   1          409
the game changed meanwhile, out of turn (web store)    1          409
no such game (web store)                               2          404
too many jobs or new games from one client (web)       -          429
solvers busy, or not on this server (web)              -          503
=====================================================  =========  ===========

A subclass that sets ``exit_code`` alone gets the status of that row (2: 400, 1: 422).
"""

from typing import Any, Literal

#: The HTTP status of a domain error that names only its exit code.
HTTP_FOR_EXIT = {2: 400, 1: 422}


class PatchworkError(ValueError):
    """Base of all domain errors."""

    exit_code = 2
    http_status = 400

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "exit_code" in vars(cls) and "http_status" not in vars(cls):
            cls.http_status = HTTP_FOR_EXIT.get(cls.exit_code, 400)


class UnknownPatchError(PatchworkError):
    pass


class DuplicatePatchError(PatchworkError):
    """A patch id given twice where each patch exists once."""


class QuiltFormatError(PatchworkError):
    pass


#: The rule a refused move breaks, for a caller that says it in its own words (``IllegalMoveError.why``).
Refusal = Literal["", "not_offered", "too_dear", "not_a_placement", "covered"]


class IllegalMoveError(PatchworkError):
    """A move the rules refuse (``State.check`` is the one judge). ``why`` names the rule broken, so
    a client words it for its reader (the terminal game says "you have 5") without judging the move
    again: not on offer, too dear, not the patch's shape, or over covered cells ("" for the rest);
    ``patch`` (-1: the leather patch) and ``cells`` (a mask: the cells of a shape that is none of the
    patch's, or those already covered) say what."""

    exit_code = 1

    def __init__(self, message: str, *, why: Refusal = "", patch: int = -1, cells: int = 0) -> None:
        super().__init__(message)
        self.why: Refusal = why
        self.patch = patch
        self.cells = cells


class NotationError(PatchworkError):
    pass


class GameOverError(IllegalMoveError):
    """A move, a hint or an analysis asked of a finished game: there is no move to choose.

    The one error for it, raised by the rules (``State.check``), every bot, search and analysis.
    A move asked of a finished game is one the rules refuse, so it is an ``IllegalMoveError``
    (exit code 1: the request is well formed, the game just has no move left). The service
    answers 409: the request conflicts with the state of the game."""

    http_status = 409

    def __init__(self, message: str = "the game is over: there is no move to choose") -> None:
        super().__init__(message)


class RecordError(PatchworkError):
    """A file or object that is not a valid game record."""


class ReplayError(PatchworkError):
    """A record whose move at ``ply`` (0-based index into ``moves``) is malformed or illegal.

    Illegal (the rules refuse it) by default; a move that cannot be read passes ``exit_code=2``
    (``NotationError``'s), and the HTTP status follows the exit code."""

    exit_code = 1

    def __init__(self, ply: int, reason: str, *, exit_code: int = 1) -> None:
        super().__init__(f"ply {ply}: {reason}")
        self.ply = ply
        self.reason = reason
        self.exit_code = exit_code
        self.http_status = HTTP_FOR_EXIT.get(exit_code, 400)
