"""One voice (issue 40, part 2): the same question gets the same answer, a proven win is never ranked
below a proven loss or an estimate, an exact result within the budget is waited for, and a review
shows a move's difference from the best only where it stands above the search's own uncertainty."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from conftest import late_positions

from patchwork_opt.ai.analysis import position, run
from patchwork_opt.ai.analysis.position import Spread, analyse_position, spread
from patchwork_opt.ai.base import AnalysedMove, SearchedPosition, move_key
from patchwork_opt.ai.search import exactcore
from patchwork_opt.apps.hints import advised_hints
from patchwork_opt.apps.judge import CONFIDENCE, Figure, judge_ply, label_of
from patchwork_opt.apps.web.routers.reviews import REVIEW_SECONDS
from patchwork_opt.apps.web.services import PAGE_REVIEW_SECONDS, Limits
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State


def _endgames(count: int) -> list[tuple[State, dict[tuple[str, int, int], float]]]:
    """Late positions of seeded games that the exact search settles in a few thousand nodes (far
    within any budget asked below, on any machine), where a winning and a losing move both exist;
    with each move's proven win, by its key up to the board's symmetries."""
    found = []
    for seed in range(200):
        for state in late_positions(seed, 46)[:3]:
            if exactcore.estimate_nodes(state, every_move=True, quantile=0.75) > 20_000:
                continue
            solved = exactcore.solve(state, node_limit=2_000_000, every_move=True)
            wins = {move_key(solved.quilt, m.move): m.win for m in solved.moves}
            if solved.solved and set(wins.values()) == {0.0, 1.0}:
                found.append((state, wins))
                break
        if len(found) == count:
            return found
    raise AssertionError("too few endgames with a winning and a losing move")


def test_the_same_endgame_asked_again_gets_the_same_winning_first_move() -> None:
    """Each endgame asked four times at the page's hint budget: the same first move every time, and
    a winning one (never a move it proved lost while another wins)."""
    for state, wins in _endgames(6):
        firsts = set()
        for _ in range(4):
            hints = advised_hints(state.clone(), deadline=Deadline.after(Limits().game_hint_seconds))
            assert hints.search == "exact"
            top = Move.from_json(hints.hints[0].line[0])
            key = move_key(state.quilts[state.to_move()], top)
            assert wins[key] == 1.0
            firsts.add(key)
        assert len(firsts) == 1


def _moves(state: State) -> list[Move]:
    return list(state.legal_moves())[:3]


def test_proven_wins_rank_first_and_proven_losses_last() -> None:
    state = State.new(seed=2)
    won, sampled, lost = _moves(state)
    proven_win = AnalysedMove(won, 1.0, 1.0, 0, False, (won,), floor=2)  # proven to win, margin not settled
    estimate = AnalysedMove(sampled, 0.97, 12.0, 900, False, (sampled,), searched=0.99)
    proven_loss = AnalysedMove(lost, 0.0, -1.0, 40, False, (lost,), value=-2, bound=True)
    ranked = sorted([proven_loss, estimate, proven_win], key=position._rank)
    assert [m.move for m in ranked] == [won, sampled, lost]
    # equal moves come in one order whichever came first
    a, b = AnalysedMove(won, 1.0, 3.0, 0, True, (won,), 6), AnalysedMove(sampled, 1.0, 3.0, 0, True, (sampled,), 6)
    assert sorted([a, b], key=position._rank) == sorted([b, a], key=position._rank)


def test_an_early_stop_never_cuts_off_an_exact_result_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first exact attempt runs out, the sampling settles at once: the time left goes back to the
    exact search, and its result is the answer."""
    state = late_positions(3, 46)[0]
    truth = exactcore.solve(state, every_move=True)
    assert truth.solved
    unfinished = SearchedPosition.of(state, [])
    calls: list[tuple[str, float]] = []

    def first(state: State, **kwargs: object) -> SearchedPosition:
        deadline = kwargs["deadline"]
        assert isinstance(deadline, Deadline) and kwargs["reach"]
        calls.append(("first", deadline.remaining()))
        return unfinished

    def again(state: State, deadline: Deadline, **kwargs: object) -> SearchedPosition:
        calls.append(("again", deadline.remaining()))
        return truth

    monkeypatch.setattr(run, "within_reach", lambda state, deadline: True)
    monkeypatch.setattr(run, "exact_analysis", first)
    monkeypatch.setattr(run, "resume_exact", again)
    monkeypatch.setattr(run, "settled", lambda visits, left: True)  # the sampling's early stop, at once
    found = analyse_position(state, deadline=Deadline.after(30.0))
    assert [name for name, _ in calls] == ["first", "again"] and calls[1][1] > 10.0
    assert found.solved and all(m.exact for m in found.moves)
    assert found.best.win == truth.best.win and found.best.margin == truth.best.margin


def test_an_exact_result_within_reach_gets_a_full_share_not_a_probe() -> None:
    state = late_positions(3, 46)[0]
    seconds = exactcore.estimate_seconds(state, every_move=True, quantile=run.EXACT_QUANTILE)
    assert seconds > 0

    def frozen() -> float:
        return 0.0

    assert run.within_reach(state, Deadline.after(seconds * 1.5, frozen))
    assert not run.within_reach(state, Deadline.after(seconds / 2, frozen))
    # the estimate is over the exact search's share (half the budget), but within the whole budget
    deadline = Deadline.after(seconds * 1.5, frozen)
    short = run.exact_budget(state, deadline=deadline, iterations=None, every_move=True)
    assert short is not None and short.probe
    budget = run.exact_budget(state, deadline=deadline, iterations=None, every_move=True, reach=True)
    assert budget is not None and not budget.probe


def test_a_ply_s_error_bars_are_the_spread_of_both_figures() -> None:
    """The noise a ply's difference must stand above is the spread of the figure before (the
    analysis's best) and the figure after (the position the move led to), none where both are proven."""
    state = State.new(seed=4)
    best, played = _moves(state)[:2]
    b = AnalysedMove(best, 0.60, 4.0, 2000, False, (best,), searched=0.6)
    after = Figure.seen_by(0, 0.40, -1.5, False, False, spread(b, 1500))
    ply, _ = judge_ply(0, state, played, SearchedPosition.of(state, [b]), after)
    both = spread(b, 2000) + after.spread
    assert ply.loss_error == pytest.approx(CONFIDENCE * both.win) and ply.loss_error > 0
    assert ply.points_error == pytest.approx(CONFIDENCE * both.margin)
    assert ply.label == label_of(ply.loss, ply.points_lost, False) == "blunder"
    exact = SearchedPosition.of(state, [replace(b, exact=True, visits=0, win=1.0, value=8)])
    proven, _ = judge_ply(0, state, played, exact, Figure.seen_by(0, 0.0, -1.0, True, True, Spread(0.0, 0.0)))
    assert proven.loss_error == proven.points_error == 0.0 and proven.label == "blunder"
    assert spread(exact.moves[0], 0) == Spread(0.0, 0.0)
    # a shallower analysis is less sure of its figures
    assert spread(b, 200).win > spread(b, 2000).win and spread(b, 200).margin > spread(b, 2000).margin


def test_the_page_s_hint_budget_is_its_default_review_depth() -> None:
    """So that the page's default review reads the analyses its hints showed (the cache answers a
    review from an analysis at least as deep)."""
    assert Limits().game_hint_seconds == PAGE_REVIEW_SECONDS == REVIEW_SECONDS


def test_a_sampled_analysis_of_a_midgame_is_not_waited_on() -> None:
    """Out of the exact search's reach (an opening), the analysis keeps its early stop: no time is
    handed to an exact search that cannot finish."""
    state = State.new(seed=random.Random(5).randrange(1000))
    assert not run.within_reach(state, Deadline.after(1.0))
