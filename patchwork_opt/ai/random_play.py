"""Uniformly random play: a random move, and a game played out at random to its end.

Bot behaviour, not rules: the random bot plays ``random_move``, an easy level's deliberate guess is
one, self-play opens with them, and the benchmarks and tests use both to reach positions. The
rules they go through are the engine's: which offers a player can pay for
(``State.affordable_offers``, in the circle's order, the order the random numbers are drawn in) and
the documented fast path (``advance_unchecked``, ``buy_unchecked``, ``leather_unchecked``).

``playout`` plays exactly the moves ``random_move`` picks from the same random numbers (a test holds
them to it), without validating each.
"""

from __future__ import annotations

import random

from patchwork_opt.core.bitboard import FULL, iter_bits
from patchwork_opt.core.catalogue import PLACEMENTS, legal_placements
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import END, State, turn_order

#: Random placements drawn among all of a patch's before enumerating its legal ones.
_REJECTION_TRIES = 12


def random_move(state: State, rng: random.Random) -> Move:
    """A uniformly random move kind (each buyable patch, advance), then a uniform placement."""
    p = state.to_move()
    quilt = state.quilts[p]
    if state.pending >= 0:
        empty = list(iter_bits(FULL & ~quilt))
        return Move("leather", -1, 1 << empty[int(rng.random() * len(empty))])
    options = _buy_options(state, p, rng)
    choice = int(rng.random() * (len(options) + 1))
    if choice == len(options):
        return ADVANCE
    k, mask = options[choice]
    return Move("buy", state.circle[k], mask)


def playout(state: State, rng: random.Random) -> None:
    """Play uniformly random moves (as ``random_move``) to the end, in place."""
    while not (state.pos[0] == END and state.pos[1] == END and state.pending < 0):
        if state.pending >= 0:
            p = state.pending
            empty = list(iter_bits(FULL & ~state.quilts[p]))
            state.leather_unchecked(p, 1 << empty[int(rng.random() * len(empty))])
            continue
        p = turn_order(state.pos[0], state.pos[1], state.last_mover)
        options = _buy_options(state, p, rng)
        choice = int(rng.random() * (len(options) + 1))
        if choice == len(options):
            state.advance_unchecked(p)
        else:
            k, mask = options[choice]
            state.buy_unchecked(p, k, mask)


def _buy_options(state: State, p: int, rng: random.Random) -> list[tuple[int, int]]:
    """(offer index, a uniformly random placement) of each affordable offer that fits, one
    placement drawn per affordable offer in the circle's order."""
    circle, quilt = state.circle, state.quilts[p]
    options = []
    for k in state.affordable_offers(p):
        mask = sample_placement(circle[k], quilt, rng)
        if mask:
            options.append((k, mask))
    return options


def sample_placement(patch_id: int, quilt: int, rng: random.Random) -> int:
    """A uniformly random legal placement mask of the patch, or 0 when it fits nowhere.

    Rejection sampling over all placements is fast while the quilt is open; when it keeps
    missing, fall back to enumerating the legal placements (still uniform).
    """
    masks = PLACEMENTS[patch_id]
    n = len(masks)
    for _ in range(_REJECTION_TRIES):
        mask = masks[int(rng.random() * n)]
        if not mask & quilt:
            return mask
    legal = legal_placements(patch_id, quilt)
    if not legal:
        return 0
    return legal[int(rng.random() * len(legal))]
