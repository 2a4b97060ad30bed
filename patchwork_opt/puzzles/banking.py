"""The bank of shipped puzzles: ``patchwork puzzle bank`` writes it (``build_bank``).

Each banked kind's puzzles (``kinds``: those with a ``bank_file``) are made by the module its
``maker`` names (its ``bank_task``: the puzzles of one seed), spread over the five difficulties, in
worker processes (``local``) or on a Ray cluster (``ray``, the ``ray`` extra, where one machine is too
slow). Each game or quilt is a task of its own seed, with node budgets, not clocks; results are taken
in seed order, so the same command writes the same bank whatever ran it.

A kind's puzzles are taken in seed order as its rules say (``PuzzleKind.bank_shares`` and
``bank_even``): endgames whatever their difficulty (``endgame.RATING_THRESHOLDS`` are the quintiles
of the shipped bank's ratings, so its difficulties come out even), except that those answered by
advancing, and those answered by placing a leather patch, are at most their shares of the bank (a
bank of one idea teaches one idea); fills up to ``ceil(count / 5)`` of each difficulty.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from patchwork_opt.cluster import started_ray
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.formats.record import write_atomic
from patchwork_opt.i18n import N_, _, all_of, one_of
from patchwork_opt.puzzles.bank import BANK_FILES, bank_json
from patchwork_opt.puzzles.kinds import BANKED, KINDS
from patchwork_opt.puzzles.kinds.base import PuzzleKind
from patchwork_opt.puzzles.making import maker_of
from patchwork_opt.puzzles.model import DIFFICULTIES

BACKENDS = ("local", "ray")
#: Tasks (games, quilts) tried at most per puzzle wanted.
TASKS_PER_PUZZLE = 40
Task = Callable[[int], list[dict[str, Any]]]


def check_backend(backend: str, workers: int) -> None:
    """Refuse a bad backend or worker count before any game is played; without Ray installed, the
    ``ModuleNotFoundError`` reaches the CLI's error boundary, which names the extra in one line."""
    if workers < 1:
        raise PatchworkError(N_("--workers must be at least 1, got {workers}"), workers=workers)
    if backend not in BACKENDS:
        # Translators: {backends} lists the backends' names (local, ray), kept as they are
        raise PatchworkError(N_("unknown backend {backend!r} (expected {backends})"), backend=backend,
                             backends=one_of(BACKENDS))
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


def answered_by(data: dict[str, Any], move_type: str) -> bool:
    """A puzzle (as JSON) whose winning moves are all of ``move_type`` (advance, leather)."""
    return all(m["type"] == move_type for m in data["winning"])


@dataclass
class Quotas:
    """What the bank still wants: ``count`` puzzles of ``kind``, each distinct, as its rules take
    them (``bank_shares``, ``bank_even``)."""

    kind: PuzzleKind[Any, Any]
    count: int
    out: list[dict[str, Any]] = field(default_factory=list)

    def takes(self, data: dict[str, Any]) -> bool:
        if len(self.out) >= self.count or any(p["id"] == data["id"] for p in self.out):
            return False
        for move_type, share in self.kind.bank_shares.items():
            if answered_by(data, move_type) and sum(answered_by(p, move_type) for p in self.out) >= share * self.count:
                return False
        if self.kind.bank_even:
            quota = math.ceil(self.count / len(DIFFICULTIES))
            return sum(p["difficulty"] == data["difficulty"] for p in self.out) < quota
        return True

    def spread(self) -> str:
        by = {d: sum(p["difficulty"] == d for p in self.out) for d in DIFFICULTIES}
        return ", ".join(f"{d}: {n}" for d, n in by.items())


def collect(kind: str, count: int, seed: int, workers: int, progress: Callable[[str, int, int], None],
            max_tasks: int, backend: str = "local", address: str | None = None) -> list[dict[str, Any]]:
    """``count`` puzzles of ``kind`` as ``Quotas`` wants them, from seeds drawn from ``seed`` in
    order; at most ``max_tasks`` games or quilts tried."""
    quotas = Quotas(KINDS[kind], count)
    rng = random.Random(f"{kind}|{seed}")
    seeds = (rng.randrange(1 << 31) for _ in range(max_tasks))
    task = maker_of(KINDS[kind]).bank_task
    results = _local(task, seeds, workers) if backend == "local" else _ray(task, seeds, workers, address)
    for found in results:
        for data in found:
            if quotas.takes(data):
                quotas.out.append(data)
        progress(_(quotas.kind.bank_words) if quotas.kind.bank_words else kind, len(quotas.out), count)
        if len(quotas.out) >= count:
            break
    if len(quotas.out) < count:
        # Translators: the bank found too few puzzles: {found} of {count} wanted of the kind {kind} (endgame,
        # fill: keep them), {tries} games or quilts tried, {spread} how many of each difficulty ("1: 4, 2: 0, ...")
        raise PatchworkError(N_("only {found} of {count} puzzles of the kind {kind} after {tries} tries ({spread})"),
                             found=len(quotas.out), count=count, kind=kind, tries=max_tasks, spread=quotas.spread())
    return sorted(quotas.out, key=lambda d: (d["difficulty"], d["id"]))


def build_bank(out: str | Path, wanted: Mapping[str, int], *, seed: int, workers: int,
               progress: Callable[[str, int, int], None], command: str, backend: str = "local",
               address: str | None = None) -> dict[str, dict[int, int]]:
    """Write the bank's files into ``out``: ``wanted[kind]`` puzzles of each banked kind, in its
    ``bank_file`` (a kind asked for 0 puzzles keeps its file: one kind can be made at a time); the
    counts per difficulty of every banked kind."""
    unknown = [name for name in wanted if name not in BANKED]
    if unknown:
        # Translators: {kinds} lists the kinds the bank holds (endgame, fill), {unknown} those asked for; keep the names
        raise PatchworkError(N_("the bank holds puzzles of the kinds {kinds}, not {unknown}"), kinds=all_of(BANKED),
                             unknown=all_of(unknown))
    if any(count < 0 for count in wanted.values()):
        # Translators: {options} lists the options (--endgames, --fills), kept as they are
        raise PatchworkError(N_("{options} must be at least 0"), options=all_of(f"--{name}s" for name in BANKED))
    check_backend(backend, workers)
    counts: dict[str, dict[int, int]] = {}
    for kind in BANKED:
        count = wanted.get(kind, 0)
        counts[kind] = dict.fromkeys(DIFFICULTIES, 0)
        if not count:
            continue
        puzzles = collect(kind, count, seed, workers, progress, TASKS_PER_PUZZLE * count + 100, backend, address)
        write_atomic(Path(out) / BANK_FILES[kind], bank_json(puzzles, command))
        counts[kind] = {d: sum(1 for p in puzzles if p["difficulty"] == d) for d in DIFFICULTIES}
    return counts
