"""The one clock: a deadline made once where a budget enters (a CLI option, an HTTP request, a
bot's level) and passed down, each part of the work taking its share through ``Deadline.share``.

A share never reaches past its parent, so however the work is divided nothing runs past the
deadline the edge made; what a part leaves unused is left to the parts after it (the caller keeps
the parent). No module cuts time with a private fraction: the shares are named constants, the
AI's and then the solvers' below (best fit, 7x7 completion), and optimal fill's, one per step,
beside its pipeline (``solvers/fill.py``), the one module that takes them.

The clock is a callable returning seconds (``time.perf_counter`` by default); tests inject a fake
one. Work that keeps its own time (CP-SAT's ``max_time_in_seconds``, the compiled exact search's
watcher thread) is handed ``solver_seconds(deadline)``, the one conversion of a deadline to a float,
made where the float is handed over.

A budget whose work may wait before it starts (a web request in the job queue) enters as a
``ThinkBudget``, seconds not yet started, and becomes its ``Deadline`` as the work starts: waiting
in line spends none of its thinking time.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.i18n import N_

Clock = Callable[[], float]
W = TypeVar("W")

#: The exact endgame search's share of the AI's time (what it leaves, sampling uses): its estimate
#: must say it finishes within it (``ai.analysis.run.exact_budget``).
EXACT_SHARE = 0.5
#: The share of the exact search's share a probe gets, where its estimate is a little over it.
PROBE_SHARE = 0.1
#: The share of the time left that one call of the CP-SAT placement advisor (one offer's
#: placements) may take, when the advisor is bounded by a deadline (hints, reviews, timed bots).
ADVISOR_SHARE = 0.08
#: The share of one advisor call's time each of its lookahead CP-SAT calls may take (at least 0.01 s).
LOOKAHEAD_SHARE = 0.5
#: The share of a live analysis's round (its sampling time) for the lines shown that the one search
#: left unvisited in the round before it: each thinks on in a tree of its own (``ai.analysis.live``).
LINES_SHARE = 0.3
#: Seconds one CP-SAT call of a patch's best fit (``hint QUILT --patch``) may take at most.
SOLVER_CALL_SECONDS = 0.2
#: Seconds one lookahead CP-SAT call of best fit may take at most otherwise (the advisor's, and
#: its 7x7 completion's, within its share).
COVER_CALL_SECONDS = 0.1

# --- 7x7 completion (solvers/bonus.py) ------------------------------------------------------------
#: The packing search's share once it outgrows its short node budgets (CP-SAT has what it leaves).
BONUS_SEARCH_SHARE = 0.5

#: The least time limit a solver that keeps its own time is handed (``solver_seconds``): a call
#: made as its deadline passes gets no more than this.
LEAST_SOLVER_SECONDS = 0.001


class BudgetError(PatchworkError):
    """A time budget that is not a positive number of seconds."""


#: A time budget that is no positive number of seconds, in words (said where it is reported).
# Translators: {seconds:g} is the number given (the option's or the request's)
BUDGET_REFUSAL = N_("a time budget must be a positive number of seconds, got {seconds:g}")


@dataclass(frozen=True, slots=True)
class Deadline:
    """A point in time on ``clock`` by which some work must be done."""

    at: float
    clock: Clock = field(default=time.perf_counter, compare=False, repr=False)

    @classmethod
    def after(cls, seconds: float, clock: Clock = time.perf_counter) -> Deadline:
        """The deadline ``seconds`` from now; ``seconds`` must be positive (the edge checks it)."""
        if not seconds > 0 or math.isinf(seconds):
            raise BudgetError(BUDGET_REFUSAL, seconds=seconds)
        return cls(clock() + seconds, clock)

    def remaining(self) -> float:
        """Seconds left (0 once passed)."""
        return max(0.0, self.at - self.clock())

    def expired(self) -> bool:
        return self.clock() >= self.at

    def share(self, fraction: float, at_least: float = 0.0) -> Deadline:
        """The deadline of a part given ``fraction`` (0-1) of the time left now, or ``at_least``
        seconds when that is more (never past this one)."""
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"a share is a fraction 0..1, got {fraction}")
        now = self.clock()
        return Deadline(min(self.at, now + max(fraction * max(0.0, self.at - now), at_least)), self.clock)

    def within(self, seconds: float) -> Deadline:
        """The deadline of a part given at most ``seconds`` from now (never past this one)."""
        return Deadline(min(self.at, self.clock() + max(0.0, seconds)), self.clock)


@dataclass(frozen=True, slots=True, order=True)
class ThinkBudget:
    """Seconds of thinking not yet started: what a request that may wait (a web job in the queue)
    carries from where it enters to where its work starts, and only there a ``Deadline``
    (``deadline``). A deadline made as the request came in would spend its time waiting in line, and
    the analysis cache, keyed by the budget, would keep the shallower analysis under the full budget's
    key. Frozen, hashable and ordered by its seconds: the cache's key, where an analysis of a larger
    budget answers a smaller one. A budget that is no positive number of seconds is a ``BudgetError``."""

    seconds: float

    def __post_init__(self) -> None:
        if not self.seconds > 0 or math.isinf(self.seconds):
            raise BudgetError(BUDGET_REFUSAL, seconds=self.seconds)

    def deadline(self, clock: Clock = time.perf_counter) -> Deadline:
        """The deadline of work that starts now with this budget."""
        return Deadline.after(self.seconds, clock)


def solver_seconds(deadline: Deadline) -> float:
    """The time limit, in seconds, of a solver that keeps its own time (CP-SAT's
    ``max_time_in_seconds``; a compiled search's watcher thread) so that it ends by ``deadline``:
    the time left, at least ``LEAST_SOLVER_SECONDS``. The one conversion of a deadline to a float,
    made at the call that hands the float over and nowhere else (on a fake clock, its seconds
    become real ones there)."""
    return max(deadline.remaining(), LEAST_SOLVER_SECONDS)


def deadline_after(seconds: float | None, clock: Clock = time.perf_counter) -> Deadline | None:
    """``Deadline.after(seconds)``, or None for no clock (an iteration budget instead)."""
    return None if seconds is None else Deadline.after(seconds, clock)


@runtime_checkable
class Bounded(Protocol):
    """Work that can be told its deadline (the CP-SAT placement advisor): ``bounded`` returns it
    with every call ending by ``deadline``."""

    def bounded(self, deadline: Deadline) -> Any: ...


def bounded(work: W, deadline: Deadline | None) -> W:
    """``work`` bounded by ``deadline`` when it can be (``Bounded``) and there is one, else as is."""
    if deadline is not None and isinstance(work, Bounded):
        return cast(W, work.bounded(deadline))
    return work
