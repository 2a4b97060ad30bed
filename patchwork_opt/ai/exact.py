"""Exact search of the rest of the game over every legal move (all placements, every leather cell).

Negamax with alpha-beta and a transposition table on the exact final outcome: the value of a
finished game for a player is ``2 * margin``, or ``+1``/``-1`` for a tie won/lost on the
tie-break (first to reach space 53), so the sign says who wins and the best value is the best
margin. Maximising it finds a winning move whenever one exists.

Two reductions keep it small and stay exact:

* Quilts equal up to a rotation or reflection of the 9x9 board are the same for the rest of the
  game (every patch may be turned and flipped, and the nine 7x7 windows map onto each other), so
  placements are deduplicated by the canonical form of the quilt they leave and the table keys on
  canonical quilts.
* A player whose token reaches the end places nothing more (except a leather patch taken on that
  last move), so their placements differ only in whether they complete a 7x7 square (or leave one
  a leather patch can complete): one placement per such class is searched.

A node budget and a deadline bound the search; when either runs out ``solve`` returns None and the
caller falls back to its sampling search.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass

from patchwork_opt.ai.heuristic import COST, TIME, rank_placements
from patchwork_opt.core.bitboard import FULL, SIZE, WINDOW_MASKS, has_full_window
from patchwork_opt.core.catalogue import legal_placements
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import END, OFFER_SIZE, State

_ROW = (1 << SIZE) - 1
#: _REVERSED[r]: the 9-bit row r mirrored left to right.
_REVERSED: tuple[int, ...] = tuple(int(f"{r:09b}"[::-1], 2) for r in range(1 << SIZE))
#: _COLUMN[i][r]: row i's bits r laid into column i (the transpose of one row).
_COLUMN: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << (c * SIZE + i) for c in range(SIZE) if r >> c & 1) for r in range(1 << SIZE))
    for i in range(SIZE)
)

EXACT, LOWER, UPPER = 0, 1, 2


class OutOfBudget(Exception):
    """The node budget or the deadline ran out before the search finished."""


def _rows_forms(rows: list[int]) -> Iterator[int]:
    """The quilt with these rows, mirrored left-right, top-bottom and both."""
    plain = flipped = 0
    for i, r in enumerate(rows):
        plain |= r << (SIZE * i)
        flipped |= _REVERSED[r] << (SIZE * i)
    yield plain
    yield flipped
    plain_v = flipped_v = 0
    for i, r in enumerate(reversed(rows)):
        plain_v |= r << (SIZE * i)
        flipped_v |= _REVERSED[r] << (SIZE * i)
    yield plain_v
    yield flipped_v


def canonical(quilt: int) -> int:
    """The smallest of the eight images of ``quilt`` under the board's rotations and reflections."""
    if quilt == 0 or quilt == FULL:
        return quilt
    rows = [(quilt >> (SIZE * i)) & _ROW for i in range(SIZE)]
    transposed = 0
    for i, r in enumerate(rows):
        transposed |= _COLUMN[i][r]
    t_rows = [(transposed >> (SIZE * i)) & _ROW for i in range(SIZE)]
    return min(min(_rows_forms(rows)), min(_rows_forms(t_rows)))


def _near_window(quilt: int) -> bool:
    """Some 7x7 window misses exactly one cell (a leather patch could complete it)."""
    for window in WINDOW_MASKS:
        missing = window & ~quilt
        if missing and missing & (missing - 1) == 0:
            return True
    return False


def final_value(state: State, player: int) -> int:
    """A finished game's value for ``player``: twice the margin, or +-1 for a tie-break."""
    margin = state.score(player) - state.score(1 - player)
    if margin:
        return 2 * margin
    return 1 if state.first_end == player else -1


def value_margin(value: float) -> float:
    """The score margin a value stands for (a tie-break value is a margin of 0)."""
    return 0.0 if abs(value) == 1 else value / 2


@dataclass(frozen=True, slots=True)
class ExactMove:
    """A root move with its value for the player to move; ``exact`` False means ``value`` is an
    upper bound (the move was refuted by a better one and not searched further)."""

    move: Move
    value: int
    exact: bool
    line: tuple[Move, ...]

    @property
    def wins(self) -> bool:
        return self.value > 0

    @property
    def margin(self) -> float:
        return value_margin(self.value)


@dataclass(frozen=True, slots=True)
class ExactResult:
    moves: list[ExactMove]  # best first
    nodes: int
    seconds: float

    @property
    def best(self) -> ExactMove:
        return self.moves[0]


class ExactSearch:
    """One search tree's table; keep the object to reuse the table on later moves of a game."""

    def __init__(self, node_limit: int = 10**9, deadline: float = math.inf) -> None:
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[tuple[object, ...], tuple[int, int, Move]] = {}

    def give_up(self) -> None:
        """End a running ``solve`` (from another thread) as if its deadline had passed."""
        self.deadline = -math.inf

    # --- moves -----------------------------------------------------------------------------
    def moves(self, state: State) -> list[tuple[Move, int]]:
        """Every legal move up to equivalence, as (move, offer index or -1), likely best first."""
        p = state.to_move()
        quilt = state.quilts[p]
        bonus_free = state.bonus < 0
        if state.pending >= 0:
            cells = [1 << i for i in range(SIZE * SIZE) if not quilt >> i & 1]
            if state.pos[p] == END:
                cells = self._end_classes(quilt, cells, bonus_free, leather_next=False)
            return [(Move("leather", -1, m), -1) for m in self._distinct(quilt, cells)]
        buttons, position = state.buttons[p], state.pos[p]
        buys: list[tuple[int, Move, int]] = []  # (0: completes a 7x7, 1: best placement, 2: other)
        for k in range(min(OFFER_SIZE, len(state.circle))):
            pid = state.circle[k]
            if COST[pid] > buttons:
                continue
            masks = legal_placements(pid, quilt)
            if not masks:
                continue
            target = min(position + TIME[pid], END)
            if target == END:
                leather_next = bool(state.leather_between(position, END))
                masks = self._end_classes(quilt, masks, bonus_free, leather_next)
            ranked = [m for _, m in rank_placements(quilt, pid, bonus_free=bonus_free, candidates=masks)]
            for i, mask in enumerate(self._distinct(quilt, ranked)):
                completes = bonus_free and has_full_window(quilt | mask)
                buys.append((0 if completes else 1 + (i > 0), Move("buy", pid, mask), k))
        buys.sort(key=lambda t: t[0])
        first = [(m, k) for rank, m, k in buys if rank < 2]
        rest = [(m, k) for rank, m, k in buys if rank == 2]
        return [*first, (ADVANCE, -1), *rest]

    @staticmethod
    def _distinct(quilt: int, masks: list[int]) -> list[int]:
        seen: set[int] = set()
        out = []
        for m in masks:
            c = canonical(quilt | m)
            if c not in seen:
                seen.add(c)
                out.append(m)
        return out

    @staticmethod
    def _end_classes(quilt: int, masks: list[int], bonus_free: bool, leather_next: bool) -> list[int]:
        """One placement per outcome class for a player who will place nothing more."""
        if not bonus_free:
            return masks[:1]
        classes: dict[int, int] = {}
        for m in masks:
            after = quilt | m
            if has_full_window(after):
                kind = 0
            elif leather_next and after != FULL and _near_window(after):
                kind = 1
            else:
                kind = 2
            classes.setdefault(kind, m)
        return [classes[k] for k in sorted(classes)]

    @staticmethod
    def play(state: State, move: Move, k: int) -> State:
        child = state.clone()
        p = child.to_move()
        if move.kind == "advance":
            child.advance_unchecked(p)
        elif move.kind == "buy":
            child.buy_unchecked(p, k, move.mask)
        else:
            child.leather_unchecked(p, move.mask)
        return child

    # --- search ----------------------------------------------------------------------------
    def _key(self, state: State) -> tuple[object, ...]:
        q0, q1 = state.quilts
        return (
            tuple(state.circle),
            state.pos[0], state.pos[1], state.buttons[0], state.buttons[1],
            state.income[0], state.income[1], canonical(q0), canonical(q1),
            state.leather, state.pending, state.last_mover, state.bonus, state.first_end,
        )

    def _negamax(self, state: State, alpha: int, beta: int) -> int:
        """The value of a running game for the player to move (fail-soft alpha-beta)."""
        self.nodes += 1
        if self.nodes > self.node_limit or time.perf_counter() > self.deadline:  # a node costs far more
            raise OutOfBudget
        p = state.to_move()
        key = self._key(state)
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
        best_move = moves[0][0]
        if entry is not None:
            for i, (move, _) in enumerate(moves):
                if move == entry[2]:
                    moves.insert(0, moves.pop(i))
                    break
        for move, k in moves:
            child = self.play(state, move, k)
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
            entry = self.table.get(self._key(state))
            if entry is None or entry[1] != EXACT:
                break
            move = entry[2]
            k = state.circle.index(move.patch) if move.kind == "buy" else -1
            out.append(move)
            state = self.play(state, move, k)
        return tuple(out)

    def solve(self, state: State, *, every_move: bool = False, pv_plies: int = 4) -> ExactResult | None:
        """Every root move's value (exact for the best; for the others exact with ``every_move``,
        else an upper bound), best first; None when the budget runs out."""
        started = time.perf_counter()
        p = state.to_move()
        scored: list[ExactMove] = []
        alpha = -10**6
        try:
            for move, k in self.moves(state):
                child = self.play(state, move, k)
                if every_move:
                    v = self.value(child, p)
                    exact = True
                else:
                    if child.is_terminal():
                        v = final_value(child, p)
                    elif child.to_move() == p:
                        v = self._negamax(child, alpha, 10**6)
                    else:
                        v = -self._negamax(child, -10**6, -alpha)
                    exact = v > alpha
                    alpha = max(alpha, v)
                scored.append(ExactMove(move, v, exact, ()))
        except OutOfBudget:
            return None
        if not scored:
            return None
        scored.sort(key=lambda m: (not m.exact, -m.value))
        lines = []
        for m in scored:
            k = state.circle.index(m.move.patch) if m.move.kind == "buy" else -1
            lines.append(ExactMove(m.move, m.value, m.exact,
                                   (m.move, *self.line(self.play(state, m.move, k), pv_plies - 1))))
        return ExactResult(lines, self.nodes, time.perf_counter() - started)
