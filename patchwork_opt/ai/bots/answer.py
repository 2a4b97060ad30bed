"""``patchwork move``: the AI's move for a position, as a script or another program asks for it.

Like a chess engine's answer to "go": one move, why, and (when the bot knows) the chance the
player to move wins, the final margin expected and whether both come from an exact search.
"""

from __future__ import annotations

from typing import Any

from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.i18n import N_, _, percent, signed


def move_answer(
    state: State | None,
    *,
    ai: str = "solver",
    level: int = 3,
    time_per_move: float | None = None,
    seed: int | None = None,
    advisor: PlacementAdvisor | None = None,
) -> dict[str, Any]:
    """``{"move", "reason", "win", "margin", "exact"}`` for the player to move of ``state``."""
    if state is None:
        raise PatchworkError(N_("a bare quilt has no player to move: give a position or a record"))
    if state.is_terminal():
        # like a bare quilt, a finished game is input with no player to move: ``patchwork move``
        # has always exited 2 for it
        raise GameOverError()
    bot = make_bot(ai, level=level, seed=seed, time_per_move=time_per_move, advisor=advisor)
    decision = bot.decide(state)
    win = decision.expected
    margin = decision.stats.get("margin")
    return {
        "move": decision.move.to_json(),
        "reason": decision.reason,
        "win": None if win is None else min(1.0, max(0.0, float(win))),
        "margin": None if margin is None else float(margin),
        "exact": bool(decision.stats.get("exact", 0.0)),
    }


def render_answer(answer: dict[str, Any], move_text: str) -> str:
    """Two lines: the move in text form, then the reason and the figures the bot gave."""
    figures = []
    if answer["win"] is not None:
        # Translators: the AI's figures for its move, after its reason: its chance to win ("win 55%")
        figures.append(_("win {chance}", chance=percent(answer["win"])))
    if answer["margin"] is not None:
        # Translators: the final margin in points the AI expects ("margin +3")
        figures.append(_("margin {points}", points=signed(answer["margin"])))
    if answer["exact"]:
        # Translators: the AI's figures are proven by the exact search, not estimated
        figures.append(_("exact"))
    tail = f" ({', '.join(figures)})" if figures else ""
    return f"{move_text}\n{answer['reason']}{tail}"
