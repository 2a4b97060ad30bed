"""Typed errors: every one is a ValueError whose message is one line naming what is wrong.

``exit_code`` is what the CLI exits with: 2 for input that cannot be read, 1 for a
well-formed request the rules refuse (an illegal move in a record, say).
"""


class PatchworkError(ValueError):
    """Base of all domain errors."""

    exit_code = 2


class UnknownPatchError(PatchworkError):
    pass


class DuplicatePatchError(PatchworkError):
    """A patch id given twice where each patch exists once."""


class QuiltFormatError(PatchworkError):
    pass


class IllegalMoveError(PatchworkError):
    exit_code = 1


class NotationError(PatchworkError):
    pass


class RecordError(PatchworkError):
    """A file or object that is not a valid game record."""


class ReplayError(PatchworkError):
    """A record whose move at ``ply`` (0-based index into ``moves``) is malformed or illegal."""

    exit_code = 1

    def __init__(self, ply: int, reason: str) -> None:
        super().__init__(f"ply {ply}: {reason}")
        self.ply = ply
        self.reason = reason
