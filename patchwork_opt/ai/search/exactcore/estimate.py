"""How long an exact search takes: a fit of ln(nodes) on a position's features, so callers try the
search where it can finish.

``estimate_nodes``/``estimate_seconds`` predict from ``estimate_features`` (a fit on positions of
mixed styles of play, ``bench/exact_fit.py``) how many positions ``solve`` visits from a position,
at a quantile of the fit's spread; ``ai/analysis/run.py`` tries the search where three positions in
four like it finish within the time it has.
"""

from __future__ import annotations

import math

from patchwork_opt.ai.search.exactcore.moves import root_moves
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import END, State

#: The features of a position that drive the tree (``estimate_features``), in the fit's order. Only the
#: players still moving count: a player on space 53 places nothing more, whatever their quilt.
ESTIMATE_FEATURES: tuple[str, ...] = ("constant", "spaces left", "empty cells", "buyable offers", "income",
                                      "buttons", "ln root moves")
#: A position with fewer root moves than this counts as having this many: a move or two still lead into
#: whole trees, which ln(root moves) alone would price at nearly nothing (issue 35: the worst
#: under-estimates were such positions). One root move is more: ``estimate_position``.
ROOT_FLOOR = 4
#: ln(nodes) = the coefficients . ``estimate_features``, per mode (``every_move`` False: the best move, as
#: the bot asks; True: every move, as hints and reviews ask). Least squares over positions of the four
#: styles of ``bench/exact_suite.py`` from seeds 45,000 on (disjoint from the held-out suite's), cut at
#: spaces 32-46 (two a style and space), each search capped at 1.5e6 nodes; a capped search is censored
#: (its ln(nodes) only known to exceed the cap's) and fitted as such (``bench/exact_fit.py``:
#: ``censored_least_squares``). ``ESTIMATE_SPREAD`` is the fit's standard deviation of ln(nodes) about it.
#: No feature weighs negatively (the fit holds a coefficient at 0 rather: buyable offers, which ln(root
#: moves) already counts for the mover). The fit: 128 searches of 64 positions, 43 of 74 (best move) and
#: 39 of 54 (every move) censored at the cap.
ESTIMATE_FIT: dict[bool, tuple[float, ...]] = {
    False: (-15.132, 0.6118, 0.1066, 0.0, 0.1575, 0.129, 0.9514),
    True: (-11.3734, 0.6023, 0.1319, 0.0, 0.0109, 0.0844, 1.407),
}
ESTIMATE_SPREAD: dict[bool, float] = {False: 1.186, True: 1.181}
NODES_PER_SECOND = 1.75e6  # one core: the median over those searches of more than 1e6 nodes
#: Wall-clock gain of 1 and 2 threads (more count as 2): the median of three positions from space 36
#: (1.3x-1.8x) on the 2-core machine with about one core's worth of other work; none when both cores
#: are already busy.
THREAD_SPEEDUP = (1.0, 1.0, 1.4)
#: No exact search is tried from a position whose search even the fit's fast end says would take longer
#: than this (a year of one core): ``out_of_reach``.
OUT_OF_REACH_SECONDS = 3.2e7
_NORMAL_QUANTILE = {0.1: -1.2816, 0.25: -0.6745, 0.5: 0.0, 0.75: 0.6745, 0.9: 1.2816}


def estimate_position(state: State, every_move: bool) -> tuple[State, bool]:
    """The position and mode whose features price a search from ``state``: while the player to move has
    one root move, its search is the search of the position that move leads to (its value, not every
    move's: the mode of a search for the best move). A finished game is its own (nothing to search)."""
    while not state.is_terminal():
        moves = root_moves(state)
        if len(moves) != 1:
            break
        state = state.clone()
        state.apply(moves[0])
        every_move = False
    return state, every_move


def estimate_features(state: State) -> tuple[float, ...]:
    """The position's ``ESTIMATE_FEATURES``: over the players still moving, the spaces they have left,
    their empty cells, the offers each can buy now (``State.buyable_offers``), their income and
    buttons (what they will buy with), and ln(root moves) floored at ``ROOT_FLOOR``."""
    live = [p for p in (0, 1) if state.pos[p] < END]
    moves = len(root_moves(state)) if not state.is_terminal() else 1
    return (1.0,
            float(sum(END - state.pos[p] for p in live)),
            float(sum(81 - state.quilts[p].bit_count() for p in live)),
            float(sum(len(state.buyable_offers(p)) for p in live)),
            float(sum(state.income[p] for p in live)),
            float(sum(state.buttons[p] for p in live)),
            math.log(max(moves, ROOT_FLOOR)))


def out_of_reach(state: State) -> bool:
    """Whether the exact search from ``state`` is beyond any budget, so nothing asks for it there:
    a bound of ``estimate_nodes`` from below taken from what needs no compiled code (the spaces, empty
    cells, income and buttons of the players still moving, ln(root moves) at its floor ``ROOT_FLOOR``,
    the smaller of the two modes' fits, at their fast end, quantile 0.1) is over ``OUT_OF_REACH_SECONDS``.
    From a new game to about midway (some 60 spaces and 60 empty cells left between the players) no
    search, nor a probe's first round, proves anything a hint could use; and a command asking about
    such a position compiles none of the exact search, the slowest part to compile (``apps/warmup.py``)."""
    if state.is_terminal():
        return False
    live = [p for p in (0, 1) if state.pos[p] < END]
    known = (1.0,
             float(sum(END - state.pos[p] for p in live)),
             float(sum(81 - state.quilts[p].bit_count() for p in live)),
             0.0,  # buyable offers: weighs nothing in either fit
             float(sum(state.income[p] for p in live)),
             float(sum(state.buttons[p] for p in live)),
             math.log(ROOT_FLOOR))
    ln = min(sum(c * x for c, x in zip(ESTIMATE_FIT[mode], known, strict=True))
             + _NORMAL_QUANTILE[0.1] * ESTIMATE_SPREAD[mode] for mode in (False, True))
    return ln > math.log(OUT_OF_REACH_SECONDS * NODES_PER_SECOND)


def estimate_nodes(state: State, *, every_move: bool = False, quantile: float = 0.5) -> float:
    """The nodes ``solve`` is expected to search from ``state``: the fit's ``quantile`` (0.5: the
    typical position; 0.75 or 0.9: three positions in four, nine in ten, need no more; 0.25 or 0.1:
    one in four, one in ten, need no more)."""
    z = _NORMAL_QUANTILE.get(quantile)
    if z is None:
        raise PatchworkError(f"estimate quantile must be one of {sorted(_NORMAL_QUANTILE)}, got {quantile}")
    priced, mode = estimate_position(state, every_move)
    if priced.is_terminal():
        return 1.0
    ln = sum(c * x for c, x in zip(ESTIMATE_FIT[mode], estimate_features(priced), strict=True))
    return math.exp(ln + z * ESTIMATE_SPREAD[mode])


def estimate_seconds(state: State, *, every_move: bool = False, threads: int = 1, quantile: float = 0.5) -> float:
    """The seconds ``solve`` is expected to take from ``state`` on ``threads`` threads."""
    speedup = THREAD_SPEEDUP[min(max(threads, 1), len(THREAD_SPEEDUP) - 1)]
    return estimate_nodes(state, every_move=every_move, quantile=quantile) / (NODES_PER_SECOND * speedup)
