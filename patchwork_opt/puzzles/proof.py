"""What proves an endgame puzzle: the compiled exact search (``ai/search/exactcore/``) over every legal move.

A puzzle counts moves as a player sees them: placements leaving quilts equal up to the board's
rotations and reflections are one move (``move_key``, with ``core.symmetry.canonical``). The
prover settles each such move as won or lost for the player to move (``classify``), and gives the
exact value and the line of best play after any one move (``after``): the proof a verdict shows.

One ``Prover`` keeps one transposition table, so the positions of one game (and the moves of one
puzzle) reuse each other's work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from patchwork_opt.ai.base import AnalysedMove, Decision
from patchwork_opt.ai.base import move_key as quilt_move_key
from patchwork_opt.ai.explain import describe
from patchwork_opt.ai.search.exact import final_value, value_margin
from patchwork_opt.ai.search.exactcore import ExactTable, solve, warm_up
from patchwork_opt.ai.seeding import require_running
from patchwork_opt.core.clock import deadline_after
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import N_

MoveKey = tuple[str, int, int]
#: Plies of a line of best play at most (a whole endgame from a puzzle fits in far fewer).
LINE_PLIES = 60
#: The table's size: puzzles are late positions, whose searches need little.
TABLE_MB = 32.0


class UnprovenError(PatchworkError):
    """The exact search did not settle a position within its time (the service answers 503)."""

    exit_code = 1
    http_status = 503


def move_key(state: State, move: Move) -> MoveKey:
    """The move as a player counts it (``ai.base.move_key`` for the player to move): advance; or the
    patch (-1 for leather) and the canonical form of the quilt it leaves (placements equal up to the
    board's symmetries are one move)."""
    return quilt_move_key(state.quilts[state.to_move()], move)


#: The key of advancing (whatever the quilt).
ADVANCE_KEY: MoveKey = quilt_move_key(0, ADVANCE)


def distinct_moves(state: State) -> dict[MoveKey, Move]:
    """Every legal move of the player to move, one per ``move_key`` (the first in the rules' order)."""
    out: dict[MoveKey, Move] = {}
    for move in state.legal_moves():
        out.setdefault(move_key(state, move), move)
    return out


def play(state: State, move: Move) -> State:
    child = state.clone()
    child.apply(move)
    return child


@dataclass(frozen=True, slots=True)
class Classified:
    """A position's distinct moves with their proven outcome for the player to move."""

    moves: dict[MoveKey, Move]
    wins: frozenset[MoveKey]
    best: Move  # a winning move when there is one: the exact search's best
    best_value: int  # its exact value (``2 * margin``, or +-1 on the tie-break)
    order: tuple[Move, ...]  # the exact search's root moves, in its (heuristic) order of trying

    @property
    def win_moves(self) -> list[Move]:
        return [m for k, m in self.moves.items() if k in self.wins]


class Prover:
    """The exact search with one table, and a cap per search: ``seconds`` on the clock and/or
    ``nodes`` searched (None: no cap). Puzzle making caps by nodes, so the same seed proves the same
    positions however busy the machine is; answers are judged on the clock."""

    def __init__(self, seconds: float | None = None, table_mb: float = TABLE_MB,
                 stop: Callable[[Callable[[], None]], None] | None = None, nodes: int | None = None) -> None:
        warm_up()  # load (or compile) the search before any of its clocks starts
        self.seconds = seconds
        self.nodes = nodes
        self.table = ExactTable(table_mb)
        self.stop = stop

    def solve(self, state: State, *, every_move: bool = False, pv_plies: int = 1,
              nodes: int | None = None) -> tuple[AnalysedMove, ...]:
        """The root moves of ``state`` best first (``UnprovenError`` when the search runs out of its
        time or nodes: ``nodes`` for this search, else the prover's)."""
        result = solve(state, deadline=deadline_after(self.seconds), node_limit=nodes or self.nodes,
                       every_move=every_move, table=self.table, pv_plies=pv_plies, stop=self.stop)
        if not result.solved:
            raise UnprovenError(N_("the exact search did not settle this position in time"))
        return tuple(result.moves)

    def classify(self, state: State, nodes: int | None = None) -> Classified:
        """Every distinct move of ``state`` proven won or lost for the player to move (the root
        search within ``nodes`` when given)."""
        roots = self.solve(state, nodes=nodes)
        by_key = {move_key(state, m.move): m for m in roots}
        moves = distinct_moves(state)
        wins = set()
        for key, move in moves.items():
            known = by_key.get(key)
            # the search lists one move per outcome class where a player places nothing more after
            # it; the others of the class are settled on their own (a quick search, the table warm)
            won = known.win > 0 if known is not None else self.after(state, move, plies=1)[0] > 0
            if won:
                wins.add(key)
        best = roots[0]
        return Classified(moves, frozenset(wins), best.move, int(best.value or 0), tuple(m.move for m in roots))

    def after(self, state: State, move: Move, plies: int = LINE_PLIES) -> tuple[int, tuple[Move, ...]]:
        """The exact value of ``move`` for the player making it, and the line of best play after it
        (at most ``plies`` moves, to the end of the game when it is shorter)."""
        p = state.to_move()
        child = play(state, move)
        if child.is_terminal():
            return final_value(child, p), ()
        best = self.solve(child, pv_plies=plies)[0]
        value = int(best.value or 0)
        return (value if child.to_move() == p else -value), tuple(best.line)


def margin_of(value: int) -> float:
    """The final margin a value stands for (0 for a tie decided by who reached the end first)."""
    return value_margin(value)


class BestPlayBot:
    """The exact search's best move: the defence a puzzle's proof assumes (the opponent of
    ``puzzle solve``)."""

    name = "best play"

    def __init__(self, prover: Prover | None = None) -> None:
        self.prover = prover or Prover()

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
        """The proof's best move: it answers when its proof is done (the prover's own cap bounds
        it), so ``stop`` has nothing to end early."""
        require_running(state)
        best = self.prover.solve(state)[0]
        margin = margin_of(int(best.value or 0))
        if margin == 0:
            outcome = "wins on the tie-break" if best.win > 0 else "loses on the tie-break"
        else:
            outcome = f"wins by {margin:g}" if margin > 0 else f"loses by {-margin:g}"
        return Decision(best.move, f"{describe(best.move)}: with best play it {outcome}", expected=best.win)
