"""Optimal fill's races: two searches at once, one a core, the first to settle the fill stopping the other.

The compiled packing search and CP-SAT both release the GIL while they search, so one in a thread
(``InThread``) and one in the calling thread each have a core. Two races, each handed its searches,
deadlines and CP-SAT solve by the fill's pipeline (``solvers.fill``), which turns what a race ends
with (``RaceOutcome``) into its answer:

- ``race_corners`` (step 4, ``cells``): the search on the quilt as it is against the same search on
  the quilt turned half a turn (``turned_search``), which scans from the opposite corner; past the
  switch, CP-SAT takes the turned search's core;
- ``cp_sat_beside`` (step 5, ``points``): CP-SAT in a thread beside the search.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.symmetry import transform
from solvers.fill_cp_sat import CpOutcome
from solvers.model import SolveHandle
from solvers.search import Packer, PackingProblem, PackResult

#: The second search sees the quilt under this symmetry (half a turn): it scans from the opposite corner.
TURN = 2
#: Nodes per slice of a search that keeps the clock while the other core works (about 7 ms): how
#: late it may notice its deadline, or that the other has finished.
SLICE_NODES = 10_000

T = TypeVar("T")


@dataclass(frozen=True)
class RaceOutcome:
    """What a race ends with: the best packing found (``exhausted``: it settled the fill, and the
    other search was stopped) and CP-SAT's answer (None when CP-SAT did not run or was stopped)."""

    best: PackResult
    cp_sat: CpOutcome | None = None


class InThread(Generic[T]):
    """``work()`` started at once in a daemon thread; ``result()`` waits for it and raises its
    exception, if any, in the calling thread."""

    def __init__(self, work: Callable[[], T], name: str) -> None:
        self._work = work
        self._value: list[T] = []
        self._error: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value.append(self._work())
        except BaseException as exc:  # re-raised in the calling thread
            self._error.append(exc)

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def join(self) -> None:
        self._thread.join()

    def result(self) -> T:
        self._thread.join()
        if self._error:
            raise self._error[0]
        return self._value[0]


def turned_search(problem: PackingProblem, upper: int, regions: Sequence[int], table_bits: int) -> Packer:
    """The search of ``problem`` on the quilt turned half a turn (``regions`` turned with it)."""
    return Packer(
        PackingProblem(transform(problem.free, TURN), problem.patch_ids, problem.values, problem.budget,
                       exclude=problem.exclude),
        upper=upper, regions=[transform(m, TURN) for m in regions], table_bits=table_bits,
    )


def race_corners(
    packer: Packer,
    turned: Packer,
    incumbent: PackResult,
    *,
    deadline: Deadline,
    switch_at: Deadline,
    stop: StopSignal,
    cp_sat: Callable[[PackResult, SolveHandle], CpOutcome],
    on_phase: Callable[[int, str], None],
) -> RaceOutcome:
    """``packer`` in a thread against ``turned`` (``turned_search``) in this one, to ``switch_at``;
    the first to settle the fill stops the other. The order cells are settled in decides how soon
    a tight pocket is met, so the two scans from opposite corners often differ tenfold in time,
    either way round, proofs included. If neither has settled it by then, ``cp_sat(best packing,
    handle)`` (warm-started from it) takes this core to the deadline: on a quilt both scans find
    hard, its LP bound may still prove the fill, and its bound improves. ``on_phase(value, phase)``
    hears of each phase as it starts."""
    handle = SolveHandle()
    stop.attach(handle.stop)

    def search() -> PackResult:
        try:
            # one long slice: no GIL needed until it ends, ``request_stop`` ends it early
            result = packer.run(deadline=deadline, slice_nodes=10**15)
        except BaseException:
            turned.request_stop()
            handle.stop()
            raise
        if result.exhausted:
            turned.request_stop()
            handle.stop()
        return result

    searching = InThread(search, "fill-search")
    on_phase(incumbent.value, "dfs from two corners")
    # slices of a few milliseconds: this thread keeps the clock (the other one keeps going until told to stop)
    other = _turned_back(turned.run(deadline=switch_at, slice_nodes=SLICE_NODES))
    if other.exhausted:
        packer.request_stop()
        searching.join()
        return RaceOutcome(other)
    outcome = None
    if not handle.stopped and deadline.remaining() > 0.01:
        best = max((other, incumbent), key=lambda r: r.value)
        on_phase(best.value, "cp-sat beside dfs")
        outcome = cp_sat(best, handle)  # at once when the search has won meanwhile
    packer.request_stop()
    searched = searching.result()
    if searched.exhausted:
        return RaceOutcome(searched)
    return RaceOutcome(max((searched, other, incumbent), key=lambda r: r.value), outcome)


def cp_sat_beside(
    packer: Packer, cp_sat: Callable[[SolveHandle], CpOutcome], *, deadline: Deadline, stop: StopSignal
) -> RaceOutcome:
    """``cp_sat(handle)`` in a thread and ``packer`` in this one, to ``deadline``; the first to
    prove optimality stops the other."""
    handle = SolveHandle()
    stop.attach(handle.stop)
    solving = InThread(lambda: cp_sat(handle), "cp-sat")
    found = packer.run(deadline=deadline, stop=lambda: not solving.is_alive(), slice_nodes=SLICE_NODES)
    if found.exhausted:
        handle.stop()
        solving.join()
        return RaceOutcome(found)
    return RaceOutcome(found, solving.result())


def _turned_back(result: PackResult) -> PackResult:
    """The turned search's packing on the quilt as it is."""
    return PackResult(
        value=result.value,
        placements=[(slot, transform(mask, TURN)) for slot, mask in result.placements],
        exhausted=result.exhausted,
        nodes=result.nodes,
    )
