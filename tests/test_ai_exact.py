"""The solver bot finds the one winning move of hand-built endgames; the compiled core plays the
rules of ``State``; levels get stronger from 1 to 5."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import after, late_positions, leather_position, make_state, minimax, tie_break_position

from patchwork_opt.ai.analysis.run import analyse, root_moves
from patchwork_opt.ai.bots.registry import LEVEL_ITERATIONS, make_bot
from patchwork_opt.ai.bots.solver_bot import SolverBot
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.ai.search.exact import ExactSearch
from patchwork_opt.ai.search.fastcore import CompiledSearch, advance, buy, encode, place_leather
from patchwork_opt.core.bitboard import WINDOW_MASKS, bit
from patchwork_opt.core.catalogue import placement
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State


def _outcomes(state: State) -> dict[Move, int]:
    root = state.to_move()
    out = {}
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        out[move] = minimax(child, root)
    return out


CROSS = placement(16, 0, 2, 2)  # patch 16 (cost 0, time 3) inside the top-left 7x7 window


def completing_position() -> State:
    """Player 0 on 50 needs the 7x7 bonus: only patch 16 placed to complete it wins."""
    # player 0: 43 cells, 5 buttons: -71; buying #16 (6 cells, +1 income on 53) gives -58, and
    # the bonus -51. Player 1 sits on 53 (first there) with -55.
    state = make_state([16, 6, 19, 32], pos=(50, 53), buttons=(5, 107),
                       quilts=(WINDOW_MASKS[0] & ~CROSS, 0), track_leather=False)
    state.first_end = 1
    state.last_mover = 1
    return state


@pytest.mark.parametrize("build", [completing_position, tie_break_position, leather_position])
@pytest.mark.parametrize("budget", [{"iterations": 2000}, {"time_per_move": 0.5}])
def test_solver_finds_the_one_winning_move(build: object, budget: dict[str, float]) -> None:
    state = build()  # type: ignore[operator]
    outcomes = _outcomes(state)
    assert any(v > 0 for v in outcomes.values()) and any(v < 0 for v in outcomes.values())
    decision = SolverBot(None, seed=1, **budget).decide(state)  # type: ignore[arg-type]
    assert outcomes[decision.move] > 0
    assert decision.stats["exact"] == 1.0 and decision.expected == 1.0
    assert "exactly" in decision.reason


def test_hand_built_positions_turn_on_what_they_say() -> None:
    state = completing_position()
    wins = [m for m, v in _outcomes(state).items() if v > 0]
    assert wins and all(after(state, m).bonus == 0 for m in wins)
    state = tie_break_position()
    assert max(_outcomes(state).values()) == 1  # a tie, won on the tie-break
    state = leather_position()
    assert [m for m, v in _outcomes(state).items() if v > 0] == [Move("leather", -1, bit(3, 3))]




@pytest.mark.parametrize("seed", range(6))
def test_solver_wins_every_late_position_exact_search_says_is_won(seed: int) -> None:
    for state in late_positions(seed, 46)[:3]:
        root = state.to_move()
        best = ExactSearch().solve(state)
        assert best is not None
        move = SolverBot(None, seed=seed, iterations=40000).decide(state).move
        played = after(state, move)
        value = ExactSearch().value(played, root)
        assert value == best.best.value  # the best margin, so a win whenever one exists


def test_analysis_reports_every_move_exactly_late_in_the_game() -> None:
    state = tie_break_position()
    stats = analyse(state, deadline=Deadline.after(2.0), seed=1)
    assert all(s.exact for s in stats)
    assert stats[0].win == 1.0 and stats[0].margin == 0.0
    assert all(s.win == 0.0 and s.margin is not None and s.margin < 0 for s in stats[1:])
    assert stats[0].line[0] == stats[0].move and len(stats[0].line) > 1


def test_analysis_samples_the_opening_with_lines_of_legal_moves() -> None:
    state = State.new(seed=3)
    stats = analyse(state, iterations=3000, seed=2)
    assert {s.move for s in stats} <= set(root_moves(state, None))
    assert sum(s.visits for s in stats) == 3000 and not any(s.exact for s in stats)
    for s in stats:
        assert s.win is not None and 0.0 <= s.win <= 1.0 and s.margin is not None
        replay = state.clone()
        for move in s.line:
            replay.apply(move)  # raises on an illegal move


def test_compiled_transitions_match_the_engine_through_whole_games() -> None:
    for seed in range(4):
        state = State.new(seed=seed)
        flat = encode(state)
        rng = random.Random(seed)
        while not state.is_terminal():
            p = state.to_move()
            move = random_move(state, rng)
            if move.kind == "advance":
                advance(flat, p)
            elif move.kind == "buy":
                buy(flat, p, state.circle.index(move.patch), move.mask & ((1 << 63) - 1), move.mask >> 63)
            else:
                place_leather(flat, p, move.mask & ((1 << 63) - 1), move.mask >> 63)
            state.apply(move)
            assert np.array_equal(flat, encode(state))


def test_compiled_search_is_repeatable_with_a_seed() -> None:
    state = State.new(seed=5)
    moves = root_moves(state, None)
    first = CompiledSearch(state, moves, seed=9, capacity=600)
    second = CompiledSearch(state, moves, seed=9, capacity=600)
    assert first.run(500) == second.run(500) == 500
    assert first.stats() == second.stats()


def _match(a: int, b: int, games: int) -> float:
    """Share of games level ``a`` wins against level ``b`` (paired seats; each level's iteration
    cap as a fixed budget, so the games repeat whatever the machine's load)."""
    points = 0.0
    for g in range(games):
        first, second = (a, b) if g % 2 == 0 else (b, a)
        bots = [make_bot("solver", level=first, seed=g, iterations=LEVEL_ITERATIONS[first]),
                make_bot("solver", level=second, seed=g + 100, iterations=LEVEL_ITERATIONS[second])]
        state = State.new(seed=1000 + g // 2)
        while not state.is_terminal():
            state.apply(bots[state.to_move()].decide(state).move)
        winner = state.winner()
        points += 1.0 if (winner == 0) == (first == a) else 0.0
    return points / games


def test_levels_get_stronger() -> None:
    assert _match(2, 1, games=6) > 0.5
    assert _match(3, 2, games=6) > 0.5


def test_moves_refuted_by_a_better_one_carry_upper_bounds() -> None:
    bounded = 0
    for seed in range(4):
        for state in late_positions(seed, 48)[:2]:
            every = ExactSearch().solve(state, every_move=True)
            quick = ExactSearch().solve(state)
            assert every is not None and quick is not None
            assert quick.best.value == every.best.value and quick.best.exact and not quick.best.bound
            truth = {m.move: m.value or 0 for m in every.moves}  # (never 0: a tie is +1 or -1)
            best = quick.best.value
            for m in quick.moves:
                assert m.value is not None and best is not None and m.line[0] == m.move and m.visits == 0
                if m.bound:
                    bounded += 1
                    assert not m.exact and truth[m.move] <= m.value <= best
                    assert m.valued == (m.win == 0.0)  # a bound at or below a lost tie proves a loss
                else:
                    assert m.exact and m.valued and m.value == truth[m.move]
                assert m.win == (1.0 if m.value > 0 else 0.0)
    assert bounded > 0
