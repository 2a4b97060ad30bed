"""The review's points lost: on every ply, in every view, and in the labels (weak moves, not noise)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from patchwork_opt.ai.analysis.position import Spread, analyse_position
from patchwork_opt.ai.base import AnalysedMove, Bot, SearchedPosition
from patchwork_opt.ai.bots.random_bot import RandomBot
from patchwork_opt.ai.bots.solver_bot import SolverBot
from patchwork_opt.ai.search.exact import won_move
from patchwork_opt.apps.judge import (
    GRADE_WIN_PER_POINT,
    LABELS,
    POINT_LABELS,
    Figure,
    PlyReview,
    accounted_swing,
    judge_ply,
    label_of,
    label_rule,
)
from patchwork_opt.apps.review import (
    REFINE_SHARE,
    GameReview,
    close_calls,
    move_accuracy,
    render_review,
    review_game,
)
from patchwork_opt.apps.web.schemas import review_view
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record

ORDER = ("best", "good", "inaccuracy", "mistake", "blunder")


def test_a_move_that_lost_nothing_is_never_flagged() -> None:
    assert label_of(0.0, 0.0, is_best=False) == "good"
    assert label_of(0.01, 0.3, is_best=False) == "good"


def test_many_points_thrown_away_are_a_mistake_even_in_a_decided_game() -> None:
    assert label_of(0.0, 5.0, is_best=False) == "mistake"
    assert label_of(0.0, 9.0, is_best=False) == "blunder"
    assert label_of(0.0, 3.0, is_best=False) == "inaccuracy"
    assert label_of(0.0, 1.0, is_best=False) == "good"


@given(st.floats(0.0, 1.0), st.floats(0.0, 40.0))
def test_a_shown_drop_of_ten_percent_or_three_points_is_never_good(loss: float, points: float) -> None:
    label = label_of(loss, points, is_best=False)
    if loss >= 0.10 or points >= 3.0:
        assert label not in ("best", "good")
    if loss >= 0.10 or points >= 4.0:
        assert ORDER.index(label) >= ORDER.index("mistake")


@given(st.floats(0.0, 1.0), st.floats(0.0, 40.0), st.floats(0.0, 1.0), st.floats(0.0, 40.0))
def test_a_move_worse_on_both_figures_never_gets_a_milder_label(loss: float, points: float, more: float,
                                                                 more_points: float) -> None:
    milder = label_of(loss, points, is_best=False)
    worse = label_of(loss + more, points + more_points, is_best=False)
    assert ORDER.index(worse) >= ORDER.index(milder)


def test_the_point_grades_are_the_win_chance_grades_at_one_rate() -> None:
    """Labels and accuracy read one figure (``graded_loss``): each point grade is its win grade."""
    for (name, chance), (same, points) in zip(LABELS, POINT_LABELS, strict=True):
        assert name == same and points * GRADE_WIN_PER_POINT == pytest.approx(chance)


def test_a_proven_win_thrown_away_is_a_blunder_though_few_points_back_it() -> None:
    """An unfinished exact search proved the best move wins (by at least 1 point) and the position
    the played move led to is proven lost: the whole win chance is shown lost, a blunder."""
    state = State.new(seed=4)
    best, played = list(state.legal_moves())[:2]
    here = SearchedPosition.of(state, [replace(won_move(best, 2), margin=1.5, visits=40)])
    lost = Figure.seen_by(0, 0.0, -0.5, False, True, Spread(0.0, 0.6))
    ply, before = judge_ply(0, state, played, here, lost)
    assert ply.loss == 1.0 and ply.points_lost == 2.0 and not ply.exact
    assert ply.label == "blunder" and before.win == 1.0


def test_a_difference_within_the_search_s_noise_is_shown_as_none() -> None:
    """Two sampled figures a percent and half a point apart: about the same as the best, shown with
    no drop, and the position before takes the figure after (the chain goes on from it)."""
    state = State.new(seed=4)
    best, played = list(state.legal_moves())[:2]
    here = SearchedPosition.of(state, [AnalysedMove(best, 0.60, 2.0, 2000, False, (best,))])
    after = Figure.seen_by(0, 0.59, 1.5, False, False, Spread(0.0135, 0.6))
    ply, before = judge_ply(0, state, played, here, after)
    assert ply.within_noise and ply.label == "good" and ply.loss == 0.0 and ply.points_lost == 0.0
    assert before == after and ply.loss_error > 0.01
    # the same drop, proven on both sides, is shown and graded
    proven = SearchedPosition.of(state, [replace(won_move(best, 4), win=0.60, margin=2.0)])
    ply, _ = judge_ply(0, state, played, proven, Figure.seen_by(0, 0.45, 1.5, True, True, Spread(0.0, 0.0)))
    assert not ply.within_noise and ply.loss == pytest.approx(0.15) and ply.label == "mistake"


def test_the_move_played_is_never_shown_better_than_the_best() -> None:
    """A move that comes out ahead of the analysis's best is a best move: the figure before is raised
    to it (never "8% -> 27%, keeping 8%"); the analysis's best move is never shown dropping."""
    state = State.new(seed=4)
    best, played = list(state.legal_moves())[:2]
    here = SearchedPosition.of(state, [AnalysedMove(best, 0.08, -9.0, 2000, False, (best,))])
    higher = Figure.seen_by(0, 0.27, -4.0, False, False, Spread(0.0135, 0.6))
    ply, before = judge_ply(0, state, played, here, higher)
    assert ply.label == "best" and ply.win_before == ply.win_after == 0.27 and before == higher
    lower = Figure.seen_by(0, 0.02, -14.0, False, False, Spread(0.0135, 0.6))
    ply, before = judge_ply(0, state, best, here, lower)  # the analysis's own best, worse one ply on
    assert ply.label == "best" and ply.loss == 0.0 and before == lower


def test_the_stated_rule_names_every_threshold_the_labels_use() -> None:
    rule = label_rule()
    for (name, chance), (_, points) in zip(LABELS, POINT_LABELS, strict=True):
        assert f"{name} from {chance:.0%} or {points:g} points" in rule
        # either threshold reached earns the label ...
        assert label_of(0.0, points, is_best=False) == name
        assert label_of(chance, 0.0, is_best=False) == name
        # ... and just under both does not
        assert label_of(chance - 1e-3, points - 0.01, is_best=False) != name


def test_accuracy_is_lichess_formula_of_the_drop_in_win_chance() -> None:
    assert move_accuracy(0.0) == 100.0
    assert move_accuracy(0.10) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669 + 1.0)
    assert move_accuracy(1.0) == 0.0


def _solver_against_random(seed: int, solver_seat: int) -> Record:
    state = State.new(seed=seed)
    record = Record.start(state)
    bots: list[Bot] = [RandomBot(seed), RandomBot(seed)]
    bots[solver_seat] = SolverBot(None, seed=seed, iterations=300)
    while not state.is_terminal():
        move = bots[state.to_move()].decide(state).move
        state.apply(move)
        record.moves.append(move)
    return record


@pytest.fixture(scope="module")
def reviews() -> list[tuple[int, GameReview]]:
    """A small seeded match, the solver against a random player (seats swapped), each reviewed."""
    out = []
    for seat in (0, 1):
        record = _solver_against_random(21, seat)
        record.players = ["solver" if s == seat else "random" for s in (0, 1)]
        out.append((seat, review_game(record, iterations=1000, seed=0)))
    return out


def test_the_random_player_makes_more_mistakes_than_the_solver_in_every_game(
    reviews: list[tuple[int, GameReview]],
) -> None:
    for seat, review in reviews:
        solver, rand = review.players[seat], review.players[1 - seat]
        assert rand.mistakes + rand.blunders > solver.mistakes + solver.blunders
        lost = [p.points_lost for p in review.plies]
        assert sum(lost[p.ply] for p in review.plies if p.player != seat) > sum(
            lost[p.ply] for p in review.plies if p.player == seat
        )


def test_every_ply_carries_its_points_lost(reviews: list[tuple[int, GameReview]]) -> None:
    for _, review in reviews:
        data = review.to_json()
        for ply, shown in zip(review.plies, data["plies"], strict=True):
            assert ply.points_lost >= 0 and shown["points_lost"] == round(ply.points_lost, 2)
            if ply.label == "best":
                assert ply.points_lost == 0
        lines = render_review(review).splitlines()
        assert all(" pts " in line for line in lines[: len(review.plies)])
        flagged = review.marks()
        assert flagged and all("points lost" in title for _, _, title in flagged)
        web = review_view(review, 0, 0.1)
        assert [p.points_lost for p in web.plies] == [round(p.points_lost, 2) for p in review.plies]


def _first(win: float, player: int) -> float:
    return win if player == 0 else 1.0 - win


def test_the_figures_chain_from_ply_to_ply_and_account_for_the_swing(reviews: list[tuple[int, GameReview]]) -> None:
    """One figure per position: a ply's figure after is the next ply's before (Player 1's view), the
    chart is those figures, and each player's losses add up to the swing between the first and last."""
    for _, review in reviews:
        plies = review.plies
        for ply, following in itertools.pairwise(plies):
            assert _first(ply.win_after, ply.player) == pytest.approx(_first(following.win_before, following.player))
        assert review.first_wins == pytest.approx(
            [_first(p.win_before, p.player) for p in plies] + [_first(plies[-1].win_after, plies[-1].player)])
        assert review.first_wins[-1] in (0.0, 1.0)  # a finished game's figure is its result
        assert accounted_swing(plies) == pytest.approx(review.first_wins[0] - review.first_wins[-1])


def test_every_reviewed_move_meets_the_label_rules(reviews: list[tuple[int, GameReview]]) -> None:
    for _, review in reviews:
        for p in review.plies:
            assert p.win_after <= p.win_before and p.margin_after <= p.margin_before  # never better than the best
            assert p.label == label_of(p.loss, p.points_lost, p.label == "best")
            assert p.label != "best" or p.loss == p.points_lost == 0.0
            for q in review.plies:
                if q.loss >= p.loss and q.points_lost >= p.points_lost:
                    assert ORDER.index(q.label) >= ORDER.index(p.label) or p.label == "best" == q.label or (
                        q.label == "best" and q.loss == p.loss == 0.0 and q.points_lost == p.points_lost == 0.0)


def test_the_review_tells_a_random_player_from_the_solver(reviews: list[tuple[int, GameReview]]) -> None:
    """The random player's accuracy is at least 20 points below the solver's, with at least 3 mistakes
    or blunders a game, and the summary says who won and when the game was decided."""
    for seat, review in reviews:
        solver, rand = review.players[seat], review.players[1 - seat]
        assert rand.accuracy <= solver.accuracy - 20.0, (rand, solver)
        assert rand.mistakes + rand.blunders >= 3
        summary = review.to_json()["summary"]
        assert summary.startswith(f"{review.players[seat].name} won") and "decided at move" in summary
        assert f"{rand.name} {rand.points_per_decision:.1f}" in summary


def _judged(ply: int, loss: float, points: float, *, error: float = 0.03, exact: bool = False,
            within: bool = False) -> PlyReview:
    label = label_of(loss, points, is_best=False)
    return PlyReview(ply=ply, player=ply % 2, played=ADVANCE, best=ADVANCE, win_before=0.5, win_after=0.5 - loss,
                     loss=loss, points_lost=points, label=label, margin_before=0.0, margin_after=-points, exact=exact,
                     played_words="advance", best_words="advance", loss_error=0.0 if exact else error,
                     points_error=0.0 if exact else 1.0, within_noise=within)


def test_the_close_calls_are_the_plies_a_label_s_edge_lies_within_the_noise_of() -> None:
    plies = [
        _judged(0, 0.055, 0.5),  # 5.5% against the 5% edge, 3% of noise: close
        _judged(1, 0.30, 12.0),  # a blunder by far
        _judged(2, 0.055, 0.5, exact=True),  # proven: no noise
        _judged(3, 0.0, 0.0, error=0.045, within=True),  # about the same as the best, its noise reaching 5%
        _judged(4, 0.11, 0.5),  # 11% against the 10% edge: close
        _judged(5, 0.025, 0.5),  # a good move, 2.5% from the first edge: close too
        _judged(6, 0.15, 0.0),  # halfway between two edges: 5% from each, more than the noise
    ]
    assert close_calls(plies, share=1.0) == [0, 3, 4, 5]
    assert close_calls(plies, share=2 / 7) == [0, 3]  # the closest first (noise 4.5% of 5%; 0.5% of 3%)


def test_a_review_analyses_its_close_calls_again_deeper_and_chains_the_new_figures() -> None:
    record = _solver_against_random(21, 0)
    asked: list[str] = []

    def analyse(state: State, extra: Sequence[Move]) -> SearchedPosition:
        return analyse_position(state, iterations=300, seed=0, extra=list(extra))

    def deeper(state: State, extra: Sequence[Move]) -> SearchedPosition:
        asked.append(to_notation(state))
        return analyse_position(state, iterations=600, seed=0, extra=list(extra))

    first = review_game(record, analyse=analyse, with_deal=False)
    again = review_game(record, analyse=analyse, deeper=deeper, with_deal=False)
    calls = close_calls(first.plies)
    assert calls and len(calls) <= max(1, int(REFINE_SHARE * len(first.plies)))
    states = [record.replay(i) for i in range(len(record.moves) + 1)]
    wanted = {to_notation(states[j]) for i in calls for j in (i, i + 1) if not states[j].is_terminal()}
    assert set(asked) == wanted and len(asked) == len(wanted)
    for ply, following in itertools.pairwise(again.plies):
        assert _first(ply.win_after, ply.player) == pytest.approx(_first(following.win_before, following.player))
