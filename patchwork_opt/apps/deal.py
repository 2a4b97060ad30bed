"""The deal: how much the circle's order favoured Player 1, apart from how anyone played.

Patchwork's only chance is the circle: once it is dealt, the rest of the game follows from the two
players' choices. So, as GNU Backgammon and eXtreme Gammon split a result into luck and skill, a
review splits it into the deal and the moves. The deal's figure is Player 1's win chance at the
start with this circle (``first_win``) against their win chance at the start averaged over random
circles (``average_first_win``: the first seat's advantage is in that average, so it is no luck);
Player 1's deal luck is the difference and Player 2's its opposite (zero-sum). What the moves
changed afterwards is skill: the win chance each player lost, move by move (the review's plies).

For the luck to be zero on average, ``first_win`` and the average must come from the same
analysis. A timed search is not the same analysis twice (how many iterations a second holds
depends on the machine and its load, and the start's win chance moves with depth: 0.60 at 2,000
iterations, 0.45 at 20,000 on one circle), so both come from one fixed analysis, ``start_win``:
the review's position analysis (``analyse_position``: the learned value, the search's win map)
with ``DEAL_ITERATIONS`` iterations and seed ``DEAL_SEED``. It is repeatable to the last digit and
the same in ``patchwork analyze`` and the web review (on an empty quilt the heuristic places, not
the CP-SAT advisor, so the advisor plays no part).

The average is measured once, over at least 1,000 random circles of each printing, by ``patchwork
bench deal --write`` (``bench/deal.py``), and shipped as ``data/deal.json`` with what made it (the
weights' and the win map's digests, the iterations, the seed, and the first circles' figures, which
a test recomputes): reviews read it, never recompute it. A record whose leather spaces are neither
printing, or an average measured for other weights or another win map, has no deal (None).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patchwork_opt.core.catalogue import LEATHER_PRINTINGS
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import N_, _, number, percent

#: The deal's analysis: iterations of the review's position analysis at the start, and its seed.
#: 20,000 iterations take about a quarter second of one core (within the review's default half second
#: a position); on four circles the start's figure moved by at most 0.034 from there to 80,000.
DEAL_ITERATIONS = 20_000
DEAL_SEED = 0
SHIPPED_DEAL = Path(__file__).resolve().parents[1] / "data" / "deal.json"
DEAL_FORMAT = 1


class DealFileError(PatchworkError):
    """A deal file that cannot be read (``bench deal`` writes them)."""


@functools.lru_cache(maxsize=512)
def start_win(circle: tuple[int, ...], leather: tuple[int, ...]) -> float:
    """Player 1's win chance at the start of a game with ``circle`` and ``leather`` (the deal's one
    analysis: ``DEAL_ITERATIONS`` iterations of the position analysis, seed ``DEAL_SEED``)."""
    from patchwork_opt.ai.analysis.position import analyse_position

    start = State.new(list(circle), leather=leather)
    analysis = analyse_position(start, iterations=DEAL_ITERATIONS, seed=DEAL_SEED)
    assert analysis.player == 0  # Player 1 moves first
    return analysis.best.win


def analysis_digests() -> dict[str, str]:
    """What the deal's analysis depends on besides the code: the shipped weights and win map."""
    from patchwork_opt.ai.learned.value import SHIPPED_WEIGHTS
    from patchwork_opt.ai.learned.winmap import SHIPPED_SEARCH_MAP, file_digest

    return {"weights": file_digest(SHIPPED_WEIGHTS), "search_map": file_digest(SHIPPED_SEARCH_MAP)}


@dataclass(frozen=True, slots=True)
class DealAverage:
    """Player 1's win chance at the start over ``circles`` random circles of one printing: the mean
    and its 95% confidence interval (mean +- 1.96 standard errors)."""

    printing: str
    circles: int
    mean: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Deal:
    """Player 1's win chance at the start with this circle and with the average circle; each
    player's luck (Player 1's is ``first_win - average_first_win``, Player 2's its opposite)."""

    first_win: float
    average: DealAverage

    @property
    def average_first_win(self) -> float:
        return self.average.mean

    @property
    def luck(self) -> tuple[float, float]:
        first = self.first_win - self.average.mean
        return first, -first

    def to_json(self) -> dict[str, Any]:
        first, second = self.luck
        return {"first_win": round(self.first_win, 4), "average_first_win": round(self.average.mean, 4),
                "luck": [round(first, 4), round(second, 4)], "circles": self.average.circles}


def read_deal_averages(path: str | Path) -> dict[str, DealAverage]:
    """The averages of a deal file, by printing, when they were measured with today's deal analysis
    (iterations, seed, weights and win map); an empty dict when they were not."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("format") != DEAL_FORMAT:
            raise DealFileError(N_("{path}: not a deal file of format {format}"), path=path, format=DEAL_FORMAT)
        same = (data["iterations"] == DEAL_ITERATIONS and data["seed"] == DEAL_SEED
                and all(data[k] == v for k, v in analysis_digests().items()))
        if not same:
            return {}
        return {name: DealAverage(name, int(p["circles"]), float(p["mean"]), float(p["interval"][0]),
                                  float(p["interval"][1]))
                for name, p in data["printings"].items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        # Translators: {reason} is what went wrong, in English
        raise DealFileError(N_("{path}: cannot read the deal's averages ({reason})"), path=path, reason=exc) from None


@functools.cache
def shipped_averages() -> dict[str, DealAverage]:
    return read_deal_averages(SHIPPED_DEAL) if SHIPPED_DEAL.exists() else {}


def printing_of(leather: tuple[int, ...]) -> str | None:
    """The printing whose leather spaces these are, or None."""
    return next((name for name, spaces in LEATHER_PRINTINGS.items() if spaces == tuple(sorted(leather))), None)


def deal_of(record: Record) -> Deal | None:
    """The deal of ``record``'s game; None when no average was measured for its leather spaces (or
    for today's weights and win map)."""
    printing = printing_of(record.leather)
    average = shipped_averages().get(printing) if printing is not None else None
    if average is None:
        return None
    return Deal(start_win(tuple(record.circle), tuple(record.leather)), average)


def deal_words(deal: Deal, names: list[str]) -> str:
    """The deal in one line: ``deal: Player 1 wins 62% of games with this circle against 53% with the
    average one: luck +9% for Player 1, -9% for Player 2``."""
    first, second = deal.luck
    # Translators: the deal's luck: {first} ("Player 1") wins {chance} ("62%") of games with this circle
    # of patches, {average} with an average one over {circles} random circles; {luck} and {other_luck}
    # are signed ("+9%", "-9%")
    return _("deal: {first} wins {chance} of games with this circle against {average} with the average one "
             "({circles} random circles): luck {luck} for {first}, {other_luck} for {second}",
             first=names[0], second=names[1], chance=percent(deal.first_win), average=percent(deal.average_first_win),
             circles=number(deal.average.circles), luck=percent(first, sign=True),
             other_luck=percent(second, sign=True))
