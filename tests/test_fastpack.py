"""The one packing search: exact on small instances for areas, values, a button budget and
cells to cover; resumable, with a transposition table that only cuts."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import assert_covers
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fill import exhaustive, small_instances

from patchwork_opt.bench.fill import random_instance
from patchwork_opt.core.bitboard import CELLS, FULL, regions
from patchwork_opt.core.bitwords import join, split
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS, is_placement, legal_placements
from solvers.bounds import fill_bounds
from solvers.search import Packer, PackingProblem, PackResult, pack
from solvers.search.fastpack import cells


def packer_for(
    quilt: int, ids: list[int], budget: int | None = None, values: tuple[int, ...] | None = None
) -> tuple[Packer, int]:
    bounds = fill_bounds(quilt, ids)
    regions = [region.mask for region in bounds.regions]
    problem = PackingProblem(bounds.reachable, tuple(ids), values, budget)
    packer = Packer(problem, upper=bounds.upper if values is None else None, regions=regions)
    return packer, bounds.upper


def assert_valid(
    result: PackResult, quilt: int, ids: list[int], budget: int | None = None, values: tuple[int, ...] | None = None
) -> None:
    taken = quilt
    slots = set()
    for slot, mask in result.placements:
        assert slot not in slots and is_placement(ids[slot], mask) and mask & taken == 0
        slots.add(slot)
        taken |= mask
    worth = [PATCHES[pid].area for pid in ids] if values is None else values
    assert sum(worth[s] for s in slots) == result.value
    if budget is not None:
        assert sum(PATCHES[ids[s]].cost for s in slots) <= budget


@pytest.mark.parametrize("quilt,ids", small_instances(12, seed=21))
def test_the_compiled_search_proves_the_exhaustive_optimum(quilt: int, ids: list[int]) -> None:
    packer, _ = packer_for(quilt, ids)
    result = packer.run()
    assert result.exhausted
    assert result.value == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area)
    assert_valid(result, quilt, ids)


@pytest.mark.parametrize("quilt,ids", small_instances(6, seed=22))
def test_the_button_budget_is_respected_and_optimal(quilt: int, ids: list[int]) -> None:
    packer, _ = packer_for(quilt, ids, budget=5)
    packer.use_table(8)  # under a budget the table keys on the buttons spent too
    result = packer.run()
    assert result.exhausted
    assert result.value == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area, budget=5)
    assert_valid(result, quilt, ids, budget=5)


def points_values(rng: random.Random, ids: list[int]) -> tuple[int, ...]:
    """What ``--objective points`` is worth per patch (2 a cell, income times marks, minus
    cost), with the marks drawn; some patches are worth nothing or less."""
    marks = rng.randint(0, 9)
    return tuple(2 * PATCHES[p].area + PATCHES[p].income * marks - PATCHES[p].cost - rng.randint(0, 6) for p in ids)


@pytest.mark.parametrize("quilt,ids", small_instances(16, seed=24))
def test_values_other_than_areas_give_the_exhaustive_optimum(quilt: int, ids: list[int]) -> None:
    rng = random.Random(quilt % 1000)
    values = points_values(rng, ids)
    worth = dict(zip(ids, values, strict=True))
    packer, _ = packer_for(quilt, ids, values=values)
    packer.use_table(8)
    result = packer.run(slice_nodes=100)
    assert result.exhausted
    assert result.value == exhaustive(quilt, ids, lambda pid: worth[pid])
    assert_valid(result, quilt, ids, values=values)


@pytest.mark.parametrize("quilt,ids", small_instances(8, seed=25))
def test_values_under_a_button_budget_give_the_exhaustive_optimum(quilt: int, ids: list[int]) -> None:
    values = points_values(random.Random(quilt % 997), ids)
    worth = dict(zip(ids, values, strict=True))
    packer, _ = packer_for(quilt, ids, budget=4, values=values)
    result = packer.run()
    assert result.exhausted
    assert result.value == exhaustive(quilt, ids, lambda pid: worth[pid], budget=4)
    assert_valid(result, quilt, ids, budget=4, values=values)


def _can_cover(taken: int, need: int, ids: list[int], budget: int = 10**6) -> bool:
    """Every way of placing or skipping each patch (within the budget): does one cover all of ``need``?"""
    if not need & ~taken:
        return True
    if not ids:
        return False
    head, rest = ids[0], ids[1:]
    if _can_cover(taken, need, rest, budget):
        return True
    cost = PATCHES[head].cost
    return cost <= budget and any(
        _can_cover(taken | m, need, rest, budget - cost) for m in legal_placements(head, taken)
    )


def test_cells_to_cover_are_covered_exactly_when_some_cover_exists() -> None:
    outcomes = set()
    for seed in range(40):
        rng = random.Random(seed)
        ids = rng.sample(range(33), rng.randint(2, 4))
        # cells to cover shaped like some of the patches (or others), free cells around them
        need = 0
        for pid in rng.sample(range(33), 2):
            need |= rng.choice(PLACEMENTS[pid])
        around = 0
        for _ in range(10):
            around |= 1 << rng.randrange(81)
        quilt = FULL & ~need & ~around
        found = pack(PackingProblem(FULL & ~quilt, tuple(ids), cover=need))
        assert found.exhausted and found.covered is _can_cover(quilt, need, ids), seed
        budget = rng.randint(2, 8)
        capped = pack(PackingProblem(FULL & ~quilt, tuple(ids), budget=budget, cover=need))
        assert capped.exhausted and capped.covered is _can_cover(quilt, need, ids, budget), seed
        if found.covered:
            assert_covers(quilt, need, ids, found.placements)
        outcomes.add(found.covered)
    assert outcomes == {True, False}


def test_a_cover_may_spill_outside_the_cells_to_cover_but_not_past_the_budget() -> None:
    # two free cells to cover in a row of five free cells: only the 1x3 (cost 3) and the
    # 1x4 patch (cost 3) are offered, each must spill onto the free cells beside
    free = 0b11111
    need = 0b00110
    assert pack(PackingProblem(free, (1, 2), cover=need)).covered is True
    assert pack(PackingProblem(need, (1, 2), cover=need)).covered is False  # no room to spill
    costs = sorted(PATCHES[p].cost for p in (1, 2))
    assert pack(PackingProblem(free, (1, 2), budget=costs[0] - 1, cover=need)).covered is False


def test_a_problem_that_cannot_be_stated_is_refused() -> None:
    with pytest.raises(ValueError):
        PackingProblem(0b11, (0, 1), values=(1,))
    with pytest.raises(ValueError):
        PackingProblem(0b11, (0,), cover=0b100)
    with pytest.raises(ValueError):
        PackingProblem(0b11, (0,), budget=-1)


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_the_transposition_table_keeps_the_optimum_and_only_cuts(seed: int) -> None:
    rng = random.Random(seed)
    quilt, ids = random_instance(rng, 10, rng.uniform(0.15, 0.35))
    plain, _ = packer_for(quilt, ids)
    without = plain.run()
    tabled, _ = packer_for(quilt, ids)
    tabled.use_table(10)  # small: collisions overwrite entries, which must stay correct
    with_table = tabled.run()
    assert without.exhausted and with_table.exhausted
    assert with_table.value == without.value and with_table.nodes <= without.nodes
    assert_valid(with_table, quilt, ids)


@pytest.mark.parametrize("quilt,ids", small_instances(8, seed=23))
def test_with_a_table_the_search_still_proves_the_exhaustive_optimum(quilt: int, ids: list[int]) -> None:
    packer, _ = packer_for(quilt, ids)
    packer.use_table(8)
    result = packer.run(slice_nodes=50)
    assert result.exhausted
    assert result.value == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area)
    assert_valid(result, quilt, ids)


def test_it_resumes_where_it_stopped() -> None:
    rng = random.Random(8)
    quilt, ids = random_instance(rng, 11, 0.3)
    whole, _ = packer_for(quilt, ids)
    at_once = whole.run()
    sliced, _ = packer_for(quilt, ids)
    steps = 0
    while not sliced.finished:
        partial = sliced.run(node_limit=37, slice_nodes=10)
        assert partial.value <= at_once.value
        steps += 1
    final = sliced.result()
    assert steps > 1 and final.exhausted
    assert (final.value, final.nodes) == (at_once.value, at_once.nodes)


def test_it_stops_at_once_when_the_bound_is_reached_or_the_incumbent_meets_it() -> None:
    quilt = FULL & ~0b1111  # four cells in a row
    result = Packer(PackingProblem(0b1111, (1,)), upper=3).run()  # patch 1 is a 1x3 line
    assert result.exhausted and result.value == 3
    given = PackResult(value=3, placements=[(0, 0b111)])
    met = Packer(PackingProblem(0b1111, (1,)), upper=3, incumbent=given).run()
    assert met.exhausted and met.placements == [(0, 0b111)] and met.nodes == 0
    assert is_placement(1, 0b111) and quilt & 0b111 == 0


def test_a_larger_table_keeps_the_entries_of_the_smaller_one() -> None:
    rng = random.Random(3)
    quilt, ids = random_instance(rng, 11, rng.uniform(0.2, 0.35))  # about 10,000 nodes
    plain, _ = packer_for(quilt, ids)
    optimum = plain.run()
    grown, _ = packer_for(quilt, ids)
    grown.use_table(8)
    first = grown.run(node_limit=2_000, slice_nodes=500)
    assert not first.exhausted
    stored = int(np.count_nonzero(grown._memo.unused))
    grown.use_table(12)
    # a key's slot in the larger table extends its slot in the smaller one: nothing collides
    assert int(np.count_nonzero(grown._memo.unused)) == stored > 0
    assert grown.run().value == optimum.value


def test_twins_of_different_cost_are_both_tried_under_a_budget() -> None:
    # patches 25 and 26 share a shape but cost 3 and 1: with 1 button only the second may cover
    assert set(PLACEMENTS[25]) == set(PLACEMENTS[26])
    assert (PATCHES[25].cost, PATCHES[26].cost) == (3, 1)
    hole = PLACEMENTS[25][0]
    assert pack(PackingProblem(hole, (25, 26), budget=1, cover=hole)).covered is True
    assert pack(PackingProblem(hole, (25, 26), budget=0, cover=hole)).covered is False
    best = pack(PackingProblem(hole, (25, 26), budget=1))
    assert best.exhausted and best.value == 3 and [s for s, _ in best.placements] == [1]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=FULL), st.integers(min_value=0, max_value=CELLS - 1))
def test_the_search_reads_cells_as_the_bitboard_does(quilt: int, cell: int) -> None:
    """The packing search's cells on ``core.bitwords``' words: its connected parts (the pockets it
    bounds one by one, lowest cell first), the lowest cell (the one a node settles) and a cell left
    empty are the bitboard's."""
    lo, hi = split(quilt)
    comp_lo = np.zeros(CELLS, dtype=np.int64)
    comp_hi = np.zeros(CELLS, dtype=np.int64)
    count = cells.components(lo, hi, comp_lo, comp_hi)
    parts = [join(comp_lo[c], comp_hi[c]) for c in range(count)]
    assert sorted(parts) == sorted(regions(quilt))
    assert parts == sorted(parts, key=lambda m: m & -m)
    if quilt:
        lowest = (quilt & -quilt).bit_length() - 1
        assert cells.lowest_cell(lo, hi) == lowest
        assert cells.lowest_cells(np.array([lo]), np.array([hi])).tolist() == [lowest]
    assert join(*cells.without_cell(lo, hi, cell)) == quilt & ~(1 << cell)
    words = np.array([split(quilt)], dtype=np.int64)
    assert cells.popcount_array(words[:, 0]) + cells.popcount_array(words[:, 1]) == [quilt.bit_count()]
