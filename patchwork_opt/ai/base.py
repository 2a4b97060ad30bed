"""The small types every bot and search shares: a decision, an analysed move, the ``Bot`` protocol.

The placement advisor's protocol is in ``core/advice.py``: the solvers implement it without
importing the AI."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State


@dataclass(frozen=True, slots=True)
class Decision:
    """A chosen move with a one-line reason a person can read, and the value expected (if any)."""

    move: Move
    reason: str = ""
    expected: float | None = None
    stats: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AnalysedMove:
    """One root move as every search reports it (the exact search, the compiled search and the
    analysis alike), seen by the player to move before it.

    ``win`` is that player's chance of winning after the move (0-1; 1 or 0 when ``exact``),
    ``margin`` the final score margin expected for them, ``visits`` the simulations behind the
    estimate (0 when exact), ``line`` the move and its expected continuation. An exact search also
    gives ``value``, its negamax value (``2 * margin``, or +1/-1 for a tie won/lost on the
    tie-break), and ``bound`` when that value is only an upper bound (the move was refuted by a
    better one and not searched further): ``win`` and ``margin`` are then upper bounds too, so
    ``win`` 0 still proves a loss. A move no search valued (the only move, played at once) has
    ``visits`` 0 and is neither exact nor bound: ``valued`` tells whether the figures mean anything.
    ``searched`` is, for a sampled move, the win chance the search backed up, before the win map
    made ``win`` of it (``winmap.SearchMap``; refitting the map needs it); None otherwise.
    """

    move: Move
    win: float
    margin: float
    visits: int
    exact: bool
    line: tuple[Move, ...] = ()
    value: int | None = None
    bound: bool = False
    searched: float | None = None

    @property
    def valued(self) -> bool:
        """``win`` and ``margin`` say something: exact, sampled, or a bound proving a loss."""
        return self.exact or self.visits > 0 or (self.bound and self.win == 0.0)


@runtime_checkable
class Bot(Protocol):
    """Chooses a move for the player to move within ``time_per_move`` seconds.

    Bots are built with a seed so that the same position and seed give the same move
    (time-limited searches are repeatable when given an iteration budget instead).
    """

    name: str

    def decide(self, state: State) -> Decision: ...
