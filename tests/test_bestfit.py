"""Best fit of a patch: legal, ranked, explained placements, and the lookahead cover behind them."""

from __future__ import annotations

import random

import pytest

from patchwork_opt.bench.hint import random_midgame
from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, bit, mask_of
from patchwork_opt.core.catalogue import PATCHES, is_placement, legal_placements
from patchwork_opt.core.errors import DuplicatePatchError, PatchworkError, UnknownPatchError
from solvers.bestfit import (
    CoverSolver,
    ScoreWeights,
    best_fit,
)
from solvers.model import SolverConfig

CONFIG = SolverConfig(workers=1, seed=0)
CALL = 5.0  # seconds a CP-SAT call may take: time to prove every cover here
PARTS = {"contact", "new_unfillable", "lookahead_lost", "bonus_lost", "completes_square", "lookahead_cover"}


def _requests(count: int, seed: int = 11) -> list[tuple[int, int, list[int], list[int]]]:
    rng = random.Random(seed)
    return [random_midgame(rng) for _ in range(count)]


def _brute_cover(quilt: int, ids: list[int]) -> int:
    """Most cells the patches (each at most once) can cover on ``quilt``: try everything."""
    if not ids:
        return 0
    head, rest = ids[0], ids[1:]
    best = _brute_cover(quilt, rest)
    for mask in legal_placements(head, quilt):
        best = max(best, PATCHES[head].area + _brute_cover(quilt | mask, rest))
    return best


def _weighted(parts: dict[str, float], w: ScoreWeights) -> float:
    return (
        w.contact * parts["contact"]
        - w.unfillable * parts["new_unfillable"]
        - w.lookahead * parts["lookahead_lost"]
        - w.bonus * parts["bonus_lost"]
        + w.completes * parts["completes_square"]
    )


def test_hints_are_legal_distinct_sorted_and_explained() -> None:
    for quilt, pid, upcoming, pool in _requests(12):
        result = best_fit(quilt, pid, upcoming, pool=pool, top_k=4, deadline=None, config=CONFIG, call_seconds=CALL)
        assert 1 <= len(result.hints) <= 4
        assert result.legal == len(legal_placements(pid, quilt))
        masks = [h.mask for h in result.hints]
        assert len(set(masks)) == len(masks)
        for hint in result.hints:
            assert hint.patch == pid
            assert is_placement(pid, hint.mask)
            assert hint.mask & quilt == 0
            assert hint.parts.keys() >= PARTS
            assert 0.0 <= hint.parts["contact"] <= 1.0
            assert hint.score == pytest.approx(_weighted(hint.parts, result.weights), abs=1e-3)
        scores = [h.score for h in result.hints]
        assert scores == sorted(scores, reverse=True)


def test_top_placements_match_ranking_every_placement_fully() -> None:
    """The pruned ranking returns the same best scores as solving every placement with CP-SAT.

    Requests are picked where the pruning has work to do (several candidates solved).
    """
    checked = 0
    for quilt, pid, upcoming, pool in _requests(120, seed=5):
        if len(legal_placements(pid, quilt)) > 20:
            continue
        fast = best_fit(quilt, pid, upcoming, pool=pool, top_k=3, deadline=None, config=CONFIG, call_seconds=CALL)
        if fast.solved < 6:
            continue
        plain = best_fit(
            quilt, pid, upcoming, pool=pool, top_k=3, deadline=None, config=CONFIG, call_seconds=CALL,
            use_shortcuts=False,
        )
        assert fast.exact and plain.exact
        assert fast.lookahead_cover_before == plain.lookahead_cover_before
        assert [h.score for h in fast.hints] == [h.score for h in plain.hints]
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_placement_leaving_an_unfillable_hole_ranks_lower() -> None:
    # only a 1x5 corridor is empty; no 1x1 patch and no second 1x2 patch are still to come
    corridor = mask_of((0, c) for c in range(5))
    quilt = FULL & ~corridor
    result = best_fit(quilt, 0, [], top_k=4, deadline=None, config=CONFIG, call_seconds=CALL)
    by_cells = {tuple(h.cells): h for h in result.hints}
    end = by_cells[((0, 0), (0, 1))]
    middle = by_cells[((0, 1), (0, 2))]
    assert end.parts["new_unfillable"] == 0  # the 1x3 patch can fill the rest
    assert middle.parts["new_unfillable"] == 3  # a single cell and a 1x2 gap nothing fills
    assert end.score > middle.score
    assert {tuple(h.cells) for h in result.hints[:2]} == {((0, 0), (0, 1)), ((0, 3), (0, 4))}


def test_placement_blocking_the_next_patches_ranks_lower() -> None:
    # empty: a 2x2 block at the top-left and a 1x3 corridor at the bottom-right
    block = mask_of([(0, 0), (0, 1), (1, 0), (1, 1)])
    corridor = mask_of([(8, 6), (8, 7), (8, 8)])
    quilt = FULL & ~(block | corridor)
    # the next patch is the 2x2 square (patch 4): the 1x2 patch should not go into its block
    result = best_fit(quilt, 0, [4], top_k=10, deadline=None, config=CONFIG, call_seconds=CALL)
    for hint in result.hints:
        inside = hint.mask & block != 0
        assert hint.parts["lookahead_lost"] == (4 if inside else 0)
        assert hint.parts["lookahead_cover"] <= hint.parts["empty_after"]
    assert result.hints[0].mask & corridor == result.hints[0].mask


def test_completing_a_square_ranks_first() -> None:
    hole = bit(0, 0) | bit(0, 1)
    quilt = WINDOW_MASKS[0] & ~hole
    result = best_fit(quilt, 0, [1, 2], top_k=3, deadline=None, config=CONFIG, call_seconds=CALL)
    assert result.hints[0].mask == hole
    assert result.hints[0].parts["completes_square"] == 1


def test_lookahead_cover_never_exceeds_the_empty_cells() -> None:
    for quilt, pid, upcoming, pool in _requests(15, seed=3):
        result = best_fit(quilt, pid, upcoming, pool=pool, top_k=5, deadline=None, config=CONFIG, call_seconds=CALL)
        area = sum(PATCHES[i].area for i in upcoming)
        for hint in result.hints:
            cover = hint.parts["lookahead_cover"]
            assert 0 <= cover <= hint.parts["empty_after"]
            assert cover <= area
            assert cover <= result.lookahead_cover_before


@pytest.mark.parametrize("seed", range(6))
def test_cover_search_matches_exhaustive_search_and_cpsat(seed: int) -> None:
    rng = random.Random(seed)
    # a small instance: a quilt with about 14 empty cells and 3 small patches
    quilt = FULL
    for _ in range(14):
        quilt &= ~bit(rng.randrange(9), rng.randrange(9))
    quilt &= ~mask_of([(4, c) for c in range(2, 7)])
    ids = rng.sample([0, 1, 2, 13, 25, 26, 27, 17], 3)
    expected = _brute_cover(quilt, ids)
    searched = CoverSolver(tuple(ids), CONFIG, CALL).solve(quilt)
    solved = CoverSolver(tuple(ids), CONFIG, CALL, use_dfs=False).solve(quilt)
    assert searched.exact and solved.exact
    assert searched.value == solved.value == expected
    union = 0
    for pid, mask in searched.placements:
        assert is_placement(pid, mask) and mask & quilt == 0 and mask & union == 0
        union |= mask


def test_cover_floor_proves_an_upper_bound() -> None:
    quilt = FULL & ~mask_of([(0, c) for c in range(5)])
    solver = CoverSolver((1, 0), CONFIG, CALL)  # 1x3 and 1x2 fit the 1x5 corridor: 5 cells
    assert solver.solve(quilt).value == 5
    capped = CoverSolver((1, 0), CONFIG, CALL).solve(quilt | bit(0, 2), floor=3)
    # after (0, 2) is covered only the 1x2 fits (2 cells): nothing above the floor of 3
    assert capped.bound <= 3


def test_same_request_same_answer() -> None:
    quilt, pid, upcoming, pool = _requests(1, seed=8)[0]
    a = best_fit(quilt, pid, upcoming, pool=pool, top_k=3, deadline=None, config=CONFIG, call_seconds=CALL)
    b = best_fit(quilt, pid, upcoming, pool=pool, top_k=3, deadline=None, config=CONFIG, call_seconds=CALL)
    assert [(h.cells, h.score) for h in a.hints] == [(h.cells, h.score) for h in b.hints]


def test_bad_requests_are_domain_errors() -> None:
    with pytest.raises(UnknownPatchError):
        best_fit(0, 33, deadline=None)
    with pytest.raises(UnknownPatchError):
        best_fit(0, 1, [40], deadline=None)
    with pytest.raises(DuplicatePatchError):
        best_fit(0, 1, [2, 2], deadline=None)
    with pytest.raises(DuplicatePatchError):
        best_fit(0, 1, [1], deadline=None)
    with pytest.raises(PatchworkError):
        best_fit(0, 1, deadline=None, top_k=0)


def test_a_patch_that_fits_nowhere_gets_no_hints() -> None:
    quilt = FULL & ~bit(4, 4)
    result = best_fit(quilt, 0, [], deadline=None, config=CONFIG, call_seconds=CALL)
    assert result.hints == [] and result.legal == 0
