"""``patchwork bench exact``: the compiled exact search against today's Python one, same positions.

Positions come from noisy-greedy games (seeds ``seed``, ``seed + 1``, ...: the heuristic's purchase
rule with noise 1 and sampled placements, as ``tests/conftest.late_positions`` plays them), cut
where both tokens first reach ``space``. Each position is given ``seconds`` (wall clock) to the
compiled search (``ai/search/exactcore.py``) and then to the Python ``ExactSearch`` (``ai/search/exact.py``);
the figures are the share of positions each solved in time, their median solve time, their nodes
per second over all the positions (the same positions for both, so the ratio compares like with
like) and whether they agree on every value both found.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from patchwork_opt.ai.heuristic import greedy_plan, leather_cell
from patchwork_opt.ai.search import exactcore
from patchwork_opt.ai.search.exact import ExactSearch
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import END, State

NOISE = 1.0  # the purchase rule's noise in the games the positions are cut from


def cut_position(seed: int, space: int) -> State:
    """The position of noisy-greedy game ``seed`` where both tokens have first reached ``space``."""
    state = State.new(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        p = state.to_move()
        if state.pending >= 0:
            state.leather_unchecked(p, leather_cell(state.quilts[p], state.bonus < 0))
            continue
        if min(state.pos) >= space:
            return state
        plan = greedy_plan(state, p, exhaustive=False, rng=rng, noise=NOISE)
        if plan.offer_index < 0:
            state.advance_unchecked(p)
        else:
            state.buy_unchecked(p, plan.offer_index, plan.mask)
    raise PatchworkError(f"game {seed} ended before both tokens reached space {space}")  # pragma: no cover


def _python_solve(state: State, seconds: float, every_move: bool) -> dict[str, Any]:
    search = ExactSearch(deadline=Deadline.after(seconds))
    started = time.perf_counter()
    result = search.solve(state, every_move=every_move)
    elapsed = time.perf_counter() - started
    value = None if result is None else result.moves[0].value
    return {"solved": result is not None, "seconds": elapsed, "nodes": search.nodes, "value": value}


def _compiled_solve(state: State, seconds: float, every_move: bool, threads: int,
                    table: exactcore.ExactTable) -> dict[str, Any]:
    started = time.perf_counter()
    result = exactcore.solve(state, deadline=Deadline.after(seconds), every_move=every_move, threads=threads,
                             table=table, pv_plies=1)
    elapsed = time.perf_counter() - started
    value = result.best.value if result.solved else None
    return {"solved": result.solved, "seconds": elapsed, "nodes": result.nodes, "value": value,
            "estimate": exactcore.estimate_seconds(state, every_move=every_move)}


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    solved = [r["seconds"] for r in rows if r["solved"]]
    seconds = sum(r["seconds"] for r in rows)
    return {
        "solved": len(solved),
        "share": len(solved) / len(rows) if rows else 0.0,
        "median_seconds": statistics.median(solved) if solved else None,
        "nodes": sum(r["nodes"] for r in rows),
        "nodes_per_second": sum(r["nodes"] for r in rows) / seconds if seconds > 0 else 0.0,
    }


def check_exact_bench(*, space: int, positions: int, seconds: float, threads: int,
                      baseline_seconds: float | None) -> None:
    """Refuse options the bench cannot run with (before any progress bar starts)."""
    if not 0 <= space < END:
        raise PatchworkError(f"--from must be a space 0..{END - 1}, got {space}")
    if positions < 1:
        raise PatchworkError(f"--positions must be at least 1, got {positions}")
    if not seconds > 0:
        raise PatchworkError(f"--seconds must be positive, got {seconds:g}")
    if not 1 <= threads <= exactcore.MAX_THREADS:
        raise PatchworkError(f"--threads must be 1..{exactcore.MAX_THREADS}, got {threads}")
    if baseline_seconds is not None and baseline_seconds < 0:
        raise PatchworkError("--baseline-seconds must be 0 (no baseline) or positive")


def run_exact_bench(*, space: int = 40, positions: int = 10, seconds: float = 2.0, seed: int = 0,
                    threads: int = 1, every_move: bool = False, baseline_seconds: float | None = None,
                    table_mb: float = 256.0,
                    progress: Callable[[str, float, float], None] | None = None) -> dict[str, Any]:
    """Both searches on ``positions`` positions cut at ``space``; ``baseline_seconds`` (default
    ``seconds``, 0 for none) is the Python search's time per position."""
    check_exact_bench(space=space, positions=positions, seconds=seconds, threads=threads,
                      baseline_seconds=baseline_seconds)
    baseline = seconds if baseline_seconds is None else baseline_seconds
    exactcore.warm_up()
    table = exactcore.ExactTable(table_mb)
    rows: list[dict[str, Any]] = []
    for i in range(positions):
        state = cut_position(seed + i, space)
        row: dict[str, Any] = {"seed": seed + i, "pos": list(state.pos), "to_move": state.to_move(),
                               "empty": [81 - q.bit_count() for q in state.quilts]}
        row["compiled"] = _compiled_solve(state, seconds, every_move, threads, table)
        if baseline > 0:
            row["python"] = _python_solve(state, baseline, every_move)
        rows.append(row)
        if progress is not None:
            progress("exact search", i + 1, positions)
    compiled = _summary([r["compiled"] for r in rows])
    out: dict[str, Any] = {
        "from": space, "positions": positions, "seconds": seconds, "seed": seed, "threads": threads,
        "every_move": every_move, "table_mb": table.megabytes, "compiled": compiled, "rows": rows,
    }
    if baseline > 0:
        python = _summary([r["python"] for r in rows])
        both = [r for r in rows if r["compiled"]["solved"] and r["python"]["solved"]]
        out["baseline_seconds"] = baseline
        out["python"] = python
        out["nodes_per_second_ratio"] = (compiled["nodes_per_second"] / python["nodes_per_second"]
                                         if python["nodes_per_second"] > 0 else None)
        out["speedup_both_solved"] = (statistics.median(r["python"]["seconds"] / max(r["compiled"]["seconds"], 1e-9)
                                                        for r in both) if both else None)
        out["disagreements"] = sum(1 for r in both if r["compiled"]["value"] != r["python"]["value"])
    return out


def render_exact_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench exact``."""

    def line(label: str, f: dict[str, Any]) -> str:
        median = f"median {f['median_seconds']:.2f}s" if f["median_seconds"] is not None else "median -"
        return (f"  {label:<9} solved {f['solved']:>3}/{result['positions']} ({100 * f['share']:.0f}%)  "
                f"{median}  {f['nodes_per_second']:>11,.0f} nodes/s")

    mode = "every move valued" if result["every_move"] else "best move"
    lines = [f"exact search from space {result['from']}, {result['positions']} positions, "
             f"{result['seconds']:g}s each ({mode}, {result['threads']} thread(s), "
             f"{result['table_mb']:g} MB table):",
             line("compiled", result["compiled"])]
    if "python" in result:
        lines.append(line("python", result["python"]))
        ratio = result["nodes_per_second_ratio"]
        lines.append(f"  nodes/s ratio {ratio:.0f}x" if ratio else "  nodes/s ratio -")
        if result["speedup_both_solved"] is not None:
            lines.append(f"  median speed-up where both solved {result['speedup_both_solved']:.0f}x")
        if result["disagreements"]:
            lines.append(f"  DISAGREEMENTS on {result['disagreements']} position(s)")
    return "\n".join(lines)
