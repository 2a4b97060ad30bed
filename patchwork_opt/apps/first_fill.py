"""``patchwork fill``'s answer on any run, the first after installing included: the optimal fill
with the packing search when its compiled code is ready, else CP-SAT alone while that code compiles
in the background (``warmup.answer_while_compiling``), so a newcomer's first command does not wait
on a compile that most fills do not need. A fill that must complete a 7x7 square waits for the
compile (said on stderr): the completion's packing search is what gives an impossible request its
reason."""

from __future__ import annotations

from collections.abc import Sequence

from patchwork_opt.apps.warmup import answer_while_compiling, prepare
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.stop import StopSignal
from solvers.fill import FillResult, Objective, ProgressFn, optimal_fill
from solvers.model import SolverConfig, SolveStatus


def fill_on_any_run(quilt: int, patch_ids: Sequence[int], *, seconds: float, objective: Objective,
                    marks: int, budget: int | None, require_bonus: bool, config: SolverConfig,
                    progress: ProgressFn | None = None) -> FillResult:
    """``solvers.fill.optimal_fill`` of ``quilt`` with ``patch_ids`` within ``seconds``, its packing
    search compiled in the background on first use (see the module's docstring). The fill's one
    clock starts here, after any compile it waits for."""
    if require_bonus:
        prepare(["packing"])
    deadline = Deadline.after(seconds)

    def solve(packing: bool = True, stop: StopSignal | None = None) -> FillResult:
        return optimal_fill(quilt, patch_ids, deadline=deadline, objective=objective, marks=marks, budget=budget,
                            require_bonus=require_bonus, config=config, progress=progress, stop=stop,
                            packing=packing)

    if require_bonus:
        return solve()
    return answer_while_compiling("packing", without=lambda stop: solve(False, stop), with_it=solve,
                                  settled=lambda r: r.status in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE))
