"""``patchwork bench exact``: the compiled exact search against today's Python one, same positions.

Positions come from noisy-greedy games (seeds ``seed``, ``seed + 1``, ...: the heuristic's purchase
rule with noise 1 and sampled placements, as ``tests/conftest.late_positions`` plays them), cut
where both tokens first reach ``space``. Each position is given ``seconds`` (wall clock) to the
compiled search (``ai/search/exactcore/``) and then to the Python ``ExactSearch`` (``ai/search/exact.py``);
the figures are the share of positions each solved in time, their median solve time, their nodes
per second over all the positions (the same positions for both, so the ratio compares like with
like) and whether they agree on every value both found.

Those positions are close to the ones the search's estimate was fitted on. ``--suite``
(``run_suite_bench``) measures the compiled search alone on the held-out suite of mixed styles
(``bench/exact_suite.py``): each position once per mode (best move, every move) with the largest of
the limits (1, 4, 20 s) and an empty table, so one search tells within which limits it finished;
by style and space, the share solved within each limit, nodes per second, and the error of
``exactcore.estimate_nodes`` as estimated / actual nodes (median, p10, p90, share within 4x) over
the solved positions. An unsolved position's actual count is only known to exceed the nodes
searched, so its ratio is an upper bound: those are reported apart, never mixed into the quantiles.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from patchwork_opt.ai.heuristic import greedy_plan, leather_cell
from patchwork_opt.ai.search import exactcore
from patchwork_opt.ai.search.exact import ExactSearch
from patchwork_opt.bench.exact_suite import HELD_OUT, SuiteError, SuitePosition, load_suite
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


# --- the held-out suite of mixed styles (``bench exact --suite``) ----------------------------------------
#: Seconds within which a position counts as solved (one search per position and mode, given the largest).
SUITE_LIMITS: tuple[float, ...] = (1.0, 4.0, 20.0)
#: The suite bench's modes: the best move (``every_move`` False, as the bot asks) and every move
#: (as hints and reviews ask).
SUITE_MODES: dict[str, bool] = {"best": False, "every": True}
WITHIN = 4.0  # "the estimate within 4x of the actual" (issue 35's target)


def parse_numbers(text: str, what: str) -> list[float]:
    """``"1,4,20"`` as numbers, or an ``error:`` naming ``what``."""
    try:
        return [float(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise PatchworkError(f"{what}: expected comma-separated numbers, got {text!r}") from None


def check_suite_bench(*, limits: tuple[float, ...], modes: tuple[str, ...], threads: int,
                      per_cell: int | None) -> None:
    """Refuse options the suite bench cannot run with (before any progress bar starts)."""
    if not limits or any(not s > 0 for s in limits):
        raise PatchworkError(f"--limits must be positive seconds, got {','.join(f'{s:g}' for s in limits) or 'none'}")
    if not modes or any(m not in SUITE_MODES for m in modes):
        raise PatchworkError(f"--mode must be best, every or both, got {','.join(modes) or 'none'}")
    if not 1 <= threads <= exactcore.MAX_THREADS:
        raise PatchworkError(f"--threads must be 1..{exactcore.MAX_THREADS}, got {threads}")
    if per_cell is not None and per_cell < 1:
        raise PatchworkError(f"--per-cell must be at least 1, got {per_cell}")


def select_positions(positions: list[SuitePosition], *, styles: tuple[str, ...] | None = None,
                     spaces: tuple[int, ...] | None = None, per_cell: int | None = None) -> list[SuitePosition]:
    """The suite's positions of ``styles`` and ``spaces`` (all when None), the first ``per_cell`` of
    each (style, space) cell; a style or space the suite does not hold is an error."""
    held_styles = {p.style for p in positions}
    held_spaces = {p.space for p in positions}
    for style in styles or ():
        if style not in held_styles:
            raise SuiteError(f"--styles: the suite holds no style {style!r} "
                             f"(it holds {', '.join(sorted(held_styles))})")
    for space in spaces or ():
        if space not in held_spaces:
            raise SuiteError(f"--spaces: the suite holds no space {space} "
                             f"(it holds {', '.join(str(s) for s in sorted(held_spaces))})")
    taken: dict[tuple[str, int], int] = {}
    out = []
    for p in positions:
        if (styles and p.style not in styles) or (spaces and p.space not in spaces):
            continue
        cell = (p.style, p.space)
        if per_cell is not None and taken.get(cell, 0) >= per_cell:
            continue
        taken[cell] = taken.get(cell, 0) + 1
        out.append(p)
    return out


def _quantile(values: list[float], q: float) -> float | None:
    return float(np.quantile(values, q)) if values else None


#: The figures of the search tree (``exactcore.SearchStats``) a group reports, as medians over its positions.
TREE_FIGURES = ("nodes", "table_hit_rate", "first_move_cutoff_share", "moves_listed_per_expanded",
                "moves_tried_per_expanded", "settled_share")


def _suite_summary(rows: list[dict[str, Any]], limits: tuple[float, ...]) -> dict[str, Any]:
    """One group of a mode's rows: the share solved within each limit (and, searching every move, the
    share whose every move's win or loss was proven within it), nodes/s, the estimate's error, and the
    median figures of the tree (``TREE_FIGURES``: why a search is as big as it is).

    The error is estimated / actual nodes over the positions solved; a position not solved within
    the largest limit has only a lower bound on its actual nodes (those searched), so its ratio is
    an upper bound: those are counted apart (``unsolved``), with the median of their upper bounds."""
    solved = [r for r in rows if r["solved"]]
    ratios = [r["estimate_nodes"] / max(r["nodes"], 1) for r in solved]
    bounds = [r["estimate_nodes"] / max(r["nodes"], 1) for r in rows if not r["solved"]]
    seconds = sum(r["seconds"] for r in rows)
    within = {f"{s:g}": sum(1 for r in solved if r["seconds"] <= s) for s in limits}
    outcomes = {f"{s:g}": sum(1 for r in rows if r["outcomes_seconds"] is not None and r["outcomes_seconds"] <= s)
                for s in limits}
    trees = [r["tree"] for r in rows]
    return {
        "positions": len(rows),
        "solved_within": within,
        "share_within": {k: v / len(rows) if rows else 0.0 for k, v in within.items()},
        "outcomes_within": outcomes,
        "outcomes_share_within": {k: v / len(rows) if rows else 0.0 for k, v in outcomes.items()},
        "nodes_per_second": sum(r["nodes"] for r in rows) / seconds if seconds > 0 else 0.0,
        "tree": {name: _quantile([t[name] for t in trees], 0.5) for name in TREE_FIGURES},
        "estimate": {
            "solved": len(ratios),
            "median_ratio": _quantile(ratios, 0.5),
            "p10_ratio": _quantile(ratios, 0.1),
            "p90_ratio": _quantile(ratios, 0.9),
            "within_4x": sum(1 for x in ratios if 1 / WITHIN <= x <= WITHIN),
            "unsolved": len(bounds),
            "unsolved_ratio_at_most_median": _quantile(bounds, 0.5),
            "unsolved_under_4x": sum(1 for x in bounds if x < 1 / WITHIN),
        },
    }


def run_suite_bench(*, suite: str | Path | None = None, limits: tuple[float, ...] = SUITE_LIMITS,
                    modes: tuple[str, ...] = ("best", "every"), styles: tuple[str, ...] | None = None,
                    spaces: tuple[int, ...] | None = None, per_cell: int | None = None, threads: int = 1,
                    table_mb: float = 256.0,
                    progress: Callable[[str, float, float], None] | None = None) -> dict[str, Any]:
    """The compiled search on the held-out suite (``bench/exact_suite.py``; ``suite`` another file of
    its format), once per position and mode with the largest of ``limits`` and an empty table; a
    position counts as solved within each limit its search finished in. Figures by (style, space),
    by space over the styles, and over all, per mode."""
    check_suite_bench(limits=limits, modes=modes, threads=threads, per_cell=per_cell)
    limits = tuple(sorted(set(limits)))
    positions = select_positions(load_suite(suite), styles=styles, spaces=spaces, per_cell=per_cell)
    if not positions:
        raise SuiteError("the suite holds no position of those styles and spaces")
    exactcore.warm_up()
    table = exactcore.ExactTable(table_mb)
    rows: list[dict[str, Any]] = []
    total = len(positions) * len(modes)
    for mode in modes:
        every_move = SUITE_MODES[mode]
        for position in positions:
            state = position.state()
            table.clear()  # each position on its own: no entries from another cut of the same game
            stats = exactcore.SearchStats()
            started = time.perf_counter()
            result = exactcore.solve(state, deadline=Deadline.after(limits[-1]), every_move=every_move,
                                     threads=threads, table=table, pv_plies=1, stats=stats)
            elapsed = time.perf_counter() - started
            rows.append({"style": position.style, "space": position.space, "seed": position.seed, "mode": mode,
                         "pos": list(state.pos), "empty": [81 - q.bit_count() for q in state.quilts],
                         "solved": result.solved, "seconds": elapsed, "nodes": result.nodes,
                         "estimate_nodes": exactcore.estimate_nodes(state, every_move=every_move),
                         "root_moves": len(exactcore.root_moves(state)),
                         "outcomes_proven": sum(1 for m in result.moves if m.outcome_proven),
                         "outcomes_seconds": elapsed if result.solved else stats.outcomes_seconds,
                         "tree": stats.as_dict()})
            if progress is not None:
                progress("exact suite", len(rows), total)
    groups: list[dict[str, Any]] = []
    for mode in modes:
        mine = [r for r in rows if r["mode"] == mode]
        cells = sorted({(r["style"], r["space"]) for r in mine}, key=lambda c: (c[0], -c[1]))
        keys = [*cells, *(("all", s) for s in sorted({r["space"] for r in mine}, reverse=True)), ("all", "all")]
        for style, space in keys:
            group = [r for r in mine if style in ("all", r["style"]) and space in ("all", r["space"])]
            groups.append({"mode": mode, "style": style, "space": space, **_suite_summary(group, limits)})
    return {"suite": str(suite) if suite is not None else "shipped", "limits": list(limits), "modes": list(modes),
            "threads": threads, "table_mb": table.megabytes, "positions": len(positions),
            "estimate_units": "nodes", "held_out": HELD_OUT, "groups": groups, "rows": rows}


def render_suite_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench exact --suite``."""
    limits = [f"{s:g}" for s in result["limits"]]

    def ratio(x: float | None) -> str:
        return "-" if x is None else f"{x:,.0f}" if x >= 100 else f"{x:.2g}"

    lines = [f"exact search on the held-out suite: {result['positions']} positions, the largest limit "
             f"{limits[-1]}s each, {result['threads']} thread(s), {result['table_mb']:g} MB table",
             "estimate error: estimated/actual nodes over the solved (median, p10-p90, within 4x); "
             "the unsolved only bound it from above (median bound)"]
    for mode in result["modes"]:
        lines.append(f"{'best move' if mode == 'best' else 'every move'}:")
        head = "  ".join(f"<={s}s" for s in limits)
        lines.append(f"  {'style':<14} {'space':>5} {'n':>3}  {head}  {'nodes/s':>11}  "
                     f"est/actual median (p10-p90) within4x | unsolved (bound)")
        for g in (g for g in result["groups"] if g["mode"] == mode):
            e = g["estimate"]
            shares = "  ".join(f"{100 * g['share_within'][s]:.0f}%".rjust(len(s) + 3) for s in limits)
            unsolved = (f"{e['unsolved']} (<={ratio(e['unsolved_ratio_at_most_median'])})" if e["unsolved"] else "0")
            error = (f"{ratio(e['median_ratio']):>6} ({ratio(e['p10_ratio'])}-{ratio(e['p90_ratio'])}) "
                     f"{e['within_4x']}/{e['solved']}" if e["solved"] else f"{'-':>6}")
            lines.append(f"  {g['style']:<14} {g['space']!s:>5} {g['positions']:>3}  {shares}  "
                         f"{g['nodes_per_second']:>11,.0f}  {error} | {unsolved}")
        lines.append("  the tree (medians): nodes, table hit rate, first-move cutoffs, moves listed | tried per "
                     "expanded node, settled by table or bounds" + ("; every move's win or loss proven within "
                                                                     "each limit" if mode == "every" else ""))
        for g in (g for g in result["groups"] if g["mode"] == mode):
            t = g["tree"]
            if t["nodes"] is None:
                continue
            outcomes = ("  outcomes " + "  ".join(f"<={s}s {100 * g['outcomes_share_within'][s]:.0f}%" for s in limits)
                        if mode == "every" else "")
            lines.append(f"  {g['style']:<14} {g['space']!s:>5} {t['nodes']:>12,.0f}  "
                         f"{100 * t['table_hit_rate']:4.1f}%  "
                         f"{100 * t['first_move_cutoff_share']:4.1f}%  {t['moves_listed_per_expanded']:5.1f} | "
                         f"{t['moves_tried_per_expanded']:4.2f}  {100 * t['settled_share']:4.1f}%{outcomes}")
    return "\n".join(lines)
