"""The AI's one search wired together: each solver bot's evaluator, the fixed rollout baseline, the
compiled exact endgame in play and advice, and the early stop of a timed search."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from conftest import late_positions
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.analysis import run as search
from patchwork_opt.ai.analysis.position import analyse_position
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.ai.bots.solver_bot import SolverBot
from patchwork_opt.ai.learned import winmap
from patchwork_opt.ai.learned.value import SHIPPED_WEIGHTS, ValueModelError, win_after
from patchwork_opt.ai.search import exact, exactcore, fastcore
from patchwork_opt.ai.search.exact import ExactSearch
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.record import Record

runner = CliRunner()
DATA = Path(__file__).parent / "data"

#: A late position of a noisy greedy game (``late_positions(121, 42)[0]``): 13 of its 20 moves win;
#: the Python exact search needs about 29,000 nodes (2.6 s) to see it, ten times level 3's share of
#: its 0.5 s; the compiled one about 22,000 (a few hundredths of a second).
LATE_WIN = ("6,0,15,9,4,24,8,23,32 42/17/13/039f3e0bedfadfcbf7fe7 42/12/11/0eeff27fe5fafd7fff63b "
            "0 - - 44,50 - 26,32,38,44,50")


def _python_exact_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any use of the Python exact search in play fail the test."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the Python ExactSearch was used in play")

    monkeypatch.setattr(exact.ExactSearch, "solve", refuse)


def _winning(state: State) -> set[Move]:
    solved = exactcore.solve(state, every_move=True, table=exactcore.ExactTable(16))
    assert solved.solved
    return {m.move for m in solved.moves if m.win == 1.0}


# --- which evaluator each bot uses ----------------------------------------------------------------


def test_solver_values_leaves_with_the_learned_value_and_solver_rollout_with_rollouts() -> None:
    solver = make_bot("solver", seed=1, iterations=50)
    reference = make_bot("solver-rollout", seed=1, iterations=50)
    assert isinstance(solver, SolverBot) and isinstance(reference, SolverBot)
    assert solver.evaluator == search.default_evaluator() and solver.evaluator.name == "learned"
    assert reference.evaluator == fastcore.ROLLOUT and reference.reference and not solver.reference
    # the evaluator decides the figures: the same search with each gives different root values
    state = State.new(seed=2)
    moves = search.root_moves(state, None)
    learned = search.sampled_analysis(state, moves, deadline=None, iterations=300, seed=3)
    rollout = search.sampled_analysis(state, moves, deadline=None, iterations=300, seed=3,
                                      evaluator=fastcore.ROLLOUT)
    assert [m.win for m in learned.moves] != [m.win for m in rollout.moves]
    assert learned.moves == search.sampled_analysis(state, moves, deadline=None, iterations=300, seed=3,
                                                    evaluator=search.default_evaluator()).moves


def test_solver_rollout_replays_the_fixed_baseline_game_move_for_move() -> None:
    """``solver_rollout_game.json`` was played by ``solver-rollout`` (seeds 1 and 2, 600 iterations
    a move, no advisor) before the learned value joined the search; the baseline must not move."""
    record = Record.load(DATA / "solver_rollout_game.json")
    state = record.initial_state()
    bots = [make_bot("solver-rollout", seed=1, iterations=600), make_bot("solver-rollout", seed=2, iterations=600)]
    for ply, move in enumerate(record.moves):
        assert bots[state.to_move()].decide(state).move == move, ply
        state.apply(move)
    assert state.is_terminal()


# --- the compiled exact search in play and advice ------------------------------------------------


def test_the_solver_plays_the_compiled_exact_search_and_says_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    _python_exact_forbidden(monkeypatch)
    state = late_positions(3, 46)[0]
    decision = make_bot("solver", seed=1, iterations=2000).decide(state)
    assert decision.stats["exact"] == 1.0 and "exactly" in decision.reason
    assert decision.expected in (0.0, 1.0)
    winning = _winning(state)
    assert (decision.move in winning) == bool(winning)


def test_advice_is_exact_where_the_estimate_says_the_search_finishes(monkeypatch: pytest.MonkeyPatch) -> None:
    _python_exact_forbidden(monkeypatch)
    state = from_notation(LATE_WIN)
    # the node budget (2 per iteration) is one the estimate's upper quartile for every move fits
    analysis = analyse_position(state, iterations=500_000)
    assert all(m.exact for m in analysis.moves) and analysis.best.win == 1.0
    assert analysis.best.move in _winning(state)
    early = State.new(seed=4)  # the whole game: out of reach, sampled (not even a probe is tried there)
    assert not any(m.outcome_proven for m in analyse_position(early, iterations=300).moves)
    assert exactcore.out_of_reach(early)
    for every_move in (True, False):
        assert search.exact_budget(early, deadline=Deadline.after(1.0), iterations=None, every_move=every_move) is None


def test_patchwork_move_answers_exact_from_the_compiled_search(monkeypatch: pytest.MonkeyPatch) -> None:
    _python_exact_forbidden(monkeypatch)
    result = runner.invoke(app, ["move", LATE_WIN, "--json", "--seed", "1"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["exact"] is True and answer["win"] == 1.0


def test_level_3_plays_the_winning_move_of_a_late_endgame() -> None:
    """Level 3 (``patchwork move``'s default) gives the exact search a time budget: the compiled
    one sees this endgame in a few hundredths of a second."""
    state = from_notation(LATE_WIN)
    decision = make_bot("solver", level=3, seed=1).decide(state)
    assert decision.move in _winning(state)
    assert decision.stats["exact"] == 1.0


def test_the_solver_keeps_its_exact_table_across_a_game() -> None:
    bot = make_bot("solver", seed=1, iterations=2000)
    assert isinstance(bot, SolverBot)
    state = late_positions(5, 46)[0]
    bot.decide(state)
    table = bot._table
    assert table is not None and table.generation > 0
    state.apply(bot.decide(state).move)
    if not state.is_terminal():
        bot.decide(state)
        assert bot._table is table


def test_solver_rollout_keeps_the_python_exact_search_from_space_40(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[State] = []
    solve = ExactSearch.solve

    def spy(self: ExactSearch, state: State, **kwargs: object) -> object:
        used.append(state)
        return solve(self, state, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ExactSearch, "solve", spy)
    bot = make_bot("solver-rollout", seed=1, iterations=2000)
    bot.decide(late_positions(3, 46)[0])
    assert len(used) == 1
    bot.decide(late_positions(3, 30)[0])  # before space 40: no exact attempt
    assert len(used) == 1


# --- early stop -----------------------------------------------------------------------------------


def test_settled_means_the_lead_outruns_the_iterations_left() -> None:
    assert search.settled(np.array([90.0, 30.0, 5.0]), 59)
    assert not search.settled(np.array([90.0, 30.0, 5.0]), 60)  # a tie could still go either way
    assert search.settled(np.array([7.0]), 10**6)  # one move: nothing to choose


@pytest.mark.parametrize("seed", range(4))
def test_early_stop_keeps_the_move_the_full_budget_chooses(seed: int) -> None:
    stopped_early = 0
    for state in (State.new(seed=seed), *late_positions(seed, 20)[:2]):
        if state.pending >= 0:
            continue
        moves = search.root_moves(state, None, top_k=3)
        if len(moves) < 2:
            continue
        full = search.sampled_analysis(state, moves, deadline=None, iterations=3000, seed=seed)
        early = search.sampled_analysis(state, moves, deadline=None, iterations=3000, seed=seed, early_stop=True)
        assert early.best.move == full.best.move, to_notation(state)
        assert full.iterations == 3000 and early.iterations <= 3000
        stopped_early += early.iterations < 3000
    assert stopped_early >= 1


def test_a_timed_search_stops_once_its_move_is_settled() -> None:
    """With a clock far from running out, what is left is the iteration cap (the easier levels'):
    the search stops early and plays the move the whole cap would have."""
    state = State.new(seed=6)
    moves = search.root_moves(state, None, top_k=3)
    full = search.sampled_analysis(state, moves, deadline=None, iterations=8000, seed=1)
    timed = search.sampled_analysis(state, moves, deadline=Deadline.after(60.0), iterations=None,
                                    max_iterations=8000, seed=1, early_stop=True)
    assert timed.iterations < 8000 and timed.best.move == full.best.move
    visits = sorted((m.visits for m in timed.moves), reverse=True)
    assert visits[0] - visits[1] > 8000 - timed.iterations


# --- the search's win map ---------------------------------------------------------------------------


def test_a_search_map_keeps_the_order_of_win_chances() -> None:
    found = winmap.SearchMap("learned", "digest", a=1.3, c=-0.9, b=-0.1, d=0.8)
    for g in (0.0, 0.5, 1.0):
        for static in (0.1, 0.5, 0.9):
            wins = [0.01, 0.2, 0.5, 0.8, 0.99]
            mapped = [found.apply(w, g, static) for w in wins]
            assert mapped == sorted(mapped) and all(0.0 < m < 1.0 for m in mapped)
    # the learned value after the move moves the chance the way it points
    assert found.apply(0.6, 0.5, 0.2) < found.apply(0.6, 0.5, 0.5) < found.apply(0.6, 0.5, 0.8)
    assert found.apply(1.0, 0.5) == 1.0 and found.apply(0.0, 0.5) == 0.0  # proved results stay proved
    with pytest.raises(ValueModelError):
        winmap.SearchMap("learned", "digest", a=0.5, c=-0.6, b=0.0)  # would turn the order round late
    late_blind = winmap.SearchMap("learned", "digest", a=0.5, c=-0.5, b=0.0, d=1.0)  # the value alone at the end
    assert late_blind.apply(0.2, 1.0, 0.7) == pytest.approx(late_blind.apply(0.9, 1.0, 0.7)) == pytest.approx(0.7)


def test_the_shipped_map_belongs_to_the_shipped_weights_and_maps_the_default_search_only() -> None:
    shipped = winmap.read_search_map(winmap.SHIPPED_SEARCH_MAP)
    assert shipped.weights == winmap.file_digest(SHIPPED_WEIGHTS)
    assert shipped.exploration == search.default_evaluator().exploration
    assert search.search_map_for(search.default_evaluator()) == shipped
    assert search.search_map_for(fastcore.ROLLOUT) is None
    assert search.search_map_for(replace(search.default_evaluator(), exploration=0.9)) is None
    state = State.new(seed=8)
    moves = search.root_moves(state, None)
    raw = fastcore.CompiledSearch(state, moves, seed=4, capacity=802, evaluator=search.default_evaluator())
    raw.run(800)
    reported = search.sampled_analysis(state, moves, deadline=None, iterations=800, seed=4)
    by_move = {r.move: r.win_rate for r in raw.stats()}
    progress = winmap.track_progress(state)
    assert [m.win for m in reported.moves] == pytest.approx(
        [shipped.apply(by_move[m.move], progress, win_after(state, m.move)[0]) for m in reported.moves])


def test_a_map_for_other_weights_is_not_applied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "search_map.json"
    winmap.save_search_map(other, winmap.SearchMap("learned", "0" * 64, a=2.0), {})
    monkeypatch.setattr(search, "SHIPPED_SEARCH_MAP", other)
    search.shipped_search_map.cache_clear()
    try:
        assert search.search_map_for(search.default_evaluator()) is None
    finally:
        search.shipped_search_map.cache_clear()


def test_fitting_a_search_map_recovers_how_far_off_the_chances_are() -> None:
    from patchwork_opt.ai.learned.training import fit_search_map

    rng = np.random.default_rng(3)
    progress = rng.random(20_000)
    logit = rng.normal(0.0, 2.0, 20_000)
    static = rng.random(20_000) * 0.98 + 0.01
    truth = winmap.SearchMap("learned", "digest", a=1.4, c=-0.8, b=-0.2, d=0.6)
    chances = [truth.apply(1 / (1 + np.exp(-t)), g, s) for t, g, s in zip(logit, progress, static, strict=True)]
    won = (rng.random(20_000) < np.array(chances)).astype(int)
    games = np.arange(20_000) // 40
    found, report = fit_search_map(1 / (1 + np.exp(-logit)), won, progress, static, evaluator="learned",
                                   weights="digest", exploration=0.35, games=games)
    assert (found.a, found.c, found.b, found.d) == pytest.approx((1.4, -0.8, -0.2, 0.6), abs=0.1)
    assert found.exploration == 0.35
    # judged on games left out, the map does about as well as on the games it was fitted on
    assert report["cross_validated"]["log_loss"] == pytest.approx(report["after"]["log_loss"], abs=0.01)
    assert report["after"]["log_loss"] <= report["before"]["log_loss"]


def test_a_search_weight_the_fit_puts_below_zero_is_held_at_zero() -> None:
    from patchwork_opt.ai.learned.training import fit_search_map

    rng = np.random.default_rng(5)
    n = 20_000
    progress, searched, static = rng.random(n), rng.normal(0.0, 2.0, n), rng.normal(0.0, 1.5, n)
    # late in the game the search's chance points the wrong way once the value is known
    truth = (1.0 - progress) * 1.0 * searched - progress * 1.0 * searched + static
    won = (rng.random(n) < 1 / (1 + np.exp(-truth))).astype(int)
    found, _ = fit_search_map(1 / (1 + np.exp(-searched)), won, progress, 1 / (1 + np.exp(-static)),
                              evaluator="learned", weights="digest", exploration=0.35)
    assert found.a > 0.3 and found.a + found.c == pytest.approx(0.0) and found.d > 0.5


def test_the_value_after_a_move_is_the_learned_value_of_the_search_trees_child() -> None:
    # the win map weighs the learned value of the position a move leads to: it must be the position
    # the compiled search holds for that move (a leather patch placed as the search places it)
    from patchwork_opt.ai.learned.value import learned_value, shipped_params

    checked = leather = 0
    for seed in range(40):
        state = State.new(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(int(rng.integers(4, 40))):
            if state.is_terminal():
                break
            moves = list(state.legal_moves())
            state.apply(moves[int(rng.integers(len(moves)))])
        if state.is_terminal() or state.pending >= 0:
            continue
        moves = search.root_moves(state, None)
        tree = fastcore.CompiledSearch(state, moves, seed=1, capacity=200, evaluator=search.default_evaluator())
        tree.run(len(moves))
        mover = state.to_move()
        for i, move in enumerate(tree.root_moves[: int(tree.n_exp[0])]):
            child = tree.states[tree.child[0, i]]
            if tree.player[tree.child[0, i]] < 0:
                continue
            _, win0, margin0 = learned_value(child, shipped_params(), np.random.default_rng(0))
            win, margin = win_after(state, move)
            assert (win, margin) == pytest.approx((win0, margin0) if mover == 0 else (1 - win0, -margin0))
            checked += 1
            after = state.clone()
            after.apply(move)
            leather += after.pending >= 0
    assert checked > 60 and leather > 0
