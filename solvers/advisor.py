"""The CP-SAT-backed ``PlacementAdvisor`` the bots and the terminal ``hint`` plug in.

``rank_placements`` is best fit (``solvers.bestfit``) with the first ``lookahead`` upcoming
patches as the solver part and all upcoming patches as the pool still to come.
``bonus_feasible`` answers whether some 7x7 square can still be completed with the given
patches: it is ``solvers.bonus.bonus_completion`` (the same answer as ``patchwork bonus`` and
the web service) with the bot's small time and node budgets.

Work with a deadline (``core.clock``) bounds the advisor by it (``bounded``): each call then takes
``clock.ADVISOR_SHARE`` of the time left instead of the fixed ``budget``.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Sequence

from patchwork_opt.core.advice import RankedPlacement
from patchwork_opt.core.catalogue import fits_anywhere
from patchwork_opt.core.clock import ADVISOR_SHARE, LOOKAHEAD_SHARE, Deadline
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
    """Placement advice from the solvers; ``config`` bounds each CP-SAT call.

    ``budget`` (seconds) bounds one ``rank_placements`` call's solver part (past it the
    remaining candidates are scored with the fast bound); lookahead CP-SAT calls get at
    most ``clock.LOOKAHEAD_SHARE`` of it. ``bonus_feasible`` uses ``config`` as given (and ``BONUS_NODES``).
    """

    def __init__(
        self,
        config: SolverConfig | None = None,
        lookahead: int = 4,
        weights: ScoreWeights | None = None,
        budget: float | None = 0.25,
    ) -> None:
        self.config = config or SolverConfig(time_limit=0.1, workers=1)
        self.lookahead = lookahead
        self.weights = weights or ScoreWeights()
        self.budget = budget
        self.deadline: Deadline | None = None  # set on a bounded copy (``bounded``)
        self.cover_config = self._cover_config(budget)
        self._covers: OrderedDict[tuple[int, ...], CoverSolver] = OrderedDict()

    def _cover_config(self, budget: float | None) -> SolverConfig:
        """Each lookahead CP-SAT call gets a share of the budget (``clock.LOOKAHEAD_SHARE``), whatever
        the config allows."""
        cap = (self.config.time_limit if budget is None
               else min(self.config.time_limit, max(LOOKAHEAD_SHARE * budget, 0.01)))
        return self.config.model_copy(update={"time_limit": cap})

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
            solver = CoverSolver(key, self.cover_config)
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
        if self.deadline is None:
            budget, config, covers = self.budget, self.cover_config, self._cover_solver(ahead)
        else:  # this call's share of the deadline (its cover calls cut to it: not the cached solvers)
            budget = self.deadline.share(ADVISOR_SHARE).remaining()
            config, covers = self._cover_config(budget), None
        result = best_fit(
            quilt,
            patch_id,
            ahead,
            pool=pool,
            top_k=top_k,
            weights=self.weights,
            config=config,
            budget=budget,
            covers=covers,
        )
        return [RankedPlacement(mask=h.mask, score=h.score, parts=dict(h.parts)) for h in result.hints]

    def bonus_feasible(self, quilt: int, patches: Sequence[int]) -> bool | None:
        """Can some 7x7 square still be completed with these patches (each once)? None when unknown."""
        config = self.config
        if self.deadline is not None:
            config = config.model_copy(update={"time_limit": min(config.time_limit,
                                                                 max(self.deadline.remaining(), 0.01))})
        return bonus_completion(quilt, _distinct(patches), config, node_limit=BONUS_NODES).feasible
