"""The library the way docs/api/index.md shows it: set up a game, play it, ask the solvers for advice.

Run: .venv/bin/python examples/quickstart.py
"""

from __future__ import annotations

import random

from patchwork_opt.ai.random_play import playout, random_move
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import State
from patchwork_opt.core.words import player_name
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from solvers.bestfit import best_fit
from solvers.fill import optimal_fill
from solvers.model import SolverConfig


def main() -> None:
    # A game is a State; moves come from a generator and are applied with validation.
    state = State.new(seed=42)
    record = Record.start(state)
    rng = random.Random(42)
    for _ in range(20):
        move = random_move(state, rng)
        state.apply(move)
        record.moves.append(move)
    assert record.replay() == state  # a record replays to the same position
    print("position after 20 random moves:")
    print(" ", to_notation(state))
    player = state.to_move()
    print(f"player {player} to move; {state.count_moves()} legal moves; offers {state.offers()}")

    # Where does the first offered patch fit best on this player's quilt?
    quilt = state.quilts[player]
    offered = state.offers()[0]
    upcoming = state.circle[1:5]
    result = best_fit(quilt, offered, upcoming, deadline=Deadline.after(0.25), top_k=3)
    print(f"best placements of patch #{offered} (area {PATCHES[offered].area}):")
    for hint in result.hints:
        print(f"  score {hint.score:6.2f}  cells {hint.cells}")

    # How much of an empty quilt can a handful of patches cover, proven optimal?
    patches = [2, 5, 8, 10, 13, 17]
    fill = optimal_fill(Quilt().mask, patches, deadline=Deadline.after(10), config=SolverConfig(workers=1, seed=0))
    print(f"optimal fill of {patches}: {fill.covered} cells covered, optimal={fill.optimal}, bound={fill.bound}")

    # Finish the game with uniformly random moves (what MCTS rollouts do).
    playout(state, rng)
    winner = state.winner()
    assert winner is not None
    print(f"final scores {state.score(0)} : {state.score(1)}, {player_name(winner)} wins")


if __name__ == "__main__":
    main()
