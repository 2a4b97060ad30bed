"""The one clock: a deadline made once where a budget enters (a CLI option, an HTTP request, a
bot's level) and passed down, each part of the work taking its share through ``Deadline.share``.

A share never reaches past its parent, so however the work is divided nothing runs past the
deadline the edge made; what a part leaves unused is left to the parts after it (the caller keeps
the parent). No module cuts time with a private fraction: the shares are the constants below.

The clock is a callable returning seconds (``time.perf_counter`` by default); tests inject a fake
one. Work that is timed by another thread (the compiled exact search's watcher) converts a deadline
to the real clock with ``remaining``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from patchwork_opt.core.errors import PatchworkError

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
#: Seconds one CP-SAT call of a patch's best fit (``hint QUILT --patch``) may take at most.
SOLVER_CALL_SECONDS = 0.2


class BudgetError(PatchworkError):
    """A time budget that is not a positive number of seconds."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """A point in time on ``clock`` by which some work must be done."""

    at: float
    clock: Clock = field(default=time.perf_counter, compare=False, repr=False)

    @classmethod
    def after(cls, seconds: float, clock: Clock = time.perf_counter) -> Deadline:
        """The deadline ``seconds`` from now; ``seconds`` must be positive (the edge checks it)."""
        if not seconds > 0 or math.isinf(seconds):
            raise BudgetError(f"a time budget must be a positive number of seconds, got {seconds:g}")
        return cls(clock() + seconds, clock)

    def remaining(self) -> float:
        """Seconds left (0 once passed)."""
        return max(0.0, self.at - self.clock())

    def expired(self) -> bool:
        return self.clock() >= self.at

    def share(self, fraction: float) -> Deadline:
        """The deadline of a part given ``fraction`` (0-1) of the time left now."""
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"a share is a fraction 0..1, got {fraction}")
        now = self.clock()
        return Deadline(min(self.at, now + fraction * max(0.0, self.at - now)), self.clock)

    def within(self, seconds: float) -> Deadline:
        """The deadline of a part given at most ``seconds`` from now (never past this one)."""
        return Deadline(min(self.at, self.clock() + max(0.0, seconds)), self.clock)


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
