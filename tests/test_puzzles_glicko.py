"""Glicko-2 as Glickman's paper defines it: its worked example, and ratings that move the right way."""

from __future__ import annotations

import pytest

from patchwork_opt.puzzles.glicko import (
    DEVIATION_FLOOR,
    MAX_CHANGE,
    Game,
    Rating,
    expected_score,
    rate_answer,
    update,
)


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


def test_a_newcomers_first_answers_move_the_rating_by_at_most_the_cap() -> None:
    """Unsteadied, a newcomer missing a difficulty-1 puzzle (1100) drops some 360 points at once."""
    easy, hard = Rating(1100, 250), Rating(1900, 250)
    assert abs(update(Rating(), [Game(easy, 0.0)]).rating - 1500) > 3 * MAX_CHANGE  # what the cap is for
    visitor = Rating()
    for puzzle, correct in [(easy, False), (easy, False), (hard, True), (easy, True), (hard, False)]:
        after, puzzle_after = rate_answer(visitor, puzzle, correct)
        assert 0 < abs(after.rating - visitor.rating) <= MAX_CHANGE
        assert 0 < abs(puzzle_after.rating - puzzle.rating) <= MAX_CHANGE
        assert (after.rating > visitor.rating) is correct
        visitor = after


def test_the_deviation_never_goes_under_the_floor() -> None:
    visitor, puzzle = Rating(), Rating(1500, 100)
    floored = 0
    for i in range(60):
        unsteadied = update(visitor, [Game(puzzle, float(i % 3 != 0))])
        visitor, puzzle = rate_answer(visitor, puzzle, i % 3 != 0)
        assert visitor.deviation >= DEVIATION_FLOOR and puzzle.deviation >= DEVIATION_FLOOR
        floored += unsteadied.deviation < DEVIATION_FLOOR == visitor.deviation
    assert floored > 10  # Glicko-2 alone would have gone under, again and again
