"""7x7 completion: proven answers agree with an exhaustive search; certificates are real."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, WINDOW_ORIGINS, bit
from patchwork_opt.core.catalogue import is_placement, legal_placements
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import DuplicatePatchError, UnknownPatchError
from solvers.bonus import BonusResult, bonus_completion
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


def completable(quilt: int, ids: Sequence[int]) -> bool:
    """Exhaustive: some window whose missing cells disjoint placements cover exactly."""
    options = [legal_placements(pid, quilt) for pid in ids]

    def cover(missing: int, taken: int, unused: tuple[int, ...]) -> bool:
        if not missing:
            return True
        cell = missing & -missing
        for k, i in enumerate(unused):
            for mask in options[i]:
                if (
                    mask & cell
                    and not mask & taken
                    and cover(missing & ~mask, taken | mask, unused[:k] + unused[k + 1 :])
                ):
                    return True
        return False

    return any(cover(w & ~quilt, quilt, tuple(range(len(ids)))) for w in WINDOW_MASKS)


def check_certificate(result: BonusResult, quilt: int, ids: Sequence[int]) -> None:
    assert result.window is not None
    taken = quilt
    used = set()
    for placed in result.placements:
        assert placed.patch in ids and placed.patch not in used
        used.add(placed.patch)
        assert is_placement(placed.patch, placed.mask) and placed.mask & taken == 0
        taken |= placed.mask
    window = WINDOW_MASKS[WINDOW_ORIGINS.index(result.window)]
    assert taken & window == window


def holes(seed: int, count: int) -> list[tuple[int, list[int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        hole = 0
        for _ in range(rng.randint(1, 3)):
            hole |= rect(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 3), rng.randint(1, 3))
        ids = sorted(rng.sample(range(33), rng.randint(2, 5)))
        out.append((FULL & ~hole, ids))
    return out


@pytest.mark.parametrize("quilt,ids", holes(seed=3, count=16))
def test_answers_match_exhaustive_search(quilt: int, ids: list[int]) -> None:
    result = bonus_completion(quilt, ids, deadline=in_time(), config=CONFIG)
    expected = completable(quilt, ids)
    assert result.feasible is expected
    if expected:
        assert result.status == SolveStatus.FEASIBLE
        check_certificate(result, quilt, ids)
    else:
        assert result.status == SolveStatus.INFEASIBLE and result.window is None
        assert len(result.windows) == 9 and all(v.status == SolveStatus.INFEASIBLE for v in result.windows)


def test_proven_infeasible_by_area() -> None:
    quilt = FULL & ~rect(3, 3, 2, 3)  # 6 missing cells in every window
    result = bonus_completion(quilt, [0, 1], deadline=in_time(), config=CONFIG)  # 2 + 3 cells
    assert result.feasible is False and result.status == SolveStatus.INFEASIBLE
    assert all("at most 5 of the 6" in v.reason for v in result.windows)


def test_proven_infeasible_by_unreachable_cell() -> None:
    quilt = FULL & ~(rect(2, 2, 1, 1) | rect(5, 5, 2, 2))  # a lone cell no patch fits
    result = bonus_completion(quilt, [25, 26, 4], deadline=in_time(), config=CONFIG)
    assert result.feasible is False
    assert all("cannot be covered" in v.reason for v in result.windows)


def test_proven_infeasible_when_areas_add_up_but_shapes_do_not_tile() -> None:
    # a 3x3 hole: area 9 = 4 + 5 but the 1x4 line does not fit in 3 columns
    quilt = FULL & ~rect(3, 3, 3, 3)
    assert bonus_completion(quilt, [2, 3], deadline=in_time(), config=CONFIG).feasible is False
    # a 1x2 hole inside the windows with only an L tromino: enclosed region 2 is no sum of 3
    quilt = FULL & ~rect(4, 4, 1, 2)
    result = bonus_completion(quilt, [25], deadline=in_time(), config=CONFIG)
    assert result.feasible is False and not completable(quilt, [25])


def test_feasible_returns_a_real_completion() -> None:
    quilt = FULL & ~(rect(1, 1, 2, 6) | rect(7, 0, 2, 9))  # hole in the top windows + bottom rows
    ids = [8, 5, 3, 17]
    result = bonus_completion(quilt, ids, deadline=in_time(), config=CONFIG)
    assert result.feasible is True
    check_certificate(result, quilt, ids)


def test_already_complete_and_validation() -> None:
    quilt = rect(0, 0, 7, 7)
    result = bonus_completion(quilt, [1], deadline=in_time(), config=CONFIG)
    assert result.feasible is True and result.window == (0, 0) and result.placements == []
    with pytest.raises(DuplicatePatchError):
        bonus_completion(0, [3, 3], deadline=in_time())
    with pytest.raises(UnknownPatchError):
        bonus_completion(0, [99], deadline=in_time())


def test_empty_quilt_with_few_patches_is_refuted_cheaply() -> None:
    result = bonus_completion(0, [0, 1, 2, 3], deadline=in_time(), config=CONFIG)  # 14 cells for 49
    assert result.feasible is False


def test_a_stop_signal_set_before_the_answer_leaves_the_open_squares_undecided() -> None:
    from patchwork_opt.core.stop import StopSignal

    stop = StopSignal()
    stop.set()
    result = bonus_completion(0, list(range(33)), deadline=Deadline.after(30.0), config=CONFIG, stop=stop)
    assert result.feasible is None and result.status == SolveStatus.UNKNOWN
    assert result.wall_time < 5.0


def completable_within(quilt: int, ids: Sequence[int], budget: int) -> bool:
    """Exhaustive, as ``completable``, with the patches used costing at most ``budget``."""
    from patchwork_opt.core.catalogue import PATCHES

    options = [legal_placements(pid, quilt) for pid in ids]

    def cover(missing: int, taken: int, unused: tuple[int, ...], left: int) -> bool:
        if not missing:
            return True
        cell = missing & -missing
        for k, i in enumerate(unused):
            cost = PATCHES[ids[i]].cost
            if cost > left:
                continue
            for mask in options[i]:
                if mask & cell and not mask & taken and cover(
                    missing & ~mask, taken | mask, unused[:k] + unused[k + 1 :], left - cost
                ):
                    return True
        return False

    return any(cover(w & ~quilt, quilt, tuple(range(len(ids))), budget) for w in WINDOW_MASKS)


@pytest.mark.parametrize("quilt,ids", holes(seed=5, count=12))
def test_answers_under_a_budget_match_exhaustive_search(quilt: int, ids: list[int]) -> None:
    from patchwork_opt.core.catalogue import PATCHES

    for budget in (0, 3, 6, 10):
        result = bonus_completion(quilt, ids, deadline=in_time(), config=CONFIG, budget=budget)
        expected = completable_within(quilt, ids, budget)
        assert result.feasible is expected, budget
        if expected:
            check_certificate(result, quilt, ids)
            assert sum(PATCHES[p.patch].cost for p in result.placements) <= budget
        else:
            assert result.status == SolveStatus.INFEASIBLE and len(result.windows) == 9


@pytest.mark.parametrize("quilt,ids", holes(seed=5, count=4) + holes(seed=8, count=6)[5:])
def test_cp_sat_answers_under_a_budget_match_exhaustive_search(quilt: int, ids: list[int]) -> None:
    """The search given one node: CP-SAT (the placement model's ``limit_cost``) settles the windows,
    covering some and proving others too dear (the last quilt completes, but not for 6 buttons)."""
    from patchwork_opt.core.catalogue import PATCHES

    for budget in (3, 6, 8):
        result = bonus_completion(quilt, ids, deadline=in_time(), config=CONFIG, budget=budget, node_limit=1)
        assert result.feasible is completable_within(quilt, ids, budget), budget
        if result.feasible:
            check_certificate(result, quilt, ids)
            assert sum(PATCHES[p.patch].cost for p in result.placements) <= budget


def test_the_reason_names_the_numbers_of_a_bound_over_all_squares() -> None:
    result = bonus_completion(0, [1, 2, 3, 4, 5, 6], deadline=in_time(), config=CONFIG)
    assert result.reason == "the patches cover at most 27 cells; every 7x7 square needs at least 49 more"
    result = bonus_completion(0, list(range(11)), deadline=in_time(), config=CONFIG, budget=10)
    assert result.reason == "completing a 7x7 square costs at least 50 buttons; the budget is 10"
    # the same square needs 6 buttons (patches 5, 1 and 0); without the budget it completes
    quilt = FULL & ~rect(3, 2, 2, 5)
    result = bonus_completion(quilt, [8, 5, 0, 1], deadline=in_time(), config=CONFIG, budget=5)
    assert result.feasible is False
    assert result.reason == "completing a 7x7 square costs at least 6 buttons; the budget is 5"
    assert all("costs at least 6 buttons; the budget is 5" in v.reason for v in result.windows)
    assert bonus_completion(quilt, [8, 5, 0, 1], deadline=in_time(), config=CONFIG, budget=6).feasible is True
    # refuted window by window: the closest one's reason
    quilt = FULL & ~rect(3, 3, 3, 4)
    result = bonus_completion(quilt, [0, 2, 31], deadline=in_time(), config=CONFIG)
    assert result.feasible is False and result.reason == (
        "every 7x7 square is refuted; the closest, at [0, 0] (12 cells missing): no placement of the patches "
        "covers its missing cells (search exhausted)"
    )


def test_a_negative_budget_is_a_domain_error() -> None:
    from patchwork_opt.core.errors import PatchworkError

    with pytest.raises(PatchworkError, match="budget must be at least 0"):
        bonus_completion(0, [1], deadline=in_time(), config=CONFIG, budget=-1)


def symmetric_holes(seed: int, count: int) -> list[tuple[int, list[int]]]:
    """Quilts equal to their mirror image, with holes in the middle and on both sides (so the
    left and right windows miss mirrored cells), and a few small patches."""
    from patchwork_opt.core.catalogue import PATCHES
    from solvers.symmetry import transform

    rng = random.Random(seed)
    small = [p.id for p in PATCHES if p.area <= 4]
    out = []
    for _ in range(count):
        hole = rect(rng.randint(2, 4), rng.randint(3, 4), 2, rng.randint(1, 2))
        hole |= rect(rng.randint(0, 6), 0, rng.randint(2, 3), 2)
        out.append((FULL & ~(hole | transform(hole, 4)), sorted(rng.sample(small, rng.randint(3, 5)))))
    return out


@pytest.mark.parametrize("quilt,ids", symmetric_holes(seed=3, count=16) + holes(seed=11, count=4))
def test_windows_answered_by_a_symmetric_one_get_its_verdict(
    quilt: int, ids: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The long-search path (one search per question, with tables) forced from the first node."""
    import solvers.bonus as bonus

    monkeypatch.setattr(bonus, "_BUDGETS", (1,))
    monkeypatch.setattr(bonus, "_SHORT_NODES", 0)
    for budget in (None, 8):
        result = bonus_completion(quilt, ids, deadline=in_time(), config=CONFIG, budget=budget)
        expected = completable(quilt, ids) if budget is None else completable_within(quilt, ids, budget)
        assert result.feasible is expected
        if expected:
            check_certificate(result, quilt, ids)
        else:
            assert sorted(v.window for v in result.windows) == sorted(WINDOW_ORIGINS)
            assert all(v.status == SolveStatus.INFEASIBLE for v in result.windows)


def test_bench_bonus_times_both_budgets_on_the_same_quilts() -> None:
    import json

    from typer.testing import CliRunner

    from cli import app
    from patchwork_opt.bench.bonus import near_complete_quilt

    out = CliRunner().invoke(app, ["bench", "bonus", "--quilts", "4", "--seed", "3", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert (data["quilts"], data["seed"], data["time_limit"]) == (4, 3, 10.0)
    rng = random.Random(3)
    cases = [near_complete_quilt(rng) for _ in range(4)]
    feasible = sum(bool(bonus_completion(q, ids, deadline=in_time(), config=CONFIG).feasible) for q, ids in cases)
    for budget in ("cli", "bot"):
        row = data[budget]
        assert row["answers"] == {"true": feasible, "false": 4 - feasible, "unknown": 0}  # time to settle each
        assert 0 < row["median_ms"] <= row["p90_ms"] <= row["max_ms"]
    text = CliRunner().invoke(app, ["bench", "bonus", "--quilts", "2"])
    assert text.exit_code == 0 and "patchwork bonus (--time-limit 10)" in text.output
    bad = CliRunner().invoke(app, ["bench", "bonus", "--quilts", "0"])
    assert bad.exit_code == 2 and "error: --quilts must be at least 1" in bad.output
