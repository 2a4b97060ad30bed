"""``patchwork bench engine``: random games and move generation against a naive baseline.

The baseline is a straightforward engine on a list-of-lists board (no bitboards, no
precomputed placements), run in the same process so the ratio survives a noisy machine.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import Progress

from patchwork_opt.core.bitboard import SIZE, bit
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.state import END, INCOME_MARKS, OFFER_SIZE, State

Board = list[list[bool]]


class NaiveGame:
    """The rules of RULES.md written the obvious way: a 9x9 list of lists per player."""

    def __init__(self, circle: list[int], leather: tuple[int, ...]) -> None:
        self.circle = list(circle)
        self.pos = [0, 0]
        self.buttons = [5, 5]
        self.income = [0, 0]
        self.boards: list[Board] = [[[False] * SIZE for _ in range(SIZE)] for _ in range(2)]
        self.leather = list(leather)
        self.last = 0
        self.bonus = -1

    @classmethod
    def from_state(cls, state: State) -> NaiveGame:
        game = cls(state.circle, tuple(state.leather_left()))
        game.pos, game.buttons, game.income = state.pos[:], state.buttons[:], state.income[:]
        game.last, game.bonus = state.last_mover, state.bonus
        for p in (0, 1):
            game.boards[p] = [[bool(state.quilts[p] & bit(r, c)) for c in range(SIZE)] for r in range(SIZE)]
        return game

    def to_move(self) -> int:
        if self.pos[0] != self.pos[1]:
            return 0 if self.pos[0] < self.pos[1] else 1
        return self.last

    def over(self) -> bool:
        return self.pos[0] == END and self.pos[1] == END

    def placements(self, p: int, pid: int) -> list[list[tuple[int, int]]]:
        board = self.boards[p]
        out = []
        for orientation in PATCHES[pid].orientations:
            for top in range(SIZE - orientation.height + 1):
                for left in range(SIZE - orientation.width + 1):
                    cells = [(top + r, left + c) for r, c in orientation.cells]
                    if all(not board[r][c] for r, c in cells):
                        out.append(cells)
        return out

    def legal_moves(self) -> list[tuple[int, list[tuple[int, int]]]]:
        """(offer index, cells) for every buy, and (-1, []) for advance."""
        p = self.to_move()
        moves: list[tuple[int, list[tuple[int, int]]]] = []
        for k, pid in enumerate(self.circle[:OFFER_SIZE]):
            if PATCHES[pid].cost <= self.buttons[p]:
                moves.extend((k, cells) for cells in self.placements(p, pid))
        moves.append((-1, []))
        return moves

    def _place(self, p: int, cells: list[tuple[int, int]]) -> None:
        for r, c in cells:
            self.boards[p][r][c] = True
        if self.bonus < 0:
            for top in range(3):
                for left in range(3):
                    if all(self.boards[p][top + r][left + c] for r in range(7) for c in range(7)):
                        self.bonus = p

    def _move_token(self, p: int, new: int, rng: random.Random) -> None:
        old = self.pos[p]
        for mark in INCOME_MARKS:
            if old < mark <= new:
                self.buttons[p] += self.income[p]
        for space in self.leather:
            if old < space <= new:
                self.leather.remove(space)
                empty = [(r, c) for r in range(SIZE) for c in range(SIZE) if not self.boards[p][r][c]]
                if empty:
                    self._place(p, [rng.choice(empty)])
                break
        self.pos[p] = new
        self.last = p

    def play(self, move: tuple[int, list[tuple[int, int]]], rng: random.Random) -> None:
        p = self.to_move()
        k, cells = move
        if k < 0:
            new = min(self.pos[1 - p] + 1, END)
            self.buttons[p] += new - self.pos[p]
            self._move_token(p, new, rng)
            return
        pid = self.circle[k]
        patch = PATCHES[pid]
        self.buttons[p] -= patch.cost
        self.income[p] += patch.income
        self._place(p, cells)
        self.circle = self.circle[k + 1 :] + self.circle[:k]
        self._move_token(p, min(self.pos[p] + patch.time, END), rng)

    def random_game(self, rng: random.Random) -> int:
        """Uniform move kind, then a uniform placement, as ``State.random_move``."""
        plies = 0
        while not self.over():
            moves = self.legal_moves()
            by_offer: dict[int, list[tuple[int, list[tuple[int, int]]]]] = {}
            for move in moves:
                by_offer.setdefault(move[0], []).append(move)
            kinds = sorted(by_offer)
            choice = by_offer[kinds[int(rng.random() * len(kinds))]]
            self.play(choice[int(rng.random() * len(choice))], rng)
            plies += 1
        return plies


def _rate(run_once: Callable[[], int], seconds: float) -> tuple[float, float]:
    """(calls per second, mean units per call) of ``run_once`` over about ``seconds``."""
    calls = units = 0
    started = time.perf_counter()
    while True:
        units += run_once()
        calls += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return calls / elapsed, units / calls


def _sample_positions(count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    positions: list[State] = []
    while len(positions) < count:
        state = State.new(seed=rng.randrange(1 << 30))
        plies = rng.randrange(10, 60)
        for _ in range(plies):
            if state.is_terminal():
                break
            state.apply(state.random_move(rng))
        if not state.is_terminal() and state.pending < 0:
            positions.append(state)
    return positions


def run_engine_bench(seconds: float = 3.0, repeats: int = 3, progress: bool = True, seed: int = 1) -> dict[str, Any]:
    """Medians over ``repeats`` runs of each figure; the naive baseline gets the same time."""
    positions = _sample_positions(64, seed)
    naive_positions = [NaiveGame.from_state(s) for s in positions]
    rng = random.Random(seed)

    def fast_game() -> int:
        state = State.new(seed=rng.randrange(1 << 30))
        state.playout(rng)
        return len(state.placed[0]) + len(state.placed[1])

    def naive_game() -> int:
        start = State.new(seed=rng.randrange(1 << 30))
        return NaiveGame(start.circle, start.printing).random_game(rng)

    def fast_movegen() -> int:
        return sum(s.count_moves() for s in positions)

    def naive_movegen() -> int:
        return sum(len(g.legal_moves()) for g in naive_positions)

    figures: dict[str, list[float]] = {k: [] for k in ("games", "naive_games", "movegen", "naive_movegen")}
    placed_per_game: list[float] = []
    jobs: list[tuple[str, Callable[[], int]]] = [
        ("games", fast_game),
        ("naive_games", naive_game),
        ("movegen", fast_movegen),
        ("naive_movegen", naive_movegen),
    ]
    with Progress(console=Console(stderr=True), transient=True, disable=not progress) as bar:
        task = bar.add_task("bench engine", total=repeats * len(jobs))
        for _ in range(repeats):
            for name, job in jobs:
                rate, units = _rate(job, seconds)
                if name.endswith("movegen"):
                    rate *= len(positions)  # positions per second
                figures[name].append(rate)
                if name == "games":
                    placed_per_game.append(units)
                bar.advance(task)
    med = {name: statistics.median(values) for name, values in figures.items()}
    moves_per_game = _mean_moves_per_game(seed)
    return {
        "games_per_s": med["games"],
        "naive_games_per_s": med["naive_games"],
        "games_ratio": med["games"] / med["naive_games"],
        "movegen_per_s": med["movegen"],
        "naive_movegen_per_s": med["naive_movegen"],
        "movegen_ratio": med["movegen"] / med["naive_movegen"],
        "moves_per_game": moves_per_game,
        "patches_per_game": statistics.median(placed_per_game),
        "seconds": seconds,
        "repeats": repeats,
        "runs": figures,
    }


def _mean_moves_per_game(seed: int, games: int = 50) -> float:
    rng = random.Random(seed)
    total = 0
    for _ in range(games):
        state = State.new(seed=rng.randrange(1 << 30))
        while not state.is_terminal():
            state.apply(state.random_move(rng))
            total += 1
    return total / games
