"""``patchwork bench puzzles``: does difficulty mean something, and how long does a puzzle take to make?

For a seeded sample of the bank's endgame puzzles of each difficulty, the solver bot at each level
1-5, as people play it (on its level's clock, with the advisor the caller plugs in), answers each
puzzle; a success is a winning move. Difficulty means something when level 1 solves the easy
puzzles more often than the hard ones and level 5 solves more than level 1 at every difficulty.
The bank rated its puzzles with the reference bot on fixed budgets (``puzzles/endgame.py``), so
this is an independent check, not the same measurement again.

Then ``generate`` endgame puzzles are made from fresh seeds, one after the other on this core, and
the median and slowest times are reported (the compiled searches loaded first: no clock starts
while Numba loads).

Last, ``practise`` games between bots of different levels (fixed iteration budgets, seeded) are
reviewed as ``analyze`` reviews them, and their mistakes and blunders turned into exercises as
``analyze --puzzles`` does: how many mistakes there were, and in how many games at least one exercise.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any, cast

from patchwork_opt.ai.bots.registry import LEVEL_ITERATIONS, make_bot
from patchwork_opt.ai.search.exactcore import warm_up as warm_exact
from patchwork_opt.ai.search.fastcore import warm_up as warm_search
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.state import State
from patchwork_opt.core.words import plural
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.bank import Bank
from patchwork_opt.puzzles.endgame import generate_endgame
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle
from patchwork_opt.puzzles.model import DIFFICULTIES
from patchwork_opt.puzzles.proof import move_key

LEVELS = (1, 2, 3, 4, 5)
#: The pairs of levels whose games are reviewed for mistakes, in turn. Each level plays with its own
#: iteration cap (``registry.LEVEL_ITERATIONS``; level 5, uncapped on the clock, with
#: ``TOP_LEVEL_ITERATIONS``): fixed budgets, so a seed gives the same game.
PRACTISE_PAIRS = ((1, 3), (2, 4), (1, 5), (3, 5))
TOP_LEVEL_ITERATIONS = 20000
#: Seconds of analysis per position in the reviews (``analyze --time-per-move``'s default).
PRACTISE_REVIEW_SECONDS = 0.5


def solve_rates(bank: Bank, per_difficulty: int, seed: int, ai: str, advisor: PlacementAdvisor | None,
                progress: Callable[[str, int, int], None]) -> dict[int, dict[int, float]]:
    """rates[difficulty][level]: the share of the sampled puzzles the bot at that level solves."""
    rng = random.Random(seed)
    endgames = {d: cast(list[EndgamePuzzle], bank.of("endgame", d)) for d in DIFFICULTIES}
    sample = {d: rng.sample(endgames[d], min(per_difficulty, len(endgames[d]))) for d in DIFFICULTIES}
    total = sum(len(s) for s in sample.values()) * len(LEVELS)
    done = 0
    rates: dict[int, dict[int, float]] = {}
    for d, puzzles in sample.items():
        rates[d] = {}
        for level in LEVELS:
            solved = 0
            for puzzle in puzzles:
                state = puzzle.state()
                bot = make_bot(ai, level=level, seed=rng.randrange(1 << 31), advisor=advisor)
                wins = {move_key(state, m) for m in puzzle.winning}
                solved += move_key(state, bot.decide(state.clone()).move) in wins
                done += 1
                progress("bots answering puzzles", done, total)
            rates[d][level] = solved / len(puzzles) if puzzles else 0.0
    return rates


def generation_times(count: int, seed: int, progress: Callable[[str, int, int], None]) -> list[tuple[float, float]]:
    """(wall, CPU) seconds to make each of ``count`` endgame puzzles from fresh seeds, one after the
    other; the CPU time is this process's (the work runs on one core), which a busy machine does not
    inflate as it does the wall time."""
    warm_exact()
    warm_search()
    rng = random.Random(seed)
    times = []
    for i in range(count):
        wall, cpu = time.perf_counter(), time.process_time()
        generate_endgame(rng.randrange(1 << 31))
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
        progress("endgame puzzles made", i + 1, count)
    return times


def level_game(seed: int, levels: tuple[int, int], advisor: PlacementAdvisor | None) -> Record:
    """A seeded game of the solver bot at ``levels`` (player 1's, player 2's) on fixed budgets."""
    state = State.new(seed=seed)
    record = Record.start(state)
    bots = [make_bot("solver", level=level, seed=seed + i, advisor=advisor,
                     iterations=LEVEL_ITERATIONS[level] or TOP_LEVEL_ITERATIONS)
            for i, level in enumerate(levels)]
    while not state.is_terminal():
        move = bots[state.to_move()].decide(state.clone()).move
        state.apply(move)
        record.moves.append(move)
    return record


def practised_games(games: int, seed: int, advisor: PlacementAdvisor | None,
                    progress: Callable[[str, int, int], None]) -> dict[str, Any]:
    """Reviews of ``games`` games between levels (``PRACTISE_PAIRS`` in turn) and the exercises their
    mistakes make, as ``analyze --puzzles`` makes them: per game the mistakes and blunders and the
    exercises."""
    from patchwork_opt.apps.practice import mistake_plies, practise_record

    rng = random.Random(f"practise|{seed}")
    out: list[dict[str, Any]] = []
    for i in range(games):
        levels = PRACTISE_PAIRS[i % len(PRACTISE_PAIRS)]
        record = level_game(rng.randrange(1 << 31), levels, advisor)
        review, practised = practise_record(record, seconds=PRACTISE_REVIEW_SECONDS)
        out.append({"levels": list(levels), "plies": len(record.moves), "mistakes": len(mistake_plies(review)),
                    "exercises": [p.to_json() for p in practised]})
        progress("games reviewed for mistakes", i + 1, games)
    return {"games": out, "mistakes": sum(g["mistakes"] for g in out),
            "exercises": sum(len(g["exercises"]) for g in out),
            "games_with_an_exercise": sum(bool(g["exercises"]) for g in out)}


def run_puzzle_bench(bank: Bank, *, per_difficulty: int, generate: int, seed: int, ai: str,
                     advisor: PlacementAdvisor | None, progress: Callable[[str, int, int], None],
                     practise: int = 0) -> dict[str, Any]:
    rates = solve_rates(bank, per_difficulty, seed, ai, advisor, progress) if per_difficulty else {}
    times = generation_times(generate, seed, progress) if generate else []
    practised = practised_games(practise, seed, advisor, progress) if practise else None
    checks = {}
    if rates:
        checks["level 1 solves easy more often than hard"] = rates[1][1] > rates[5][1]
        checks["level 5 beats level 1 at every difficulty"] = all(rates[d][5] > rates[d][1] for d in rates)
    return {
        "bank": bank.counts(),
        "ai": ai,
        "per_difficulty": per_difficulty,
        "solve_rates": {str(d): {str(level): round(r, 3) for level, r in by.items()} for d, by in rates.items()},
        "checks": checks,
        "generation_seconds": {
            "count": len(times),
            "median": round(statistics.median(w for w, _ in times), 2) if times else None,
            "max": round(max(w for w, _ in times), 2) if times else None,
            "cpu_median": round(statistics.median(c for _, c in times), 2) if times else None,
            "cpu_max": round(max(c for _, c in times), 2) if times else None,
        },
        "practise": practised,
    }


def render_puzzle_bench(result: dict[str, Any]) -> str:
    lines = []
    for kind, counts in result["bank"].items():
        spread = ", ".join(f"{d}: {n}" for d, n in counts.items())
        lines.append(f"bank {kind:8} {sum(counts.values())} puzzles (by difficulty {spread})")
    rates = result["solve_rates"]
    if rates:
        lines.append(f"share of {result['per_difficulty']} endgame puzzles per difficulty that {result['ai']} "
                     "solves, by level (on its level's clock)")
        lines.append("difficulty  " + "  ".join(f"level {level}" for level in LEVELS))
        for d, by in rates.items():
            lines.append(f"{d:>10}  " + "  ".join(f"{by[str(level)]:>7.0%}" for level in LEVELS))
        for check, ok in result["checks"].items():
            lines.append(f"{'yes' if ok else 'NO ':3}  {check}")
    gen = result["generation_seconds"]
    if gen["count"]:
        lines.append(f"making an endgame puzzle (one core), over {gen['count']}: median {gen['median']:.1f} s "
                     f"(CPU {gen['cpu_median']:.1f} s), slowest {gen['max']:.1f} s (CPU {gen['cpu_max']:.1f} s)")
    if result.get("practise"):
        got = result["practise"]
        lines.append(f"practise your mistakes: {plural(len(got['games']), 'reviewed game')} between levels, "
                     f"{plural(got['mistakes'], 'mistake or blunder', 'mistakes and blunders')}, "
                     f"{plural(got['exercises'], 'exercise')} (in {plural(got['games_with_an_exercise'], 'game')})")
    return "\n".join(lines)
