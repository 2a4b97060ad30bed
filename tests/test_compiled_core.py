"""The compiled core against the Python reference: the heuristic, the leather ranking, the rollout,
the result value and the tree's move order agree; the evaluator slot and per-search randomness.

The Python heuristic and rollout stay for the ``mcts`` reference bot, so the compiled copies are
held to them here: on thousands of seeded random quilts and positions, and move for move for the
rollout when both draw the same uniform numbers (a ``random.Random`` fed by a NumPy generator
seeded as the compiled one).
"""

from __future__ import annotations

import math
import random

import numba as nb
import numpy as np
import pytest

from patchwork_opt.ai.analysis.run import root_moves
from patchwork_opt.ai.heuristic import (
    best_placement,
    completing_cell,
    contact_planes,
    isolated,
    leather_cell,
    placement_score,
    quick_placement,
    rank_leather_cells,
    window_progress,
)
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.ai.search import fastcore as fc
from patchwork_opt.ai.search.mcts import macro_moves
from patchwork_opt.ai.search.policy import (
    ADVANCE_VALUE,
    ROLLOUT_NOISE,
    RolloutEvaluator,
    outcome_value,
    result_value,
    rollout,
)
from patchwork_opt.core.bitboard import FULL, has_full_window
from patchwork_opt.core.bitwords import join, split
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS, fits_anywhere, legal_placements
from patchwork_opt.core.state import State

N_QUILTS = 3000


class SameNumbers(random.Random):
    """A ``random.Random`` whose ``random()`` comes from a NumPy generator: the Python rollout then
    draws exactly the numbers the compiled one draws from a generator seeded alike."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.generator = np.random.default_rng(seed)

    def random(self) -> float:
        return float(self.generator.random())


def random_quilts(seed: int, count: int) -> list[int]:
    """Quilts of every kind: random cells at any density, patches laid at random (real shapes, with
    holes between them), and nearly full ones (7x7 windows one cell short, isolated holes)."""
    rng = random.Random(seed)
    quilts = []
    for i in range(count):
        kind = i % 3
        if kind == 0:
            density = rng.random()
            quilt = sum(1 << c for c in range(81) if rng.random() < density)
        elif kind == 1:
            quilt = 0
            for _ in range(rng.randrange(1, 30)):
                pid = rng.randrange(len(PATCHES))
                masks = PLACEMENTS[pid]
                mask = masks[rng.randrange(len(masks))]
                if not mask & quilt:
                    quilt |= mask
        else:
            quilt = FULL
            for _ in range(rng.randrange(1, 12)):
                quilt &= ~(1 << rng.randrange(81))
        quilts.append(quilt)
    return quilts


QUILTS = random_quilts(19, N_QUILTS)


def test_the_random_quilts_cover_the_cases_that_matter() -> None:
    assert sum(1 for q in QUILTS if completing_cell(q)) > 200
    assert sum(1 for q in QUILTS if has_full_window(q)) > 100
    assert sum(1 for q in QUILTS if isolated(FULL & ~q)) > 1000
    assert sum(1 for q in QUILTS if q.bit_count() < 30) > 500


def test_compiled_board_measures_match_python() -> None:
    for quilt in QUILTS:
        lo, hi = split(quilt)
        elo, ehi = split(FULL & ~quilt)
        assert join(*fc.isolated(elo, ehi)) == isolated(FULL & ~quilt)
        assert fc.holes_of(lo, hi) == isolated(FULL & ~quilt).bit_count()
        assert fc.window_progress(lo, hi) == window_progress(quilt)
        assert fc.full_window(lo, hi) == has_full_window(quilt)


def test_compiled_placement_heuristic_matches_python() -> None:
    rng = random.Random(3)
    checked = 0
    for quilt in QUILTS:
        lo, hi = split(quilt)
        planes = contact_planes(quilt)
        holes = isolated(FULL & ~quilt).bit_count()
        pid = rng.randrange(len(PATCHES))
        assert fc.fits_anywhere(pid, lo, hi) == fits_anywhere(pid, quilt)
        for bonus_free in (True, False):
            assert join(*fc.best_placement(pid, lo, hi, bonus_free)) == best_placement(quilt, pid, bonus_free)
        legal = legal_placements(pid, quilt)
        for mask in rng.sample(legal, min(3, len(legal))):
            mlo, mhi = split(mask)
            for bonus_free in (True, False):
                for progress in (True, False):
                    assert fc.placement_score(lo, hi, mlo, mhi, holes, bonus_free, progress) == placement_score(
                        quilt, mask, planes, holes, bonus_free, progress)
                    checked += 1
    assert checked > 10_000


def test_compiled_quick_placement_matches_python_on_the_same_numbers() -> None:
    rng = random.Random(4)
    for i, quilt in enumerate(QUILTS):
        lo, hi = split(quilt)
        pid = rng.randrange(len(PATCHES))
        bonus_free = i % 2 == 0
        expected = quick_placement(quilt, pid, SameNumbers(i), bonus_free=bonus_free)
        assert join(*fc.quick_placement(pid, lo, hi, bonus_free, np.random.default_rng(i))) == expected


def test_one_leather_ranking_first_cell_is_what_every_bot_places() -> None:
    for quilt in QUILTS:
        lo, hi = split(quilt)
        for bonus_free in (True, False):
            ranked = rank_leather_cells(quilt, bonus_free)
            assert sorted(cell for _, cell in ranked) == [1 << c for c in range(81) if not quilt >> c & 1]
            first = ranked[0][1] if ranked else 0
            assert leather_cell(quilt, bonus_free) == first
            assert join(*fc.leather_cell(lo, hi, bonus_free)) == first
        completing = completing_cell(quilt)
        if completing and not has_full_window(quilt):
            assert leather_cell(quilt, True) == completing and has_full_window(quilt | completing)


def test_leather_ranking_puts_a_completing_cell_then_holes_first() -> None:
    window = sum(1 << (r * 9 + c) for r in range(7) for c in range(7))
    quilt = window & ~(1 << 30)  # the top-left 7x7 misses only cell (3, 3)
    ranked = rank_leather_cells(quilt, True)
    assert ranked[0][1] == 1 << 30
    assert rank_leather_cells(quilt, False)[0][1] == 1 << 30  # no bonus: still the most enclosed cell
    hole = FULL & ~(1 << 40) & ~(1 << 80) & ~(1 << 79)  # (4, 4) is isolated, (8, 7)-(8, 8) are not
    assert rank_leather_cells(hole, False)[0][1] == 1 << 40


def _positions(seed: int, games: int) -> list[State]:
    """Every position of random games (uniformly random moves, so odd corners are reached)."""
    found = []
    for g in range(games):
        state = State.new(seed=seed * 1000 + g)
        rng = random.Random(g)
        while not state.is_terminal():
            found.append(state.clone())
            state.apply(random_move(state, rng))
    return found


POSITIONS = _positions(5, 70)


def test_compiled_rollout_plays_the_python_rollout_move_for_move() -> None:
    starts = POSITIONS[::10]
    assert len(starts) > 250
    for i, state in enumerate(starts):
        game = state.clone()
        rollout(game, SameNumbers(i), ROLLOUT_NOISE)
        flat = fc.encode(state)
        fc.rollout(flat, ROLLOUT_NOISE, np.random.default_rng(i))
        assert np.array_equal(flat, fc.encode(game))
        value, win, margin = fc.outcome(flat)
        assert value == pytest.approx(result_value(game), abs=1e-12)
        assert win == (1.0 if game.winner() == 0 else 0.0) and margin == game.score(0) - game.score(1)
        # the evaluator slot's rollout is the same game, valued as the mcts bot's evaluator values it
        if not state.is_terminal():
            expected = RolloutEvaluator().evaluate(state, SameNumbers(i))
            got = fc.rollout_value(fc.encode(state), np.array([ROLLOUT_NOISE]), np.random.default_rng(i))
            assert got[0] == pytest.approx(expected, abs=1e-12)


def test_result_value_has_one_definition() -> None:
    for win in (0.0, 0.25, 1.0):
        for margin in range(-60, 61, 7):
            assert fc.outcome_value(win, float(margin)) == pytest.approx(outcome_value(win, margin), abs=1e-12)
    assert outcome_value(1.0, 0) == pytest.approx(0.9) and outcome_value(0.0, -100) < -0.99
    assert math.isclose(outcome_value(0.5, 0), 0.0, abs_tol=1e-15)


def _compiled_order(state: State) -> list[int]:
    states = fc.encode(state)[None, :].copy()
    n_moves = np.zeros(1, dtype=np.int64)
    move_k = np.zeros((1, 4), dtype=np.int64)
    player = np.zeros(1, dtype=np.int64)
    fc.init_node(0, states, n_moves, move_k, player)
    return [int(k) for k in move_k[0, : n_moves[0]]]


def _mcts_order(state: State) -> list[int]:
    """The order ``Mcts`` tries a node's macro moves (it pops them from the end): offer index, -1 advance."""
    return [-1 if m.kind == "advance" else state.circle.index(m.patch) for m in reversed(macro_moves(state))]


def test_tree_tries_macro_moves_in_the_mcts_bots_order() -> None:
    decisions = [s for s in POSITIONS if s.pending < 0]
    assert len(decisions) > 2000
    ties = 0
    for state in decisions:
        order = _compiled_order(state)
        assert order == _mcts_order(state)
        p = state.to_move()
        ties += any(fc.VPT[state.circle[k], state.pos[p]] == ADVANCE_VALUE for k in order if k >= 0)
    assert ties > 10  # an offer worth exactly what advancing earns: where the two used to differ


def test_tree_order_breaks_a_tie_with_advancing_first() -> None:
    ties = [(pid, pos) for pid in range(len(PATCHES)) for pos in range(53) if fc.VPT[pid, pos] == ADVANCE_VALUE]
    assert ties
    pid, pos = ties[0]
    state = State.new(seed=1)
    state.circle = [pid] + [x for x in state.circle if x != pid]
    state.pos = [pos, pos + 1]
    state.buttons = [100, 100]
    order = _compiled_order(state)
    assert order == _mcts_order(state) and order.index(-1) < order.index(0)


def _stats(search: fc.CompiledSearch) -> list[tuple[object, ...]]:
    return [(r.move, r.visits, r.value, r.win_rate, r.margin) for r in search.stats()]


def _search(state: State, seed: int, evaluator: fc.CompiledEvaluator | None = None) -> fc.CompiledSearch:
    return fc.CompiledSearch(state, root_moves(state, None), seed=seed, capacity=2000, evaluator=evaluator)


def test_two_searches_side_by_side_keep_their_own_randomness() -> None:
    first_state, second_state = State.new(seed=2), State.new(seed=3)
    alone_first, alone_second = _search(first_state, 11), _search(second_state, 12)
    for _ in range(4):
        alone_first.run(100)
    for _ in range(4):
        alone_second.run(100)
    first, second = _search(first_state, 11), _search(second_state, 12)
    for _ in range(4):  # interleaved slices
        first.run(100)
        second.run(100)
    assert _stats(first) == _stats(alone_first) and _stats(second) == _stats(alone_second)
    other = _search(first_state, 13)
    other.run(400)
    assert _stats(other) != _stats(first)  # the seed matters


def test_a_budget_gives_the_same_tree_however_it_is_sliced() -> None:
    state = State.new(seed=4)
    whole, sliced = _search(state, 5), _search(state, 5)
    whole.run(600)
    for size in (1, 99, 200, 300):
        sliced.run(size)
    assert _stats(whole) == _stats(sliced)
    assert _stats(whole) == _stats(_run(_search(state, 5, fc.ROLLOUT), 600))  # the rollout is the default


def _run(search: fc.CompiledSearch, iterations: int) -> fc.CompiledSearch:
    search.run(iterations)
    return search


@nb.njit
def _constant_value(s: np.ndarray, params: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    return params[0], params[1], params[2]


@nb.njit
def _coin(s: np.ndarray, params: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    win = 1.0 if rng.random() < params[0] else 0.0
    return 2.0 * win - 1.0, win, 0.0


@nb.njit
def _wrong_result(s: np.ndarray, params: np.ndarray, rng: np.random.Generator) -> float:
    return 0.0


def test_search_values_leaves_with_the_evaluator_passed_in() -> None:
    state = State.new(seed=6)  # player 0 to move; no game ends within the first plies
    assert state.to_move() == 0
    search = _search(state, 1, fc.CompiledEvaluator("constant", _constant_value, (0.25, 0.75, 3.0)))
    search.run(300)
    for r in search.stats():  # each root move leads to player 0 winning 75%, by 3, valued 0.25
        assert (r.value, r.win_rate, r.margin) == pytest.approx((0.25, 0.75, 3.0))
    coin = _search(state, 2, fc.CompiledEvaluator("coin", _coin, np.array([0.9])))
    coin.run(2000)
    rate = sum(r.win_rate * r.visits for r in coin.stats()) / sum(r.visits for r in coin.stats())
    assert 0.85 < rate < 0.95  # the search's generator reaches the evaluator


@nb.njit
def _divides_by_zero(s: np.ndarray, params: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    return 1.0 / (params[0] - params[0]), 0.5, 0.0


def test_an_evaluator_s_error_reaches_the_caller_of_the_search() -> None:
    """A failing evaluator stops the search with its own error instead of valuing leaves with garbage."""
    search = _search(State.new(seed=6), 1, fc.CompiledEvaluator("broken", _divides_by_zero, (1.0,)))
    with pytest.raises(ZeroDivisionError):
        search.run(10)


def test_evaluator_of_the_wrong_kind_is_refused() -> None:
    state = State.new(seed=6)
    with pytest.raises(TypeError, match=r"evaluator 'plain': its function must be compiled with numba\.njit"):
        _search(state, 1, fc.CompiledEvaluator("plain", lambda s, params, rng: (0.0, 0.0, 0.0)))
    with pytest.raises(TypeError, match=r"'wrong' does not compile as evaluate\(s, params, rng\).*: No conversion"):
        _search(state, 1, fc.CompiledEvaluator("wrong", _wrong_result))
