"""Plain-data summaries of positions: what ``--json`` prints and what the service returns."""

from __future__ import annotations

from typing import Any

from patchwork_opt.core.state import State


def player_summary(state: State, p: int) -> dict[str, Any]:
    view = state.player(p)
    return {
        "position": view.position,
        "buttons": view.buttons,
        "income": view.income,
        "empty": view.empty,
        "bonus": view.bonus,
        "score": view.score,
        "advance_to": state.advance_target(p),
    }


def position_summary(state: State) -> dict[str, Any]:
    """``players``, ``winner`` (0, 1 or None while running), ``over``, and what is on offer."""
    over = state.is_terminal()
    return {
        "players": [player_summary(state, 0), player_summary(state, 1)],
        "winner": state.winner(),
        "over": over,
        "to_move": None if over else state.to_move(),
        "offers": state.offers(),
        "leather_left": state.leather_left(),
    }

