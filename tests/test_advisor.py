"""The solver advisor the bots plug in: legal ranked placements and 7x7 feasibility."""

from __future__ import annotations

import random

from conftest import assert_covers

from patchwork_opt.apps.web.schemas import BonusRequest
from patchwork_opt.apps.web.solver_services import web_bonus
from patchwork_opt.bench.bonus import near_complete_quilt
from patchwork_opt.bench.hint import random_midgame
from patchwork_opt.core.advice import PlacementAdvisor, RankedPlacement
from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, bit, cells_of, mask_of
from patchwork_opt.core.catalogue import PLACEMENTS, is_placement, legal_placements
from patchwork_opt.core.clock import Deadline
from solvers.advisor import SolverAdvisor
from solvers.bonus import bonus_completion
from solvers.model import SolverConfig
from solvers.search import PackingProblem, pack

CONFIG = SolverConfig(workers=1, seed=0)
CALL = 5.0  # seconds a CP-SAT call may take: time to settle every question here


def test_is_a_placement_advisor() -> None:
    assert isinstance(SolverAdvisor(CONFIG, call_seconds=CALL), PlacementAdvisor)


def test_ranked_placements_are_legal_and_sorted() -> None:
    advisor = SolverAdvisor(CONFIG, lookahead=4, budget=None, call_seconds=CALL)
    rng = random.Random(6)
    for _ in range(8):
        quilt, pid, _, pool = random_midgame(rng)
        upcoming = [pid, *pool[:9], pool[0]]  # the patch itself and a repeat are tolerated
        ranked = advisor.rank_placements(quilt, pid, upcoming, 3)
        assert 1 <= len(ranked) <= 3
        assert all(isinstance(r, RankedPlacement) for r in ranked)
        assert all(is_placement(pid, r.mask) and r.mask & quilt == 0 for r in ranked)
        assert [r.score for r in ranked] == sorted((r.score for r in ranked), reverse=True)
        assert "lookahead_lost" in ranked[0].parts


def test_no_placement_no_advice() -> None:
    advisor = SolverAdvisor(CONFIG, call_seconds=CALL)
    assert advisor.rank_placements(FULL & ~bit(0, 0), 0, [1, 2], 3) == []
    assert advisor.rank_placements(0, 0, [1, 2], 0) == []


def test_bonus_feasible_answers() -> None:
    advisor = SolverAdvisor(CONFIG, call_seconds=CALL)
    hole = bit(0, 0) | bit(0, 1)
    quilt = WINDOW_MASKS[0] & ~hole
    assert advisor.bonus_feasible(WINDOW_MASKS[3], []) is True  # already complete
    assert advisor.bonus_feasible(quilt, [0]) is True  # the 1x2 patch fills the hole
    assert advisor.bonus_feasible(quilt, [1]) is False  # a 1x3 patch fits neither hole nor row
    # row 7, cols 0..6 completes the window one row lower: the 1x3 and 1x4 patches cover it
    assert advisor.bonus_feasible(quilt, [1, 2]) is True
    # the 1x3 and 2x2 patches: 7 cells, but no way to cover the 1x7 row or the 2-cell hole
    assert advisor.bonus_feasible(quilt, [1, 4]) is False


def _brute_can_cover(quilt: int, need: int, ids: list[int]) -> bool:
    """Every way of placing or skipping each patch: does one cover all of ``need``?"""
    if not need & ~quilt:
        return True
    if not ids:
        return False
    head, rest = ids[0], ids[1:]
    if _brute_can_cover(quilt, need, rest):
        return True
    return any(_brute_can_cover(quilt | m, need, rest) for m in legal_placements(head, quilt))


def test_window_search_matches_exhaustive_search() -> None:
    outcomes = set()
    small = [0, 1, 2, 13, 25, 26, 27, 17, 4]
    for seed in range(30):
        rng = random.Random(seed)
        window = WINDOW_MASKS[rng.randrange(9)]
        hole = 0
        for pid in rng.sample(small, 2):  # holes shaped like two small patches, maybe touching
            inside = [m for m in PLACEMENTS[pid] if m & window == m]
            hole |= rng.choice(inside)
        open_around = mask_of((rng.randrange(9), rng.randrange(9)) for _ in range(12)) & ~window
        quilt = FULL & ~hole & ~open_around
        ids = rng.sample(small, 3)
        need = window & ~quilt
        found = pack(PackingProblem(FULL & ~quilt, tuple(ids), cover=need))
        assert found.exhausted and found.covered is _brute_can_cover(quilt, need, ids), seed
        if found.covered:
            assert_covers(quilt, need, ids, found.placements)
        outcomes.add(found.covered)
    assert outcomes == {True, False}


def test_the_bot_the_cli_and_the_web_service_agree_on_7x7_completion() -> None:
    """One completion behind all three: with time to settle, the same answer on every quilt."""
    advisor = SolverAdvisor(CONFIG, call_seconds=CALL)
    answers = []
    for seed in range(40):
        rng = random.Random(seed)
        quilt, ids = near_complete_quilt(rng)
        cli = bonus_completion(quilt, ids, deadline=Deadline.after(CALL), config=CONFIG).feasible
        request = BonusRequest(quilt=cells_of(quilt), patches=ids, time_limit=5.0, workers=1)
        web = web_bonus(request, Deadline.after(5.0)).feasible
        bot = advisor.bonus_feasible(quilt, ids)
        assert cli is not None and cli == web == bot, seed
        answers.append(cli)
    assert set(answers) == {True, False}
