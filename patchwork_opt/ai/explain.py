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
from patchwork_opt.core.words import move_words, patch_words, placed_words
from patchwork_opt.i18n import _, ngettext, percent


def describe(move: Move) -> str:
    """``buys #12 for 3 buttons (time 6, income 2) at rows 0-2, cols 0-2, turned right``,
    ``advances``, ``puts the leather patch on row 4, col 4``."""
    if move.kind == "advance":
        # Translators: what the AI does (said after its name): moves its time token on
        return _("advances")
    if move.kind == "leather":
        return move_words(move, 0, third_person=True)
    p = PATCHES[move.patch]
    # Translators: what the AI does: buys patch {patch} for {count} buttons (its time and income) and sews it at {where}
    return ngettext("buys #{patch} for {count} button (time {time}, income {income}) at {where}",
                    "buys #{patch} for {count} buttons (time {time}, income {income}) at {where}", p.cost, patch=p.id,
                    time=p.time, income=p.income, where=placed_words(p.id, move.mask))


def short_words(move: Move) -> str:
    """A move named in passing (the runner-up of a reason): ``#7 at rows 0-1, cols 3-5, flipped``,
    ``advancing``, ``leather``."""
    if move.kind == "buy":
        return patch_words(move.patch, move.mask)
    # Translators: a move named in passing: advancing the time token / placing the leather patch
    return _("advancing") if move.kind == "advance" else _("leather")


def _exact_reason(chosen: AnalysedMove, exact_nodes: int | None) -> str:
    """What best play leads to after ``chosen``, proven by the exact search (of ``exact_nodes`` positions)."""
    margin = chosen.margin
    if margin == 0:
        # Translators: what best play leads to, for the AI: the scores tie and the tie-break decides
        outcome = _("wins on the tie-break") if chosen.win else _("loses on the tie-break")
    elif margin > 0:
        outcome = ngettext("wins by {count}", "wins by {count}", margin)
    else:
        outcome = ngettext("loses by {count}", "loses by {count}", -margin)
    if exact_nodes is None:
        # Translators: why the AI plays {move}; {outcome} is "wins by 3"
        return _("{move} because searching the rest of the game exactly shows best play {outcome}",
                 move=describe(chosen.move), outcome=outcome)
    # Translators: why the AI plays {move}, after searching {count} positions; {outcome} is "wins by 3"
    return ngettext("{move} because searching the rest of the game exactly ({count} position) shows best play "
                    "{outcome}", "{move} because searching the rest of the game exactly ({count} positions) shows "
                    "best play {outcome}", exact_nodes, move=describe(chosen.move), outcome=outcome)


def reason(chosen: AnalysedMove, runner_up: AnalysedMove | None, exact_nodes: int | None = None) -> str:
    """Why the AI plays ``chosen``, in one sentence: ``buys #7 ... because the search gives it a 64%
    chance of winning over 812 simulations (next best, advancing: 41%)``, or after an exact search
    (``exact_nodes`` positions, when counted) what best play leads to."""
    move = chosen.move
    if chosen.exact:
        return _exact_reason(chosen, exact_nodes)
    if not chosen.valued:
        # Translators: why the AI plays {move}
        return _("{move} because it is the only move", move=describe(move))
    # Translators: why the AI plays {move}: {chance} ("64%") over {count} simulated games
    text = ngettext("{move} because the search gives it a {chance} chance of winning over {count} simulation",
                    "{move} because the search gives it a {chance} chance of winning over {count} simulations",
                    chosen.visits, move=describe(move), chance=percent(chosen.win))
    if runner_up is not None and runner_up.valued:
        # Translators: follows the AI's reason: the next best move ({move}) and its chance ("41%")
        text = _("{text} (next best, {move}: {chance})", text=text, move=short_words(runner_up.move),
                 chance=percent(runner_up.win))
    return text


def leather_decision(state: State) -> Decision:
    """The pending leather patch placed on the heuristic's cell, with its reason: how the greedy and
    MCTS bots place it (neither searches that choice)."""
    p = state.to_move()
    move = Move("leather", -1, leather_cell(state.quilts[p], state.bonus < 0))
    # Translators: why the AI puts its leather patch there ({move}: "puts the leather patch on row 4, col 4")
    return Decision(move, _("{move}, the most enclosed empty cell", move=describe(move)))
