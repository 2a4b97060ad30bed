"""UCT search over buy/advance, with placements from the heuristic and noisy-greedy rollouts.

The tree branches only on *what* to do (advance, or buy offer 0/1/2): the heuristic decides
*where*, which keeps the branching factor at four or less so the search sees deep. A leather
patch taken on the way is placed by the heuristic at once. Patchwork has no hidden information
or chance after set-up, so plain UCT applies. The rng and the evaluator are passed in.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from patchwork_opt.ai.base import Decision
from patchwork_opt.ai.explain import describe, leather_decision, short_words
from patchwork_opt.ai.heuristic import ADVANCE_VALUE, best_placement, leather_cell, purchase_value
from patchwork_opt.ai.search.policy import EXPLORATION, Evaluator, RolloutEvaluator, result_value
from patchwork_opt.ai.seeding import decision_rng, require_running
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import _, ngettext, percent


class Node:
    """A position in the tree; ``w``/``wins`` are from the view of ``mover`` (who chose ``move``)."""

    __slots__ = ("children", "move", "mover", "n", "player", "state", "untried", "w", "wins")

    def __init__(self, state: State, move: Move | None, mover: int) -> None:
        self.state = state
        self.move = move
        self.mover = mover
        self.player = -1 if state.is_terminal() else state.to_move()
        self.untried: list[Move] | None = None
        self.children: list[Node] = []
        self.n = 0
        self.w = 0.0
        self.wins = 0


def resolve_leather(state: State) -> None:
    """Place a pending leather patch where the heuristic says (search does not branch on it)."""
    while state.pending >= 0:
        p = state.pending
        state.leather_unchecked(p, leather_cell(state.quilts[p], state.bonus < 0))


def macro_moves(state: State) -> list[Move]:
    """Advance and each affordable offer that fits, as moves whose mask is still 0 (the heuristic
    places them when the child is made); ordered worst first so ``pop()`` tries the best first."""
    p = state.to_move()
    position = state.pos[p]
    scored: list[tuple[float, int, Move]] = [(ADVANCE_VALUE, -1, ADVANCE)]
    for k in state.buyable_offers(p):
        pid = state.circle[k]
        scored.append((purchase_value(pid, position), k, Move("buy", pid, 0)))
    scored.sort(key=lambda t: (t[0], -t[1]))
    return [m for _, _, m in scored]


def child_state(state: State, move: Move) -> tuple[State, Move]:
    """The position after ``move`` (placing a 0-mask buy with the heuristic), leather resolved."""
    p = state.to_move()
    child = state.clone()
    if move.kind == "advance":
        child.advance_unchecked(p)
    elif move.kind == "leather":
        child.leather_unchecked(p, move.mask)
    else:
        mask = move.mask or best_placement(state.quilts[p], move.patch, state.bonus < 0)
        move = Move("buy", move.patch, mask)
        child.buy_unchecked(p, state.circle.index(move.patch), mask)
    resolve_leather(child)
    return child, move


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Root statistics of one search: each root move with its visits, mean value and win rate."""

    moves: list[tuple[Move, int, float, float]]
    iterations: int
    seconds: float
    reused: int = 0  # simulations inherited from the previous search's tree
    tree: Node | None = field(default=None, compare=False, repr=False)

    @property
    def best(self) -> tuple[Move, int, float, float]:
        return max(self.moves, key=lambda t: (t[1], t[2]))


class Mcts:
    """UCT. ``root_moves`` replaces the root's macro moves (the solver bot plugs placed buys in)."""

    def __init__(self, evaluator: Evaluator, rng: random.Random, exploration: float = EXPLORATION) -> None:
        self.evaluator = evaluator
        self.rng = rng
        self.exploration = exploration

    def search(
        self,
        state: State,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        root_moves: Sequence[Move] | None = None,
        expand: Callable[[State], list[Move]] = macro_moves,
        reuse: Node | None = None,
        stop: StopSignal | None = None,
    ) -> SearchResult:
        """Search from ``state``; ``reuse`` is a node of an earlier tree for this very position
        (see ``find_subtree``), whose statistics the search keeps building on. ``stop``, set from
        another thread, ends it after the iteration running (after the first, so a move has figures)."""
        if seconds is None and iterations is None:
            raise ValueError("search needs a time or an iteration budget")
        root = search_root(state, root_moves, expand, reuse)
        inherited = root.n
        start = time.perf_counter()
        deadline = start + seconds if seconds is not None else math.inf
        budget = iterations if iterations is not None else 1 << 62
        done = 0
        evaluate = self.evaluator.evaluate
        while done < budget and (iterations is not None or time.perf_counter() < deadline) and not (
            stop is not None and done > 0 and stop.is_set()
        ):
            path = descend(root, expand, self.exploration)
            leaf = path[-1].state
            back_up(root, path, result_value(leaf) if path[-1].player < 0 else evaluate(leaf, self.rng))
            done += 1
        stats = [(ch.move, ch.n, ch.w / ch.n, ch.wins / ch.n) for ch in root.children if ch.move and ch.n]
        return SearchResult(stats, done, time.perf_counter() - start, inherited, root)


def search_root(state: State, root_moves: Sequence[Move] | None, expand: Callable[[State], list[Move]],
                reuse: Node | None) -> Node:
    """The root a search grows: ``reuse`` (a node of an earlier tree for this position) with any
    ``root_moves`` it lacks still to try, or a new node whose moves are ``root_moves`` or ``expand``'s."""
    if reuse is None:
        root = Node(state.clone(), None, -1)
        root.untried = list(reversed(root_moves)) if root_moves is not None else expand(root.state)
        return root
    root = reuse
    root.mover = -1
    if root.untried is None:
        root.untried = []
    if root_moves is not None:
        known = {ch.move for ch in root.children} | set(root.untried)
        extra = [m for m in root_moves if m not in known]
        root.untried = list(reversed(extra)) + root.untried
    return root


def descend(root: Node, expand: Callable[[State], list[Move]], exploration: float) -> list[Node]:
    """One iteration's path from ``root``: down the children of best UCB (constant ``exploration``)
    until a node with a move still untried, whose child it adds and ends on, or a finished game."""
    node = root
    path = [root]
    while node.player >= 0:
        if node.untried is None:
            node.untried = expand(node.state)
        if node.untried:
            move = node.untried.pop()
            child_pos, placed = child_state(node.state, move)
            child = Node(child_pos, placed, node.player)
            node.children.append(child)
            path.append(child)
            return path
        log_n = math.log(node.n)
        best_child = node.children[0]
        best_ucb = -math.inf
        for ch in node.children:
            ucb = ch.w / ch.n + exploration * math.sqrt(log_n / ch.n)
            if ucb > best_ucb:
                best_child, best_ucb = ch, ucb
        node = best_child
        path.append(node)
    return path


def back_up(root: Node, path: list[Node], value: float) -> None:
    """Count the simulation on ``path`` (valued ``value`` for player 0), each node from its mover's view."""
    root.n += 1
    for ch in path[1:]:
        v = value if ch.mover == 0 else -value
        ch.n += 1
        ch.w += v
        if v > 0:
            ch.wins += 1


def find_subtree(tree: Node | None, state: State, max_depth: int = 6) -> Node | None:
    """The node of ``tree`` (searched breadth first, ``max_depth`` plies down) for ``state``."""
    if tree is None:
        return None
    key = state.key()
    frontier = [tree]
    for _depth in range(max_depth + 1):
        following: list[Node] = []
        for node in frontier:
            if node.state.key() == key:
                return node
            following.extend(node.children)
        frontier = following
        if not frontier:
            break
    return None


def explain_search(move: Move, result: SearchResult) -> str:
    """``buys #7 ... because it won 64% of 812 simulated games (advancing: 41%)``."""
    _move, visits, _wins, win_rate = next(t for t in result.moves if t[0] == move)
    others = sorted((t for t in result.moves if t[0] != move), key=lambda t: -t[1])
    # Translators: why the AI plays {move}: it won {share} ("64%") of {count} simulated games
    text = ngettext("{move} because it won {share} of {count} simulated game",
                    "{move} because it won {share} of {count} simulated games", visits, move=describe(move),
                    share=percent(win_rate))
    if others:
        alt = others[0]
        # Translators: follows the AI's reason: the next best move, the share of its {visits} games it won
        text = _("{text} (next best, {move}: {share} of {visits})", text=text, move=short_words(alt[0]),
                 share=percent(alt[3]), visits=alt[1])
    return text


class MctsBot:
    """UCT with heuristic placements and noisy-greedy rollouts within ``time_per_move`` seconds
    (or exactly ``iterations`` simulations, which makes it repeatable with a seed)."""

    name = "mcts"

    def __init__(
        self,
        *,
        seed: int | None = None,
        time_per_move: float = 0.5,
        iterations: int | None = None,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.seed = seed
        self.time_per_move = time_per_move
        self.iterations = iterations
        self.evaluator = evaluator or RolloutEvaluator()

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
        """The most visited root move of the move's search; ``stop`` ends the search early."""
        require_running(state)
        if state.pending >= 0:
            return leather_decision(state)
        moves = macro_moves(state)
        if len(moves) == 1:
            return Decision(ADVANCE, "advances because no affordable patch fits")
        search = Mcts(self.evaluator, decision_rng(self.seed, state))
        result = search.search(state, seconds=self.time_per_move, iterations=self.iterations, stop=stop)
        return decision_from(result)


def decision_from(result: SearchResult) -> Decision:
    move, visits, value, win_rate = result.best
    return Decision(
        move,
        explain_search(move, result),
        expected=win_rate,
        stats={
            "iterations": float(result.iterations),
            "seconds": result.seconds,
            "visits": float(visits),
            "value": value,
        },
    )
