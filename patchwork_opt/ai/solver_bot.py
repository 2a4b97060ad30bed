"""The strongest bot: UCT plus placements from a plugged-in PlacementAdvisor, and an exact endgame.

At the root each affordable offer is a buy placed where the advisor ranks first (the CP-SAT best
fit with lookahead over the circle, when the caller plugs it in), plus any placement completing
a 7x7 square while the bonus is free (pursuit). ``advise_final=True`` instead lets the search
compare heuristic-placed buys and has the advisor place only the chosen patch (one advisor call
per move; measured weaker, see the README's figures). Below the root the search branches on
buy/advance with noisy-greedy rollouts, so it sees an opponent about to complete their 7x7 with
an offered patch and buys it away (denial) when that wins more games. Once both tokens are past
space 32 an exact alpha-beta search of the rest of the game (``endgame``) is tried first within
30% of the move's time; MCTS takes over when it cannot finish, and the exact search waits four
spaces before trying again. ``advisor.bonus_feasible`` is asked when a window is nearly covered,
and the reason reports it. The tree of one move's search is kept and searched on from the
position the game reaches (so a fixed iteration budget repeats a whole game exactly, not a lone
position out of it).

Without an advisor the bot uses ``HeuristicAdvisor`` (pure Python, no lookahead) explicitly and
its name says so: ``solver(heuristic)``.
"""

from __future__ import annotations

import time

from patchwork_opt.ai.base import Decision, PlacementAdvisor
from patchwork_opt.ai.endgame import EndgameResult, EndgameSearch
from patchwork_opt.ai.explain import describe
from patchwork_opt.ai.heuristic import COST, HeuristicAdvisor, best_placement, leather_cell, window_progress
from patchwork_opt.ai.mcts import Mcts, Node, SearchResult, decision_from, find_subtree
from patchwork_opt.ai.policy import Evaluator, RolloutEvaluator
from patchwork_opt.ai.seeding import decision_rng, require_running
from patchwork_opt.core.bitboard import has_full_window
from patchwork_opt.core.catalogue import fits_anywhere, legal_placements
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import OFFER_SIZE, State

MIN_SEARCH_SHARE = 0.3  # the search keeps at least this share of the move's time
ENDGAME_FROM = 32  # try the exact endgame search once both tokens are at least this far
ENDGAME_SHARE = 0.3  # share of the move's time the exact search may take before MCTS
ENDGAME_RETRY = 4  # after a failed attempt, wait until both tokens are this many spaces further
ENDGAME_NODES_PER_ITERATION = 20  # node budget per MCTS iteration when searching by iterations
BONUS_CHECK_FROM = 38  # ask the advisor about the 7x7 once a window has this many cells covered
BONUS_POOL = 12  # patches of the circle offered to bonus_feasible
ADVISOR_FROM = 10  # below this many covered cells placement is easy: the heuristic places


def completing_placement(quilt: int, patch_id: int) -> int:
    """A placement of the patch that completes a 7x7 square on ``quilt``, or 0."""
    for mask in legal_placements(patch_id, quilt):
        if has_full_window(quilt | mask):
            return mask
    return 0


def upcoming_after(circle: list[int], k: int) -> list[int]:
    """The circle as it stands after offer ``k`` is bought: what may be bought next, in order."""
    return circle[k + 1 :] + circle[:k]


class SolverBot:
    """Advisor-placed root moves + UCT; ``iterations`` gives a repeatable fixed budget."""

    def __init__(
        self,
        advisor: PlacementAdvisor | None,
        *,
        seed: int | None = None,
        time_per_move: float = 0.5,
        iterations: int | None = None,
        top_k: int = 1,
        evaluator: Evaluator | None = None,
        reuse_tree: bool = True,
        endgame: bool = True,
        advise_final: bool = False,
    ) -> None:
        self.reuse_tree = reuse_tree
        self.advise_final = advise_final
        self._advisor_seconds = 0.1  # running estimate of one rank_placements call
        self.endgame = endgame
        self.advisor: PlacementAdvisor = advisor if advisor is not None else HeuristicAdvisor()
        self.name = "solver" if advisor is not None else "solver(heuristic)"
        self.seed = seed
        self.time_per_move = time_per_move
        self.iterations = iterations
        self.top_k = top_k
        self.evaluator = evaluator or RolloutEvaluator()
        self._heuristic = HeuristicAdvisor()
        self._tree: Node | None = None  # the last search's tree, reused when the game reaches it
        self._endgame_from = ENDGAME_FROM  # raised after an exact search that ran out of time

    def root_moves(self, state: State) -> tuple[list[Move], list[str]]:
        """Advance, each affordable offer placed (the advisor's top ones, or the heuristic's when
        ``advise_final``), and 7x7 completions; with notes on the 7x7 for the reason."""
        p = state.to_move()
        quilt, buttons = state.quilts[p], state.buttons[p]
        bonus_free = state.bonus < 0
        moves: list[Move] = [ADVANCE]
        notes: list[str] = []
        for k in range(min(OFFER_SIZE, len(state.circle))):
            pid = state.circle[k]
            if COST[pid] > buttons or not fits_anywhere(pid, quilt):
                continue
            if bonus_free:
                mask = completing_placement(quilt, pid)
                if mask:
                    moves.append(Move("buy", pid, mask))
                    notes.append(f"#{pid} completes the 7x7 square")
            if self.advise_final:
                # the search compares what to buy with the heuristic's placement (the one its
                # tree uses, so a kept tree lines up); the advisor places the chosen patch after
                move = Move("buy", pid, best_placement(quilt, pid, bonus_free))
                if move not in moves:
                    moves.append(move)
                continue
            advisor = self.advisor if quilt.bit_count() >= ADVISOR_FROM else self._heuristic
            ranked = advisor.rank_placements(quilt, pid, upcoming_after(state.circle, k), self.top_k)
            for rp in ranked[: self.top_k]:
                move = Move("buy", pid, rp.mask)
                if move not in moves:
                    moves.append(move)
        if bonus_free:
            opponent = 1 - p
            for pid in state.circle[:OFFER_SIZE]:
                if COST[pid] <= state.buttons[opponent] and completing_placement(state.quilts[opponent], pid):
                    notes.append(f"the opponent could complete their 7x7 with #{pid}")
            if window_progress(quilt) >= BONUS_CHECK_FROM:
                feasible = self.advisor.bonus_feasible(quilt, state.circle[:BONUS_POOL])
                if feasible is True:
                    notes.append("my 7x7 square can still be completed")
                elif feasible is False:
                    notes.append("my 7x7 square is out of reach")
        return moves, notes

    def decide(self, state: State) -> Decision:
        require_running(state)
        started = time.perf_counter()
        p = state.to_move()
        if state.pending >= 0:
            move = Move("leather", -1, leather_cell(state.quilts[p], state.bonus < 0))
            return Decision(move, f"{describe(move)}, the most enclosed empty cell")
        moves, notes = self.root_moves(state)
        if len(moves) == 1:
            return Decision(ADVANCE, "advances because no affordable patch fits")
        behind = min(state.pos)
        if behind < ENDGAME_FROM:
            self._endgame_from = ENDGAME_FROM  # a new game
        if self.endgame and behind >= self._endgame_from:
            if self.iterations is not None:
                exact = EndgameSearch(node_limit=self.iterations * ENDGAME_NODES_PER_ITERATION)
            else:
                exact = EndgameSearch(node_limit=10**9, deadline=started + ENDGAME_SHARE * self.time_per_move)
            solved = exact.solve(state, moves)
            if solved is not None:
                self._tree = None
                return self._exact_decision(solved, notes)
            self._endgame_from = behind + ENDGAME_RETRY
        search = Mcts(self.evaluator, decision_rng(self.seed, state))
        reuse = find_subtree(self._tree, state) if self.reuse_tree else None
        if self.iterations is not None:
            result = search.search(state, iterations=self.iterations, root_moves=moves, reuse=reuse)
        else:
            left = self.time_per_move - (time.perf_counter() - started)
            if self.advise_final:
                left -= self._advisor_seconds
            seconds = max(left, MIN_SEARCH_SHARE * self.time_per_move)
            result = search.search(state, seconds=seconds, root_moves=moves, reuse=reuse)
        self._tree = result.tree
        decision = self._decision(result, notes)
        if self.advise_final:
            decision = self._advised(state, decision)
        return decision

    def _advised(self, state: State, decision: Decision) -> Decision:
        """The chosen buy placed where the advisor ranks first (a 7x7 completion stays as is)."""
        move = decision.move
        p = state.to_move()
        quilt = state.quilts[p]
        if move.kind != "buy" or quilt.bit_count() < ADVISOR_FROM:
            return decision
        if state.bonus < 0 and has_full_window(quilt | move.mask):
            return decision
        k = state.circle.index(move.patch)
        asked = time.perf_counter()
        ranked = self.advisor.rank_placements(quilt, move.patch, upcoming_after(state.circle, k), 1)
        self._advisor_seconds = 0.7 * self._advisor_seconds + 0.3 * (time.perf_counter() - asked)
        if not ranked or ranked[0].mask == move.mask:
            return decision
        placed = Move("buy", move.patch, ranked[0].mask)
        reason = decision.reason.replace(describe(move), describe(placed), 1)
        return Decision(placed, f"{reason}; placed where the advisor's best fit ranks first",
                        decision.expected, decision.stats)

    def _exact_decision(self, solved: EndgameResult, notes: list[str]) -> Decision:
        outcome = f"wins by {solved.margin}" if solved.wins else f"loses by {-solved.margin}"
        if solved.margin == 0:
            outcome = "wins on the tie-break" if solved.wins else "loses on the tie-break"
        reason = (
            f"{describe(solved.move)} because searching the rest of the game exactly "
            f"({solved.nodes} positions) shows best play {outcome}"
        )
        if notes:
            reason += "; " + "; ".join(notes)
        return Decision(
            solved.move,
            reason,
            expected=1.0 if solved.wins else 0.0,
            stats={"nodes": float(solved.nodes), "margin": float(solved.margin)},
        )

    def _decision(self, result: SearchResult, notes: list[str]) -> Decision:
        decision = decision_from(result)
        decision.stats["reused"] = float(result.reused)
        if notes:
            return Decision(
                decision.move,
                f"{decision.reason}; {'; '.join(notes)}",
                decision.expected,
                decision.stats,
            )
        return decision
