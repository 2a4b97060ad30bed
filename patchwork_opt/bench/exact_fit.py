"""The exact search's estimate, fitted where it is used (issue 35): data, fit and check.

``exactcore.estimate_nodes`` predicts the nodes a ``solve`` takes from a position's features
(``exactcore.estimate_features``). This module makes that fit reproducible:

* **Data** (``fit_positions``): games of the held-out suite's four styles (``bench/exact_suite.py``:
  greedy vs greedy, solver vs greedy, mcts vs random-opening solver, level 1 vs level 3) from
  seeds ``FIT_BASE_SEED`` on, disjoint from the suite's, cut at each of ``FIT_SPACES``.
* **Measure** (``measure``): each position solved once per mode (the best move, every move) on one
  thread with an empty table, capped at a node budget. Nodes, not seconds: they are the same on any
  machine and under any load.
* **Fit** (``fit``): ln(nodes) by least squares on the features, per mode. A search the budget cut
  short is *censored*: its ln(nodes) is only known to exceed ln(budget). It is neither dropped
  (which would fit only the easy positions) nor counted at the budget (which pulls the hardest down):
  ``censored_least_squares`` fits the normal model with censoring (Tobit) by expectation-maximisation,
  each censored point standing for its expected value above the budget under the current fit.
* **Check** (``estimate_error``): estimated / actual nodes on the held-out suite (never fitted on),
  the median, the 90th percentile and the share within 4x over the positions solved within the budget;
  the unsolved are reported apart (their ratio is only an upper bound).

``patchwork bench exact --fit DIR`` runs data, measure, fit and check and prints the coefficients to
put in ``exactcore.ESTIMATE_FIT``; DIR keeps the measured rows (positions with their node counts:
``fit_rows.json``, ``suite_rows.json``), read from there when present, so the fit can be redone from
them without solving again. The solver's games depend on the estimate (it decides where the bot solves
exactly), so positions generated again after a refit may differ: the rows are the record, shipped in
``patchwork_opt/data/exact_fit/`` (``bench exact --fit patchwork_opt/data/exact_fit`` redoes
the shipped fit from them).

``move_exact_seconds`` measures what the issue calls the half-move thrown away: the seconds a
``patchwork move --time-per-move T`` spends in exact searches that do not finish.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from patchwork_opt.ai.search import exactcore
from patchwork_opt.bench.exact_suite import STYLES, SuitePosition, generate_suite
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.formats.notation import from_notation

#: The fit's games: style i's from FIT_BASE_SEED + 1000 * i on (the suite's are 35,000-38,049).
FIT_BASE_SEED = 45_000
FIT_SPACES: tuple[int, ...] = (46, 44, 42, 40, 38, 36, 34, 32)
FIT_PER_CELL = 2
FIT_NODE_CAP = 1_500_000  # nodes per search at most while fitting (about 1 s on a quiet core)
SUITE_NODE_CAP = 3_000_000  # nodes per search at most when checking on the held-out suite
WITHIN = 4.0  # the target: the estimate within 4x of the actual
MODES: tuple[bool, ...] = (False, True)  # every_move: the best move (the bot), every move (hints, reviews)

Progress = Callable[[str, float, float], None]


class FitError(PatchworkError):
    """Fit data that cannot be read or is too little to fit."""


@dataclass(frozen=True, slots=True)
class Measured:
    """One search: the position, the mode, the nodes it took (or the budget it ran out of)."""

    style: str
    space: int
    seed: int
    notation: str
    every_move: bool
    nodes: int
    solved: bool
    cap: int


def fit_positions(*, per_cell: int = FIT_PER_CELL, base_seed: int = FIT_BASE_SEED,
                  spaces: tuple[int, ...] = FIT_SPACES, progress: Progress | None = None) -> list[SuitePosition]:
    """The fitting positions: ``per_cell`` of each style and space, from games of seeds disjoint
    from the held-out suite's (refused otherwise: a fit on the suite says nothing about it)."""
    from patchwork_opt.bench.exact_suite import BASE_SEED, MAX_GAMES

    suite_seeds = {BASE_SEED + 1000 * i + g for i in range(len(STYLES)) for g in range(MAX_GAMES)}
    mine = {base_seed + 1000 * i + g for i in range(len(STYLES)) for g in range(MAX_GAMES)}
    if suite_seeds & mine:
        raise FitError(f"fit seeds from {base_seed} overlap the held-out suite's (from {BASE_SEED})")
    return generate_suite(per_cell=per_cell, base_seed=base_seed, spaces=spaces, progress=progress)


def measure(positions: Sequence[SuitePosition], *, node_cap: int, modes: Sequence[bool] = MODES,
            table_mb: float = 256.0, progress: Progress | None = None) -> list[Measured]:
    """Each position solved once per mode, one thread, an empty table, at most ``node_cap`` nodes."""
    if node_cap < 1:
        raise FitError(f"the node budget must be at least 1, got {node_cap}")
    exactcore.warm_up()
    table = exactcore.ExactTable(table_mb)
    out: list[Measured] = []
    for every_move in modes:
        for p in positions:
            table.clear()
            result = exactcore.solve(p.state(), node_limit=node_cap, every_move=every_move, table=table, pv_plies=1)
            out.append(Measured(p.style, p.space, p.seed, p.notation, every_move, result.nodes, result.solved,
                                node_cap))
            if progress is not None:
                progress("exact fit: measure", len(out), len(positions) * len(modes))
    return out


def save_rows(rows: Sequence[Measured], path: str | Path) -> None:
    Path(path).write_text(json.dumps([asdict(r) for r in rows], indent=0) + "\n", encoding="utf-8")


def load_rows(path: str | Path) -> list[Measured]:
    """Rows ``save_rows`` wrote (an ``error:`` line naming the file otherwise)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return [Measured(str(r["style"]), int(r["space"]), int(r["seed"]), str(r["notation"]),
                         bool(r["every_move"]), int(r["nodes"]), bool(r["solved"]), int(r["cap"])) for r in data]
    except OSError as exc:
        raise FitError(f"fit data {path}: cannot read it: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, KeyError, TypeError, ValueError):
        raise FitError(f"fit data {path}: expected a list of measured rows (bench exact --fit DIR)") from None


# --- the fit ----------------------------------------------------------------------------------------
def _upper_tail(a: np.ndarray) -> np.ndarray:
    """phi(a) / (1 - Phi(a)) of the standard normal (the mean of z above a), stable far in the tail."""
    out = np.empty_like(a)
    for i, x in enumerate(a):
        tail = 0.5 * math.erfc(x / math.sqrt(2.0))
        out[i] = math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi) / tail if tail > 1e-300 else x + 1.0 / x
    return out


def _least_squares(x: np.ndarray, y: np.ndarray, nonnegative: np.ndarray) -> np.ndarray:
    """Least squares with the ``nonnegative`` columns' coefficients at least 0: a column whose coefficient
    comes out negative is held at 0 and the rest fitted again (one at a time, the most negative first)."""
    active = np.ones(x.shape[1], dtype=bool)
    while True:
        beta = np.zeros(x.shape[1])
        beta[active] = np.linalg.lstsq(x[:, active], y, rcond=None)[0]
        wrong = np.where(nonnegative & active & (beta < 0), beta, 0.0)
        if not wrong.any():
            return beta
        active[int(np.argmin(wrong))] = False


def censored_least_squares(x: np.ndarray, y: np.ndarray, censored: np.ndarray, *, rounds: int = 500,
                           nonnegative: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Coefficients and residual standard deviation of y = x . b + normal noise, where ``y`` is
    known exactly for the rows not ``censored`` and only known to be at least ``y`` for the others;
    the ``nonnegative`` columns' coefficients are kept at 0 or above (``_least_squares``).

    Expectation-maximisation (the Tobit model): each censored row stands for its expected value above
    its bound under the current fit, mu + sigma * phi(a) / (1 - Phi(a)) with a = (bound - mu) / sigma,
    and adds its conditional variance to the noise's; least squares again, until the fit settles."""
    if len(y) <= x.shape[1]:
        raise FitError(f"{len(y)} rows cannot fit {x.shape[1]} coefficients")
    signs = nonnegative if nonnegative is not None else np.zeros(x.shape[1], dtype=bool)
    beta = _least_squares(x, y, signs)
    sigma = float(np.sqrt(np.mean((y - x @ beta) ** 2))) or 1e-6
    for _ in range(rounds):
        mu = x @ beta
        a = (y - mu) / sigma
        lam = _upper_tail(a)
        expected = np.where(censored, mu + sigma * lam, y)
        variance = np.where(censored, sigma**2 * (1.0 + a * lam - lam**2), 0.0)
        new = _least_squares(x, expected, signs)
        new_sigma = float(np.sqrt(np.mean((expected - x @ new) ** 2 + variance)))
        done = np.max(np.abs(new - beta)) < 1e-7 and abs(new_sigma - sigma) < 1e-7
        beta, sigma = new, new_sigma
        if done:
            break
    return beta, sigma


@dataclass(frozen=True, slots=True)
class Fit:
    """One mode's fit: ``coefficients`` of ``exactcore.ESTIMATE_FEATURES``, the spread of ln(nodes)
    about it, and the rows behind it (how many censored)."""

    every_move: bool
    coefficients: tuple[float, ...]
    spread: float
    rows: int
    censored: int


#: Every feature but the constant measures more to search: none may lower the estimate. Unconstrained,
#: the fit traded buyable offers against ln(root moves), which counts the mover's offers' placements
#: already (-0.76 an offer): the opponent's money then lowered the estimate.
NONNEGATIVE = np.array([name != "constant" for name in exactcore.ESTIMATE_FEATURES])


def fit(rows: Sequence[Measured]) -> dict[bool, Fit]:
    """ln(nodes) on ``exactcore.estimate_features`` by censored least squares, per mode, no feature
    weighing negatively (``NONNEGATIVE``). Each row counts as the position and mode that price it
    (``exactcore.estimate_position``: past a single root move)."""
    priced = [(r, *exactcore.estimate_position(from_notation(r.notation), r.every_move)) for r in rows]
    live = [(r, state, mode) for r, state, mode in priced if not state.is_terminal()]
    out: dict[bool, Fit] = {}
    for every_move in sorted({mode for _, _, mode in live}):
        mine = [(r, state) for r, state, mode in live if mode == every_move]
        x = np.array([exactcore.estimate_features(state) for _, state in mine])
        y = np.log(np.array([max(r.nodes, 1) for r, _ in mine], dtype=float))
        censored = np.array([not r.solved for r, _ in mine])
        beta, sigma = censored_least_squares(x, y, censored, nonnegative=NONNEGATIVE)
        out[every_move] = Fit(every_move, tuple(round(float(b), 4) for b in beta), round(sigma, 3), len(mine),
                              int(censored.sum()))
    return out


# --- the estimate's error on the held-out suite ---------------------------------------------------------
#: The estimate before issue 35, kept here only to report before / after: ln(nodes) = a + b * spaces
#: left + c * empty cells (both players) + d * ln(root moves), fitted on noisy-greedy games.
LEGACY_FIT: dict[bool, tuple[float, float, float, float]] = {False: (-4.629, 0.3593, 0.1018, 0.767),
                                                             True: (-4.153, 0.3370, 0.0991, 1.095)}


def legacy_estimate_nodes(notation: str, every_move: bool) -> float:
    """The median estimate of ``exactcore.estimate_nodes`` as it was before issue 35."""
    state = from_notation(notation)
    a, b, c, d = LEGACY_FIT[every_move]
    left = 2 * 53 - state.pos[0] - state.pos[1]
    empty = sum(81 - q.bit_count() for q in state.quilts)
    return math.exp(a + b * left + c * empty + d * math.log(len(exactcore.root_moves(state))))


def current_estimate_nodes(notation: str, every_move: bool) -> float:
    """``exactcore.estimate_nodes`` (the median) of the position."""
    return exactcore.estimate_nodes(from_notation(notation), every_move=every_move)


def estimate_error(rows: Sequence[Measured], estimate: Callable[[str, bool], float]) -> dict[str, Any]:
    """Estimated / actual nodes over the ``rows`` solved within their budget: the median, the 10th and
    90th percentiles, the share within 4x; the unsolved apart (the actual is only known to exceed the
    budget: ``unsolved_under_4x`` are those estimated at under a quarter of the budget, surely 4x too low)."""
    solved = [r for r in rows if r.solved]
    ratios = [estimate(r.notation, r.every_move) / max(r.nodes, 1) for r in solved]
    unsolved = [r for r in rows if not r.solved]
    under = sum(1 for r in unsolved if estimate(r.notation, r.every_move) < r.nodes / WITHIN)
    return {
        "solved": len(ratios),
        "median_ratio": float(np.quantile(ratios, 0.5)) if ratios else None,
        "p10_ratio": float(np.quantile(ratios, 0.1)) if ratios else None,
        "p90_ratio": float(np.quantile(ratios, 0.9)) if ratios else None,
        "within_4x": sum(1 for q in ratios if 1 / WITHIN <= q <= WITHIN),
        "share_within_4x": sum(1 for q in ratios if 1 / WITHIN <= q <= WITHIN) / len(ratios) if ratios else None,
        "unsolved": len(unsolved),
        "unsolved_under_4x": under,
    }


# --- the time ``patchwork move`` spends on exact attempts that do not finish -------------------------------
@contextmanager
def _exact_attempts() -> Iterator[list[tuple[float, bool, int]]]:
    """Every ``exactcore.solve`` call made inside, as (seconds, solved, root moves proven): the bench
    watches the one function the analysis calls (``run.exact_analysis``), without changing what it does."""
    calls: list[tuple[float, bool, int]] = []
    real = exactcore.solve

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        result = real(*args, **kwargs)
        calls.append((time.perf_counter() - started, result.solved, 0 if result.solved else len(result.moves)))
        return result

    exactcore.solve = timed
    try:
        yield calls
    finally:
        exactcore.solve = real


def move_exact_seconds(positions: Sequence[SuitePosition], *, seconds: float = 4.0,
                       progress: Progress | None = None) -> list[dict[str, Any]]:
    """``patchwork move POSITION --time-per-move seconds`` (the solver, level 3, the CP-SAT advisor) on each
    position: its wall time, the seconds its exact searches took and those of the ones that did not finish
    (``failed_seconds``: the time the sampling search did not have), and whether the answer is exact."""
    from patchwork_opt.ai.bots.answer import move_answer
    from patchwork_opt.apps.wiring import bot_advisor

    if not seconds > 0:
        raise FitError(f"--move-time must be positive seconds, got {seconds:g}")
    exactcore.warm_up()
    out: list[dict[str, Any]] = []
    for p in positions:
        with _exact_attempts() as calls:
            started = time.perf_counter()
            answer = move_answer(p.state(), ai="solver", time_per_move=seconds, seed=0, advisor=bot_advisor("solver"))
            wall = time.perf_counter() - started
        out.append({"style": p.style, "space": p.space, "seed": p.seed, "wall": wall, "exact": answer["exact"],
                    "attempts": len(calls), "exact_seconds": sum(c[0] for c in calls),
                    "failed_seconds": sum(c[0] for c in calls if not c[1]),
                    "proven_when_failed": sum(c[2] for c in calls if not c[1])})
        if progress is not None:
            progress("move --time-per-move", len(out), len(positions))
    return out


def render_move_seconds(rows: Sequence[dict[str, Any]], seconds: float) -> str:
    """The text of ``bench exact --move-time``: one line a position, then the totals."""
    lines = [f"patchwork move --time-per-move {seconds:g}: seconds in exact searches, and in those that did not "
             "finish (the sampling search's loss)"]
    for r in rows:
        lines.append(f"  {r['style']:<14} {r['space']:>3} seed {r['seed']:<6} wall {r['wall']:5.2f}s  exact "
                     f"{r['exact_seconds']:5.2f}s  failed {r['failed_seconds']:5.2f}s  "
                     f"({r['proven_when_failed']} moves proven)  answer {'exact' if r['exact'] else 'sampled'}")
    failed = [r["failed_seconds"] for r in rows]
    if rows:
        lines.append(f"  failed exact attempts: {sum(1 for f in failed if f > 0)}/{len(rows)} positions, "
                     f"{sum(failed):.2f}s in all, {statistics.mean(failed):.2f}s a move on average")
    return "\n".join(lines)


# --- ``patchwork bench exact --fit DIR`` / ``--move-time SECONDS`` -------------------------------------------
FIT_ROWS, SUITE_ROWS = "fit_rows.json", "suite_rows.json"
MOVE_SPACES = (40, 36)  # ``--move-time``'s positions by default: where the issue saw half-moves thrown away
MOVE_PER_CELL = 1


def _rows(path: Path, make: Callable[[], list[Measured]]) -> list[Measured]:
    """The rows kept at ``path``, else ``make``'s, written there."""
    if path.exists():
        return load_rows(path)
    rows = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    save_rows(rows, path)
    return rows


def fitted_estimate(fits: dict[bool, Fit]) -> Callable[[str, bool], float]:
    """The median estimate of nodes under ``fits`` (as ``exactcore.estimate_nodes`` with them)."""
    def estimate(notation: str, every_move: bool) -> float:
        state, mode = exactcore.estimate_position(from_notation(notation), every_move)
        if state.is_terminal():
            return 1.0
        features = exactcore.estimate_features(state)
        return math.exp(sum(c * x for c, x in zip(fits[mode].coefficients, features, strict=True)))
    return estimate


def run_fit(folder: str | Path, progress: Progress | None = None) -> dict[str, Any]:
    """Measure (or read from ``folder``) the fitting positions and the held-out suite, fit, and report the
    estimate's error on the suite per mode: before issue 35 (``LEGACY_FIT``), as shipped
    (``exactcore.ESTIMATE_FIT``) and as just fitted."""
    where = Path(folder)
    from patchwork_opt.bench.exact_suite import load_suite

    train = _rows(where / FIT_ROWS, lambda: measure(fit_positions(progress=progress), node_cap=FIT_NODE_CAP,
                                                     progress=progress))
    held = _rows(where / SUITE_ROWS, lambda: measure(load_suite(), node_cap=SUITE_NODE_CAP, progress=progress))
    fits = fit(train)
    refit = fitted_estimate(fits)
    errors = {}
    for every_move in sorted(fits):
        rows = [r for r in held if r.every_move == every_move]
        errors["every" if every_move else "best"] = {
            "before": estimate_error(rows, legacy_estimate_nodes),
            "shipped": estimate_error(rows, current_estimate_nodes),
            "refit": estimate_error(rows, refit)}
    return {"features": list(exactcore.ESTIMATE_FEATURES), "root_floor": exactcore.ROOT_FLOOR,
            "fit": {("every" if k else "best"): asdict(v) for k, v in fits.items()},
            "fit_node_cap": max((r.cap for r in train), default=0), "suite_node_cap": max((r.cap for r in held),
                                                                                        default=0),
            "suite_error": errors}


def render_fit(result: dict[str, Any]) -> str:
    """The text of ``bench exact --fit``: the coefficients to ship, then the error on the held-out suite."""
    lines = [f"estimate fit: ln(nodes) on {', '.join(result['features'])} (root moves floored at "
             f"{result['root_floor']}); searches capped at {result['fit_node_cap']:,} nodes, the capped censored"]
    for mode, f in result["fit"].items():
        lines.append(f"  {mode}: coefficients {tuple(f['coefficients'])}, spread {f['spread']}, "
                     f"{f['rows']} searches ({f['censored']} censored)")
    lines.append(f"error on the held-out suite (estimated/actual nodes over those solved within "
                 f"{result['suite_node_cap']:,} nodes): median, p10-p90, within 4x | unsolved estimated under 4x")
    for mode, by in result["suite_error"].items():
        for name, e in by.items():
            if not e["solved"]:
                continue
            lines.append(f"  {mode:<5} {name:<7} {e['median_ratio']:7.3g} ({e['p10_ratio']:.3g}-{e['p90_ratio']:.3g}) "
                         f"{e['within_4x']}/{e['solved']} ({100 * e['share_within_4x']:.0f}%) | "
                         f"{e['unsolved_under_4x']}/{e['unsolved']}")
    return "\n".join(lines)


def fit_command(folder: str | None, move_time: float | None, *, styles: tuple[str, ...] | None,
                spaces: tuple[int, ...] | None, per_cell: int | None, as_json: bool) -> None:
    """``patchwork bench exact --fit DIR`` and ``--move-time SECONDS``: run and print."""
    import typer

    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.apps.typer_app import print_json
    from patchwork_opt.bench.exact import select_positions
    from patchwork_opt.bench.exact_suite import load_suite

    if move_time is not None:
        positions = select_positions(load_suite(), styles=styles, spaces=spaces or MOVE_SPACES,
                                     per_cell=per_cell or MOVE_PER_CELL)
        with phase_progress(disable=as_json) as report:
            rows = move_exact_seconds(positions, seconds=move_time, progress=report)
        print_json({"time_per_move": move_time, "rows": rows}) if as_json else typer.echo(
            render_move_seconds(rows, move_time))
    if folder is not None:
        with phase_progress(disable=as_json) as report:
            result = run_fit(folder, progress=report)
        print_json(result) if as_json else typer.echo(render_fit(result))
