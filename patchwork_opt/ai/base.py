"""The small types every bot and search shares: a decision, an analysed move, the ``Bot`` protocol.

The placement advisor's protocol is in ``core/advice.py``: the solvers implement it without
importing the AI."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.symmetry import canonical

PLACEMENTS_PER_OFFER = 3  # distinct placements of each offered patch (or leather cells) shown
MOVES_SHOWN = 8  # moves of a position a hint shows by default (``SearchedPosition.shown``)


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
    ``floor`` is, for a move an unfinished exact search proved to win without settling by how much,
    the value it proved the move reaches at least: ``win`` is then 1 and ``margin`` that value's
    margin, a lower bound ("wins by at least"); None otherwise.
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
    floor: int | None = None

    @property
    def valued(self) -> bool:
        """``win`` and ``margin`` say something: exact, sampled, a bound proving a loss, or a proven
        win with a floor on its margin."""
        return self.exact or self.visits > 0 or (self.bound and self.win == 0.0) or self.floor is not None

    @property
    def outcome_proven(self) -> bool:
        """Whether the move wins or loses is proven (exact, a refuted move's bound, or a floor)."""
        return self.exact or self.bound or self.floor is not None


def move_key(quilt: int, move: Move) -> tuple[str, int, int]:
    """Moves with equal keys leave the same game up to a symmetry of the mover's quilt ``quilt``."""
    if move.kind == "advance":
        return ("advance", -1, 0)
    return (move.kind, move.patch, canonical(quilt | move.mask))


@dataclass(frozen=True, slots=True)
class SearchedPosition:
    """One searched position as every search reports it (the exact searches, the compiled
    sampling search, the AI's analysis and the position analysis behind hints and reviews).

    ``moves`` are the root moves, best first, as ``AnalysedMove`` (when an exact search ran out of
    its budget, only the root moves it proved before that, and ``solved`` is then False); ``exact``
    when their figures come from an exhaustive search; ``iterations`` and ``nodes`` what the sampling
    and the exact search spent; ``seconds`` the wall time; ``exact_failed`` when an exact search was
    tried (not probed) and ran out of its share before sampling answered. ``player`` is the player
    to move and ``quilt`` their quilt (moves are the same up to its symmetries: ``find``)."""

    player: int
    quilt: int
    moves: list[AnalysedMove]
    exact: bool = False
    iterations: int = 0
    nodes: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    exact_failed: bool = False

    @classmethod
    def of(cls, state: State, moves: list[AnalysedMove], *, exact: bool = False, iterations: int = 0,
           nodes: int = 0, seconds: float = 0.0, notes: list[str] | None = None) -> SearchedPosition:
        """The result for the player to move of ``state``."""
        p = state.to_move()
        return cls(p, state.quilts[p], moves, exact, iterations, nodes, seconds, notes or [])

    @property
    def best(self) -> AnalysedMove:
        return self.moves[0]

    @property
    def solved(self) -> bool:
        """An exhaustive search finished: every figure is exact (or a proven bound)."""
        return self.exact and bool(self.moves)

    def shown(self, per_offer: int = PLACEMENTS_PER_OFFER) -> list[AnalysedMove]:
        """The moves worth showing, best first: at most ``per_offer`` placements of each patch
        (an exact analysis values every legal move) and leather cells."""
        counts: dict[tuple[str, int], int] = {}
        out = []
        for m in self.moves:
            key = (m.move.kind, m.move.patch)
            counts[key] = counts.get(key, 0) + 1
            if counts[key] <= per_offer:
                out.append(m)
        return out

    def find(self, move: Move) -> AnalysedMove | None:
        """The analysed move equivalent to ``move`` (same up to the board's symmetries), if any."""
        key = move_key(self.quilt, move)
        return next((m for m in self.moves if move_key(self.quilt, m.move) == key), None)


@runtime_checkable
class Bot(Protocol):
    """Chooses a move for the player to move.

    A bot's thinking time is its own, given when it is built (``make_bot``'s ``time_per_move``, or an
    iteration budget), never per call. Bots are built with a seed so that the same position and
    seed give the same move (time-limited searches are repeatable given an iteration budget).

    ``stop``, set from another thread (an engine's ``stop``, a web client gone), ends a bot's
    search early: it answers with the best move found so far. A bot that answers at once (random,
    greedy) has nothing to end; every caller passes it the same way, whatever the bot.
    """

    name: str

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision: ...
