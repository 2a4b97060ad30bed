"""The review's points lost: on every ply, in every view, and in the labels (weak moves, not noise)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from patchwork_opt.ai.base import AnalysedMove, Bot, SearchedPosition
from patchwork_opt.ai.bots.random_bot import RandomBot
from patchwork_opt.ai.bots.solver_bot import SolverBot
from patchwork_opt.ai.search.exact import exact_move, won_move
from patchwork_opt.apps.review import (
    LABELS,
    POINT_LABELS,
    WIN_PER_POINT,
    GameReview,
    _ply,
    label_of,
    label_rule,
    move_accuracy,
    render_review,
    review_game,
)
from patchwork_opt.apps.web.schemas import review_view
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record


def test_a_move_that_lost_nothing_is_never_flagged() -> None:
    assert label_of(0.0, 0.0, is_best=False) == "good"
    assert label_of(0.0, 0.0, is_best=False, exact=True) == "good"
    assert label_of(0.01, 0.3, is_best=False) == "good"


def test_many_points_thrown_away_are_a_mistake_even_in_a_decided_game() -> None:
    assert label_of(0.0, 5.0, is_best=False) == "mistake"
    assert label_of(0.0, 9.0, is_best=False) == "blunder"
    assert label_of(0.0, 3.0, is_best=False) == "inaccuracy"
    assert label_of(0.0, 1.0, is_best=False) == "good"


def test_a_drop_in_win_chance_the_points_do_not_back_is_noise() -> None:
    # 15% of win chance for half a point: two estimates disagreeing, not a weak move
    assert label_of(0.15, 0.5, is_best=False) == "good"
    # the same drop with the points behind it is flagged
    assert label_of(0.15, 6.5, is_best=False) == "mistake"
    assert label_of(0.25, 10.0, is_best=False) == "blunder"


def test_exact_figures_count_in_full() -> None:
    # an exact endgame: a won game thrown away by two points is a blunder
    assert label_of(1.0, 2.0, is_best=False, exact=True) == "blunder"
    assert label_of(1.0, 2.0, is_best=True, exact=True) == "best"


def test_a_proven_win_thrown_away_counts_in_full_though_its_margins_are_not_proven() -> None:
    """An unfinished exact search proved the best move wins (by at least 1 point) and the played one
    loses, margins estimated: the whole win chance counts, a blunder though few points back it."""
    state = State.new(seed=4)
    best, played = list(state.legal_moves())[:2]
    here = SearchedPosition.of(state, [replace(won_move(best, 2), margin=1.5, visits=40),
                                       replace(exact_move(played, -2, (played,), bound=True), margin=-0.5,
                                               visits=40)])
    ply = _ply(0, state, played, here, None)
    assert ply.loss == 1.0 and ply.points_lost == 2.0 and not ply.exact
    assert ply.label == "blunder"
    sampled = SearchedPosition.of(state, [AnalysedMove(best, 1.0, 1.5, 40, False, (best,)),
                                          AnalysedMove(played, 0.0, -0.5, 40, False, (played,))])
    assert _ply(0, state, played, sampled, None).label != "blunder"  # the same figures, sampled: noise


def test_the_stated_rule_names_every_threshold_the_labels_use() -> None:
    rule = label_rule()
    for (name, chance), (_, points) in zip(LABELS, POINT_LABELS, strict=True):
        assert f"{name}: {chance:.0%} win chance or {points:g} points" in rule
        # either threshold reached (the win chance backed by points, or exact) earns the label ...
        assert label_of(0.0, points, is_best=False) == name
        assert label_of(chance, chance / WIN_PER_POINT + 1e-9, is_best=False) == name
        assert label_of(chance, 0.0, is_best=False, exact=True) == name
        # ... and just under both does not
        assert label_of(chance - 1e-3, points - 0.01, is_best=False) != name


def test_accuracy_is_lichess_formula_of_the_drop_in_win_chance() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    assert move_accuracy(0.10) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)
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
