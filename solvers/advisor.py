"""The CP-SAT-backed ``PlacementAdvisor`` the bots and the terminal ``hint`` plug in.

``rank_placements`` is best fit (``solvers.bestfit``) with the first ``lookahead`` upcoming
patches as the solver part and all upcoming patches as the pool still to come.
``bonus_feasible`` answers whether some 7x7 square can still be completed with the given
patches: it is ``solvers.bonus.bonus_completion`` (the same answer as ``patchwork bonus`` and
the web service) with the bot's small time and node budgets.

Each call makes its deadline of the fixed ``budget`` as it starts; work with a deadline
(``core.clock``) bounds the advisor by it instead (``bounded``): each call then takes
``clock.ADVISOR_SHARE`` of the time left.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Sequence

from patchwork_opt.core.advice import RankedPlacement
from patchwork_opt.core.catalogue import fits_anywhere
from patchwork_opt.core.clock import ADVISOR_SHARE, COVER_CALL_SECONDS, LOOKAHEAD_SHARE, Deadline
from solvers.bestfit import CoverSolver, ScoreWeights, best_fit
from solvers.bonus import bonus_completion
from solvers.model import SolverConfig

#: Search nodes per 7x7 window before CP-SAT takes over, for the bots (the CLI allows more).
BONUS_NODES = 20_000


def _distinct(ids: Sequence[int], drop: int | None = None) -> list[int]:
    seen: set[int] = set()
    out = []
    for pid in ids:
        if pid != drop and pid not in seen:
            seen.add(pid)
            out.append(pid)
    return out


class SolverAdvisor:
    """Placement advice from the solvers; ``config`` says how CP-SAT runs (workers, seed), and
    each CP-SAT call takes at most ``call_seconds``.

    ``budget`` (seconds; None: none) bounds one ``rank_placements`` call's solver part (past it
    the remaining candidates are scored with the fast bound); its lookahead CP-SAT calls get at
    most ``clock.LOOKAHEAD_SHARE`` of it. ``bonus_feasible`` takes ``call_seconds`` (and
    ``BONUS_NODES``).
    """

    def __init__(
        self,
        config: SolverConfig | None = None,
        lookahead: int = 4,
        weights: ScoreWeights | None = None,
        budget: float | None = 0.25,
        call_seconds: float = COVER_CALL_SECONDS,
    ) -> None:
        if budget is not None and not budget > 0:
            raise ValueError(f"an advisor's budget is positive seconds or None, got {budget}")
        self.config = config or SolverConfig(workers=1)
        self.lookahead = lookahead
        self.weights = weights or ScoreWeights()
        self.budget = budget
        self.call_seconds = call_seconds
        self.deadline: Deadline | None = None  # set on a bounded copy (``bounded``)
        self.cover_seconds = self._cover_seconds(budget)
        self._covers: OrderedDict[tuple[int, ...], CoverSolver] = OrderedDict()

    def _cover_seconds(self, budget: float | None) -> float:
        """Each lookahead CP-SAT call gets a share of the budget (``clock.LOOKAHEAD_SHARE``, at
        least 0.01 s), at most ``call_seconds``."""
        return self.call_seconds if budget is None else min(self.call_seconds, max(LOOKAHEAD_SHARE * budget, 0.01))

    def bounded(self, deadline: Deadline) -> SolverAdvisor:
        """This advisor for work that must end by ``deadline`` (``clock.Bounded``): each
        ``rank_placements`` call takes ``clock.ADVISOR_SHARE`` of the time left then, and
        ``bonus_feasible`` no more than is left (its caches stay this advisor's)."""
        out = copy.copy(self)
        out.deadline = deadline
        return out

    def _cover_solver(self, ids: Sequence[int]) -> CoverSolver:
        """One cover solver (with its cache) per lookahead set, the most recent 32 kept."""
        key = tuple(sorted(ids))
        solver = self._covers.get(key)
        if solver is None:
            solver = CoverSolver(key, self.config, self.cover_seconds)
            self._covers[key] = solver
            if len(self._covers) > 32:
                self._covers.popitem(last=False)
        else:
            self._covers.move_to_end(key)
        return solver

    def rank_placements(
        self, quilt: int, patch_id: int, upcoming: Sequence[int], top_k: int
    ) -> list[RankedPlacement]:
        """Legal placements of ``patch_id`` on ``quilt``, best first (at most ``top_k``)."""
        if top_k < 1:
            return []
        if not fits_anywhere(patch_id, quilt):
            return []
        pool = _distinct(upcoming, drop=patch_id)
        ahead = pool[: self.lookahead]
        deadline: Deadline | None
        if self.deadline is None:  # this call's deadline, made as it starts
            deadline = None if self.budget is None else Deadline.after(self.budget)
            call, covers = self.cover_seconds, self._cover_solver(ahead)
        else:  # this call's share of the deadline (its cover calls cut to it: not the cached solvers)
            deadline = self.deadline.share(ADVISOR_SHARE)
            call, covers = self._cover_seconds(deadline.remaining()), None
        result = best_fit(
            quilt,
            patch_id,
            ahead,
            deadline=deadline,
            pool=pool,
            top_k=top_k,
            weights=self.weights,
            config=self.config,
            call_seconds=call,
            covers=covers,
        )
        return [RankedPlacement(mask=h.mask, score=h.score, parts=dict(h.parts)) for h in result.hints]

    def bonus_feasible(self, quilt: int, patches: Sequence[int]) -> bool | None:
        """Can some 7x7 square still be completed with these patches (each once)? None when unknown
        (within ``call_seconds``, and by the bounding deadline)."""
        deadline = (Deadline.after(self.call_seconds) if self.deadline is None
                    else self.deadline.within(self.call_seconds))
        return bonus_completion(quilt, _distinct(patches), deadline=deadline, config=self.config,
                                node_limit=BONUS_NODES).feasible
