"""Optimal fill against an exhaustive search written here, plus the guarantees users rely on."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, bit, neighbours
from patchwork_opt.core.catalogue import PATCHES, is_placement, legal_placements
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import DuplicatePatchError, PatchworkError, UnknownPatchError
from patchwork_opt.core.lookup import parse_patch_ids
from solvers.fill import FillResult, optimal_fill
from solvers.model import SolverConfig, SolveStatus

CONFIG = SolverConfig(workers=1, seed=0)


def in_time() -> Deadline:
    """A deadline with time to settle every question here (20 s from now)."""
    return Deadline.after(20.0)


def blob(rng: random.Random, size: int, start: tuple[int, int] = (4, 4)) -> int:
    """A random connected set of ``size`` cells grown from ``start``."""
    mask = bit(*start)
    while mask.bit_count() < size:
        frontier = neighbours(mask)
        cells = [i for i in range(81) if frontier >> i & 1]
        mask |= 1 << rng.choice(cells)
    return mask


def exhaustive(
    quilt: int, ids: Sequence[int], value: Callable[[int], int], budget: int | None = None
) -> int:
    """Best total value over every subset and every placement: the plain definition."""
    options = [legal_placements(pid, quilt) for pid in ids]
    best = 0

    def go(i: int, taken: int, total: int, cost: int) -> None:
        nonlocal best
        best = max(best, total)
        if i == len(ids):
            return
        go(i + 1, taken, total, cost)
        pid = ids[i]
        if budget is not None and cost + PATCHES[pid].cost > budget:
            return
        for mask in options[i]:
            if not mask & taken:
                go(i + 1, taken | mask, total + value(pid), cost + PATCHES[pid].cost)

    go(0, quilt, 0, 0)
    return best


def check_valid(result: FillResult, quilt: int, ids: Sequence[int]) -> None:
    """Placements are real placements of listed patches, each once, on empty cells, disjoint."""
    taken = quilt
    seen = set()
    for placed in result.placements:
        assert placed.patch in ids and placed.patch not in seen
        seen.add(placed.patch)
        assert is_placement(placed.patch, placed.mask)
        assert placed.mask & taken == 0
        taken |= placed.mask
    assert result.covered == taken.bit_count()
    assert result.empty == 81 - taken.bit_count()
    if result.objective is not None:
        assert result.objective <= result.bound


def small_instances(count: int, seed: int) -> list[tuple[int, list[int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        hole = blob(rng, rng.randint(9, 15))
        if rng.random() < 0.4:  # a second, separate region
            hole |= blob(rng, rng.randint(3, 6), start=(0, 0)) & ~neighbours(hole)
        ids = sorted(rng.sample(range(33), rng.randint(3, 5)))
        out.append((FULL & ~hole, ids))
    return out


@pytest.mark.parametrize("quilt,ids", small_instances(14, seed=7))
def test_cells_matches_exhaustive_search(quilt: int, ids: list[int]) -> None:
    result = optimal_fill(quilt, ids, deadline=in_time(), config=CONFIG)
    assert result.optimal and result.status == SolveStatus.OPTIMAL
    assert result.objective == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area)
    assert result.objective == result.placed_cells == result.bound
    check_valid(result, quilt, ids)


@pytest.mark.parametrize("quilt,ids", small_instances(8, seed=11))
def test_points_and_budget_match_exhaustive_search(quilt: int, ids: list[int]) -> None:
    marks = 3

    def points(pid: int) -> int:
        p = PATCHES[pid]
        return 2 * p.area + p.income * marks - p.cost

    result = optimal_fill(quilt, ids, objective="points", marks=marks, deadline=in_time(), config=CONFIG)
    assert result.optimal
    assert result.objective == exhaustive(quilt, ids, points)
    check_valid(result, quilt, ids)
    budget = 5
    capped = optimal_fill(quilt, ids, budget=budget, deadline=in_time(), config=CONFIG)
    assert capped.optimal
    assert capped.cost <= budget
    assert capped.objective == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area, budget=budget)
    check_valid(capped, quilt, ids)


def test_symmetric_quilt_and_twins_lose_no_optimum() -> None:
    # a hole with all 8 symmetries of the square, and two pairs of same-shape patches
    hole = 0
    for r in range(9):
        for c in range(9):
            if abs(r - 4) + abs(c - 4) <= 2:
                hole |= bit(r, c)
    quilt = FULL & ~hole
    ids = [17, 18, 25, 26, 13]
    result = optimal_fill(quilt, ids, deadline=in_time(), config=CONFIG)
    assert result.optimal
    assert result.objective == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area)
    check_valid(result, quilt, ids)


def test_cp_sat_path_with_symmetry_breaking_matches_exhaustive_search() -> None:
    # force the CP-SAT model (with twins, symmetry chain and hint) on a symmetric quilt
    from solvers.bounds import fill_bounds
    from solvers.fill_cp_sat import solve_fill_model
    from solvers.symmetry import interchangeable_groups

    hole = 0
    for r in range(2, 7):
        for c in range(2, 7):
            if (r, c) != (4, 4):
                hole |= bit(r, c)
    quilt = FULL & ~hole
    ids = [25, 26, 27, 28, 10, 1]
    bounds = fill_bounds(quilt, ids)
    values = [PATCHES[pid].area for pid in ids]
    status, value, bound, placed = solve_fill_model(
        quilt, ids, values, bounds, bounds.upper, budget=None, require_bonus=False,
        twins=interchangeable_groups(ids), hint=[], config=CONFIG, deadline=in_time(),
    )
    assert status == SolveStatus.OPTIMAL
    assert value == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area) == bound
    taken = quilt
    for slot, mask in placed:
        assert is_placement(ids[slot], mask) and mask & taken == 0
        taken |= mask


def test_require_bonus_completes_a_square_or_proves_it_cannot() -> None:
    hole = 0
    for c in range(2, 7):
        hole |= bit(3, c) | bit(4, c)  # a 2x5 hole inside every window
    quilt = FULL & ~hole
    done = optimal_fill(quilt, [8, 5, 0, 1], require_bonus=True, deadline=in_time(), config=CONFIG)
    assert done.status == SolveStatus.OPTIMAL and done.bonus_window is not None
    final = quilt
    for placed in done.placements:
        final |= placed.mask
    assert any(final & w == w for w in WINDOW_MASKS)
    check_valid(done, quilt, [8, 5, 0, 1])
    # area 9 can never cover 10 cells
    refused = optimal_fill(quilt, [0, 10, 25], require_bonus=True, deadline=in_time(), config=CONFIG)
    assert refused.status == SolveStatus.INFEASIBLE and refused.objective is None
    assert not refused.optimal and refused.placements == []


def test_time_limit_gives_best_found_with_a_bound() -> None:
    # a loose instance that is hard to prove: whatever comes back must be consistent
    ids = list(range(0, 33, 2))
    result = optimal_fill(0, ids, deadline=Deadline.after(1.0), config=CONFIG)
    assert result.wall_time < 6.0
    assert result.objective is not None and result.objective <= result.bound <= 81
    if result.optimal:
        assert result.objective == result.bound
    check_valid(result, 0, ids)


def test_a_short_time_limit_stops_both_searches() -> None:
    # each of the two searches alone needs over a second on this quilt (1.4 M nodes)
    from solvers.search.fastpack import warm_up

    warm_up()  # loading the compiled search must not eat the limit: the race has to run
    quilt, ids = 2116247590008279011541056, [0, 2, 4, 5, 6, 12, 13, 15, 23, 26, 29, 30, 32]
    result = optimal_fill(quilt, ids, deadline=Deadline.after(0.2), config=CONFIG)
    assert result.wall_time < 0.9
    assert not result.optimal and result.objective is not None and result.objective <= result.bound
    check_valid(result, quilt, ids)


def test_progress_reports_never_exceed_the_bound() -> None:
    seen: list[tuple[float | None, float]] = []
    result = optimal_fill(
        0, [3, 7, 9, 14, 22, 23, 24], deadline=in_time(), config=CONFIG,
        progress=lambda best, bound, _: seen.append((best, bound)),
    )
    assert seen
    assert all(best is None or best <= bound for best, bound in seen)
    # every patch fits on an empty quilt
    assert result.optimal and result.objective == sum(PATCHES[p].area for p in [3, 7, 9, 14, 22, 23, 24])


def test_bad_input_is_a_one_line_domain_error() -> None:
    with pytest.raises(DuplicatePatchError, match="listed twice"):
        optimal_fill(0, [1, 2, 1], deadline=in_time())
    with pytest.raises(UnknownPatchError):
        optimal_fill(0, [1, 33], deadline=in_time())
    with pytest.raises(PatchworkError, match="objective"):
        optimal_fill(0, [1], objective="score", deadline=in_time())  # type: ignore[arg-type]
    with pytest.raises(PatchworkError, match="budget"):
        optimal_fill(0, [1], budget=-1, deadline=in_time())
    assert parse_patch_ids("1, 2,5") == [1, 2, 5]
    for bad in ("1,x", "", "1,-2", "7,7"):
        with pytest.raises(PatchworkError):
            parse_patch_ids(bad)
    assert DuplicatePatchError("x").exit_code == 2


@pytest.mark.parametrize("quilt,ids", small_instances(6, seed=5))
def test_cp_sat_model_alone_matches_exhaustive_search(quilt: int, ids: list[int]) -> None:
    from solvers.bounds import fill_bounds
    from solvers.fill_cp_sat import solve_fill_model
    from solvers.symmetry import interchangeable_groups

    bounds = fill_bounds(quilt, ids)
    values = [PATCHES[pid].area for pid in ids]
    status, value, bound, _ = solve_fill_model(
        quilt, ids, values, bounds, bounds.upper, budget=4, require_bonus=False,
        twins=interchangeable_groups(ids), hint=[], config=CONFIG, deadline=in_time(),
    )
    assert status == SolveStatus.OPTIMAL
    assert value == bound == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area, budget=4)


@pytest.mark.parametrize("quilt,ids", [inst for inst in small_instances(40, seed=13) if inst[0] & 1 == 0][:6])
def test_region_caps_are_exact_for_the_smaller_regions_and_bound_the_fill(quilt: int, ids: list[int]) -> None:

    from solvers.bounds import fill_bounds
    from solvers.fill import region_caps

    bounds = fill_bounds(quilt, ids)
    caps = region_caps(bounds, ids, Deadline.after(30))
    assert len(caps) == len(bounds.regions)
    largest = max(range(len(caps)), key=lambda k: bounds.regions[k].size, default=-1)
    for k, (region, cap) in enumerate(zip(bounds.regions, caps, strict=True)):
        # the region alone: every other empty cell treated as covered
        alone = exhaustive(FULL & ~region.mask, ids, lambda pid: PATCHES[pid].area)
        if k == largest:
            assert cap == region.best >= alone  # the largest keeps its area bound
        else:
            assert cap == alone
    best = exhaustive(quilt, ids, lambda pid: PATCHES[pid].area)
    assert best <= sum(caps)
    result = optimal_fill(quilt, ids, deadline=in_time(), config=CONFIG)
    assert result.optimal and result.objective == best <= result.bound
    # the caps as CP-SAT constraints, with the bound as the objective's domain, lose nothing
    from solvers.fill_cp_sat import solve_fill_model
    from solvers.symmetry import interchangeable_groups

    upper = min(bounds.upper, sum(caps))
    status, value, bound, _ = solve_fill_model(
        quilt, ids, [PATCHES[pid].area for pid in ids], bounds, upper, budget=None, require_bonus=False,
        twins=interchangeable_groups(ids), hint=[], config=CONFIG, deadline=in_time(), region_caps=caps,
    )
    assert status == SolveStatus.OPTIMAL and value == bound == best


class _Stalled:
    """Patches the ``Packer`` of ``solvers.fill`` and of its races so that chosen searches never
    get anywhere (they are stopped from the start): what is left must settle the fill on its own."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, stall: Callable[[int], bool]) -> None:
        import solvers.fill as fill
        import solvers.fill_races as fill_races
        from solvers.search import Packer

        made: list[Packer] = []

        class Stalled(Packer):
            def __init__(self, *args: object, **kwargs: object) -> None:
                super().__init__(*args, **kwargs)  # type: ignore[arg-type]
                made.append(self)
                if stall(len(made)):
                    self.request_stop()

        monkeypatch.setattr(fill, "Packer", Stalled)
        monkeypatch.setattr(fill_races, "Packer", Stalled)
        self.made = made


def test_the_search_on_the_turned_quilt_settles_fills_on_the_real_quilt(monkeypatch: pytest.MonkeyPatch) -> None:
    # the search on the quilt as it is (made first) never moves: the turned one must answer,
    # its placements mapped back onto the quilt as it is
    stalled = _Stalled(monkeypatch, lambda made: made == 1)
    methods = []
    for quilt, ids in small_instances(8, seed=17):
        stalled.made.clear()
        result = optimal_fill(quilt, ids, deadline=in_time(), config=CONFIG)
        assert result.optimal and result.objective == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area)
        check_valid(result, quilt, ids)
        methods.append(result.method)
    assert set(methods) <= {"dfs", "bounds"} and methods.count("dfs") >= 4


def test_cp_sat_takes_over_when_neither_search_settles_the_fill(monkeypatch: pytest.MonkeyPatch) -> None:
    _Stalled(monkeypatch, lambda made: True)
    methods = []
    for quilt, ids in small_instances(6, seed=19):
        result = optimal_fill(quilt, ids, deadline=in_time(), config=CONFIG)
        assert result.optimal and result.objective == exhaustive(quilt, ids, lambda pid: PATCHES[pid].area)
        check_valid(result, quilt, ids)
        methods.append(result.method)
    assert set(methods) <= {"cp-sat", "bounds"} and methods.count("cp-sat") >= 3


def _points(marks: int) -> Callable[[int], int]:
    def points(pid: int) -> int:
        p = PATCHES[pid]
        return 2 * p.area + p.income * marks - p.cost

    return points


def test_points_under_a_budget_are_settled_by_the_compiled_search() -> None:
    methods = []
    for quilt, ids in small_instances(8, seed=29):
        result = optimal_fill(quilt, ids, objective="points", marks=3, budget=6, deadline=in_time(), config=CONFIG)
        assert result.optimal and result.cost <= 6
        assert result.objective == exhaustive(quilt, ids, _points(3), budget=6)
        check_valid(result, quilt, ids)
        methods.append(result.method)
    assert set(methods) <= {"dfs", "bounds", "cp-sat"} and methods.count("dfs") >= 4


def test_points_fall_back_on_cp_sat_when_the_search_settles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    _Stalled(monkeypatch, lambda made: True)
    for quilt, ids in small_instances(4, seed=31):
        result = optimal_fill(quilt, ids, objective="points", marks=6, deadline=in_time(), config=CONFIG)
        assert result.optimal and result.method in ("cp-sat", "bounds")
        assert result.objective == exhaustive(quilt, ids, _points(6))
        check_valid(result, quilt, ids)


@pytest.mark.parametrize(("objective", "require_bonus"), [("cells", False), ("points", False), ("cells", True)])
def test_a_stop_signal_ends_the_solve_early_with_a_valid_answer(objective: str, require_bonus: bool) -> None:
    """What the web service does when the client has gone: every search and CP-SAT run stops."""
    import threading

    from patchwork_opt.core.stop import StopSignal
    from solvers.search.fastpack import warm_up

    warm_up()
    quilt, ids = 2116247590008279011541056, [0, 2, 4, 5, 6, 12, 13, 15, 23, 26, 29, 30, 32]
    stop = StopSignal()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    result = optimal_fill(
        quilt, ids, objective=objective, require_bonus=require_bonus,  # type: ignore[arg-type]
        deadline=Deadline.after(60.0), config=CONFIG, stop=stop,
    )
    timer.cancel()
    assert result.wall_time < 2.0  # unstopped, each of these takes over 3 s (cells 3.5 s, points 8 s, bonus 60 s)
    if result.objective is not None:
        assert result.objective <= result.bound
        check_valid(result, quilt, ids)


# --- the best fill of another choice of patches (``exclude_sets``) ---------------------------------


def best_other_choice(quilt: int, ids: Sequence[int], value: Callable[[int], int], excluded: Sequence[set[int]],
                      budget: int | None = None, require_bonus: bool = False) -> int | None:
    """The best value over every fill whose patches worth something are none of ``excluded`` (and
    that completes a 7x7 square when asked); None when no fill is left: the plain definition."""
    options = [legal_placements(pid, quilt) for pid in ids]
    best: int | None = None

    def go(i: int, taken: int, total: int, cost: int, used: frozenset[int]) -> None:
        nonlocal best
        if i == len(ids):
            worth = {pid for pid in used if value(pid) > 0}
            if worth not in excluded and (not require_bonus or any(taken & w == w for w in WINDOW_MASKS)):
                best = total if best is None else max(best, total)
            return
        go(i + 1, taken, total, cost, used)
        pid = ids[i]
        if budget is not None and cost + PATCHES[pid].cost > budget:
            return
        for mask in options[i]:
            if not mask & taken:
                go(i + 1, taken | mask, total + value(pid), cost + PATCHES[pid].cost, used | {pid})

    go(0, quilt, 0, 0, frozenset())
    return best


def patch_set(result: FillResult, value: Callable[[int], int]) -> set[int]:
    return {p.patch for p in result.placements if value(p.patch) > 0}


def _area(pid: int) -> int:
    return PATCHES[pid].area


@pytest.mark.parametrize("quilt,ids", small_instances(10, seed=37))
def test_excluding_the_best_choice_gives_the_best_other_choice(quilt: int, ids: list[int]) -> None:
    best = optimal_fill(quilt, ids, deadline=in_time(), config=CONFIG)
    assert best.optimal
    first = patch_set(best, _area)
    if not first:
        return  # nothing fits: no choice to exclude
    other = optimal_fill(quilt, ids, exclude_sets=[first], deadline=in_time(), config=CONFIG)
    assert other.status == SolveStatus.OPTIMAL and patch_set(other, _area) != first
    assert other.objective == best_other_choice(quilt, ids, _area, [first]) <= best.objective  # type: ignore[operator]
    check_valid(other, quilt, ids)


def test_cp_sat_honours_excluded_choices_as_the_search_does(monkeypatch: pytest.MonkeyPatch) -> None:
    _Stalled(monkeypatch, lambda made: True)  # every search stopped: CP-SAT's no-good answers
    methods = []
    for quilt, ids in small_instances(5, seed=37):
        best = optimal_fill(quilt, ids, deadline=in_time(), config=CONFIG)
        first = patch_set(best, _area)
        if not first:
            continue
        other = optimal_fill(quilt, ids, exclude_sets=[first], deadline=in_time(), config=CONFIG)
        assert other.status == SolveStatus.OPTIMAL and patch_set(other, _area) != first
        assert other.objective == best_other_choice(quilt, ids, _area, [first])
        check_valid(other, quilt, ids)
        methods.append(other.method)
    assert "cp-sat" in methods


@pytest.mark.parametrize("stalled", [False, True])
def test_a_twin_of_an_excluded_patch_is_another_choice(monkeypatch: pytest.MonkeyPatch, stalled: bool) -> None:
    # patches 25 and 26 share a shape and (for cells) a value: one fills the hole, and with it
    # excluded, the other one still does (searches place twins in order: the exclusion must not
    # drop the twin with the excluded one)
    if stalled:
        _Stalled(monkeypatch, lambda made: True)
    quilt = FULL & ~(bit(4, 4) | bit(4, 5) | bit(5, 4))
    best = optimal_fill(quilt, [25, 26], deadline=in_time(), config=CONFIG)
    assert best.objective == 3
    other = optimal_fill(quilt, [25, 26], exclude_sets=[patch_set(best, _area)], deadline=in_time(), config=CONFIG)
    assert other.status == SolveStatus.OPTIMAL and other.objective == 3
    assert patch_set(other, _area) == {25, 26} - patch_set(best, _area)
    both = optimal_fill(quilt, [25, 26], exclude_sets=[{25}, {26}], deadline=in_time(), config=CONFIG)
    assert both.status == SolveStatus.OPTIMAL and both.objective == 0 and both.placements == []


@pytest.mark.parametrize("quilt,ids", small_instances(6, seed=41))
def test_points_exclusion_counts_only_patches_worth_something(quilt: int, ids: list[int]) -> None:
    points = _points(1)
    best = optimal_fill(quilt, ids, objective="points", marks=1, budget=8, deadline=in_time(), config=CONFIG)
    first = patch_set(best, points)
    if not first:
        return
    other = optimal_fill(quilt, ids, objective="points", marks=1, budget=8, exclude_sets=[first], deadline=in_time(),
                         config=CONFIG)
    assert other.status == SolveStatus.OPTIMAL and patch_set(other, points) != first and other.cost <= 8
    assert other.objective == best_other_choice(quilt, ids, points, [first], budget=8)
    check_valid(other, quilt, ids)


def test_excluding_choice_after_choice_that_completes_a_square_runs_out_of_squares() -> None:
    hole = 0
    for c in range(2, 7):
        hole |= bit(3, c) | bit(4, c)  # a 2x5 hole inside every window
    quilt = FULL & ~hole
    ids = [8, 5, 0, 1, 25, 26, 13]
    excluded: list[set[int]] = []
    while True:
        result = optimal_fill(quilt, ids, require_bonus=True, exclude_sets=excluded, deadline=in_time(), config=CONFIG)
        expected = best_other_choice(quilt, ids, _area, excluded, require_bonus=True)
        if expected is None:
            break
        assert result.status == SolveStatus.OPTIMAL and result.objective == expected
        assert patch_set(result, _area) not in excluded and result.bonus_window is not None
        check_valid(result, quilt, ids)
        excluded.append(patch_set(result, _area))
    assert len(excluded) >= 2  # more than one choice completes it, and then none does
    assert result.status == SolveStatus.INFEASIBLE and result.objective is None and result.placements == []


def test_a_bad_set_to_exclude_is_a_one_line_error() -> None:
    with pytest.raises(PatchworkError, match=r"exclude_sets\[0\]: patch 9 is not one of the patches"):
        optimal_fill(0, [1, 2], exclude_sets=[{9}], deadline=in_time())
    with pytest.raises(PatchworkError, match=r"exclude_sets\[1\]: a set to exclude names at least one patch"):
        optimal_fill(0, [1, 2], exclude_sets=[{1}, set()], deadline=in_time())
