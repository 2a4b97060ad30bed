"""Glicko-2 as Glickman's paper defines it: its worked example, and ratings that move the right way."""

from __future__ import annotations

import pytest

from patchwork_opt.puzzles.glicko import Game, Rating, expected_score, rate_answer, update


def test_the_papers_worked_example() -> None:
    """'Example of the Glicko-2 system' (Glickman, 2013): a 1500/200/0.06 player beats a 1400/30 and
    loses to a 1550/100 and a 1700/300 (tau 0.5) and ends at 1464.06, RD 151.52, volatility 0.05999."""
    after = update(Rating(1500, 200, 0.06), [
        Game(Rating(1400, 30), 1.0), Game(Rating(1550, 100), 0.0), Game(Rating(1700, 300), 0.0),
    ], tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(Rating(1700, 100, 0.06), [])
    assert after.rating == 1700 and after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)
    assert update(Rating(1500, 349.9, 0.06), []).deviation == 350  # never past a newcomer's


@pytest.mark.parametrize("correct", [True, False])
def test_an_answer_moves_the_visitor_and_the_puzzle_opposite_ways(correct: bool) -> None:
    visitor, puzzle = Rating(1500, 200), Rating(1600, 150)
    v, p = rate_answer(visitor, puzzle, correct)
    assert (v.rating > visitor.rating) is correct and (p.rating < puzzle.rating) is correct
    assert v.deviation < visitor.deviation and p.deviation < puzzle.deviation  # both are better known now


def test_solving_a_harder_puzzle_gains_more() -> None:
    visitor = Rating(1500, 200)
    easy = rate_answer(visitor, Rating(1200, 100), True)[0].rating - visitor.rating
    hard = rate_answer(visitor, Rating(1900, 100), True)[0].rating - visitor.rating
    assert hard > easy > 0
    assert expected_score(visitor, Rating(1900, 100)) < 0.5 < expected_score(visitor, Rating(1200, 100))
