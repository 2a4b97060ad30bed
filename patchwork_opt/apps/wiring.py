"""Where the solvers are plugged into the AI: the one place that wires CP-SAT advice into terminal
play, ``move``, matches, the engine protocol and the web service's analyses and bots, which never
import ``solvers`` themselves. ``solver_advisor`` builds the CP-SAT advisor for every application
(hints, reviews, exercises, play) and the benchmarks; hints call the solvers' best fit directly.

It needs only the core install; the web service's endpoints are wired in ``apps/web/solver_services.py``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import TYPE_CHECKING

from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.bots.registry import ADVISED_BOTS, make_bot
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal

if TYPE_CHECKING:  # the searches, OR-Tools and the terminal UI are imported by the functions that use them
    from collections.abc import Iterator

    from patchwork_opt.ai.analysis.live import LiveSnapshot
    from patchwork_opt.ai.base import SearchedPosition
    from solvers.advisor import SolverAdvisor

#: The CP-SAT advisor, by import path: match workers (processes, Ray tasks) import it themselves.
SOLVER_ADVISOR = "solvers.advisor:SolverAdvisor"


def solver_advisor_path() -> str | None:
    """``SOLVER_ADVISOR`` when its module can be imported here, else None (the heuristic stands in)."""
    try:
        found = importlib.util.find_spec(SOLVER_ADVISOR.split(":")[0]) is not None
    except ModuleNotFoundError:
        found = False
    return SOLVER_ADVISOR if found else None


def solver_advisor(budget: float | None = None) -> SolverAdvisor:
    """A new CP-SAT placement advisor (``solvers.advisor.SolverAdvisor``): the one place the applications
    build it. ``budget``: seconds for one ranking's solver part (the benchmarks); None: the advisor's own."""
    from solvers.advisor import SolverAdvisor

    return SolverAdvisor() if budget is None else SolverAdvisor(budget=budget)


def play_bot(ai: str, level: int, seed: int | None) -> tuple[Bot, SolverAdvisor]:
    """The AI for terminal play, with the CP-SAT advisor plugged in (also used for suggestions)."""
    advisor = solver_advisor()
    return make_bot(ai, level=level, seed=seed, advisor=advisor), advisor


def bot_advisor(ai: str) -> PlacementAdvisor | None:
    """The placement advisor a bot named ``ai`` takes: the CP-SAT one for the advised bots
    (``registry.ADVISED_BOTS``), else none (``patchwork move`` and the service's bots)."""
    if ai.strip().lower() not in ADVISED_BOTS:
        return None
    return solver_advisor()


def match_advisor(p1: str, p2: str) -> str | None:
    """The advisor the match workers import (``SOLVER_ADVISOR``) when an advised bot plays and the
    module can be imported here; None when none plays or the heuristic stands in."""
    if not {p1.strip().lower(), p2.strip().lower()} & set(ADVISED_BOTS):
        return None
    return solver_advisor_path()


def analyse(
    state: State, budget: ThinkBudget, extra: Sequence[Move] = (), stop: StopSignal | None = None
) -> SearchedPosition:
    """The AI's analysis of a position with the CP-SAT advisor placing the offers, as ``patchwork
    hint`` and ``patchwork analyze`` make it: the service caches it for hints, reviews and AI moves.
    Its deadline is made here, when the analysis starts (``budget``, the cache's key, was made and
    capped once where the request came in; the time it waited in the job queue is not spent)."""
    from patchwork_opt.ai.analysis.position import analyse_position

    return analyse_position(state, deadline=budget.deadline(), advisor=solver_advisor(), extra=extra, stop=stop)


def live(state: State, *, stop: StopSignal, max_seconds: float | None = None) -> Iterator[LiveSnapshot]:
    """The live analysis of a position (``ai/analysis/live.py``) with the CP-SAT advisor placing the
    offers, as ``hint`` places them: the service's analysis stream, ``hint --watch`` and the engine's
    ``go infinite`` all run it."""
    from patchwork_opt.ai.analysis.live import live_analysis

    return live_analysis(state, stop=stop, max_seconds=max_seconds, advisor=solver_advisor())


def warm_compiled_searches() -> None:
    """Load every compiled search the service uses, from Numba's cache or compiling it first (once an
    install, in parallel processes, said on stderr: ``apps.warmup``, as ``patchwork warmup``); and
    OR-Tools, which the solvers import at their first model (about 0.3 s), not when loaded."""
    from ortools.sat.python import cp_model  # noqa: F401

    from patchwork_opt.apps.warmup import GROUPS, prepare

    prepare(list(GROUPS))


def compiled_searches_cached() -> bool:
    """Every compiled search the service uses is in Numba's cache: ``warm_compiled_searches`` only
    loads them (seconds), compiling none."""
    from patchwork_opt.apps.warmup import GROUPS, is_ready

    return all(is_ready(name) for name in GROUPS)
