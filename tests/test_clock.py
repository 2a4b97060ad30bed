"""The one clock: a deadline made once and shared out, never extended, and the searches ending by it.

The searches here run on a fake clock (``WorkClock``): time passes only as the compiled search
runs iterations (a fixed cost each), as the packing search of the solvers runs nodes, or as the
clock is read, so whether a search outlives its deadline is exact, not a matter of the machine's
load. CP-SAT, which keeps its own time, is replaced where it would run (``FakeCpSat``): what it is
handed is what is checked.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from conftest import late_positions
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.analysis import run as search
from patchwork_opt.ai.analysis.position import analyse_position
from patchwork_opt.ai.bots.solver_bot import SolverBot
from patchwork_opt.ai.heuristic import HeuristicAdvisor
from patchwork_opt.ai.search import exactcore, fastcore
from patchwork_opt.ai.search.exact import ExactSearch
from patchwork_opt.core.advice import RankedPlacement
from patchwork_opt.core.catalogue import legal_placements
from patchwork_opt.core.clock import (
    BONUS_SEARCH_SHARE,
    EXACT_SHARE,
    LEAST_SOLVER_SECONDS,
    BudgetError,
    Deadline,
    ThinkBudget,
    bounded,
    solver_seconds,
)
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation
from solvers import fill, fill_races
from solvers.advisor import SolverAdvisor
from solvers.bestfit import best_fit
from solvers.bonus import bonus_completion
from solvers.fill import FILL_BONUS_SHARE, TURNED_SECONDS, TURNED_SHARE
from solvers.model import PlacementModel, Solution, SolverConfig, SolveStatus
from solvers.search import fastpack
from solvers.search.fastpack import loop as packing_loop

MIDGAME = from_notation("28,7,8,30,9,26,1,27,3,31,21,32,20,12,5,18,19,16,0,10,15,11,6,4,14,13 "
                        "15/4/1/000000000046678f82038 16/4/4/000000000000081f1f8ff 1 - - 26,32,38,44,50 - "
                        "26,32,38,44,50")


class WorkClock:
    """Fake seconds: ``per_iteration`` for each iteration the compiled search runs, ``per_read``
    for each reading of the clock."""

    def __init__(self, per_iteration: float = 0.001, per_read: float = 0.0) -> None:
        self.now = 0.0
        self.per_iteration = per_iteration
        self.per_read = per_read
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.per_read
        return self.now


@pytest.fixture
def work_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkClock]:
    clock = WorkClock()
    real_run = fastcore.CompiledSearch.run

    def run(self: fastcore.CompiledSearch, iterations: int) -> int:
        done = real_run(self, iterations)
        clock.now += done * clock.per_iteration
        return done

    monkeypatch.setattr(fastcore.CompiledSearch, "run", run)
    yield clock


@pytest.fixture
def node_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkClock]:
    """Fake seconds that pass as the packing search runs: ``per_iteration`` a node, each slice of the
    compiled kernel charged its whole node budget when it returns."""
    clock = WorkClock(per_iteration=1e-5)
    real_run: Any = packing_loop.run  # the compiled loop

    def run(nodes: int, *args: object) -> int:
        status: int = real_run(nodes, *args)
        clock.now += nodes * clock.per_iteration
        return status

    monkeypatch.setattr(packing_loop, "run", run)
    yield clock


class FakeCpSat:
    """CP-SAT answering unknown at once; records when it was called (on ``clock``) and the deadline
    it was handed."""

    def __init__(self, clock: WorkClock) -> None:
        self.clock = clock
        self.calls: list[tuple[float, Deadline]] = []

    def solve(self, model: PlacementModel, config: SolverConfig, deadline: Deadline, *args: object,
              **kwargs: object) -> Solution:
        self.calls.append((self.clock.now, deadline))
        return Solution(status=SolveStatus.UNKNOWN)


def fake_cp_sat(monkeypatch: pytest.MonkeyPatch, clock: WorkClock) -> FakeCpSat:
    fake = FakeCpSat(clock)
    monkeypatch.setattr(PlacementModel, "solve", lambda model, *args, **kwargs: fake.solve(model, *args, **kwargs))
    return fake


def test_a_share_never_reaches_past_its_parent() -> None:
    clock = WorkClock()
    parent = Deadline.after(10.0, clock)
    assert parent.remaining() == 10.0 and not parent.expired()
    half = parent.share(EXACT_SHARE)
    assert half.at == 5.0 and half.share(1.0).at == 5.0
    assert parent.within(3.0).at == 3.0 and parent.within(30.0).at == parent.at
    clock.now = 8.0
    assert parent.share(0.5).at == 9.0  # a share of the time left now
    assert half.remaining() == 0.0 and half.expired() and half.share(1.0).at <= half.at
    clock.now = 12.0
    assert parent.share(1.0).at == parent.at and parent.remaining() == 0.0
    with pytest.raises(ValueError):
        parent.share(1.5)


def test_a_share_may_be_given_at_least_some_seconds_and_a_solver_its_seconds_left() -> None:
    clock = WorkClock()
    parent = Deadline.after(10.0, clock)
    assert parent.share(0.3, at_least=0.5).at == 3.0  # the share is more
    assert parent.share(0.01, at_least=0.5).at == 0.5  # the seconds are more
    assert parent.share(0.01, at_least=50.0).at == parent.at  # never past the parent
    assert solver_seconds(parent) == 10.0
    clock.now = 12.0
    assert solver_seconds(parent) == LEAST_SOLVER_SECONDS  # passed: the least a solver is handed


@pytest.mark.parametrize("seconds", [0.0, -1.0, float("inf"), float("nan")])
def test_a_budget_is_a_positive_number_of_seconds(seconds: float) -> None:
    with pytest.raises(BudgetError):
        Deadline.after(seconds)


def test_a_think_budget_waiting_in_line_keeps_its_whole_time_and_keys_the_cache() -> None:
    """A request's budget is made as it comes in and its deadline only as its work starts: time in
    the job queue is not thinking time. It is a value: equal budgets are one cache key, and the
    larger one is the deeper analysis."""
    clock = WorkClock()
    budget = ThinkBudget(0.3)  # made where the request came in, at 0 s
    clock.now = 10.0  # ten seconds in the job queue
    deadline = budget.deadline(clock)
    assert deadline.at == 10.3 and deadline.remaining() == pytest.approx(0.3)
    assert budget == ThinkBudget(0.3) and len({budget, ThinkBudget(0.3)}) == 1
    assert ThinkBudget(0.15) < budget < ThinkBudget(1.0)
    for bad in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(BudgetError):
            ThinkBudget(bad)


def test_the_sampling_search_ends_by_its_deadline(work_clock: WorkClock) -> None:
    moves = search.root_moves(MIDGAME, None, 3)
    for seconds in (0.05, 0.3, 2.0):
        start = work_clock.now
        deadline = Deadline.after(seconds, work_clock)
        result = search.sampled_analysis(MIDGAME, moves, deadline=deadline, iterations=None, seed=1)
        assert work_clock.now <= deadline.at + 1e-9, seconds
        # and it used its time: within one slice's worth of the deadline
        assert work_clock.now >= deadline.at - search.SLICE * work_clock.per_iteration - 1e-9, seconds
        assert result.iterations == round((work_clock.now - start) / work_clock.per_iteration)
        assert {m.move for m in result.moves} == set(moves)  # every move has its figures


def test_a_passed_deadline_still_values_every_move_once(work_clock: WorkClock) -> None:
    moves = search.root_moves(MIDGAME, None, 3)
    deadline = Deadline.after(1.0, work_clock)
    work_clock.now = 5.0
    result = search.sampled_analysis(MIDGAME, moves, deadline=deadline, iterations=None, seed=1)
    assert result.iterations == len(moves) and len(result.moves) == len(moves)


def test_the_bot_and_the_analysis_end_by_the_deadline(work_clock: WorkClock) -> None:
    bot = SolverBot(HeuristicAdvisor(), seed=3, time_per_move=0.4, clock=work_clock)
    for state in (State.new(seed=2), MIDGAME):
        start = work_clock.now
        bot.decide(state)
        assert work_clock.now <= start + 0.4 + 1e-9
        start = work_clock.now
        analyse_position(state, deadline=Deadline.after(0.25, work_clock))
        assert work_clock.now <= start + 0.25 + 1e-9


def test_the_python_exact_search_checks_its_deadline_at_every_node() -> None:
    clock = WorkClock(per_read=1.0)  # a node reads the clock once: one fake second a node
    hard = late_positions(1, 36)[0]
    solver = ExactSearch(deadline=Deadline.after(50.0, clock))
    assert solver.solve(hard, every_move=True) is None
    assert solver.nodes <= 51 and clock.now <= 51.0


def test_the_compiled_exact_search_does_not_start_past_its_deadline() -> None:
    clock = WorkClock()
    deadline = Deadline.after(1.0, clock)
    clock.now = 2.0
    hard = late_positions(1, 36)[0]
    out = exactcore.solve(hard, deadline=deadline, every_move=True, table=exactcore.ExactTable(1))
    assert not out.solved and out.moves == [] and out.nodes <= 1


def test_the_exact_share_is_a_share_of_the_time_left() -> None:
    clock = WorkClock()
    deadline = Deadline.after(10.0, clock)
    end = from_notation("12,18,19,0,15,6,4,28,7 52/13/5/01cf1dfdfedf6ffffffff 51/34/15/0787c7f391f8fffffffff "
                        "0 - - - - 26,32,38,44,50")
    budget = search.exact_budget(end, deadline=deadline, iterations=None, every_move=True)
    assert budget is not None and budget.deadline is not None and not budget.probe
    assert budget.deadline.at == EXACT_SHARE * 10.0
    clock.now = 11.0  # nothing left: nothing to try
    assert search.exact_budget(end, deadline=deadline, iterations=None, every_move=True) is None


class RecordingAdvisor(HeuristicAdvisor):
    """The heuristic's placements, bounded like the CP-SAT advisor: records the deadlines given."""

    def __init__(self) -> None:
        super().__init__()
        self.given: list[Deadline] = []

    def bounded(self, deadline: Deadline) -> RecordingAdvisor:
        self.given.append(deadline)
        return self

    def rank_placements(self, quilt: int, patch_id: int, upcoming: Sequence[int],
                        top_k: int) -> list[RankedPlacement]:
        return super().rank_placements(quilt, patch_id, upcoming, top_k)


def test_the_advisor_is_bounded_by_the_analysis_deadline_only_when_timed(work_clock: WorkClock) -> None:
    advisor = RecordingAdvisor()
    deadline = Deadline.after(0.2, work_clock)
    analyse_position(MIDGAME, deadline=deadline, advisor=advisor)
    assert advisor.given and all(d.at <= deadline.at for d in advisor.given)
    fixed = RecordingAdvisor()
    analyse_position(MIDGAME, iterations=50, advisor=fixed, deadline=deadline)  # iterations rule: no clock
    assert fixed.given == []
    assert bounded(advisor, None) is advisor and bounded(object(), deadline) is not None


def test_bench_clock_reports_wall_time_against_the_budget() -> None:
    out = CliRunner().invoke(app, ["bench", "clock", "--games", "0", "--time", "0.05", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["positions"] == 1 and {(r["command"], r["T"]) for r in data["summary"]} == {("hint", 0.05),
                                                                                          ("move", 0.05)}
    for row in data["rows"]:
        assert row["ratio"] == pytest.approx(row["wall"] / row["T"]) and row["wall"] > 0
    bad = CliRunner().invoke(app, ["bench", "clock", "--time", "0"])
    assert bad.exit_code == 2 and "error: --time must be positive seconds, got 0.0" in bad.output


def test_a_bounded_advisor_still_ranks_when_its_time_is_gone() -> None:
    clock = WorkClock()
    deadline = Deadline.after(1.0, clock)
    clock.now = 2.0
    advisor = SolverAdvisor()
    late = advisor.bounded(deadline)
    assert late is not advisor and advisor.deadline is None and late.deadline == deadline
    ranked = late.rank_placements(0, 12, [1, 2, 3, 4, 5], 3)  # the fast bound past the deadline
    assert len(ranked) == 3 and all(r.mask in legal_placements(12, 0) for r in ranked)


#: 10 patches of 49 cells in all: no 7x7 square of an empty quilt is settled in 2 s of search.
OPEN_SQUARE = [5, 11, 15, 16, 17, 25, 27, 28, 29, 30]
#: A quilt on which each of the fill's two searches needs over a second (1.4 M nodes).
HARD_FILL = (2116247590008279011541056, [0, 2, 4, 5, 6, 12, 13, 15, 23, 26, 29, 30, 32])


def test_the_fill_switches_to_cp_sat_at_its_share_and_hands_it_the_deadline(
    node_clock: WorkClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    cp_sat = fake_cp_sat(monkeypatch, node_clock)
    raced: list[float] = []
    turned = fill._turned_search

    def turned_search(f: fill._Fill) -> fastpack.Packer:
        raced.append(node_clock.now)  # the race starts
        return turned(f)

    monkeypatch.setattr(fill, "_turned_search", turned_search)
    quilt, ids = HARD_FILL
    deadline = Deadline.after(2.0, node_clock)
    result = fill.optimal_fill(quilt, ids, deadline=deadline, config=SolverConfig(workers=1, seed=0))
    [start] = raced
    switch = start + max(TURNED_SHARE * (deadline.at - start), TURNED_SECONDS)
    [(called, given)] = cp_sat.calls
    # the turned search had its share of the time left (to the slice), then CP-SAT the fill's deadline
    assert switch <= called <= switch + fill_races.SLICE_NODES * node_clock.per_iteration
    assert given.at == deadline.at
    assert result.status == SolveStatus.FEASIBLE and result.objective is not None
    assert result.objective <= result.bound


def test_a_required_7x7_is_settled_within_its_share_of_the_fill(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = WorkClock()
    given: list[Deadline] = []
    completion = fill.bonus_completion

    def recorded(*args: object, deadline: Deadline, **kwargs: object) -> object:
        given.append(deadline)
        return completion(*args, deadline=deadline, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(fill, "bonus_completion", recorded)
    deadline = Deadline.after(10.0, clock)
    result = fill.optimal_fill(0, [0, 1, 2, 3], require_bonus=True, deadline=deadline)
    assert [d.at for d in given] == [FILL_BONUS_SHARE * 10.0]
    assert result.status == SolveStatus.INFEASIBLE  # 14 cells for 49: proven at once


def test_the_7x7_search_takes_its_share_and_cp_sat_shares_the_rest(
    node_clock: WorkClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    node_clock.per_iteration = 1e-7
    cp_sat = fake_cp_sat(monkeypatch, node_clock)
    deadline = Deadline.after(0.2, node_clock)
    result = bonus_completion(0, OPEN_SQUARE, deadline=deadline, config=SolverConfig(workers=1, seed=0))
    assert result.feasible is None and result.status == SolveStatus.UNKNOWN
    share = BONUS_SEARCH_SHARE * 0.2  # the search's deadline, made as it started (at 0)
    first = cp_sat.calls[0][0]
    assert share <= first <= share + 5_000 * node_clock.per_iteration  # to the slice
    # CP-SAT's windows share what is left equally, the last one to the completion's deadline
    ends = [d.at for _, d in cp_sat.calls]
    assert ends == sorted(ends) and ends[-1] == deadline.at
    assert ends[0] == pytest.approx(first + (deadline.at - first) / len(ends))


def test_best_fit_searches_while_its_deadline_lasts() -> None:
    from patchwork_opt.bench.hint import random_midgame

    rng = random.Random(4)
    for _ in range(50):
        quilt, pid, upcoming, pool = random_midgame(rng)
        full = best_fit(quilt, pid, upcoming, deadline=None, pool=pool, top_k=3)
        if full.solved >= 6:
            break
    else:
        pytest.fail("no request in 50 searches six placements")
    clock = WorkClock(per_read=1.0)  # a fake second each time the clock is read
    cut = best_fit(quilt, pid, upcoming, deadline=Deadline.after(3.0, clock), pool=pool, top_k=3)
    assert cut.solved <= 3 < full.solved  # one read a candidate: past the deadline, the fast bound
    assert full.exact and not cut.exact and len(cut.hints) == 3


def test_a_stop_ends_best_fit_as_its_deadline_would() -> None:
    from patchwork_opt.core.stop import StopSignal

    stop = StopSignal()
    stop.set()  # nobody waits for the answer: no placement is searched, each still ranked
    result = best_fit(0, 12, [1, 2, 3, 4], deadline=None, top_k=3, stop=stop)
    assert result.solved == 0 and len(result.hints) == 3 and not result.exact


def test_each_cp_sat_call_of_best_fit_ends_by_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = WorkClock()  # time stands still: every call sees the same deadlines
    cp_sat = fake_cp_sat(monkeypatch, clock)
    # node_limit 1: every cover goes to CP-SAT
    best_fit(0, 12, [1, 2, 3], deadline=Deadline.after(1.0, clock), call_seconds=0.3, node_limit=1)
    assert cp_sat.calls and {d.at for _, d in cp_sat.calls} == {0.3}  # a call's seconds
    cp_sat.calls.clear()
    best_fit(0, 12, [1, 2, 3], deadline=Deadline.after(0.2, clock), call_seconds=0.3, node_limit=1)
    assert cp_sat.calls and {d.at for _, d in cp_sat.calls} == {0.2}  # never past the deadline
