"""``patchwork bench ai``: MCTS iterations/s and rollouts/s on one core, against a baseline.

``solver_iterations`` is the solver bot's compiled search (``fastcore``) from the same positions,
with the root moves it would search (heuristic placements, no advisor), against ``mcts_iterations``
of the ``mcts`` bot's Python search in the same run.

The baseline plays the same noisy-greedy policy through the generic path a search written only
against the public API would use (``legal_moves`` listing every placement, then ``apply``), so
the ratio is what the unchecked transitions and sampled placements buy.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from patchwork_opt.ai.analysis.run import NODES_PER_SECOND, SLICE, root_moves
from patchwork_opt.ai.heuristic import (
    ADVANCE_VALUE,
    contact_planes,
    greedy_plan,
    isolated,
    leather_cell,
    placement_score,
    purchase_value,
)
from patchwork_opt.ai.random_play import playout
from patchwork_opt.ai.search.fastcore import CompiledSearch, warm_up
from patchwork_opt.ai.search.mcts import Mcts
from patchwork_opt.ai.search.policy import ROLLOUT_NOISE, RolloutEvaluator, rollout
from patchwork_opt.core.bitboard import FULL
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State


def generic_rollout(state: State, rng: random.Random, noise: float = ROLLOUT_NOISE) -> None:
    """The rollout policy written against ``legal_moves``/``apply`` only (the baseline)."""
    while not state.is_terminal():
        p = state.to_move()
        moves = list(state.legal_moves())
        if state.pending >= 0:
            state.apply(Move("leather", -1, leather_cell(state.quilts[p], state.bonus < 0)))
            continue
        by_patch: dict[int, list[Move]] = {}
        for m in moves:
            if m.kind == "buy":
                by_patch.setdefault(m.patch, []).append(m)
        values = sorted(
            ((purchase_value(pid, state.pos[p]) + noise * (rng.random() - 0.5), pid) for pid in by_patch),
            reverse=True,
        )
        if values and values[0][0] > ADVANCE_VALUE:
            options = by_patch[values[0][1]]
            sample = [options[int(rng.random() * len(options))] for _ in range(6)]
            quilt = state.quilts[p]
            planes = contact_planes(quilt)
            holes = isolated(FULL & ~quilt).bit_count()
            best = max(sample, key=lambda m: placement_score(quilt, m.mask, planes, holes, state.bonus < 0))
            state.apply(best)
        else:
            state.apply(ADVANCE)


def _rate(run_once: Callable[[], int], seconds: float) -> float:
    """Units per second of ``run_once`` (which returns how many units it did) over ``seconds``."""
    done = 0
    start = time.perf_counter()
    while True:
        done += run_once()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def positions(seed: int = 1) -> dict[str, State]:
    """The opening, and a middle-game position (both tokens past space 20) reached by greedy play."""
    opening = State.new(seed=seed)
    middle = opening.clone()
    rng = random.Random(seed)
    while min(middle.pos) < 20 and not middle.is_terminal():
        p = middle.to_move()
        if middle.pending >= 0:
            middle.leather_unchecked(p, leather_cell(middle.quilts[p], middle.bonus < 0))
            continue
        if rng.random() < 0.4:
            middle.advance_unchecked(p)
        else:
            _buy_first(middle, p, rng)
    return {"opening": opening, "middle": middle}


def _buy_first(state: State, p: int, rng: random.Random) -> None:
    plan = greedy_plan(state, p, exhaustive=False, rng=rng)
    if plan.offer_index < 0:
        state.advance_unchecked(p)
    else:
        state.buy_unchecked(p, plan.offer_index, plan.mask)


def run_ai_bench(seconds: float = 2.0, repeats: int = 3, seed: int = 1) -> dict[str, Any]:
    """Medians over ``repeats`` runs of ``seconds`` each."""
    states = positions(seed)
    rng = random.Random(seed)
    # the compiled search's seeds: its own draws, so its trees do not hang on how many rollouts the
    # figures before it fitted in their seconds
    search_seeds = random.Random(seed + 1)
    warm_up()  # loaded (or compiled) before any clock: a first compile is no search time
    out: dict[str, Any] = {"seconds": seconds, "repeats": repeats}
    for label, state in states.items():

        def fast(state: State = state) -> int:
            game = state.clone()
            rollout(game, rng)
            return 1

        def generic(state: State = state) -> int:
            game = state.clone()
            generic_rollout(game, rng)
            return 1

        def mcts(state: State = state) -> int:
            result = Mcts(RolloutEvaluator(), rng).search(state, seconds=min(1.0, seconds))
            return result.iterations

        def compiled(state: State = state) -> int:
            search = CompiledSearch(state, root_moves(state, None), seed=search_seeds.randrange(1 << 30),
                                    capacity=int(min(1.0, seconds) * NODES_PER_SECOND) + 1000)
            deadline = time.perf_counter() + min(1.0, seconds)
            while time.perf_counter() < deadline:
                search.run(SLICE)
            return search.iterations

        def uniform(state: State = state) -> int:
            game = state.clone()
            playout(game, rng)
            return 1

        figures = {}
        for name, fn in (("rollouts", fast), ("generic_rollouts", generic), ("mcts_iterations", mcts),
                         ("solver_iterations", compiled), ("random_playouts", uniform)):
            figures[name] = statistics.median(_rate(fn, seconds) for _ in range(repeats))
        figures["rollout_ratio"] = figures["rollouts"] / figures["generic_rollouts"]
        figures["solver_ratio"] = figures["solver_iterations"] / figures["mcts_iterations"]
        out[label] = figures
    return out


def render_ai_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench ai``."""
    lines = []
    for label in ("opening", "middle"):
        f = result[label]
        lines += [
            f"{label}:",
            f"  MCTS iterations/s      {f['mcts_iterations']:>9.0f}",
            f"  solver (compiled) it/s {f['solver_iterations']:>9.0f}   {f['solver_ratio']:.1f}x the MCTS bot's",
            f"  rollouts/s (fast)      {f['rollouts']:>9.0f}   generic legal_moves/apply "
            f"{f['generic_rollouts']:>7.1f}   ratio {f['rollout_ratio']:.1f}x",
            f"  uniform random games/s {f['random_playouts']:>9.0f}",
        ]
    lines.append(f"(medians of {result['repeats']} runs of {result['seconds']:g}s on one core)")
    return "\n".join(lines)
