"""Fill puzzles, proven by the optimal fill (``solvers.fill``), and the bank of shipped puzzles.

A fill puzzle is a quilt from a seeded game (the greedy bot against itself, stopped at a random
move) and the patches that come next in its circle, in one of three variants:

* ``cells``: cover as many cells as the patches can;
* ``points``: the best score change (2 a cell, income at each income mark still ahead, less the
  price) spending at most the player's buttons;
* ``bonus``: complete a 7x7 square, covering as many cells as possible.

Only fills the optimizer proves optimal are kept. The difficulty measures how far greedy placement
falls short of the optimum (``greedy_fill``: the patches largest first, or worth most first, each
where the heuristic places it): 1 when greedy reaches it, 5 when it misses by a third or fails to
complete the square at all.

``build_bank`` writes the shipped bank (``patchwork puzzle bank``): endgame puzzles (from
``patchwork_opt.puzzles.endgame``) and fill puzzles spread over the five difficulties, made in
worker processes, in seed order so the same command writes the same bank.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any, Literal

from patchwork_opt.ai.bots.greedy import GreedyBot
from patchwork_opt.ai.heuristic import AREA, COST, best_placement, window_progress
from patchwork_opt.core.bitboard import has_full_window
from patchwork_opt.core.catalogue import patch_worth
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import State, marks_ahead
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.record import write_atomic
from patchwork_opt.puzzles.bank import BANK_FILES, bank_json
from patchwork_opt.puzzles.endgame import SOLVE_SECONDS, generate_endgame, puzzles_of_game
from patchwork_opt.puzzles.model import DIFFICULTIES, KINDS, FillPuzzle, Objective, Placement, Puzzle
from patchwork_opt.puzzles.proof import Prover
from solvers.fill import optimal_fill
from solvers.model import SolverConfig, SolveStatus

Variant = Literal["cells", "points", "bonus"]
VARIANTS: tuple[Variant, ...] = ("cells", "points", "bonus")
#: Seconds the optimal fill may take to prove a puzzle (one CP-SAT worker).
FILL_SECONDS = 10.0
#: Patches offered: the next few of the circle (more for the 7x7, which needs many cells).
PATCHES_OFFERED: dict[Variant, tuple[int, int]] = {"cells": (5, 10), "points": (5, 10), "bonus": (8, 12)}
#: Covered cells of the quilt a variant starts from.
COVERED: dict[Variant, tuple[int, int]] = {"cells": (18, 60), "points": (10, 50), "bonus": (28, 60)}
#: Cells of the best 7x7 window covered at least, for the 7x7 variant.
BONUS_PROGRESS = 30
#: Difficulty from greedy's shortfall (share of the optimum it misses): 1 when it misses nothing,
#: then the first threshold the shortfall is at most, plus one; 5 beyond the last.
SHORTFALL_THRESHOLDS = (0.0, 0.1, 0.2, 0.35)
#: Seeds tried for one fill puzzle of a wanted difficulty before giving up.
MAX_SEEDS = 500


def game_positions(seed: int) -> list[State]:
    """Every position (no leather pending) of the greedy bot's game against itself on the circle of ``seed``."""
    state = State.new(seed=seed)
    bot = GreedyBot()
    out = []
    while not state.is_terminal():
        if state.pending < 0:
            out.append(state.clone())
        state.apply(bot.decide(state.clone()).move)
    return out


def greedy_fill(quilt: int, patches: tuple[int, ...], objective: Objective, marks: int, budget: int | None,
                require_bonus: bool) -> tuple[int | None, list[Placement]]:
    """What greedy placement reaches: the patches largest first (``cells``) or worth most first
    (``points``, skipping those worth nothing or over the buttons left), each where the heuristic
    places it; None when the 7x7 square is asked for and not completed."""
    if objective == "cells":
        order = sorted(patches, key=lambda pid: (-AREA[pid], pid))
    else:
        order = sorted(patches, key=lambda pid: (-patch_worth(pid, marks), pid))
    left = budget
    placed: list[Placement] = []
    for pid in order:
        if objective == "points" and patch_worth(pid, marks) <= 0:
            continue
        if left is not None and COST[pid] > left:
            continue
        mask = best_placement(quilt, pid, bonus_free=require_bonus)
        if mask:
            quilt |= mask
            placed.append((pid, mask))
            if left is not None:
                left -= COST[pid]
    if require_bonus and not has_full_window(quilt):
        return None, placed
    worth = sum(AREA[pid] if objective == "cells" else patch_worth(pid, marks) for pid, _ in placed)
    return worth, placed


def fill_difficulty(best: int, greedy: int | None) -> int:
    shortfall = 1.0 if greedy is None else (best - greedy) / max(best, 1)
    return 1 + sum(1 for t in SHORTFALL_THRESHOLDS if shortfall > t)


def fill_id(quilt: int, patches: tuple[int, ...], objective: str, marks: int, budget: int | None, bonus: bool) -> str:
    key = json.dumps([quilt, sorted(patches), objective, marks, budget, bonus])
    return "f" + hashlib.sha256(key.encode()).hexdigest()[:12]


def fill_puzzle(seed: int, variant: Variant, *, stop: StopSignal | None = None) -> FillPuzzle | None:
    """The fill puzzle of ``seed`` in ``variant``, or None when the seed's game gives none (no quilt
    in range, nothing worth placing, no 7x7 to complete, or no proof in time)."""
    rng = random.Random(f"fill|{seed}|{variant}")
    low, high = COVERED[variant]
    positions = [s for s in game_positions(seed) if low <= s.quilts[s.to_move()].bit_count() <= high]
    if variant == "bonus":
        positions = [s for s in positions if s.bonus < 0 and window_progress(s.quilts[s.to_move()]) >= BONUS_PROGRESS]
    if not positions:
        return None
    state = rng.choice(positions)
    p = state.to_move()
    quilt = state.quilts[p]
    fewest, most = PATCHES_OFFERED[variant]
    patches = tuple(state.circle[: rng.randint(fewest, most)])
    objective: Objective = "points" if variant == "points" else "cells"
    marks = marks_ahead(state.pos[p]) if variant == "points" else 9
    budget = state.buttons[p] if variant == "points" else None
    bonus = variant == "bonus"
    result = optimal_fill(quilt, list(patches), objective=objective, marks=marks, budget=budget, require_bonus=bonus,
                          config=SolverConfig(time_limit=FILL_SECONDS, workers=1, seed=0), stop=stop)
    if result.status != SolveStatus.OPTIMAL or result.objective is None or result.objective <= 0:
        return None
    best = tuple((pl.patch, pl.mask) for pl in result.placements)
    greedy, _ = greedy_fill(quilt, patches, objective, marks, budget, bonus)
    puzzle = FillPuzzle(
        id=fill_id(quilt, patches, objective, marks, budget, bonus), quilt=quilt, patches=patches,
        objective=objective, marks=marks, budget=budget, require_bonus=bonus, best_value=result.objective,
        best=best, greedy=greedy, difficulty=fill_difficulty(result.objective, greedy),
    )
    return puzzle


def generate_fill(seed: int, difficulty: int | None = None, variant: Variant | None = None, *,
                  max_seeds: int = MAX_SEEDS, progress: Callable[[int], None] | None = None,
                  stop: StopSignal | None = None) -> FillPuzzle:
    """One fill puzzle (of ``difficulty`` and ``variant`` when given) from the games of ``seed``:
    the same seed gives the same puzzle."""
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise PatchworkError(f"difficulty must be 1-5, not {difficulty}")
    check_variant(variant)
    rng = random.Random(seed)
    for tried in range(max_seeds):
        kind = variant or VARIANTS[tried % len(VARIANTS)]
        puzzle = fill_puzzle(rng.randrange(1 << 31), kind, stop=stop)
        if progress is not None:
            progress(tried + 1)
        if stop is not None and stop.is_set():
            break
        if puzzle is not None and (difficulty is None or puzzle.difficulty == difficulty):
            return puzzle
    which = f" of difficulty {difficulty}" if difficulty is not None else ""
    raise PatchworkError(f"no fill puzzle{which} from {max_seeds} games of seed {seed}; try another seed")


def new_puzzle(kind: str, difficulty: int | None, seed: int, *, variant: Variant | None = None,
               progress: Callable[[int], None] | None = None, stop: StopSignal | None = None) -> Puzzle:
    """``patchwork puzzle new``'s puzzle: an endgame or a fill of ``difficulty`` from ``seed``
    (``progress(tries)`` after each game or quilt tried)."""
    check_puzzle_request(kind, variant)
    if kind == "endgame":
        return generate_endgame(seed, difficulty, progress=progress, stop=stop)
    return generate_fill(seed, difficulty, variant, progress=progress, stop=stop)


def check_puzzle_request(kind: str, variant: str | None) -> None:
    """The kind and variant ``new_puzzle`` is asked for, refused before any game is dealt (so the
    command says nothing else first, not even the random seed it drew)."""
    if kind not in KINDS:
        raise PatchworkError(f"kind must be {' or '.join(KINDS)}, not {kind!r}")
    if kind == "endgame" and variant is not None:
        raise PatchworkError("--variant is for fill puzzles")
    check_variant(variant)


def check_variant(variant: str | None) -> None:
    if variant is not None and variant not in VARIANTS:
        raise PatchworkError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")


# --- the bank -------------------------------------------------------------------------------------
_PROVER: Prover | None = None  # a worker process's exact search (its table reused game after game)


def _endgame_task(seed: int) -> list[dict[str, Any]]:
    """Worker: the puzzles of one self-play game, as JSON (one prover per worker process)."""
    global _PROVER
    if _PROVER is None:
        _PROVER = Prover(SOLVE_SECONDS)
    return [p.to_json() for p in puzzles_of_game(seed, _PROVER)]


def _fill_task(seed: int) -> list[dict[str, Any]]:
    """Worker: the fill puzzle of one seed (its variant by the seed), as JSON."""
    puzzle = fill_puzzle(seed, VARIANTS[seed % len(VARIANTS)])
    return [] if puzzle is None else [puzzle.to_json()]



def _ordered(pool: ProcessPoolExecutor, task: Callable[[int], list[dict[str, Any]]], seeds: Iterator[int],
             ahead: int) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """``task(seed)`` for each seed in worker processes, ``ahead`` at a time, results in seed order."""
    queue: list[tuple[int, Future[list[dict[str, Any]]]]] = []
    for seed in seeds:
        queue.append((seed, pool.submit(task, seed)))
        if len(queue) >= ahead:
            first, future = queue.pop(0)
            yield first, future.result()
    for seed, future in queue:
        yield seed, future.result()


def collect(kind: str, count: int, seed: int, workers: int, progress: Callable[[str, int, int], None],
            max_tasks: int) -> list[dict[str, Any]]:
    """``count`` puzzles of ``kind``, ``ceil(count / 5)`` of each difficulty at most, from seeds drawn
    from ``seed`` in order; at most ``max_tasks`` games or quilts tried."""
    quota = math.ceil(count / len(DIFFICULTIES))
    have: dict[int, int] = dict.fromkeys(DIFFICULTIES, 0)
    out: list[dict[str, Any]] = []
    ids: set[str] = set()
    rng = random.Random(f"{kind}|{seed}")
    seeds = (rng.randrange(1 << 31) for _ in range(max_tasks))
    task = _endgame_task if kind == "endgame" else _fill_task
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for _, found in _ordered(pool, task, seeds, 2 * workers):
            for data in found:
                if data["id"] not in ids and have[data["difficulty"]] < quota and len(out) < count:
                    ids.add(data["id"])
                    have[data["difficulty"]] += 1
                    out.append(data)
            progress(f"{kind} puzzles", len(out), count)
            if len(out) >= count:
                pool.shutdown(cancel_futures=True)  # the tasks queued ahead are not needed
                break
    if len(out) < count:
        spread = ", ".join(f"{d}: {n}" for d, n in have.items())
        raise PatchworkError(f"only {len(out)} of {count} {kind} puzzles after {max_tasks} tries ({spread})")
    return sorted(out, key=lambda d: (d["difficulty"], d["id"]))


def build_bank(out: str | Path, *, endgames: int, fills: int, seed: int, workers: int,
               progress: Callable[[str, int, int], None], command: str) -> dict[str, dict[int, int]]:
    """Write the bank's files into ``out`` (``BANK_FILES``); the counts per difficulty."""
    if endgames < 0 or fills < 0 or workers < 1:
        raise PatchworkError("--endgames and --fills must be at least 0, --workers at least 1")
    counts: dict[str, dict[int, int]] = {}
    for kind, count, max_tasks in (("endgame", endgames, 40 * endgames + 100), ("fill", fills, 40 * fills + 100)):
        puzzles = collect(kind, count, seed, workers, progress, max_tasks) if count else []
        write_atomic(Path(out) / BANK_FILES[kind], bank_json(puzzles, command))
        counts[kind] = {d: sum(1 for p in puzzles if p["difficulty"] == d) for d in DIFFICULTIES}
    return counts
