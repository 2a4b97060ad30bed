"""The packing search as callers hold it: ``Packer`` (resumable, in slices), ``pack`` (one call), ``warm_up``.

A ``Packer`` builds the problem's ``Instance`` and the stack once, then runs the compiled loop a
slice at a time: between slices it reads its clock and its stop test, so a search never holds a
thread past its deadline, and as the loop releases the GIL a slice runs beside another search or
a CP-SAT solve. ``request_stop`` reaches into a running slice (the loop reads the flag itself).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from patchwork_opt.core.bitwords import join, split
from patchwork_opt.core.clock import Deadline
from solvers.search.fastpack import loop
from solvers.search.fastpack.index import instance
from solvers.search.fastpack.state import M_BEST, M_BEST_LEN, M_DEPTH, M_NODES, PAUSED, REACHED, new_memo, new_stack
from solvers.search.problem import PackingProblem, PackResult


class Packer:
    """The packing search on one ``PackingProblem``: best packing, or a cover of its cells.

    ``upper`` is a proven bound on the value (the search stops as soon as it is reached;
    by default the values of all the patches); ``regions`` (disjoint masks, for instance the
    connected parts of the free cells) set the cell order and the per-region bound;
    ``incumbent`` is a packing to beat. A problem with cells to cover branches on those
    cells only (each covered by a placement whose first such cell it is, never left empty)
    and asks whether all can be covered: ``upper`` and ``incumbent`` do not apply.
    ``run`` may be called again after it returns unexhausted, and goes on where it stopped.
    """

    def __init__(
        self,
        problem: PackingProblem,
        *,
        upper: int | None = None,
        regions: Sequence[int] = (),
        incumbent: PackResult | None = None,
        table_bits: int = 0,
    ) -> None:
        self.problem = problem
        self._instance, unused = instance(problem, regions)
        if problem.cover:
            upper = problem.cover.bit_count()
            incumbent = PackResult(value=upper - 1)  # only a full cover beats it
        elif upper is None:
            upper = sum(int(self._instance.val[s]) for s in range(len(problem.patch_ids)) if unused >> s & 1)
        self._upper = upper
        self._stack = new_stack(len(problem.patch_ids), len(self._instance.pl_lo))
        self._memo = new_memo(0, bool(problem.exclude))
        self.use_table(table_bits)
        self._start(unused, incumbent if incumbent is not None else PackResult(value=0))

    def _start(self, unused: int, incumbent: PackResult) -> None:
        """The root: all free cells open, the ``unused`` slots available, ``incumbent`` to beat."""
        self._incumbent = incumbent
        stack = self._stack
        stack.lo[0], stack.hi[0] = split(self.problem.free)
        stack.unused[0] = np.uint64(unused)
        stack.placed[0] = 1
        stack.meta[M_BEST] = incumbent.value
        stack.meta[M_BEST_LEN] = -1  # the incumbent's own placements
        stack.meta[M_DEPTH] = 0 if incumbent.value < self._upper else -1
        self._status = PAUSED if stack.meta[M_DEPTH] == 0 else REACHED

    def use_table(self, bits: int) -> None:
        """A transposition table of ``2**bits`` states (0: none): a state already searched
        (the same open cells and unused patches, reached by other placements) is cut when
        what it was found to add cannot beat the best. It can be switched on or resized
        between runs (a larger table keeps the entries of the smaller one): its 40 bytes an
        entry are worth it once a search is known not to be trivial. Under a button budget an
        entry also keeps the buttons spent on reaching it (the patches left do not tell them: a
        patch that fits nowhere leaves the set, used or not) and cuts the state reached again
        only at that spending or more, which allows no more. With sets to exclude, an entry also
        keeps the patches placed on reaching it, and cuts only a state reached with the same: whether
        a packing is excluded depends on all it placed, which the patches left do not tell either."""
        self._memo = new_memo(bits, bool(self.problem.exclude), self._memo)

    def tighten(self, upper: int) -> None:
        """A better proven bound (the search stops as soon as it is reached)."""
        self._upper = min(self._upper, upper)
        if self._status == PAUSED and self._stack.meta[M_BEST] >= self._upper:
            self._status = REACHED

    def request_stop(self) -> None:
        """Make a ``run`` in another thread, and every later one, return within about a
        thousand nodes: the compiled loop reads this flag itself, so that run can be one
        long slice that never needs the GIL."""
        self._stack.stop[0] = 1

    @property
    def finished(self) -> bool:
        return self._status != PAUSED

    def run(
        self,
        node_limit: int = 10**12,
        deadline: Deadline | None = None,
        stop: Callable[[], bool] | None = None,
        slice_nodes: int = 5_000,
    ) -> PackResult:
        """Search on until exhausted, ``upper`` reached, ``node_limit`` more nodes, the
        deadline or ``stop()``; the best packing so far (proven optimal when exhausted). The
        deadline and ``stop`` are read between slices of ``slice_nodes`` nodes."""
        left = node_limit
        meta = self._stack.meta
        while self._status == PAUSED and left > 0 and not self._stack.stop[0]:
            if deadline is not None and deadline.expired():
                break
            if stop is not None and stop():
                break
            before = int(meta[M_NODES])
            self._status = loop.run(min(slice_nodes, left), self._upper, self._instance, self._stack, self._memo)
            left -= int(meta[M_NODES]) - before
        return self.result()

    def result(self) -> PackResult:
        meta = self._stack.meta
        value = int(meta[M_BEST])
        length = int(meta[M_BEST_LEN])
        if length < 0:
            placements = list(self._incumbent.placements)
        else:
            p = self._instance
            placements = [(int(p.slot_of[q]), join(p.pl_lo[q], p.pl_hi[q]))
                          for q in (int(x) for x in self._stack.best_chosen[:length])]
        exhausted = self._status != PAUSED
        covered = None
        if self.problem.cover:
            covered = self._status == REACHED if exhausted else None
            if not covered:
                value, placements = 0, []
            else:
                value = sum(mask.bit_count() for _, mask in placements)
        return PackResult(value=value, placements=placements, exhausted=exhausted, nodes=int(meta[M_NODES]),
                          covered=covered)


def pack(
    problem: PackingProblem,
    *,
    upper: int | None = None,
    regions: Sequence[int] = (),
    incumbent: PackResult | None = None,
    node_limit: int = 10**12,
    deadline: Deadline | None = None,
    table_bits: int = 0,
) -> PackResult:
    """One call of the search (see ``Packer``): the best packing, or whether the cells to
    cover can be covered (``covered``: True, False, or None when the limits came first)."""
    packer = Packer(problem, upper=upper, regions=regions, incumbent=incumbent, table_bits=table_bits)
    return packer.run(node_limit=node_limit, deadline=deadline)


def warm_up() -> None:
    """Compile (or load the cached compilation) before anything is timed."""
    pack(PackingProblem(0b111, (0,)), upper=2)
