"""The pieces under the fill solver: symmetries, twins, area bounds, the search, stopping."""

from __future__ import annotations

import itertools

from patchwork_opt.core.bitboard import FULL, bit
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from patchwork_opt.core.clock import Deadline
from solvers.bounds import best_sum_at_most, fill_bounds, subset_sums, sums_list
from solvers.model import PlacementModel, SolveHandle, SolverConfig, SolveStatus
from solvers.search import PackingProblem, pack
from solvers.symmetry import SHAPE_TWINS, canonical_placements, quilt_symmetries, transform


def test_the_eight_symmetries_are_distinct_and_map_placements_to_placements() -> None:
    corner = bit(0, 1)
    images = {transform(corner, s) for s in range(8)}
    assert len(images) == 8
    for pid in (5, 9, 23):
        table = set(PLACEMENTS[pid])
        for mask in PLACEMENTS[pid][:20]:
            for s in range(8):
                assert transform(mask, s) in table
    assert quilt_symmetries(0) == tuple(range(8))
    assert quilt_symmetries(bit(0, 0)) == (0, 6)  # only the main diagonal keeps (0, 0)


def test_canonical_placements_meet_every_orbit() -> None:
    group = tuple(range(8))
    for pid in (0, 12, 22):
        canonical = canonical_placements(pid, group)
        assert 0 < len(canonical) < len(PLACEMENTS[pid])
        for mask in PLACEMENTS[pid]:
            assert any(transform(mask, s) in canonical for s in group)


def test_shape_twins_come_from_the_catalogue() -> None:
    assert len(SHAPE_TWINS) == 3
    for group in SHAPE_TWINS:
        for a, b in itertools.combinations(group, 2):
            assert set(PLACEMENTS[a]) == set(PLACEMENTS[b])
            assert PATCHES[a].area == PATCHES[b].area
    others = [p.id for p in PATCHES if not any(p.id in g for g in SHAPE_TWINS)]
    shapes = [frozenset(PLACEMENTS[pid]) for pid in others]
    assert len(set(shapes)) == len(shapes)


def test_subset_sum_helpers() -> None:
    bits = subset_sums([3, 5])
    assert sums_list(bits) == [0, 3, 5, 8]
    assert best_sum_at_most(bits, 7) == 5 and best_sum_at_most(bits, 2) == 0
    assert best_sum_at_most(bits, -1) == 0


def test_region_bound_is_tighter_than_area() -> None:
    # two separate 3-cell holes and two 3-cell patches that are both lines: each fits either hole
    quilt = FULL & ~(bit(0, 0) | bit(0, 1) | bit(0, 2) | bit(8, 6) | bit(8, 7) | bit(8, 8))
    bounds = fill_bounds(quilt, [1, 2])  # 3-line and 4-line: only the 3-line fits
    assert bounds.upper == 3 and len(bounds.regions) == 2


def test_search_stops_at_the_node_limit_with_a_consistent_incumbent() -> None:
    ids = [3, 7, 9, 14, 22, 23, 24, 8, 10, 11, 12, 13, 15, 16, 19, 20, 21]
    bounds = fill_bounds(0, ids)
    result = pack(PackingProblem(bounds.reachable, tuple(ids)), upper=81, node_limit=600)
    taken = 0
    for _slot, mask in result.placements:
        assert mask & taken == 0
        taken |= mask
    assert taken.bit_count() == result.value
    assert result.exhausted is False or result.value == 81


def test_a_stopped_handle_ends_the_solve_at_once() -> None:
    pm = PlacementModel(0, [3, 7, 9, 14, 22, 23])
    pm.maximize(pm.covered_cells())
    handle = SolveHandle()
    handle.stop()
    solution = pm.solve(SolverConfig(workers=1), Deadline.after(30), handle=handle)
    assert solution.status == SolveStatus.UNKNOWN and solution.wall_time < 5


def test_the_placement_model_has_one_variable_per_legal_placement_and_no_overlaps() -> None:
    quilt = bit(4, 4) | bit(0, 0)
    ids = [1, 5, 9]
    pm = PlacementModel(quilt, ids)
    for slot, pid in enumerate(ids):
        masks = [mask for mask, _ in pm.slots[slot]]
        assert masks == [m for m in PLACEMENTS[pid] if not m & quilt]
    assert pm.placement_count == sum(len(row) for row in pm.slots)
    assert not pm.by_cell[4 * 9 + 4] and not pm.by_cell[0]
    pm.maximize(pm.covered_cells())
    solution = pm.solve(SolverConfig(workers=1, seed=3), Deadline.after(20))
    assert solution.status == SolveStatus.OPTIMAL
    assert solution.objective == solution.bound == sum(PATCHES[p].area for p in ids)
    taken = quilt
    for placed in solution.placements:
        assert placed.mask in PLACEMENTS[placed.patch] and placed.mask & taken == 0
        taken |= placed.mask


def test_the_placement_model_refuses_bad_instances_with_typed_errors() -> None:
    import pytest

    from patchwork_opt.core.errors import DuplicatePatchError, UnknownPatchError
    from solvers.model import Instance

    with pytest.raises(DuplicatePatchError, match="patch 3 is listed twice"):
        PlacementModel(0, [3, 3])
    with pytest.raises(UnknownPatchError):
        PlacementModel(0, [40])
    with pytest.raises(ValueError, match="81-bit"):
        Instance.of(1 << 81, [1])
    assert Instance.of(5, [2, 1]).patch_ids == (2, 1)


def test_the_objective_domain_and_hint_are_honoured() -> None:
    # cap the covered cells below what fits: the optimum is the cap exactly when reachable
    ids = [0, 1, 2, 3]
    pm = PlacementModel(0, ids)
    total = sum(PATCHES[p].area for p in ids)
    pm.maximize(pm.covered_cells(), at_most=total - PATCHES[ids[0]].area)
    first = [(ids[1], PLACEMENTS[ids[1]][0])]
    pm.add_hint(first)
    solution = pm.solve(SolverConfig(workers=1, seed=1), Deadline.after(20))
    assert solution.status == SolveStatus.OPTIMAL
    assert solution.objective is not None and solution.objective <= total - PATCHES[ids[0]].area
    # an objective forced above what is possible is infeasible, and said so
    pm2 = PlacementModel(0, [1])
    pm2.maximize(pm2.covered_cells(), at_least=PATCHES[1].area + 1)
    assert pm2.solve(SolverConfig(workers=1, seed=1), Deadline.after(20)).status == SolveStatus.INFEASIBLE


def test_extra_booleans_are_numbered_after_the_placements() -> None:
    """Callers add their own Booleans (a 7x7 window chosen) and address them by index."""
    pm = PlacementModel(bit(0, 0) | bit(4, 4), [3, 12, 22, 30])
    first = pm.new_bools(5)
    assert first == pm.placement_count == sum(len(row) for row in pm.slots)
    assert pm.variable_count == len(pm.model.proto.variables) == pm.placement_count + 5
    # a forbidden extra Boolean and a required one: only the negation of the first satisfies both
    pm.forbid(first)
    pm.add_bool_or([first, first + 1])
    pm.maximize(pm.covered_cells())
    assert pm.solve(SolverConfig(workers=1, seed=1), Deadline.after(20)).status == SolveStatus.OPTIMAL
    pm.add_bool_or([first], enforce=[first + 1])
    assert pm.solve(SolverConfig(workers=1, seed=1), Deadline.after(20)).status == SolveStatus.INFEASIBLE
