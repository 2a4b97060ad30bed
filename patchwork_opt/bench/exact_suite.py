"""The held-out suite of ``patchwork bench exact --suite``: late positions from games of mixed styles.

``bench exact`` on its own cuts noisy-greedy games, close to the positions the exact search's time
estimate was fitted on; people do not play like that (issue 35). This suite is games of four styles,
cut where both tokens first reach each of ``SPACES``:

* ``greedy-greedy``: the greedy bot against itself;
* ``solver-greedy``: the solver (``SOLVER_ITERATIONS`` a move) against greedy;
* ``mcts-solver``: ``mcts`` (``MCTS_ITERATIONS``) against the solver, after 0-``OPENING_MOVES`` random
  legal moves from the start (drawn per game), so the solver plays from openings it would not choose;
* ``level1-level3``: the solver's level 1 against its level 3, each at its level's iteration cap.

Seats alternate from game to game. Every searching bot has an iteration budget instead of a clock,
so the games, and the suite, are the same on any machine: ``generate_suite`` with the same arguments
writes the same file. The solvers use the built-in heuristic placement advisor (no CP-SAT: cheaper,
and nothing in it depends on a solver's timing). Each position is kept in the one-line notation
(``formats/notation.py``) with its style, the space it was cut at, the game's seed and the seats.

HELD OUT: the suite is for measuring only. No estimate, ordering or threshold may be fitted on it
(fit on other seeds of the same generator: ``generate_suite(base_seed=...)``, as ``bench/exact_fit.py``
does for the exact search's estimate from seed 45,000), or its figures stop saying how the search does
on positions it has not seen.

Regenerate the shipped file with ``python -m patchwork_opt.bench.exact_suite`` (about 25 s on one core).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.bots.registry import LEVEL_ITERATIONS, make_bot
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation, to_notation

STYLES: tuple[str, ...] = ("greedy-greedy", "solver-greedy", "mcts-solver", "level1-level3")
SPACES: tuple[int, ...] = (44, 40, 36, 32)
PER_CELL = 5  # positions per (style, space) cell in the shipped suite
BASE_SEED = 35_000  # the shipped suite's first game seed (style i's games start at BASE_SEED + 1000 * i)
SOLVER_ITERATIONS = 2000  # the iteration cap of the solver's level 3
MCTS_ITERATIONS = 500
OPENING_MOVES = 8
MAX_GAMES = 50  # games per style at most before giving up on filling a cell
FORMAT = 1
HELD_OUT = ("held out from any fitting: measure the exact search and its estimate on it, "
            "never fit on it (patchwork_opt/bench/exact_suite.py)")

Progress = Callable[[str, float, float], None]


class SuiteError(PatchworkError):
    """A suite file that cannot be read, or asks for what the suite does not hold."""


@dataclass(frozen=True, slots=True)
class SuitePosition:
    """One position of the suite and where it came from."""

    style: str
    space: int  # the cut: the first decision where both tokens are on this space or beyond
    seed: int  # the game's seed (its circle and its bots' seeds)
    players: tuple[str, str]  # the bots in seat 0 and seat 1
    notation: str

    def state(self) -> State:
        return from_notation(self.notation)

    def to_json(self) -> dict[str, Any]:
        return {"style": self.style, "space": self.space, "seed": self.seed, "players": list(self.players),
                "notation": self.notation}


def _bots(style: str, seed: int) -> tuple[list[Bot], list[str]]:
    """The two bots of game ``seed`` of ``style`` and what they are, in seat order (seats alternate
    by seed)."""
    seats = [2 * seed, 2 * seed + 1]
    if style == "greedy-greedy":
        pair = [make_bot("greedy", seed=seats[0]), make_bot("greedy", seed=seats[1])]
        labels = ["greedy", "greedy"]
    elif style == "solver-greedy":
        pair = [make_bot("solver", seed=seats[0], iterations=SOLVER_ITERATIONS), make_bot("greedy", seed=seats[1])]
        labels = [f"solver {SOLVER_ITERATIONS} it", "greedy"]
    elif style == "mcts-solver":
        pair = [make_bot("mcts", seed=seats[0], iterations=MCTS_ITERATIONS),
                make_bot("solver", seed=seats[1], iterations=SOLVER_ITERATIONS)]
        labels = [f"mcts {MCTS_ITERATIONS} it", f"solver {SOLVER_ITERATIONS} it"]
    elif style == "level1-level3":
        low, high = LEVEL_ITERATIONS[1] or SOLVER_ITERATIONS, LEVEL_ITERATIONS[3] or SOLVER_ITERATIONS
        pair = [make_bot("solver", level=1, seed=seats[0], iterations=low),
                make_bot("solver", level=3, seed=seats[1], iterations=high)]
        labels = [f"solver level 1 {low} it", f"solver level 3 {high} it"]
    else:
        raise SuiteError(f"unknown style {style!r} (styles: {', '.join(STYLES)})")
    return (pair, labels) if seed % 2 == 0 else (pair[::-1], labels[::-1])


def _opening(style: str, seed: int) -> int:
    if style != "mcts-solver":
        return 0
    return random.Random(f"exact-suite|{seed}|openings").randint(0, OPENING_MOVES)


def cut_game(style: str, seed: int, spaces: tuple[int, ...] = SPACES) -> list[SuitePosition]:
    """Game ``seed`` of ``style``, cut at each of ``spaces`` (where both tokens first stand on it or
    beyond, with no leather patch pending); played only as far as the last cut. A space the game
    passes without such a position (the last two moves both reach the end) has none."""
    state = State.new(seed=seed)
    bots, labels = _bots(style, seed)
    players = (labels[0], labels[1])
    rng = random.Random(f"exact-suite|{seed}|moves")
    for _ in range(_opening(style, seed)):
        state.apply(random_move(state, rng))
    out: list[SuitePosition] = []
    left = sorted(spaces)
    while left and not state.is_terminal():
        if state.pending < 0:
            while left and min(state.pos) >= left[0]:
                out.append(SuitePosition(style, left.pop(0), seed, players, to_notation(state)))
            if not left:
                break
        state.apply(bots[state.to_move()].decide(state).move)
    return out


def generate_suite(*, per_cell: int = PER_CELL, base_seed: int = BASE_SEED, styles: tuple[str, ...] = STYLES,
                   spaces: tuple[int, ...] = SPACES, progress: Progress | None = None) -> list[SuitePosition]:
    """``per_cell`` positions of each style and space: games of each style from seed
    ``base_seed + 1000 * (its index in STYLES)`` on, until every space has them."""
    out: list[SuitePosition] = []
    for style in styles:
        if style not in STYLES:
            raise SuiteError(f"unknown style {style!r} (styles: {', '.join(STYLES)})")
        cells: dict[int, list[SuitePosition]] = {s: [] for s in spaces}
        first = base_seed + 1000 * STYLES.index(style)
        for seed in range(first, first + MAX_GAMES):
            wanted = tuple(s for s in spaces if len(cells[s]) < per_cell)
            if not wanted:
                break
            for position in cut_game(style, seed, wanted):
                cells[position.space].append(position)
            if progress is not None:
                progress(style, sum(min(len(c), per_cell) for c in cells.values()), per_cell * len(spaces))
        else:
            raise SuiteError(f"{style}: {MAX_GAMES} games did not give {per_cell} positions at every space")
        out += [p for s in spaces for p in cells[s]]
    return out


def suite_json(positions: list[SuitePosition], *, per_cell: int = PER_CELL,
               base_seed: int = BASE_SEED) -> dict[str, Any]:
    """The suite file's content (``load_suite`` reads it)."""
    return {"format": FORMAT, "held_out": HELD_OUT, "per_cell": per_cell, "base_seed": base_seed,
            "styles": list(STYLES), "spaces": list(SPACES), "positions": [p.to_json() for p in positions]}


def shipped_suite_path() -> Path:
    return Path(str(resources.files("patchwork_opt").joinpath("data/exact_suite.json")))


def load_suite(path: str | Path | None = None) -> list[SuitePosition]:
    """The suite's positions (default: the shipped one), each checked to parse."""
    where = Path(path) if path is not None else shipped_suite_path()
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SuiteError(f"suite {where}: cannot read it: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise SuiteError(f"suite {where}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("positions"), list):
        raise SuiteError(f"suite {where}: expected an object of format {FORMAT} with a list of positions")
    out = []
    for i, row in enumerate(data["positions"]):
        try:
            position = SuitePosition(str(row["style"]), int(row["space"]), int(row["seed"]),
                                     (str(row["players"][0]), str(row["players"][1])), str(row["notation"]))
        except (KeyError, IndexError, TypeError, ValueError):
            raise SuiteError(f"suite {where}: position {i}: expected style, space, seed, players, notation") from None
        try:
            position.state()
        except PatchworkError as exc:
            raise SuiteError(f"suite {where}: position {i}: {exc}") from None
        out.append(position)
    return out


def main() -> None:
    """Write the shipped suite again (the same file, from the same seeds)."""
    def report(style: str, done: float, total: float) -> None:
        print(f"{style}: {done:.0f}/{total:.0f}", file=sys.stderr)

    positions = generate_suite(progress=report)
    shipped_suite_path().write_text(json.dumps(suite_json(positions), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
