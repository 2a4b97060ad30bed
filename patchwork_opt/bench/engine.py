"""``patchwork bench engine``: random games and move generation against a naive baseline.

The baseline is the reference model (``bench/reference.py``: the rules written the plain way,
sets of cells and no precomputed tables), run in the same process so the ratio survives a noisy
machine.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import Progress

from patchwork_opt.ai.random_play import playout, random_move
from patchwork_opt.bench.reference import Ref, ref_of
from patchwork_opt.core.state import State


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
            state.apply(random_move(state, rng))
        if not state.is_terminal() and state.pending < 0:
            positions.append(state)
    return positions


def run_engine_bench(seconds: float = 3.0, repeats: int = 3, progress: bool = True, seed: int = 1) -> dict[str, Any]:
    """Medians over ``repeats`` runs of each figure; the naive baseline gets the same time."""
    positions = _sample_positions(64, seed)
    naive_positions = [ref_of(s) for s in positions]
    rng = random.Random(seed)

    def fast_game() -> int:
        state = State.new(seed=rng.randrange(1 << 30))
        playout(state, rng)
        return len(state.placed[0]) + len(state.placed[1])

    def naive_game() -> int:
        start = State.new(seed=rng.randrange(1 << 30))
        return Ref(circle=start.circle, leather=list(start.printing)).random_game(rng)

    def fast_movegen() -> int:
        return sum(s.count_moves() for s in positions)

    def naive_movegen() -> int:
        return sum(len(g.legal()) for g in naive_positions)

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
            state.apply(random_move(state, rng))
            total += 1
    return total / games


def render_engine_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench engine``."""
    return "\n".join([
        f"random games/s      {result['games_per_s']:>10.0f}   naive {result['naive_games_per_s']:>8.1f}"
        f"   ratio {result['games_ratio']:.1f}x",
        f"legal-move gen /s   {result['movegen_per_s']:>10.0f}   naive {result['naive_movegen_per_s']:>8.1f}"
        f"   ratio {result['movegen_ratio']:.1f}x",
        f"moves per game      {result['moves_per_game']:>10.1f}",
        f"(medians of {result['repeats']} runs of {result['seconds']:g}s on one core)",
    ])
