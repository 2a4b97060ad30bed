"""The packing search under a button budget: the cost bound of a cover and the transposition
table (which keeps the buttons spent on reaching a state) only cut, never lose an answer."""

from __future__ import annotations

import random

import pytest
from conftest import assert_covers
from test_fastpack import _can_cover, assert_valid, packer_for, points_values
from test_fill import exhaustive, small_instances

from patchwork_opt.core.bitboard import FULL
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from solvers.search import Packer, PackingProblem


@pytest.mark.parametrize("quilt,ids", small_instances(10, seed=41))
def test_a_table_under_a_budget_keeps_the_exhaustive_optimum(quilt: int, ids: list[int]) -> None:
    for budget in (3, 6, 9):
        packer, _ = packer_for(quilt, ids, budget=budget)
        packer.use_table(6)  # small: collisions overwrite entries, which must stay correct
        result = packer.run(slice_nodes=50)
        assert result.exhausted
        assert result.value == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area, budget=budget)
        assert_valid(result, quilt, ids, budget=budget)


@pytest.mark.parametrize("quilt,ids", small_instances(8, seed=43))
def test_values_under_a_budget_with_a_table_give_the_exhaustive_optimum(quilt: int, ids: list[int]) -> None:
    values = points_values(random.Random(quilt % 991), ids)
    worth = dict(zip(ids, values, strict=True))
    packer, _ = packer_for(quilt, ids, budget=5, values=values)
    packer.use_table(8)
    result = packer.run()
    assert result.exhausted
    assert result.value == exhaustive(quilt, ids, lambda pid: worth[pid], budget=5)
    assert_valid(result, quilt, ids, budget=5, values=values)


def test_covers_under_a_budget_are_exact_with_the_cost_bound_and_a_table() -> None:
    outcomes = set()
    for seed in range(60):
        rng = random.Random(1000 + seed)
        ids = rng.sample(range(33), rng.randint(3, 5))
        need = 0
        for pid in rng.sample(range(33), 2):
            need |= rng.choice(PLACEMENTS[pid])
        around = 0
        for _ in range(12):
            around |= 1 << rng.randrange(81)
        quilt = FULL & ~need & ~around
        budget = rng.randint(0, 12)
        expected = _can_cover(quilt, need, ids, budget)
        for bits in (0, 6):
            packer = Packer(PackingProblem(FULL & ~quilt, tuple(ids), budget=budget, cover=need), table_bits=bits)
            found = packer.run(slice_nodes=20)
            assert found.exhausted and found.covered is expected, (seed, bits)
            if found.covered:
                assert_covers(quilt, need, ids, found.placements)
                assert sum(PATCHES[ids[s]].cost for s, _ in found.placements) <= budget
        outcomes.add(expected)
    assert outcomes == {True, False}


def test_the_cost_bound_proves_a_hopeless_budget_at_the_root() -> None:
    # a whole 7x7 square on an empty quilt with 11 patches: every 49 cells cost 50 buttons at least
    window = sum(1 << (r * 9 + c) for r in range(7) for c in range(7))
    found = Packer(PackingProblem(FULL, tuple(range(11)), budget=10, cover=window)).run()
    assert found.exhausted and found.covered is False and found.nodes == 1
