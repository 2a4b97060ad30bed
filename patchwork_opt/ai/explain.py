"""Readable words for moves, so every Decision carries a sentence a player can follow.

The move itself is said with ``core.words``' pieces (where the patch lies and how it is turned, the
patch's number), in the third person: the bot ``buys``, ``advances``, ``puts``.
"""

from __future__ import annotations

from patchwork_opt.ai.base import AnalysedMove, Decision
from patchwork_opt.ai.heuristic import leather_cell
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import move_words, patch_words, placed_words, plural


def describe(move: Move) -> str:
    """``buys #12 for 3 buttons (time 6, income 2) at rows 0-2, cols 0-2, turned right``,
    ``advances``, ``puts the leather patch on row 4, col 4``."""
    if move.kind == "advance":
        return "advances"
    if move.kind == "leather":
        return move_words(move, 0, third_person=True)
    p = PATCHES[move.patch]
    return (f"buys #{p.id} for {plural(p.cost, 'button')} (time {p.time}, income {p.income}) at "
            f"{placed_words(p.id, move.mask)}")


def short_words(move: Move) -> str:
    """A move named in passing (the runner-up of a reason): ``#7 at rows 0-1, cols 3-5, flipped``,
    ``advancing``, ``leather``."""
    if move.kind == "buy":
        return patch_words(move.patch, move.mask)
    return "advancing" if move.kind == "advance" else "leather"


def reason(chosen: AnalysedMove, runner_up: AnalysedMove | None, exact_nodes: int | None = None) -> str:
    """Why the AI plays ``chosen``, in one sentence: ``buys #7 ... because the search gives it a 64%
    chance of winning over 812 simulations (next best, advancing: 41%)``, or after an exact search
    (``exact_nodes`` positions, when counted) what best play leads to."""
    move = chosen.move
    if chosen.exact:
        margin = chosen.margin
        if margin == 0:
            outcome = "wins on the tie-break" if chosen.win else "loses on the tie-break"
        else:
            outcome = f"wins by {margin:g}" if margin > 0 else f"loses by {-margin:g}"
        searched = f" ({exact_nodes} positions)" if exact_nodes is not None else ""
        return f"{describe(move)} because searching the rest of the game exactly{searched} shows best play {outcome}"
    if not chosen.valued:
        return f"{describe(move)} because it is the only move"
    text = (f"{describe(move)} because the search gives it a {chosen.win:.0%} chance of winning over "
            f"{chosen.visits} simulations")
    if runner_up is not None and runner_up.valued:
        text += f" (next best, {short_words(runner_up.move)}: {runner_up.win:.0%})"
    return text


def leather_decision(state: State) -> Decision:
    """The pending leather patch placed on the heuristic's cell, with its reason: how the greedy and
    MCTS bots place it (neither searches that choice)."""
    p = state.to_move()
    move = Move("leather", -1, leather_cell(state.quilts[p], state.bonus < 0))
    return Decision(move, f"{describe(move)}, the most enclosed empty cell")
