"""An endgame puzzle's themes, read from its proof: what decides it when the winning line and the
refutation of the natural wrong move are played out to the end.

Each theme compares the two ends of the game (best play after the winning move, best play after
the wrong one) or reads the position, so a tag says something the proof shows, not a guess:

* ``7x7-race``: the 7x7 bonus is still open and goes to a different player in the two lines.
* ``leather``: the winning move places a leather patch, or the two lines give the player a
  different number of leather patches.
* ``income-timing``: best play after the winning move collects more income at the marks still
  ahead (the last ones, this late) than after the wrong move: a patch with buttons bought in time,
  or a mark reached before the end.
* ``tie-break``: the win, or the wrong move's loss, is decided by who reached the end first.
* ``placement``: the winning patch (or leather patch) also has placements that lose: where it goes
  decides the game, not only which patch.
* ``buttons``: the player ends with more buttons after the winning move without covering more of
  the quilt: buttons saved, not cells covered, make the margin.
* ``long-line``: the refutation runs over ``LONG_LINE`` plies to the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from patchwork_opt.core.move import Move
from patchwork_opt.core.state import MARKS_UPTO, State
from patchwork_opt.puzzles.kinds.endgame import ENDGAME_THEMES

#: A refutation longer than this many plies (the wrong move and best play after it) is a long line.
LONG_LINE = 8


@dataclass(frozen=True, slots=True)
class LineEnd:
    """What one line of best play leaves the player who moves at the puzzle: the bonus's holder, the
    leather patches they took, the income they collected at marks, their buttons and covered cells."""

    bonus: int
    leather: int
    income: int
    buttons: int
    covered: int


def play_out(state: State, line: Sequence[Move]) -> LineEnd:
    """Play ``line`` from ``state`` and read its end for the player to move at ``state``."""
    p = state.to_move()
    here = state.clone()
    leather = income = 0
    for move in line:
        mover = here.to_move()
        before = here.pos[mover]
        here.apply(move)
        if mover != p:
            continue
        if move.kind == "leather":
            leather += 1
        income += (MARKS_UPTO[here.pos[p]] - MARKS_UPTO[before]) * here.income[p]
    return LineEnd(here.bonus, leather, income, here.buttons[p], here.quilts[p].bit_count())


def endgame_themes(state: State, *, winning: Move, win_line: Sequence[Move], wrong_line: Sequence[Move],
                   margin: float, wrong_margin: float, placement_decides: bool) -> tuple[str, ...]:
    """The themes of the puzzle at ``state``: ``win_line`` is the winning move and best play after it
    to the end, ``wrong_line`` the natural wrong move and its refutation; ``margin`` and
    ``wrong_margin`` their final margins; ``placement_decides`` when the winning patch has losing
    placements. In ``ENDGAME_THEMES`` order."""
    win, wrong = play_out(state, win_line), play_out(state, wrong_line)
    found = set()
    if state.bonus < 0 and win.bonus != wrong.bonus:
        found.add("7x7-race")
    if winning.kind == "leather" or win.leather != wrong.leather:
        found.add("leather")
    if win.income > wrong.income:
        found.add("income-timing")
    if margin == 0 or wrong_margin == 0:
        found.add("tie-break")
    if placement_decides:
        found.add("placement")
    if win.buttons > wrong.buttons and win.covered <= wrong.covered:
        found.add("buttons")
    if len(wrong_line) > LONG_LINE:
        found.add("long-line")
    return tuple(t for t in ENDGAME_THEMES if t in found)
