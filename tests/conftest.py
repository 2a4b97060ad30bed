"""Shared helpers: build positions directly from the fields RULES.md talks about."""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Sequence

from patchwork_opt.ai.random_play import random_move
from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, bit, mask_of
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record

#: Commands in the tests do not announce compiling on stderr (``jitcache.NOTICE_ENV``): a test that
#: checks a command's stderr line by line must not depend on whether the cache was warm. The tests of
#: the notice set it themselves (tests/test_warmup.py).
os.environ["PATCHWORK_COMPILE_NOTICE"] = "0"

#: The circle 1, 2, ..., 32, 0: offers 1 (cost 2), 2 (cost 3), 3 (cost 7) at the start.
ORDERED_CIRCLE: list[int] = [*range(1, 33), 0]


def cells_mask(cells: Iterable[tuple[int, int]]) -> int:
    """The engine's ``mask_of``: the tests' name for it."""
    return mask_of(cells)


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
    from patchwork_opt.ai.search.exact import final_value

    if state.is_terminal():
        return final_value(state, root)
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        values.append(minimax(child, root))
    return max(values) if state.to_move() == root else min(values)


def after(state: State, move: Move) -> State:
    """The position ``move`` leads to (``state`` untouched)."""
    child = state.clone()
    child.apply(move)
    return child


def tie_break_position() -> State:
    """An endgame the exact searches must get right: player 0 on 48, player 1 on 49, buying #26
    ties the game and reaches 53 first."""
    cross = FULL & ~sum(bit(r, 4) | bit(4, r) for r in range(9))
    state = make_state([0, 26, 6, 19, 32, 9], pos=(48, 49), buttons=(2, 5), quilts=(cross, cross),
                       track_leather=False)
    state.last_mover = 1
    return state


def leather_position() -> State:
    """Player 0 took a leather patch on the way to 53; only the cell completing the 7x7 wins."""
    # player 0: 48 cells + leather, 60 buttons: -4, with the bonus +3. Player 1 on 52: 17 buttons,
    # 9 empty cells in column 8 that no offered patch fits, +1 for the last step: 0.
    column8 = sum(bit(r, 8) for r in range(9))
    state = make_state([6, 19, 32, 9], pos=(53, 52), buttons=(60, 17),
                       quilts=(WINDOW_MASKS[0] & ~bit(3, 3), FULL & ~column8), track_leather=False)
    state.first_end = 0
    state.last_mover = 0
    state.pending = 0
    return state


def random_record(seed: int) -> Record:
    """A whole game of uniformly random moves, as a record."""
    state = State.new(seed=seed)
    record = Record.start(state)
    rng = random.Random(seed)
    while not state.is_terminal():
        move = random_move(state, rng)
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
