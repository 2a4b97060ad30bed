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

Words: an error raised below the applications says its line as an English template marked for the
catalogue, with its parts as named values (``raise NotationError(N_("{what}: expected a number, got
{text!r}"), what=what, text=text)``); ``str(error)`` is the English line, ``words(error)`` the line
in the language in effect, said where the error is reported (the service's error handler, the
command line's boundary, the terminal game). The template travels with the error (a worker's
error, pickled back, keeps it), so the engine need not know the reader's language when it raises.
A value that is itself an error is said in words too (a record's move that breaks a rule), and a
list of names (``i18n.one_of``/``all_of``: ``kinds=one_of(["endgame", "fill"])``) is joined by the
reader's language's list pattern when the line is said ("endgame oder fill"), in English in ``str(error)``.
"""

from typing import Any, Literal

from patchwork_opt.i18n import N_, SOURCE, using

#: The HTTP status of a domain error that names only its exit code.
HTTP_FOR_EXIT = {2: 400, 1: 422}


class PatchworkError(ValueError):
    """Base of all domain errors: ``message`` is the English line, or a template of it whose
    ``{placeholders}`` are filled from ``values`` (``words`` says it in the language in effect)."""

    exit_code = 2
    http_status = 400

    def __init__(self, message: str = "", /, **values: Any) -> None:
        with using(SOURCE):  # the English line, its values too (a list of names, ``Listed``, is said when written)
            super().__init__(message.format(**values) if values else message)
        self.template = message
        self.values = values

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its template and values (a worker process's error keeps its words), whatever
        a subclass's own ``__init__`` takes."""
        return (_restore, (type(self), self.args), self.__dict__)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "exit_code" in vars(cls) and "http_status" not in vars(cls):
            cls.http_status = HTTP_FOR_EXIT.get(cls.exit_code, 400)


def _restore(cls: type[PatchworkError], args: tuple[Any, ...]) -> PatchworkError:
    error = cls.__new__(cls)
    error.args = args
    return error


def words(error: BaseException) -> str:
    """``error``'s one line in the language in effect: its template translated (``i18n``'s
    ``messages`` domain) and filled, a value that is an error in words too; an error raised with a
    line already said (or not ours) as it is."""
    from patchwork_opt.i18n import _

    template = getattr(error, "template", None)
    if not isinstance(error, PatchworkError) or template is None:
        return str(error)
    if not error.values:
        return _(template) if template else str(error)
    values = {k: words(v) if isinstance(v, PatchworkError) else v for k, v in error.values.items()}
    return _(template, **values)


class UnknownPatchError(PatchworkError):
    pass


class DuplicatePatchError(PatchworkError):
    """A patch id given twice where each patch exists once."""


class QuiltFormatError(PatchworkError):
    pass


#: The rule a refused move breaks, for a caller that says it in its own words (``IllegalMoveError.why``).
Refusal = Literal["", "leather_first", "not_offered", "too_dear", "fits_nowhere", "not_a_placement", "covered"]


class IllegalMoveError(PatchworkError):
    """A move the rules refuse (``State.check`` and, before a placement is chosen, ``State.check_buy``
    are the judges). ``why`` names the rule broken, so a client words it for its reader (the terminal
    game says "you have 5") without judging the move again: a leather patch waits to be placed first,
    not on offer, too dear, fits nowhere on the quilt, not the patch's shape, or over covered cells
    ("" for the rest);
    ``patch`` (-1: the leather patch) and ``cells`` (a mask: the cells of a shape that is none of the
    patch's, or those already covered) say what."""

    exit_code = 1

    def __init__(self, message: str, /, *, why: Refusal = "", patch: int = -1, cells: int = 0, **values: Any) -> None:
        super().__init__(message, **values)
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

    def __init__(self, message: str = N_("the game is over: there is no move to choose"), /, **values: Any) -> None:
        super().__init__(message, **values)


class RecordError(PatchworkError):
    """A file or object that is not a valid game record."""


class ReplayError(PatchworkError):
    """A record whose move at ``ply`` (0-based index into ``moves``) is malformed or illegal.

    Illegal (the rules refuse it) by default; a move that cannot be read passes ``exit_code=2``
    (``NotationError``'s), and the HTTP status follows the exit code."""

    exit_code = 1

    def __init__(self, ply: int, reason: PatchworkError | str, *, exit_code: int = 1) -> None:
        # Translators: a game record's move that is wrong: {ply} its number (from 0), {reason} what is wrong
        super().__init__(N_("ply {ply}: {reason}"), ply=ply, reason=reason)
        self.ply = ply
        self.reason = str(reason)
        self.exit_code = exit_code
        self.http_status = HTTP_FOR_EXIT.get(exit_code, 400)
