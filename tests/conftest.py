"""Shared helpers: build positions directly from the fields RULES.md talks about."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from patchwork_opt.core.bitboard import FULL, bit
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record

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


def late_positions(seed: int, from_space: int) -> list[State]:
    """Positions of a noisy greedy game once both tokens have reached ``from_space``."""
    from patchwork_opt.ai.heuristic import greedy_plan, leather_cell

    state = State.new(seed=seed)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal():
        p = state.to_move()
        if state.pending >= 0:
            state.leather_unchecked(p, leather_cell(state.quilts[p]))
            continue
        if min(state.pos) >= from_space:
            found.append(state.clone())
        plan = greedy_plan(state, p, exhaustive=False, rng=rng, noise=1.0)
        if plan.offer_index < 0:
            state.advance_unchecked(p)
        else:
            state.buy_unchecked(p, plan.offer_index, plan.mask)
    return found


def minimax(state: State, root: int) -> int:
    """Plain minimax over every legal move (no pruning, no reductions): the reference exact value."""
    from patchwork_opt.ai.exact import final_value

    if state.is_terminal():
        return final_value(state, root)
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        values.append(minimax(child, root))
    return max(values) if state.to_move() == root else min(values)


def random_record(seed: int) -> Record:
    """A whole game of uniformly random moves, as a record."""
    state = State.new(seed=seed)
    record = Record.start(state)
    rng = random.Random(seed)
    while not state.is_terminal():
        move = state.random_move(rng)
        state.apply(move)
        record.moves.append(move)
    return record


def assert_covers(quilt: int, need: int, ids: Sequence[int], placements: Sequence[tuple[int, int]]) -> None:
    """``placements`` (slot, mask) are real, non-overlapping placements that cover ``need``."""
    from patchwork_opt.core.catalogue import is_placement

    taken = quilt
    for slot, mask in placements:
        assert is_placement(ids[slot], mask) and not mask & taken
        taken |= mask
    assert taken & need == need
