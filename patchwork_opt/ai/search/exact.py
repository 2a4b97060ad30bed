"""Exact search of the rest of the game over every legal move (all placements, every leather cell).

Negamax with alpha-beta and a transposition table on the exact final outcome: the value of a
finished game for a player is ``2 * margin``, or ``+1``/``-1`` for a tie won/lost on the
tie-break (first to reach space 53), so the sign says who wins and the best value is the best
margin. Maximising it finds a winning move whenever one exists.

The moves searched are the candidate list's ``EVERY`` (``candidates``): every legal move up to
the board's symmetries and, for a player who will place nothing more, one placement per outcome
class; the table keys on the position with canonical quilts (``State.key(symmetric=True)``), so
the reductions stay exact.

A node budget and a deadline (``core.clock.Deadline``, checked at every node) bound the search;
when either runs out ``solve`` returns None and the caller falls back to its sampling search.
"""

from __future__ import annotations

import time

from patchwork_opt.ai.base import AnalysedMove, SearchedPosition
from patchwork_opt.ai.search.candidates import EVERY, candidate_moves
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import OFFER_SIZE, State

EXACT, LOWER, UPPER = 0, 1, 2


class OutOfBudget(Exception):
    """The node budget or the deadline ran out before the search finished."""


def final_value(state: State, player: int) -> int:
    """A finished game's value for ``player``: twice the margin, or +-1 for a tie-break."""
    margin = state.score(player) - state.score(1 - player)
    if margin:
        return 2 * margin
    return 1 if state.first_end == player else -1


def value_margin(value: float) -> float:
    """The score margin a value stands for (a tie-break value is a margin of 0)."""
    return 0.0 if abs(value) == 1 else value / 2


def exact_move(move: Move, value: int, line: tuple[Move, ...], *, bound: bool = False) -> AnalysedMove:
    """A root move with its value for the player to move, as every search reports a move: won or
    lost and the margin under best play, or with ``bound`` their upper bounds (the move was
    refuted by a better one and not searched further; a bound at or below 0 still proves a loss)."""
    return AnalysedMove(move, 1.0 if value > 0 else 0.0, value_margin(value), 0, not bound, line, value, bound)


def won_move(move: Move, floor: int) -> AnalysedMove:
    """A root move an unfinished exact search proved to win (its value at least ``floor`` > 0) without
    settling its exact value: won, by at least ``floor``'s margin."""
    if floor <= 0:
        raise ValueError(f"a proven win's floor must be positive, got {floor}")
    return AnalysedMove(move, 1.0, value_margin(floor), 0, False, (move,), None, False, floor=floor)


class ExactSearch:
    """One search tree's table; keep the object to reuse the table on later moves of a game."""

    def __init__(self, node_limit: int = 10**9, deadline: Deadline | None = None) -> None:
        self.node_limit = node_limit
        self.deadline = deadline  # None: no clock (the node limit alone)
        self.given_up = False
        self.nodes = 0
        self.table: dict[tuple[object, ...], tuple[int, int, Move]] = {}

    def give_up(self) -> None:
        """End a running ``solve`` (from another thread) as if its deadline had passed."""
        self.given_up = True

    # --- moves ----------------------------------------------------------------------------
    @staticmethod
    def moves(state: State) -> list[Move]:
        """Every legal move up to equivalence, likely best first (the candidate list's ``EVERY``)."""
        return candidate_moves(state, per_offer=EVERY)

    @staticmethod
    def play(state: State, move: Move) -> State:
        child = state.clone()
        p = child.to_move()
        if move.kind == "advance":
            child.advance_unchecked(p)
        elif move.kind == "buy":
            child.buy_unchecked(p, child.circle.index(move.patch, 0, OFFER_SIZE), move.mask)
        else:
            child.leather_unchecked(p, move.mask)
        return child

    # --- search ----------------------------------------------------------------------------
    def _negamax(self, state: State, alpha: int, beta: int) -> int:
        """The value of a running game for the player to move (fail-soft alpha-beta)."""
        self.nodes += 1
        if self.nodes > self.node_limit or self.given_up or (self.deadline is not None and self.deadline.expired()):
            raise OutOfBudget  # checked at every node: a node costs far more
        p = state.to_move()
        key = state.key(symmetric=True)
        entry = self.table.get(key)
        if entry is not None:
            value, flag, _ = entry
            if flag == EXACT:
                return value
            if flag == LOWER and value >= beta:
                return value
            if flag == UPPER and value <= alpha:
                return value
        alpha0 = alpha
        best = -10**6
        moves = self.moves(state)
        best_move = moves[0]
        if entry is not None:
            for i, move in enumerate(moves):
                if move == entry[2]:
                    moves.insert(0, moves.pop(i))
                    break
        for move in moves:
            child = self.play(state, move)
            if child.is_terminal():
                v = final_value(child, p)
            elif child.to_move() == p:
                v = self._negamax(child, alpha, beta)
            else:
                v = -self._negamax(child, -beta, -alpha)
            if v > best:
                best, best_move = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.table[key] = (best, flag, best_move)
        return best

    def value(self, state: State, mover: int) -> int:
        """The exact value of ``state`` for ``mover``."""
        if state.is_terminal():
            return final_value(state, mover)
        v = self._negamax(state, -10**6, 10**6)
        return v if state.to_move() == mover else -v

    def line(self, state: State, plies: int) -> tuple[Move, ...]:
        """The principal variation from ``state`` read back from the table (a few plies)."""
        out: list[Move] = []
        for _ in range(plies):
            if state.is_terminal():
                break
            entry = self.table.get(state.key(symmetric=True))
            if entry is None or entry[1] != EXACT:
                break
            move = entry[2]
            out.append(move)
            state = self.play(state, move)
        return tuple(out)

    def solve(self, state: State, *, every_move: bool = False, pv_plies: int = 4) -> SearchedPosition | None:
        """Every root move's value (exact for the best; for the others exact with ``every_move``,
        else an upper bound), best first; None when the budget runs out."""
        started = time.perf_counter()
        p = state.to_move()
        scored: list[tuple[Move, int, bool]] = []  # (move, value, bound)
        alpha = -10**6
        try:
            for move in self.moves(state):
                child = self.play(state, move)
                if every_move:
                    v = self.value(child, p)
                    bound = False
                else:
                    if child.is_terminal():
                        v = final_value(child, p)
                    elif child.to_move() == p:
                        v = self._negamax(child, alpha, 10**6)
                    else:
                        v = -self._negamax(child, -10**6, -alpha)
                    bound = v <= alpha
                    alpha = max(alpha, v)
                scored.append((move, v, bound))
        except OutOfBudget:
            return None
        if not scored:
            return None
        scored.sort(key=lambda t: (t[2], -t[1]))
        moves = [exact_move(move, v, (move, *self.line(self.play(state, move), pv_plies - 1)), bound=bound)
                 for move, v, bound in scored]
        return SearchedPosition.of(state, moves, exact=True, nodes=self.nodes, seconds=time.perf_counter() - started)
