"""Shared helpers: build positions directly from the fields RULES.md talks about."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from patchwork_opt.core.bitboard import FULL, bit
from patchwork_opt.core.state import State

#: The circle 1, 2, ..., 32, 0: offers 1 (cost 2), 2 (cost 3), 3 (cost 7) at the start.
ORDERED_CIRCLE: list[int] = [*range(1, 33), 0]


def cells_mask(cells: Iterable[tuple[int, int]]) -> int:
    mask = 0
    for r, c in cells:
        mask |= bit(r, c)
    return mask


def full_except(cells: Iterable[tuple[int, int]]) -> int:
    """A quilt covered everywhere except ``cells``."""
    return FULL & ~cells_mask(cells)


def make_state(
    circle: Sequence[int] | None = None,
    *,
    pos: tuple[int, int] = (0, 0),
    buttons: tuple[int, int] = (5, 5),
    income: tuple[int, int] = (0, 0),
    quilts: tuple[int, int] = (0, 0),
    last_mover: int = 0,
    leather: str | Sequence[int] = "revised",
    track_leather: bool = True,
) -> State:
    """A position with the given fields and all five leather patches still on the track.

    ``circle`` may be shorter than 33 (patches already bought are simply absent);
    ``track_leather=False`` clears the track so a test about buttons is not interrupted.
    """
    state = State.new(ORDERED_CIRCLE, leather=leather)
    if circle is not None:
        state.circle = list(circle)
    state.pos = list(pos)
    state.buttons = list(buttons)
    state.income = list(income)
    state.quilts = list(quilts)
    state.last_mover = last_mover
    if not track_leather:
        state.leather = 0
    return state
