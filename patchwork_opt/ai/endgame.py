"""Exact endgame search: minimax with alpha-beta over buy/advance to the end of the game.

Near the end few turns remain and rollouts' noise decides close games, so the solver bot
searches the rest of the game exactly instead (placements by the heuristic, as in the tree).
A node budget and a deadline bound it; when either runs out the search gives up (returns None)
and the caller falls back to MCTS. Values are from the root player's view: winning beats any
margin, then the score difference counts.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from patchwork_opt.ai.heuristic import best_placement
from patchwork_opt.ai.mcts import macro_moves, resolve_leather
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State

WIN = 1000.0


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True, slots=True)
class EndgameResult:
    move: Move
    value: float  # WIN + margin for a won game, -WIN + margin for a lost one (root player's view)
    nodes: int

    @property
    def wins(self) -> bool:
        return self.value > 0

    @property
    def margin(self) -> int:
        return round(self.value - WIN if self.value > 0 else self.value + WIN)


class EndgameSearch:
    def __init__(self, node_limit: int = 4000, deadline: float = math.inf) -> None:
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self._placements: dict[tuple[int, int, bool], int] = {}

    def _place(self, quilt: int, pid: int, bonus_free: bool) -> int:
        key = (quilt, pid, bonus_free)
        mask = self._placements.get(key)
        if mask is None:
            mask = best_placement(quilt, pid, bonus_free)
            self._placements[key] = mask
        return mask

    def _child(self, state: State, move: Move) -> tuple[State, Move]:
        p = state.to_move()
        child = state.clone()
        if move.kind == "advance":
            child.advance_unchecked(p)
        else:
            mask = move.mask or self._place(state.quilts[p], move.patch, state.bonus < 0)
            move = Move("buy", move.patch, mask)
            child.buy_unchecked(p, state.circle.index(move.patch), mask)
        resolve_leather(child)
        return child, move

    def _value(self, state: State, root: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self.node_limit or (self.nodes & 63 == 0 and time.perf_counter() > self.deadline):
            raise _OutOfBudget
        if state.is_terminal():
            margin = state.score(root) - state.score(1 - root)
            return (WIN if state.winner() == root else -WIN) + margin
        maximizing = state.to_move() == root
        moves = macro_moves(state)
        best = -math.inf if maximizing else math.inf
        for move in reversed(moves):  # macro_moves lists the greedy's favourite last
            child, _ = self._child(state, move)
            v = self._value(child, root, alpha, beta)
            if maximizing:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def solve(self, state: State, root_moves: list[Move] | None = None) -> EndgameResult | None:
        """The best move for the player to move, or None when the budget ran out."""
        root = state.to_move()
        moves = root_moves if root_moves is not None else list(reversed(macro_moves(state)))
        best: tuple[float, Move] | None = None
        alpha = -math.inf
        try:
            for move in moves:
                child, placed = self._child(state, move)
                v = self._value(child, root, alpha, math.inf)
                if best is None or v > best[0]:
                    best = (v, placed)
                alpha = max(alpha, v)
        except _OutOfBudget:
            return None
        if best is None:
            return None
        return EndgameResult(best[1], best[0], self.nodes)
