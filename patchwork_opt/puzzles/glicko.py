"""Glicko-2 ratings, as Mark Glickman's paper "Example of the Glicko-2 system" (2013) defines them.

A puzzle answer is a game between the visitor and the puzzle (lichess rates its puzzles this way):
the visitor wins when the answer is correct. Each answer is a rating period of one game for both,
so ratings move after every answer. ``update`` is the paper's steps 1-8 for one player and the
games of one period; its test replays the paper's worked example. ``rate_answer`` steadies what
``update`` says for one answer: a floor under the deviation and a cap on the change (see there).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-2's scale factor between the Glicko scale (1500 +- RD) and its own (0 +- phi).
SCALE = 173.7178
#: The system constant tau: how much the volatility may change (the paper suggests 0.3 to 1.2).
TAU = 0.5
#: Convergence tolerance of the volatility iteration (step 5).
EPSILON = 0.000001
#: A newcomer: rating 1500, deviation 350, volatility 0.06 (the paper's defaults).
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
#: The deviation never grows past a newcomer's.
MAX_DEVIATION = 350.0
#: An answer never brings a deviation under this (the Glicko scale). With one answer a rating
#: period, Glicko-2 settles a much-answered rating at a deviation of about 60 (less as its volatility
#: falls), where it moves about 10 points an answer and is slow to follow a visitor who has grown
#: stronger or a puzzle easier than its difficulty said; at 80 it still moves about 17.
DEVIATION_FLOOR = 80.0
#: The most one answer moves a rating (the Glicko scale). A newcomer (deviation 350) who misses a
#: difficulty-1 puzzle would otherwise drop about 360 points at once, a swing that one slip of the
#: mouse does not warrant; 75 lets a strong newcomer climb a difficulty in about three answers.
MAX_CHANGE = 75.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` +- ``deviation`` (RD), and ``volatility``."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def to_json(self) -> dict[str, float]:
        return {"rating": round(self.rating, 1), "deviation": round(self.deviation, 1),
                "volatility": round(self.volatility, 6)}


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the period against ``opponent``: ``score`` 1 for a win, 0 for a loss (0.5 a draw)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The chance ``player`` beats ``opponent`` that Glicko-2 expects (0-1)."""
    return _expected((player.rating - 1500.0) / SCALE, (opponent.rating - 1500.0) / SCALE,
                     opponent.deviation / SCALE)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0 with x = ln(sigma'^2)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these games (steps 1-8 of the paper).

    With no games the rating stays and only the deviation grows (step 6 alone)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(phi_star * SCALE, MAX_DEVIATION), sigma)
    # step 3: the estimated variance v; step 4: the estimated improvement delta
    inverse_v = 0.0
    gain = 0.0
    for game in games:
        mu_j = (game.opponent.rating - 1500.0) / SCALE
        phi_j = game.opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        gain += g * (game.score - e)
    v = 1.0 / inverse_v
    delta = v * gain
    # step 5: the new volatility; steps 6-7: the new deviation and rating; step 8: back to Glicko's scale
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(SCALE * mu_new + 1500.0, min(SCALE * phi_new, MAX_DEVIATION), sigma_new)


def steadied(before: Rating, after: Rating) -> Rating:
    """``after`` with its change from ``before`` cut to ``MAX_CHANGE`` and its deviation kept at
    ``DEVIATION_FLOOR`` or above (the volatility is Glicko-2's own)."""
    change = max(-MAX_CHANGE, min(MAX_CHANGE, after.rating - before.rating))
    return Rating(before.rating + change, max(after.deviation, DEVIATION_FLOOR), after.volatility)


def rate_answer(visitor: Rating, puzzle: Rating, correct: bool) -> tuple[Rating, Rating]:
    """Both ratings after one answer: the visitor beat the puzzle when ``correct``, else lost to it;
    Glicko-2's update of each, steadied (``steadied``: a capped change, a floored deviation)."""
    score = 1.0 if correct else 0.0
    return (steadied(visitor, update(visitor, [Game(puzzle, score)])),
            steadied(puzzle, update(puzzle, [Game(visitor, 1.0 - score)])))
