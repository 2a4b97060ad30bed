"""The flat int64 position the compiled searches play on: which slot holds what, and ``encode`` from a ``State``.

One row of ``SLEN`` int64 values holds a whole position, so a tree keeps its positions in one 2-D
array and a node's position is copied slot by slot: tokens, buttons and incomes (two slots each,
player 0 then 1), the quilts (two words each, ``core.bitwords``'s layout, player 0's at ``QLO``,
player 1's at ``QHI``), the leather patches left on the track (bits by space), whose leather patch is
pending (-1: none), who moved last, who holds the 7x7 bonus (-1: nobody), who reached the end first
(-1: nobody), and the circle (its length at ``CLEN``, the patches from ``CIRCLE``, the next offer
first). The exact search (``exactcore``) and the learned features read the same row.
"""

from __future__ import annotations

import numpy as np

from patchwork_opt.ai.search.fastcore.tables import N_PATCHES
from patchwork_opt.core.bitwords import split
from patchwork_opt.core.state import State

POS, BUT, INC, QLO, QHI = 0, 2, 4, 6, 8
LEATHER, PENDING, LAST, BONUS, FIRST_END, CLEN, CIRCLE = 10, 11, 12, 13, 14, 15, 16
SLEN = CIRCLE + N_PATCHES


def encode(state: State) -> np.ndarray:
    """``state`` as the flat position (a fresh row)."""
    s = np.zeros(SLEN, dtype=np.int64)
    s[POS], s[POS + 1] = state.pos
    s[BUT], s[BUT + 1] = state.buttons
    s[INC], s[INC + 1] = state.income
    for p in (0, 1):
        s[QLO + 2 * p], s[QLO + 2 * p + 1] = split(state.quilts[p])
    s[LEATHER] = state.leather
    s[PENDING] = state.pending
    s[LAST] = state.last_mover
    s[BONUS] = state.bonus
    s[FIRST_END] = state.first_end
    s[CLEN] = len(state.circle)
    s[CIRCLE : CIRCLE + len(state.circle)] = state.circle
    return s
