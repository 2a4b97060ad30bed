"""The bank of shipped puzzles: ``patchwork puzzle bank`` writes it (``build_bank``).

Endgame puzzles (``patchwork_opt.puzzles.endgame``) and fill puzzles (``patchwork_opt.puzzles.making``)
spread over the five difficulties, made in worker processes (``local``) or on a Ray cluster (``ray``,
the ``ray`` extra, where one machine is too slow). Each game or quilt is a task of its own seed, with
node budgets, not clocks; results are taken in seed order, so the same command writes the same bank
whatever ran it.

Endgames are taken in seed order, whatever their difficulty (``endgame.RATING_THRESHOLDS`` are the
quintiles of the shipped bank's ratings, so its difficulties come out even), except that those
answered by advancing are at most ``ADVANCE_SHARE`` of the bank and those answered by placing a
leather patch at most ``LEATHER_SHARE`` (a bank of one idea teaches one idea). Fills are taken up to
``ceil(count / 5)`` of each difficulty.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from patchwork_opt.cluster import started_ray
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.formats.record import write_atomic
from patchwork_opt.puzzles.bank import BANK_FILES, bank_json
from patchwork_opt.puzzles.endgame import puzzles_of_game
from patchwork_opt.puzzles.making import VARIANTS, fill_puzzle
from patchwork_opt.puzzles.model import DIFFICULTIES

BACKENDS = ("local", "ray")
#: Endgames answered by advancing, and by placing a leather patch: at most these shares of the endgames.
ADVANCE_SHARE = 0.2
LEATHER_SHARE = 0.25
#: Tasks (games, quilts) tried at most per puzzle wanted.
TASKS_PER_PUZZLE = 40
Task = Callable[[int], list[dict[str, Any]]]

def endgame_task(seed: int) -> list[dict[str, Any]]:
    """Worker: the puzzles of one self-play game, as JSON."""
    return [p.to_json() for p in puzzles_of_game(seed)]


def fill_task(seed: int) -> list[dict[str, Any]]:
    """Worker: the fill puzzle of one seed (its variant by the seed), as JSON."""
    puzzle = fill_puzzle(seed, VARIANTS[seed % len(VARIANTS)])
    return [] if puzzle is None else [puzzle.to_json()]


def check_backend(backend: str, workers: int) -> None:
    """Refuse a bad backend or worker count before any game is played; without Ray installed, the
    ``ModuleNotFoundError`` reaches the CLI's error boundary, which names the extra in one line."""
    if workers < 1:
        raise PatchworkError(f"--workers must be at least 1, got {workers}")
    if backend not in BACKENDS:
        raise PatchworkError(f"unknown backend {backend!r} (expected {' or '.join(BACKENDS)})")
    if backend == "ray":
        import ray  # noqa: F401


def _local(task: Task, seeds: Iterator[int], workers: int) -> Iterator[list[dict[str, Any]]]:
    """``task(seed)`` in worker processes, ``2 * workers`` ahead, results in seed order."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        queue = []
        try:
            for seed in seeds:
                queue.append(pool.submit(task, seed))
                if len(queue) >= 2 * workers:
                    yield queue.pop(0).result()
            for future in queue:
                yield future.result()
        finally:
            pool.shutdown(cancel_futures=True)  # the tasks queued ahead are not needed


def _ray(task: Task, seeds: Iterator[int], workers: int, address: str | None) -> Iterator[list[dict[str, Any]]]:
    """``task(seed)`` as Ray tasks (on the cluster at ``address``, else a local one of ``workers``
    CPUs), ``2 * workers`` ahead, results in seed order."""
    ray = started_ray(workers, address)
    remote = ray.remote(task)
    queue = []
    for seed in seeds:
        queue.append(remote.remote(seed))
        if len(queue) >= 2 * workers:
            yield ray.get(queue.pop(0))
    for ref in queue:
        yield ray.get(ref)


def answered_by(data: dict[str, Any], kind: str) -> bool:
    """An endgame puzzle (as JSON) whose winning moves are all of ``kind`` (advance, leather)."""
    return all(m["type"] == kind for m in data["winning"])


def _endgame_takes(out: list[dict[str, Any]], data: dict[str, Any], count: int) -> bool:
    """Endgames in seed order, at most ``ADVANCE_SHARE`` answered by advancing and ``LEATHER_SHARE``
    by a leather patch."""
    return all(not answered_by(data, kind) or sum(answered_by(p, kind) for p in out) < share * count
               for kind, share in (("advance", ADVANCE_SHARE), ("leather", LEATHER_SHARE)))


def _fill_takes(out: list[dict[str, Any]], data: dict[str, Any], count: int) -> bool:
    """Fills up to ``ceil(count / 5)`` of each difficulty."""
    quota = math.ceil(count / len(DIFFICULTIES))
    return sum(p["difficulty"] == data["difficulty"] for p in out) < quota


#: Each banked kind's task (one seed's puzzles, as JSON) and its rule for taking one more.
Rule = Callable[[list[dict[str, Any]], dict[str, Any], int], bool]
BANK_TASKS: dict[str, tuple[Task, Rule]] = {"endgame": (endgame_task, _endgame_takes),
                                            "fill": (fill_task, _fill_takes)}


@dataclass
class Quotas:
    """What the bank still wants: ``count`` puzzles of ``kind``, each distinct, as its rule takes them."""

    kind: str
    count: int
    out: list[dict[str, Any]] = field(default_factory=list)

    def takes(self, data: dict[str, Any]) -> bool:
        if len(self.out) >= self.count or any(p["id"] == data["id"] for p in self.out):
            return False
        _, rule = BANK_TASKS[self.kind]
        return rule(self.out, data, self.count)

    def spread(self) -> str:
        by = {d: sum(p["difficulty"] == d for p in self.out) for d in DIFFICULTIES}
        return ", ".join(f"{d}: {n}" for d, n in by.items())


def collect(kind: str, count: int, seed: int, workers: int, progress: Callable[[str, int, int], None],
            max_tasks: int, backend: str = "local", address: str | None = None) -> list[dict[str, Any]]:
    """``count`` puzzles of ``kind`` as ``Quotas`` wants them, from seeds drawn from ``seed`` in
    order; at most ``max_tasks`` games or quilts tried."""
    quotas = Quotas(kind, count)
    rng = random.Random(f"{kind}|{seed}")
    seeds = (rng.randrange(1 << 31) for _ in range(max_tasks))
    task, _ = BANK_TASKS[kind]
    results = _local(task, seeds, workers) if backend == "local" else _ray(task, seeds, workers, address)
    for found in results:
        for data in found:
            if quotas.takes(data):
                quotas.out.append(data)
        progress(f"{kind} puzzles", len(quotas.out), count)
        if len(quotas.out) >= count:
            break
    if len(quotas.out) < count:
        raise PatchworkError(f"only {len(quotas.out)} of {count} {kind} puzzles after {max_tasks} tries "
                             f"({quotas.spread()})")
    return sorted(quotas.out, key=lambda d: (d["difficulty"], d["id"]))


def build_bank(out: str | Path, *, endgames: int, fills: int, seed: int, workers: int,
               progress: Callable[[str, int, int], None], command: str, backend: str = "local",
               address: str | None = None) -> dict[str, dict[int, int]]:
    """Write the bank's files into ``out`` (``BANK_FILES``; a kind asked for 0 puzzles keeps its file);
    the counts per difficulty."""
    if endgames < 0 or fills < 0:
        raise PatchworkError("--endgames and --fills must be at least 0")
    check_backend(backend, workers)
    counts: dict[str, dict[int, int]] = {}
    for kind, count in (("endgame", endgames), ("fill", fills)):
        counts[kind] = dict.fromkeys(DIFFICULTIES, 0)
        if not count:  # that kind's file is left as it is: one kind can be made at a time
            continue
        puzzles = collect(kind, count, seed, workers, progress, TASKS_PER_PUZZLE * count + 100, backend, address)
        write_atomic(Path(out) / BANK_FILES[kind], bank_json(puzzles, command))
        counts[kind] = {d: sum(1 for p in puzzles if p["difficulty"] == d) for d in DIFFICULTIES}
    return counts
