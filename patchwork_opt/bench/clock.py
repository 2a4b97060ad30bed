"""``patchwork bench clock``: does the AI keep to its time? The wall time of the search part of
``hint POSITION --time-limit T`` and of ``move --time-per-move T`` against ``T``.

Each is timed as the command runs it after reading its input and before printing: ``hint_for`` on
the loaded position (the CP-SAT advisor placing the offers, the exact share, the sampling search)
and ``move_answer`` with the CP-SAT advisor (the bot made, its move decided). The positions are
``examples/positions`` and positions cut from seeded games (random and greedy moves mixed) at
several stages: the opening, the middle game, and where the exact endgame search is tried. The
figures are the median, 95th percentile and maximum of wall / T per command and T (the target:
the 95th percentile within 1.1), after an untimed warm-up (each position once at the shortest T:
the compiled searches, the first CP-SAT calls and the exact search's table are a process's
start-up, not its searches).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from patchwork_opt.ai.bots.answer import move_answer
from patchwork_opt.ai.bots.greedy import GreedyBot
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.apps.hints import hint_for
from patchwork_opt.apps.wiring import bot_advisor, warm_compiled_searches
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import State
from patchwork_opt.formats.inputs import LoadedInput, load_position_input

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "positions"
TIMES: tuple[float, ...] = (0.1, 0.5, 2.0)
#: Where a game is cut: plies from the start, then both tokens on or past these spaces.
CUT_PLIES = (0, 14)
CUT_SPACES = (30, 42, 48)
TARGET = 1.1  # wall / T at the 95th percentile

Progress = Callable[[str, float, float], None]


def bench_positions(games: int, seed: int) -> list[State]:
    """The example positions, then positions cut from ``games`` seeded games."""
    out = [p.state for p in (load_position_input(str(f)) for f in sorted(EXAMPLES.glob("*.pos"))) if p.state]
    for g in range(games):
        rng = random.Random(seed + g)
        state = State.new(seed=seed + g)
        greedy = GreedyBot(seed + g)
        ply, spaces = 0, list(CUT_SPACES)
        while not state.is_terminal():
            if ply in CUT_PLIES or (spaces and min(state.pos) >= spaces[0]):
                while spaces and min(state.pos) >= spaces[0]:
                    spaces.pop(0)
                out.append(state.clone())
            state.apply(random_move(state, rng) if rng.random() < 0.3 else greedy.decide(state).move)
            ply += 1
    return [s for s in out if not s.is_terminal()]


def _time_hint(state: State, seconds: float) -> float:
    started = time.perf_counter()
    hint_for(LoadedInput(quilt=Quilt(state.quilts[state.to_move()]), state=state), deadline=Deadline.after(seconds))
    return time.perf_counter() - started


def _time_move(state: State, seconds: float) -> float:
    started = time.perf_counter()
    move_answer(state, ai="solver", time_per_move=seconds, seed=0, advisor=bot_advisor("solver"))
    return time.perf_counter() - started


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` percentile (0-100)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def figures(ratios: Sequence[float]) -> dict[str, float]:
    return {"median": statistics.median(ratios), "p95": percentile(ratios, 95), "max": max(ratios),
            "over_target": sum(r > TARGET for r in ratios)}


def run_clock_bench(*, games: int = 3, seed: int = 0, times: Sequence[float] = TIMES,
                    progress: Progress | None = None) -> dict[str, Any]:
    """wall / T for ``hint`` and ``move`` on every bench position at every T."""
    if games < 0:
        raise PatchworkError(f"--games must be at least 0, got {games}")
    bad = [t for t in times if t <= 0]
    if not times or bad:
        raise PatchworkError(f"--time must be positive seconds, got {bad[0] if bad else 'none'}")
    positions = bench_positions(games, seed)
    warm_compiled_searches()
    for state in positions:  # every first call (CP-SAT, the tables, the maps) once, untimed
        _time_hint(state, min(times))
        _time_move(state, min(times))
    rows: list[dict[str, Any]] = []
    total, done = 2 * len(times) * len(positions), 0
    for seconds in times:
        for command, timer in (("hint", _time_hint), ("move", _time_move)):
            for i, state in enumerate(positions):
                wall = timer(state, seconds)
                rows.append({"command": command, "T": seconds, "position": i, "wall": wall, "ratio": wall / seconds})
                done += 1
                if progress is not None:
                    progress("hint and move against T", done, total)
    summary = [
        {"command": command, "T": seconds,
         **figures([r["ratio"] for r in rows if r["command"] == command and r["T"] == seconds])}
        for seconds in times for command in ("hint", "move")
    ]
    overall = {command: figures([r["ratio"] for r in rows if r["command"] == command]) for command in ("hint", "move")}
    return {"positions": len(positions), "games": games, "seed": seed, "target_p95": TARGET,
            "summary": summary, "overall": overall, "rows": rows}


def render_clock_bench(result: dict[str, Any]) -> str:
    lines = [f"wall time / T over {result['positions']} positions (target: p95 within {result['target_p95']:g})",
             f"{'command':8} {'T':>5} {'median':>7} {'p95':>7} {'max':>7} {'over':>5}"]
    for row in result["summary"]:
        lines.append(f"{row['command']:8} {row['T']:5g} {row['median']:7.3f} {row['p95']:7.3f} {row['max']:7.3f} "
                     f"{row['over_target']:5d}")
    for command, row in result["overall"].items():
        lines.append(f"{command:8} {'all':>5} {row['median']:7.3f} {row['p95']:7.3f} {row['max']:7.3f} "
                     f"{row['over_target']:5d}")
    return "\n".join(lines)
