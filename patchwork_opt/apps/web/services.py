"""What the caller plugs into the app: solver-backed functions and the AI, plus the server's limits.

``patchwork_opt`` never imports the solvers; ``cli.py`` (``patchwork serve``) builds these from
``solvers/`` and the AI registry, and tests plug in their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from patchwork_opt.ai.base import Bot
from patchwork_opt.core.state import State

#: ``run(request, time_cap)``: the solver's result for a validated request, never running longer
#: than ``time_cap`` seconds (the server's cap, already applied to whatever the request asked).
SolverRun = Callable[[BaseModel, float], BaseModel]
#: ``make_bot(name, level, seed, time_cap)``: a fresh bot for one decision.
BotFactory = Callable[[str, int, int, float], Bot]
#: ``game_hint(state, time_cap)``: the hint for the player to move, as ``patchwork hint --json``.
GameHint = Callable[[State, float], BaseModel]


@dataclass(frozen=True, slots=True)
class SolverEndpoint:
    """``POST /api/<name>``: the same request and result objects as the CLI's ``--json``."""

    request: type[BaseModel]
    #: the result model, or a union of models (``PositionHints | BestFitResult``)
    response: Any
    run: SolverRun
    summary: str


@dataclass(frozen=True, slots=True)
class Limits:
    """Server-side caps; a request can ask for less, never for more."""

    max_body_bytes: int = 64 * 1024
    max_solver_seconds: float = 5.0
    max_ai_seconds: float = 5.0
    #: solver and AI jobs running at once (more wait their turn; the event loop never blocks)
    solver_workers: int = 2


@dataclass(frozen=True, slots=True)
class Services:
    solvers: Mapping[str, SolverEndpoint] = field(default_factory=dict)
    game_hint: GameHint | None = None
    make_bot: BotFactory | None = None
    ai_names: Sequence[str] = ()
    default_ai: str = ""
