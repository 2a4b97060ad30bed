"""The compiled packing search: exact on small instances, the same search as ``solvers.search.dfs``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_fill import exhaustive, small_instances

from patchwork_opt.core.bitboard import FULL
from patchwork_opt.core.catalogue import PATCHES, is_placement
from solvers.bench.fill import random_instance
from solvers.bounds import fill_bounds
from solvers.search.dfs import DfsResult, Item, pack
from solvers.search.fastpack import FastPacker
from solvers.symmetry import interchangeable_groups


def packer_for(quilt: int, ids: list[int], budget: int | None = None) -> tuple[FastPacker, int]:
    bounds = fill_bounds(quilt, ids)
    regions = [region.mask for region in bounds.regions]
    packer = FastPacker(
        bounds.reachable, ids, upper=bounds.upper, regions=regions, twins=interchangeable_groups(ids), budget=budget
    )
    return packer, bounds.upper


def assert_valid(result: DfsResult, quilt: int, ids: list[int], budget: int | None = None) -> None:
    taken = quilt
    slots = set()
    for slot, mask in result.placements:
        assert slot not in slots and is_placement(ids[slot], mask) and mask & taken == 0
        slots.add(slot)
        taken |= mask
    assert sum(PATCHES[ids[s]].area for s in slots) == result.value
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
    packer.use_table(8)  # not used under a budget: equal states may have spent differently
    result = packer.run()
    assert result.exhausted
    assert result.value == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area, budget=5)
    assert_valid(result, quilt, ids, budget=5)


def test_it_agrees_with_the_python_search() -> None:
    """The Python search's cuts plus a bound per connected part of the open cells, and the
    smallest part first: the same optimum (the node counts differ either way by the order)."""
    for seed in (3, 5, 6, 10, 13):
        rng = random.Random(seed)
        quilt, ids = random_instance(rng, 9, rng.uniform(0.15, 0.35))
        bounds = fill_bounds(quilt, ids)
        regions = [region.mask for region in bounds.regions]
        twins = interchangeable_groups(ids)
        items = [Item(area=PATCHES[p].area, value=PATCHES[p].area) for p in ids]
        slow = pack(bounds.reachable, items, bounds.placements, upper=bounds.upper, regions=regions, twins=twins,
                    node_limit=10**7)
        fast = FastPacker(bounds.reachable, ids, upper=bounds.upper, regions=regions, twins=twins).run()
        assert slow.exhausted and fast.exhausted
        assert fast.value == slow.value
        assert_valid(fast, quilt, ids)


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
    result = FastPacker(0b1111, [1], upper=3).run()  # patch 1 is a 1x3 line
    assert result.exhausted and result.value == 3
    given = DfsResult(value=3, placements=[(0, 0b111)])
    met = FastPacker(0b1111, [1], upper=3, incumbent=given).run()
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
    stored = int(np.count_nonzero(grown._tt_unused))
    grown.use_table(12)
    # a key's slot in the larger table extends its slot in the smaller one: nothing collides
    assert int(np.count_nonzero(grown._tt_unused)) == stored > 0
    assert grown.run().value == optimum.value
