"""A bitboard branch-and-bound packing search for small fills, in plain Python ints.

The search settles cells one at a time in a fixed order (empty region by empty region, smallest
region first, so that a pocket takes the patches that fit it before open space does; row-major
inside a region): the first undecided cell is either covered by a placement whose own first
cell it is, or left empty. Every packing is reached exactly once that way, so an exhausted
search proves its incumbent optimal. A node is cut
when what it has plus the best the unused patches could still add (a subset sum of their
areas, or a fractional knapsack for other values, within the undecided cells, and for areas
also region by region) cannot beat the incumbent. Patches that no longer fit anywhere drop
out of the bound, and after each placement the cells no remaining patch can cover are left
empty at once. Patches sharing a shape and value are placed in slot order only.

The node limit and deadline make it a cheap first try: when it runs out the caller gets
the incumbent (a warm start) and hands the proof to CP-SAT.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from patchwork_opt.core.bitboard import CELLS, iter_bits
from solvers.bounds import best_sum_at_most


@dataclass(frozen=True, slots=True)
class Item:
    """One patch to pack: its area, value in the objective and button cost."""

    area: int
    value: int
    cost: int = 0


@dataclass(slots=True)
class DfsResult:
    value: int
    placements: list[tuple[int, int]] = field(default_factory=list)  # (slot, mask)
    exhausted: bool = False  # True: ``value`` is optimal
    nodes: int = 0


class _Stop(Exception):
    pass


def pack(
    free: int,
    items: Sequence[Item],
    placements: Sequence[Sequence[int]],
    *,
    upper: int,
    regions: Sequence[int] = (),
    incumbent: DfsResult | None = None,
    twins: Sequence[Sequence[int]] = (),
    budget: int | None = None,
    node_limit: int = 200_000,
    deadline: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> DfsResult:
    """Best packing of ``items`` (at most once each) into ``free`` cells.

    ``placements[slot]`` are the legal masks of each item inside ``free``; ``upper`` is a
    proven bound on the value (the search stops as soon as it is reached). ``regions``
    (disjoint masks covering ``free``, for instance its connected parts) set the cell order
    and the per-region bound; by default ``free`` is one region.
    """
    n = len(items)
    parts = sorted((r & free for r in regions if r & free), key=lambda r: (r.bit_count(), r & -r))
    covered_parts = 0
    for r in parts:
        covered_parts |= r
    if free & ~covered_parts:
        parts.append(free & ~covered_parts)
    # renumber the cells so that every region is a contiguous run of bits; one region keeps
    # the quilt's own (row-major) numbering, which spares renumbering every placement
    single = len(parts) == 1
    new_index = [-1] * CELLS
    starts: list[int] = []
    sizes: list[int] = []
    nxt = 0
    for r in parts:
        starts.append(nxt)
        sizes.append(r.bit_count())
        for index in iter_bits(r):
            new_index[index] = nxt
            nxt += 1

    def renumber(mask: int) -> int:
        if single:
            return mask
        out = 0
        for index in iter_bits(mask):
            out |= 1 << new_index[index]
        return out

    if single:
        region_of_mask = [free]
        start_open = free
        cell_slots = CELLS
    else:
        region_of_mask = [((1 << size) - 1) << start for start, size in zip(starts, sizes, strict=True)]
        start_open = (1 << nxt) - 1
        cell_slots = nxt
    by_low: list[list[list[tuple[int, int]]]] = [[[] for _ in range(cell_slots)] for _ in range(n)]
    renumbered: list[list[int]] = [[] for _ in range(n)]
    fits_region = [0] * len(parts)  # slots with a placement inside each region
    for slot, masks in enumerate(placements):
        for mask in masks:
            if mask & ~free:
                continue
            new = renumber(mask)
            by_low[slot][(new & -new).bit_length() - 1].append((new, mask))
            renumbered[slot].append(new)
            if single:
                fits_region[0] |= 1 << slot
                continue
            for k, rmask in enumerate(region_of_mask):
                if new & rmask == new:
                    fits_region[k] |= 1 << slot
    # larger items first: good packings are found early
    order = sorted(
        (s for s in range(n) if renumbered[s] and items[s].value > 0),
        key=lambda s: (-items[s].area, -items[s].value, s),
    )
    needs: dict[int, int] = {}  # slot -> twin that must already be used
    for group in twins:
        for before, after in itertools.pairwise(group):
            needs[after] = before
    areas_only = all(item.value == item.area for item in items)
    sums_cache: dict[int, int] = {}
    frac_order = sorted(order, key=lambda s: -items[s].value / items[s].area)

    def sums(unused: int) -> int:
        bits = sums_cache.get(unused)
        if bits is None:
            bits = 1
            rest = unused
            while rest:
                low = rest & -rest
                bits |= bits << items[low.bit_length() - 1].area
                rest ^= low
            sums_cache[unused] = bits
        return bits

    def bound(unused: int, open_cells: int, room: int) -> int:
        if areas_only:
            best = best_sum_at_most(sums(unused), room)
            if len(parts) > 1:
                by_region = 0
                for rmask, fit in zip(region_of_mask, fits_region, strict=True):
                    cells = (open_cells & rmask).bit_count()
                    if cells:
                        by_region += best_sum_at_most(sums(unused & fit), cells)
                        if by_region >= best:
                            break
                best = min(best, by_region)
            return best
        total = 0.0
        for s in frac_order:
            if unused >> s & 1:
                a = items[s].area
                if a <= room:
                    total += items[s].value
                    room -= a
                else:
                    total += items[s].value * room / a
                    break
        return int(total)

    # a placement of each slot known to fit: it keeps fitting in every larger set of open cells
    witness = [1 << CELLS] * n  # a bit off the quilt: no witness yet

    def refit(s: int, open_cells: int) -> bool:
        for new in renumbered[s]:
            if new & ~open_cells == 0:
                witness[s] = new
                return True
        return False

    best = incumbent if incumbent is not None else DfsResult(value=0)
    best_value = best.value
    best_list = list(best.placements)
    chosen: list[tuple[int, int]] = []
    nodes = 0
    all_unused = 0
    for s in order:
        all_unused |= 1 << s
    check_every = 64

    def dead_cells(open_cells: int, unused: int) -> tuple[int, int]:
        """(open cells no unused patch can still cover, the unused patches that still fit)."""
        cover = 0
        fitting = 0
        taken = ~open_cells
        rest = unused
        while rest:
            low_slot = rest & -rest
            rest ^= low_slot
            for new in renumbered[low_slot.bit_length() - 1]:
                if not new & taken:
                    cover |= new
                    fitting |= low_slot
        return open_cells & ~cover, fitting

    def search(open_cells: int, unused: int, value: int, spent: int, placed: bool = True) -> None:
        nonlocal best_value, best_list, nodes
        nodes += 1
        if nodes % check_every == 0 and (
            nodes >= node_limit
            or (deadline is not None and time.perf_counter() > deadline)
            or (stop is not None and stop())
        ):
            raise _Stop
        if value > best_value:
            best_value = value
            best_list = list(chosen)
            if best_value >= upper:
                raise _Stop
        if not open_cells or not unused:
            return
        room = open_cells.bit_count()
        if areas_only and value + best_sum_at_most(sums(unused), room) <= best_value:
            return
        # patches that no longer fit anywhere drop out of the bound (and of the branching);
        # after a placement, cells nothing can cover any more are left empty at once
        if placed:
            dead, unused = dead_cells(open_cells, unused)
            if dead:
                open_cells &= ~dead
                room = open_cells.bit_count()
                if not open_cells:
                    return
        else:
            fitting = 0
            rest = unused
            while rest:
                low_slot = rest & -rest
                rest ^= low_slot
                s = low_slot.bit_length() - 1
                if witness[s] & ~open_cells == 0 or refit(s, open_cells):
                    fitting |= low_slot
            unused = fitting
        if not unused or value + bound(unused, open_cells, room) <= best_value:
            return
        low = open_cells & -open_cells
        cell = low.bit_length() - 1
        taken = ~open_cells
        for s in order:
            if not unused >> s & 1:
                continue
            twin = needs.get(s)
            if twin is not None and unused >> twin & 1:
                continue
            item = items[s]
            if budget is not None and spent + item.cost > budget:
                continue
            for new, mask in by_low[s][cell]:
                if new & taken:
                    continue
                chosen.append((s, mask))
                search(open_cells & ~new, unused & ~(1 << s), value + item.value, spent + item.cost)
                chosen.pop()
        # leave the cell empty
        search(open_cells ^ low, unused, value, spent, False)

    exhausted = False
    try:
        if best_value < upper:
            search(start_open, all_unused, 0, 0)
        exhausted = True
    except _Stop:
        exhausted = best_value >= upper
    return DfsResult(value=best_value, placements=best_list, exhausted=exhausted, nodes=nodes)
