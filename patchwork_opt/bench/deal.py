"""``patchwork bench deal``: Player 1's win chance at the start over random circles, the average
the review's deal luck is measured against (``apps/deal.py``).

Each circle is dealt in the benchmark's own namespace (``NAMESPACE``: circle ``i`` of seed ``s``
is ``random.Random(f"deal|{s}|{i}")``'s), set up in every printing asked (the same circles, so the
printings' difference is measured pair by pair), and valued by the deal's one analysis,
``deal.start_win``: a fixed number of iterations, so the figures are the same on any machine at any
load. Per printing: the mean with its 95% confidence interval (mean +- 1.96 standard errors), the
spread of the circles' figures, and the first circles' figures (a test recomputes them, which
catches a change of the analysis the average no longer matches). ``--write FILE`` writes the deal
file the review reads (``patchwork_opt/data/deal.json`` ships one). Circles are valued in worker
processes (``--workers``), results in circle order: the same command writes the same file.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from patchwork_opt.apps.deal import DEAL_FORMAT, DEAL_ITERATIONS, DEAL_SEED, analysis_digests, start_win
from patchwork_opt.core.catalogue import LEATHER_PRINTINGS
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import write_atomic

NAMESPACE = "deal"
#: circles whose figures the deal file keeps, for the test that recomputes them
KEPT_CIRCLES = 8
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval

Progress = Callable[[str, float, float], None]


def deal_circle(seed: int, index: int) -> list[int]:
    """Circle ``index`` of the benchmark's seed ``seed``."""
    return State.new(seed=random.Random(f"{NAMESPACE}|{seed}|{index}").getrandbits(48)).circle


def _value(task: tuple[list[int], tuple[int, ...]]) -> float:
    """Worker: the deal's figure of one circle in one printing."""
    circle, leather = task
    return start_win(tuple(circle), leather)


def _values(tasks: list[tuple[list[int], tuple[int, ...]]], workers: int) -> Iterator[float]:
    """``_value`` of each task, in order (in ``workers`` processes when more than one)."""
    if workers == 1:
        yield from map(_value, tasks)
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        yield from pool.map(_value, tasks, chunksize=4)


def check_deal_options(circles: int, workers: int, printings: Sequence[str], write: str | None) -> None:
    """Every option checked before any circle is valued."""
    if circles < 2:
        raise PatchworkError(f"--circles must be at least 2 (a spread needs two), got {circles}")
    if workers < 1:
        raise PatchworkError(f"--workers must be at least 1, got {workers}")
    unknown = [p for p in printings if p not in LEATHER_PRINTINGS]
    if unknown or not printings:
        raise PatchworkError(f"--printing {unknown[0] if unknown else '(none)'}: expected "
                             f"{' or '.join(LEATHER_PRINTINGS)}")
    if write is not None:
        target = Path(write)
        if target.suffix != ".json":
            raise PatchworkError(f"--write {write}: the deal file must end in .json")
        if not target.parent.is_dir():
            raise PatchworkError(f"--write {write}: no directory {target.parent}")


def summary_of(values: np.ndarray) -> dict[str, Any]:
    """Mean, 95% interval of the mean, spread and quartiles of one printing's figures."""
    mean = float(values.mean())
    sd = float(values.std(ddof=1))
    half = Z95 * sd / math.sqrt(len(values))
    q10, q25, q50, q75, q90 = (float(q) for q in np.quantile(values, [0.1, 0.25, 0.5, 0.75, 0.9]))
    return {"circles": len(values), "mean": round(mean, 5), "interval": [round(mean - half, 5), round(mean + half, 5)],
            "sd": round(sd, 4), "quantiles": {"10": round(q10, 4), "25": round(q25, 4), "50": round(q50, 4),
                                              "75": round(q75, 4), "90": round(q90, 4)},
            "first": [round(float(v), 6) for v in values[:KEPT_CIRCLES]]}


def run_deal_bench(*, circles: int, seed: int, printings: Sequence[str], workers: int = 1,
                   progress: Progress | None = None) -> dict[str, Any]:
    """Value ``circles`` circles of seed ``seed`` in each printing; the deal file's contents."""
    started = time.perf_counter()
    dealt = [deal_circle(seed, i) for i in range(circles)]
    tasks = [(circle, LEATHER_PRINTINGS[p]) for p in printings for circle in dealt]
    values: list[float] = []
    for value in _values(tasks, workers):
        values.append(value)
        if progress is not None:
            progress("circles valued at the start", len(values), len(tasks))
    by = {p: np.array(values[i * circles:(i + 1) * circles]) for i, p in enumerate(printings)}
    out: dict[str, Any] = {
        "format": DEAL_FORMAT, "iterations": DEAL_ITERATIONS, "seed": DEAL_SEED, **analysis_digests(),
        "circles_seed": seed, "namespace": NAMESPACE,
        "printings": {p: summary_of(v) for p, v in by.items()},
    }
    if len(printings) == 2:
        a, b = printings
        out["difference"] = {"printings": [a, b], **{k: v for k, v in summary_of(by[a] - by[b]).items()
                                                        if k in ("mean", "interval", "sd")}}
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def write_deal_file(result: dict[str, Any], path: str) -> None:
    write_atomic(path, json.dumps(result, indent=1) + "\n")


def render_deal_bench(result: dict[str, Any]) -> str:
    lines = [f"deal  Player 1's win chance at the start, {DEAL_ITERATIONS:,} iterations of the review's analysis "
             f"(seed {result['seed']}), circles of seed {result['circles_seed']}"]
    for name, p in result["printings"].items():
        low, high = p["interval"]
        q = p["quantiles"]
        lines.append(f"{name:<8} {p['circles']:,} circles: mean {p['mean']:.4f} (95% interval {low:.4f}-{high:.4f}), "
                     f"sd {p['sd']:.3f}; 10/50/90% {q['10']:.3f} {q['50']:.3f} {q['90']:.3f}")
    if "difference" in result:
        d = result["difference"]
        low, high = d["interval"]
        lines.append(f"{d['printings'][0]} - {d['printings'][1]}: {d['mean']:+.4f} (95% interval {low:+.4f} to "
                     f"{high:+.4f}), same circles")
    lines.append(f"time     {result['seconds']:.1f}s")
    return "\n".join(lines)
