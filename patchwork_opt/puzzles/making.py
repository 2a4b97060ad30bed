"""Fill puzzles with one best answer, proven by the optimal fill (``solvers.fill``), and the
requests for a new puzzle of any kind (``new_puzzle``: the module its kind's ``maker`` names makes it).

A fill puzzle is a quilt from a seeded game (the greedy bot against itself, stopped at a random
move) and the patches that come next in its circle, in one of three variants:

* ``cells``: cover as many cells as the patches can;
* ``points``: the best score change (2 a cell, income at each income mark still ahead, less the
  price) spending at most the player's buttons;
* ``bonus``: complete a 7x7 square, covering as many cells as possible.

Only fills the optimizer proves optimal are kept, and only those with one best answer: the choice of
patches of the optimum (the patches worth something) must be the only one that reaches it, and
clearly so. The optimizer is asked again with that choice excluded (``optimal_fill``'s
``exclude_sets``, a no-good on the choice of patches) and must prove (status optimal, or
infeasible: no other choice completes the 7x7 square) that the best other choice falls short by
``MARGIN``: a cell (``cells``, ``bonus``: any other choice is worse) or two points (``points``: a
choice one point short is no clear second). The choice of patches is what is unique, not the
arrangement: a quilt's symmetries, and often other moves, rearrange the same patches, and any
arrangement of them reaches the optimum. Answers that differ only in placing a patch worth nothing
as well are the same answer (the score does not see it).

Each fill puzzle is tagged with its themes (``FILL_THEMES``): ``points`` (the points objective),
``7x7`` (the bonus variant) and ``budget`` (a points puzzle whose button budget binds: a fill
without the budget is worth more, which a third solve shows).

The difficulty measures how far greedy placement falls short of the optimum (``greedy_fill``: the
patches largest first, or worth most first, each where the heuristic places it): 1 when greedy
reaches it, 5 when it misses by a third or fails to complete the square at all.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, cast

from patchwork_opt.ai.bots.greedy import GreedyBot
from patchwork_opt.ai.heuristic import AREA, COST, best_placement, window_progress
from patchwork_opt.core.bitboard import FULL, has_full_window
from patchwork_opt.core.catalogue import patch_worth
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import State, marks_ahead
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import N_
from patchwork_opt.puzzles.kinds import Puzzle, check_puzzle_request, kind_named
from patchwork_opt.puzzles.kinds.base import Maker, PuzzleKind
from patchwork_opt.puzzles.kinds.fill import FILL, FILL_THEMES, THEME_VARIANTS, VARIANTS, FillPuzzle, Objective, Variant
from patchwork_opt.puzzles.model import DIFFICULTIES, Placement
from solvers.fill import FillResult, optimal_fill
from solvers.model import SolverConfig, SolveStatus
from solvers.search import PackingProblem, pack

#: Seconds the optimal fill may take to prove a puzzle (one CP-SAT worker).
FILL_SECONDS = 10.0
#: Patches offered: the next few of the circle (more for the 7x7, which needs many cells).
PATCHES_OFFERED: dict[Variant, tuple[int, int]] = {"cells": (5, 10), "points": (5, 10), "bonus": (8, 12)}
#: Covered cells of the quilt a variant starts from.
COVERED: dict[Variant, tuple[int, int]] = {"cells": (18, 60), "points": (10, 50), "bonus": (28, 60)}
#: Cells of the best 7x7 window covered at least, for the 7x7 variant.
BONUS_PROGRESS = 30
#: Difficulty from greedy's shortfall (share of the optimum it misses): 1 when it misses nothing,
#: then the first threshold the shortfall is at most, plus one; 5 beyond the last.
SHORTFALL_THRESHOLDS = (0.0, 0.1, 0.2, 0.35)
#: How far the best other choice of patches must fall short of the optimum for a puzzle to have
#: one best answer: any cell, or two points (one point is within a careless count).
MARGIN: dict[Objective, int] = {"cells": 1, "points": 2}
#: Nodes the one-thread search may take to arrange the answer again (about a second).
ARRANGE_NODES = 1_000_000
#: Seeds tried for one fill puzzle of a wanted difficulty before giving up.
MAX_SEEDS = 500


def game_positions(seed: int) -> list[State]:
    """Every position (no leather pending) of the greedy bot's game against itself on the circle of ``seed``."""
    state = State.new(seed=seed)
    bot = GreedyBot()
    out = []
    while not state.is_terminal():
        if state.pending < 0:
            out.append(state.clone())
        state.apply(bot.decide(state.clone()).move)
    return out


def greedy_fill(quilt: int, patches: tuple[int, ...], objective: Objective, marks: int, budget: int | None,
                require_bonus: bool) -> tuple[int | None, list[Placement]]:
    """What greedy placement reaches: the patches largest first (``cells``) or worth most first
    (``points``, skipping those worth nothing or over the buttons left), each where the heuristic
    places it; None when the 7x7 square is asked for and not completed."""
    if objective == "cells":
        order = sorted(patches, key=lambda pid: (-AREA[pid], pid))
    else:
        order = sorted(patches, key=lambda pid: (-patch_worth(pid, marks), pid))
    left = budget
    placed: list[Placement] = []
    for pid in order:
        if objective == "points" and patch_worth(pid, marks) <= 0:
            continue
        if left is not None and COST[pid] > left:
            continue
        mask = best_placement(quilt, pid, bonus_free=require_bonus)
        if mask:
            quilt |= mask
            placed.append((pid, mask))
            if left is not None:
                left -= COST[pid]
    if require_bonus and not has_full_window(quilt):
        return None, placed
    worth = sum(AREA[pid] if objective == "cells" else patch_worth(pid, marks) for pid, _ in placed)
    return worth, placed


def fill_difficulty(best: int, greedy: int | None) -> int:
    shortfall = 1.0 if greedy is None else (best - greedy) / max(best, 1)
    return 1 + sum(1 for t in SHORTFALL_THRESHOLDS if shortfall > t)


def fill_id(quilt: int, patches: tuple[int, ...], objective: str, marks: int, budget: int | None, bonus: bool) -> str:
    key = json.dumps([quilt, sorted(patches), objective, marks, budget, bonus])
    return "f" + hashlib.sha256(key.encode()).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class FillQuestion:
    """What a fill puzzle asks: the quilt, the patches offered and the rules of its variant."""

    variant: Variant
    quilt: int
    patches: tuple[int, ...]
    objective: Objective
    marks: int
    budget: int | None
    bonus: bool

    def solve(self, *, budget: int | None, stop: StopSignal | None, exclude: Collection[int] | None = None,
              until: Callable[[int], bool] | None = None) -> FillResult:
        """The optimal fill under ``budget`` (one CP-SAT worker, a fixed seed), the choice of
        patches ``exclude`` excluded when given; stopped early (unproven) as soon as a fill found
        is worth a value ``until`` accepts: all that question needed to know."""
        inner = StopSignal()
        if stop is not None:
            stop.attach(inner.set)

        def progress(value: float | None, bound: float, phase: str) -> None:
            if until is not None and value is not None and until(round(value)):
                inner.set()

        return optimal_fill(self.quilt, list(self.patches), deadline=Deadline.after(FILL_SECONDS),
                            objective=self.objective, marks=self.marks, budget=budget,
                            require_bonus=self.bonus, config=SolverConfig(workers=1, seed=0),
                            progress=progress if until is not None else None, stop=inner,
                            exclude_sets=[] if exclude is None else [exclude])

    def worth(self, pid: int) -> int:
        return AREA[pid] if self.objective == "cells" else patch_worth(pid, self.marks)


def fill_question(seed: int, variant: Variant) -> FillQuestion | None:
    """The question of ``seed`` in ``variant``: a position of the seed's greedy game (its quilt in
    the variant's range; for the 7x7, no square yet and one well under way) and the next patches
    of its circle. None when the game has no such position."""
    rng = random.Random(f"fill|{seed}|{variant}")
    low, high = COVERED[variant]
    positions = [s for s in game_positions(seed) if low <= s.quilts[s.to_move()].bit_count() <= high]
    if variant == "bonus":
        positions = [s for s in positions if s.bonus < 0 and window_progress(s.quilts[s.to_move()]) >= BONUS_PROGRESS]
    if not positions:
        return None
    state = rng.choice(positions)
    p = state.to_move()
    fewest, most = PATCHES_OFFERED[variant]
    points = variant == "points"
    return FillQuestion(
        variant=variant, quilt=state.quilts[p], patches=tuple(state.circle[: rng.randint(fewest, most)]),
        objective="points" if points else "cells", marks=marks_ahead(state.pos[p]) if points else 9,
        budget=state.buttons[p] if points else None, bonus=variant == "bonus",
    )


def fill_puzzle(seed: int, variant: Variant, *, stop: StopSignal | None = None) -> FillPuzzle | None:
    """The fill puzzle of ``seed`` in ``variant``, or None when the seed's game gives none (no quilt
    in range, nothing worth placing, no 7x7 to complete, no proof in time, or not one best answer)."""
    question = fill_question(seed, variant)
    if question is None:
        return None
    result = question.solve(budget=question.budget, stop=stop)
    if result.status != SolveStatus.OPTIMAL or result.objective is None or result.objective <= 0:
        return None
    # the patches worth something: one worth nothing placed as well changes neither score nor answer
    best = tuple((pl.patch, pl.mask) for pl in result.placements if question.bonus or question.worth(pl.patch) > 0)
    if not one_best_choice(question, result.objective, {pid for pid, _ in best}, stop):
        return None
    best = arranged(question, best, result.objective)
    q = question
    greedy, _ = greedy_fill(q.quilt, q.patches, q.objective, q.marks, q.budget, q.bonus)
    return FillPuzzle(
        id=fill_id(q.quilt, q.patches, q.objective, q.marks, q.budget, q.bonus), quilt=q.quilt, patches=q.patches,
        objective=q.objective, marks=q.marks, budget=q.budget, require_bonus=q.bonus, best_value=result.objective,
        best=best, greedy=greedy, difficulty=fill_difficulty(result.objective, greedy),
        themes=fill_themes(question, result.objective, stop),
    )


def arranged(question: FillQuestion, best: tuple[Placement, ...], value: int) -> tuple[Placement, ...]:
    """The answer's placements as the same seed gives them every time: the solver's race (two
    searches, or CP-SAT beside one) hands back whichever arrangement of the one best choice won,
    so the patches are arranged again by the one-thread search on them alone (a node limit, not
    the clock: the same either way). The 7x7 variant keeps the solver's (CP-SAT alone, one worker,
    a fixed seed: the same every time), as this search knows nothing of the square."""
    if question.bonus:
        return best
    ids = tuple(sorted(pid for pid, _ in best))
    values = None if question.objective == "cells" else tuple(question.worth(pid) for pid in ids)
    found = pack(PackingProblem(FULL & ~question.quilt, ids, values), upper=value, node_limit=ARRANGE_NODES)
    if found.value != value:
        return best  # not found within the limit: the solver's arrangement
    return tuple(sorted((ids[slot], mask) for slot, mask in found.placements))


def one_best_choice(question: FillQuestion, best: int, chosen: Collection[int], stop: StopSignal | None) -> bool:
    """Whether ``chosen`` (the optimum's patches) is the one best choice: the best fill of any other
    choice, proven, falls short of ``best`` by ``MARGIN`` at least, or no other choice meets the
    requirements (no other completes the 7x7). Unproven in time: no. The solve stops at the first
    other choice found within the margin: that already says no."""
    close = best - MARGIN[question.objective]
    other = question.solve(budget=question.budget, stop=stop, exclude=chosen, until=lambda value: value > close)
    if other.objective is not None and other.objective > close:
        return False
    if other.status == SolveStatus.INFEASIBLE:
        return True
    return other.status == SolveStatus.OPTIMAL


def fill_themes(question: FillQuestion, best: int, stop: StopSignal | None) -> tuple[str, ...]:
    """The puzzle's themes, in ``FILL_THEMES`` order. ``budget`` needs a fill without the budget
    worth more than ``best``: any such fill shows the budget binds, proven optimal or not."""
    themes = set()
    if question.objective == "points":
        themes.add("points")
    if question.bonus:
        themes.add("7x7")
    if question.budget is not None:
        free = question.solve(budget=None, stop=stop, until=lambda value: value > best)
        if free.objective is not None and free.objective > best:
            themes.add("budget")
    return tuple(t for t in FILL_THEMES if t in themes)


def generate_fill(seed: int, difficulty: int | None = None, variant: Variant | None = None, *,
                  theme: str | None = None, max_seeds: int = MAX_SEEDS, progress: Callable[[int], None] | None = None,
                  stop: StopSignal | None = None) -> FillPuzzle:
    """One fill puzzle (of ``difficulty``, ``variant`` and ``theme`` when given) from the games of
    ``seed``: the same seed gives the same puzzle. A theme alone tries only the variants it comes from."""
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise PatchworkError(N_("difficulty must be 1-5, not {difficulty}"), difficulty=difficulty)
    check_puzzle_request(FILL.name, variant, theme)
    kinds = (variant,) if variant is not None else THEME_VARIANTS[theme] if theme is not None else VARIANTS
    rng = random.Random(seed)
    for tried in range(max_seeds):
        kind = kinds[tried % len(kinds)]
        puzzle = fill_puzzle(rng.randrange(1 << 31), kind, stop=stop)
        if progress is not None:
            progress(tried + 1)
        if stop is not None and stop.is_set():
            break
        if (puzzle is not None and (difficulty is None or puzzle.difficulty == difficulty)
                and (theme is None or theme in puzzle.themes)):
            return puzzle
    raise PatchworkError(_NONE_FOUND[difficulty is not None, theme is not None], difficulty=difficulty, theme=theme,
                         games=max_seeds, seed=seed)


#: No puzzle found, by whether a difficulty and a theme were asked for.
_NONE_FOUND = {
    # Translators: no fill puzzle was found from {games} games of the random seed {seed}
    (False, False): N_("no fill puzzle from {games} games of seed {seed}; try another seed"),
    (True, False): N_("no fill puzzle of difficulty {difficulty} from {games} games of seed {seed}; try another seed"),
    # Translators: {theme} is a theme's name (budget, 7x7, points), kept as it is
    (False, True): N_("no fill puzzle on the theme {theme} from {games} games of seed {seed}; try another seed"),
    (True, True): N_("no fill puzzle of difficulty {difficulty} on the theme {theme} from {games} games of seed "
                     "{seed}; try another seed"),
}


def make(seed: int, difficulty: int | None, *, variant: str | None, theme: str | None,
         progress: Callable[[int], None] | None, stop: StopSignal | None) -> FillPuzzle:
    """The fill kind's ``Maker.make``: ``generate_fill`` (the request checked by ``new_puzzle``)."""
    return generate_fill(seed, difficulty, cast(Variant | None, variant), theme=theme, progress=progress, stop=stop)


def bank_task(seed: int) -> list[dict[str, Any]]:
    """The fill kind's ``Maker.bank_task``: the fill puzzle of one seed (its variant by the seed), as JSON."""
    puzzle = fill_puzzle(seed, VARIANTS[seed % len(VARIANTS)])
    return [] if puzzle is None else [puzzle.to_json()]


def maker_of(kind: PuzzleKind[Any, Any]) -> Maker:
    """The module that makes puzzles of ``kind`` (its ``maker``), loaded the first time it is asked."""
    if kind.maker is None:
        # Translators: {kind} is a puzzle kind's name (exercise), kept as it is
        raise PatchworkError(N_("puzzles of the kind {kind} are not made from seeds"), kind=kind.name)
    return cast(Maker, importlib.import_module(kind.maker))


def new_puzzle(kind: str, difficulty: int | None, seed: int, *, variant: str | None = None,
               theme: str | None = None, progress: Callable[[int], None] | None = None,
               stop: StopSignal | None = None) -> Puzzle:
    """``patchwork puzzle new``'s puzzle: one of ``kind`` of ``difficulty`` (and ``variant``,
    ``theme``) from ``seed`` (``progress(tries)`` after each game or quilt tried)."""
    check_puzzle_request(kind, variant, theme)
    made: Puzzle = maker_of(kind_named(kind)).make(seed, difficulty, variant=variant, theme=theme,
                                                   progress=progress, stop=stop)
    return made
