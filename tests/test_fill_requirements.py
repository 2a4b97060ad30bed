"""Optimal fill settles its requirements first: an impossible ``require_bonus`` (with or without a
button budget) is answered ``infeasible`` with the reason that proves it, never left to the clock."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, bit
from patchwork_opt.core.catalogue import PATCHES, is_placement, legal_placements
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.stop import StopSignal
from solvers.fill import FillResult, optimal_fill
from solvers.model import SolverConfig, SolveStatus

CONFIG = SolverConfig(workers=1, seed=0)


def in_time() -> Deadline:
    """A deadline with time to settle every question here (20 s from now)."""
    return Deadline.after(20.0)


def rect(top: int, left: int, height: int, width: int) -> int:
    mask = 0
    for r in range(top, top + height):
        for c in range(left, left + width):
            mask |= bit(r, c)
    return mask


def completable(quilt: int, ids: Sequence[int], budget: int | None = None) -> bool:
    """Exhaustive: some window whose missing cells disjoint placements cover, within the budget."""
    options = [legal_placements(pid, quilt) for pid in ids]

    def cover(missing: int, taken: int, unused: tuple[int, ...], left: int) -> bool:
        if not missing:
            return True
        cell = missing & -missing
        for k, i in enumerate(unused):
            if PATCHES[ids[i]].cost > left:
                continue
            for mask in options[i]:
                if mask & cell and not mask & taken and cover(
                    missing & ~mask, taken | mask, unused[:k] + unused[k + 1 :], left - PATCHES[ids[i]].cost
                ):
                    return True
        return False

    return any(cover(w & ~quilt, quilt, tuple(range(len(ids))), 10**6 if budget is None else budget)
               for w in WINDOW_MASKS)


def assert_refused(result: FillResult, reason: str) -> None:
    """A proven answer: no fill, nothing placed, and the reason given."""
    assert result.status == SolveStatus.INFEASIBLE, (result.status, result.reason)
    assert result.reason == reason
    assert result.objective is None and result.placements == [] and not result.optimal
    assert result.placed_cells == 0 and result.cost == 0 and result.bonus_window is None


def test_infeasible_by_area_on_an_empty_quilt() -> None:
    # the request: six patches cover 27 cells, a square needs 49
    result = optimal_fill(0, [1, 2, 3, 4, 5, 6], require_bonus=True, deadline=in_time(), config=CONFIG)
    assert_refused(result, "the patches cover at most 27 cells; every 7x7 square needs at least 49 more")
    assert result.covered == 0 and result.method == "bonus"
    for objective in ("cells", "points"):
        again = optimal_fill(0, [1, 2, 3, 4, 5, 6], objective=objective, budget=40,
                             require_bonus=True, deadline=in_time(), config=CONFIG)
        assert again.status == SolveStatus.INFEASIBLE and "27 cells" in again.reason


def test_infeasible_by_area_on_a_nearly_complete_quilt() -> None:
    # a 2x5 hole in every window; 2 + 3 + 3 cells cannot cover 10
    quilt = FULL & ~rect(3, 2, 2, 5)
    result = optimal_fill(quilt, [0, 1, 25], require_bonus=True, deadline=in_time(), config=CONFIG)
    assert_refused(result, "the patches cover at most 8 cells; every 7x7 square needs at least 10 more")
    assert result.covered == 71


def test_infeasible_by_budget_on_an_empty_quilt() -> None:
    # the request: patches 0-10 with 10 buttons (the most area 10 buttons buy is under 49)
    result = optimal_fill(0, list(range(11)), budget=10, require_bonus=True, deadline=in_time(), config=CONFIG)
    assert_refused(result, "completing a 7x7 square costs at least 50 buttons; the budget is 10")
    # all 33 patches: the cheapest 49 cells cost 11
    result = optimal_fill(0, list(range(33)), budget=10, require_bonus=True, deadline=in_time(), config=CONFIG)
    assert_refused(result, "completing a 7x7 square costs at least 11 buttons; the budget is 10")


def test_infeasible_by_budget_on_a_hole_and_feasible_at_the_cost_bound() -> None:
    quilt = FULL & ~rect(3, 2, 2, 5)
    ids = [8, 5, 0, 1]  # 5 + 3 + 2 cells for 2 + 2 + 2 buttons is the cheapest completion
    assert_refused(optimal_fill(quilt, ids, budget=5, require_bonus=True, deadline=in_time(), config=CONFIG),
                   "completing a 7x7 square costs at least 6 buttons; the budget is 5")
    done = optimal_fill(quilt, ids, budget=6, require_bonus=True, deadline=in_time(), config=CONFIG)
    assert done.status == SolveStatus.OPTIMAL and done.objective == 10 and done.cost <= 6
    assert done.bonus_window is not None and done.reason == ""


def test_infeasible_by_budget_when_only_the_search_can_tell() -> None:
    # 8 cells, and 5 buttons buy 8 cells, but no set of patches that cheap tiles the 2x4 hole
    quilt = FULL & ~rect(2, 2, 2, 4)
    ids = [0, 1, 6, 20]
    assert completable(quilt, ids) and not completable(quilt, ids, budget=5)
    result = optimal_fill(quilt, ids, budget=5, require_bonus=True, deadline=in_time(), config=CONFIG)
    assert_refused(result, (
        "every 7x7 square is refuted; the closest, at [0, 0] (8 cells missing): no placement of the patches "
        "within the budget of 5 buttons covers its missing cells (search exhausted)"
    ))


@pytest.mark.parametrize(("hole", "ids"), [(rect(3, 3, 3, 4), [0, 2, 31]), (rect(2, 2, 4, 4), [1, 24, 30])])
def test_infeasible_by_shape_enough_cells_but_no_packing(hole: int, ids: list[int]) -> None:
    quilt = FULL & ~hole
    assert sum(PATCHES[pid].area for pid in ids) == hole.bit_count()  # the area is exactly right
    assert not completable(quilt, ids)
    result = optimal_fill(quilt, ids, require_bonus=True, deadline=in_time(), config=CONFIG)
    assert result.status == SolveStatus.INFEASIBLE and result.objective is None and result.placements == []
    assert result.reason.startswith("every 7x7 square is refuted; the closest, at [0, 0] ")
    assert result.reason.endswith(
        f"({hole.bit_count()} cells missing): no placement of the patches covers its missing cells (search exhausted)"
    )


def test_infeasible_by_shape_on_an_empty_quilt() -> None:
    # exactly 49 cells in nine patches that do not tile a 7x7 square, wherever it lies
    ids = [5, 6, 11, 12, 15, 16, 24, 26, 28]
    assert sum(PATCHES[pid].area for pid in ids) == 49
    result = optimal_fill(0, ids, require_bonus=True, deadline=in_time(), config=CONFIG)
    assert result.status == SolveStatus.INFEASIBLE and "search exhausted" in result.reason
    assert result.reason.startswith("every 7x7 square is refuted")


def test_a_completion_found_is_the_answer_when_cp_sat_settles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import solvers.fill as fill
    from solvers import fill_cp_sat
    from solvers.model import SolveHandle

    def nothing(*args: object, **kwargs: object) -> object:
        def run(handle: SolveHandle | None, config: SolverConfig, deadline: Deadline) -> fill_cp_sat.CpOutcome:
            return SolveStatus.UNKNOWN, None, 0, []

        return run

    monkeypatch.setattr(fill_cp_sat, "prepare_fill_model", nothing)
    quilt = FULL & ~rect(3, 2, 2, 5)
    result = optimal_fill(quilt, [8, 5, 0, 1], budget=7, require_bonus=True, deadline=in_time(), config=CONFIG)
    # the 7x7 completion's fill meets the requirements: not proven best, but an answer
    assert result.status == SolveStatus.FEASIBLE and result.method == "bonus" and not result.optimal
    assert result.bonus_window is not None and result.cost <= 7 and result.objective == 10 <= result.bound
    taken = quilt
    for placed in result.placements:
        assert is_placement(placed.patch, placed.mask) and not placed.mask & taken
        taken |= placed.mask
    assert taken == FULL
    # and without any fill meeting the requirement, the answer is unknown, with what was left open
    monkeypatch.setattr(fill, "bonus_completion", lambda *a, **k: _undecided())
    left = optimal_fill(quilt, [8, 5, 0, 1], budget=7, require_bonus=True, deadline=in_time(), config=CONFIG)
    assert left.status == SolveStatus.UNKNOWN and left.objective is None and left.placements == []
    assert left.reason == (
        "the time limit left open whether a 7x7 square can be completed within the budget of 7 buttons"
    )


def _undecided() -> object:
    from solvers.bonus import BonusResult

    return BonusResult(feasible=None, status=SolveStatus.UNKNOWN, reason="9 square(s) undecided at the time limit")


def test_a_stop_before_the_answer_leaves_it_unknown_not_infeasible() -> None:
    # the time limit (here the stop signal) leaves open what nothing proved
    stop = StopSignal()
    stop.set()
    result = optimal_fill(0, list(range(33)), budget=30, require_bonus=True, deadline=in_time(), config=CONFIG,
                          stop=stop)
    assert result.status == SolveStatus.UNKNOWN and result.objective is None
    assert result.reason == (
        "the time limit left open whether a 7x7 square can be completed within the budget of 30 buttons"
    )


def test_a_square_already_complete_needs_nothing_more() -> None:
    quilt = rect(0, 0, 7, 7)
    result = optimal_fill(quilt, [1, 2], budget=0, require_bonus=True, deadline=in_time(), config=CONFIG)
    assert result.status == SolveStatus.OPTIMAL and result.objective == 0 and result.bonus_window == (0, 0)
    result = optimal_fill(quilt, [1, 2], require_bonus=True, deadline=in_time(), config=CONFIG)
    assert result.status == SolveStatus.OPTIMAL and result.objective == 7 and result.reason == ""
