"""Per-decision random generators: the same seed and position always give the same stream.

Seeding from the position (not from a stream shared across a game) makes a bot's choice in a
position independent of what it was asked before, which is what "repeatable" means to a user
who sets up a position and asks again.
"""

from __future__ import annotations

import random

from patchwork_opt.core.errors import GameOverError
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation


def require_running(state: State) -> None:
    """Bots, searches and analyses are asked about a game only while it runs; say so plainly
    otherwise (with the one error for it, ``GameOverError``)."""
    if state.is_terminal():
        raise GameOverError()


def decision_rng(seed: int | None, state: State) -> random.Random:
    """A generator for one decision: fresh entropy when ``seed`` is None."""
    if seed is None:
        return random.Random()
    return random.Random(f"{seed}|{to_notation(state)}")
