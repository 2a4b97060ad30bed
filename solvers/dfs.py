"""A bitboard branch-and-bound packing search for small fills, in plain Python ints.

The search settles cells in row-major order: the lowest undecided empty cell is either
covered by a placement whose own lowest cell it is, or left empty. Every packing is reached
exactly once that way, so an exhausted search proves its incumbent optimal. A node is cut
when what it has plus the best the unused patches could still add (a subset sum of their
areas, or a fractional knapsack for other values, within the undecided cells) cannot beat
the incumbent. Patches sharing a shape and value are placed in slot order only.

The node limit and deadline make it a cheap first try: when it runs out the caller gets
the incumbent (a warm start) and hands the proof to CP-SAT.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from patchwork_opt.bitboard import CELLS

from solvers.areas import best_sum_at_most


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
    incumbent: DfsResult | None = None,
    twins: Sequence[Sequence[int]] = (),
    budget: int | None = None,
    node_limit: int = 200_000,
    deadline: float | None = None,
) -> DfsResult:
    """Best packing of ``items`` (at most once each) into ``free`` cells.

    ``placements[slot]`` are the legal masks of each item inside ``free``; ``upper`` is a
    proven bound on the value (the search stops as soon as it is reached).
    """
    n = len(items)
    by_low: list[list[list[int]]] = [[[] for _ in range(CELLS)] for _ in range(n)]
    for slot, masks in enumerate(placements):
        for mask in masks:
            if mask & ~free == 0:
                by_low[slot][(mask & -mask).bit_length() - 1].append(mask)
    # larger items first: good packings are found early
    order = sorted(
        (s for s in range(n) if placements[s] and items[s].value > 0),
        key=lambda s: (-items[s].area, -items[s].value, s),
    )
    needs: dict[int, int] = {}  # slot -> twin that must already be used
    for group in twins:
        for before, after in zip(group, group[1:]):
            needs[after] = before
    areas_only = all(item.value == item.area for item in items)
    sums_cache: dict[int, int] = {}
    frac_order = sorted(order, key=lambda s: -items[s].value / items[s].area)

    def bound(unused: int, cells: int) -> int:
        if areas_only:
            bits = sums_cache.get(unused)
            if bits is None:
                bits = 1
                rest = unused
                while rest:
                    low = rest & -rest
                    bits |= bits << items[low.bit_length() - 1].area
                    rest ^= low
                sums_cache[unused] = bits
            return best_sum_at_most(bits, cells)
        total = 0.0
        room = cells
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

    best = incumbent if incumbent is not None else DfsResult(value=0)
    best_value = best.value
    best_list = list(best.placements)
    chosen: list[tuple[int, int]] = []
    nodes = 0
    all_unused = 0
    for s in order:
        all_unused |= 1 << s
    check_every = 2048

    def search(open_cells: int, unused: int, value: int, spent: int) -> None:
        nonlocal best_value, best_list, nodes
        nodes += 1
        if nodes % check_every == 0 and (
            nodes >= node_limit or (deadline is not None and time.perf_counter() > deadline)
        ):
            raise _Stop
        if value > best_value:
            best_value = value
            best_list = list(chosen)
            if best_value >= upper:
                raise _Stop
        if not open_cells or not unused:
            return
        if value + bound(unused, open_cells.bit_count()) <= best_value:
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
            for mask in by_low[s][cell]:
                if mask & taken:
                    continue
                chosen.append((s, mask))
                search(open_cells & ~mask, unused & ~(1 << s), value + item.value, spent + item.cost)
                chosen.pop()
        # leave the cell empty
        search(open_cells ^ low, unused, value, spent)

    exhausted = False
    try:
        if best_value < upper:
            search(free, all_unused, 0, 0)
        exhausted = True
    except _Stop:
        exhausted = best_value >= upper
    return DfsResult(value=best_value, placements=best_list, exhausted=exhausted, nodes=nodes)
