"""Bots by name: the one place that maps a user's ``--p1 mcts --level 4`` to a configured Bot.

Levels 1-5 set the thinking time per move of the searching bots (``time_per_move`` overrides
it; ``iterations`` replaces the clock with a fixed budget, which makes searches repeatable). For
the solver bot a level also caps its iterations per move, sets how often it deliberately plays a
random legal move and whether it searches the endgame exactly: level 1 loses most games to greedy,
level 5 is the strongest setting (the Elo ladder is in docs/strength.md, "Level ladder"). ``time_per_move`` replaces a
level's time, its iteration cap and its root placements by the full-strength search.

``solver`` values its search's leaves with the learned evaluation (``search.default_evaluator``)
and solves endgames with the compiled exact search. ``solver-rollout`` is the solver as it was
before: noisy-greedy rollouts, the Python exact search from space 40, every setting as it was,
kept as a fixed reference (as ``mcts`` was kept).
"""

from __future__ import annotations

from patchwork_opt.ai.base import Bot
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.i18n import N_

BOT_NAMES: tuple[str, ...] = ("random", "greedy", "mcts", "solver", "solver-rollout")
#: The bots that use a plugged-in PlacementAdvisor (the caller's CP-SAT one).
ADVISED_BOTS: tuple[str, ...] = ("solver", "solver-rollout")

#: Seconds per move for each level (searching bots).
LEVEL_TIME: dict[int, float] = {1: 0.05, 2: 0.2, 3: 0.5, 4: 1.0, 5: 3.0}
#: Chance per move that the solver bot plays a random candidate instead of its best, per level.
LEVEL_BLUNDER: dict[int, float] = {1: 0.5, 2: 0.15, 3: 0.0, 4: 0.0, 5: 0.0}
#: Whether the solver bot searches the endgame exactly, per level.
LEVEL_EXACT: dict[int, bool] = {1: False, 2: False, 3: True, 4: True, 5: True}
#: The solver bot's iterations per move at most, per level (None: as many as the time allows).
LEVEL_ITERATIONS: dict[int, int | None] = {1: 200, 2: 1000, 3: 2000, 4: 8000, 5: None}
#: Placements of each offer the solver bot compares at the root, per level (None: the bot's
#: full-strength default, ``solver_bot.ROOT_PLACEMENTS``).
LEVEL_ROOT_PLACEMENTS: dict[int, int | None] = {1: 1, 2: 1, 3: 1, 4: 1, 5: None}


class UnknownBotError(PatchworkError):
    """A bot name or level the registry does not know."""


def level_time(level: int) -> float:
    if level not in LEVEL_TIME:
        raise UnknownBotError(N_("unknown level {level!r} (levels are 1..{last})"), level=level, last=max(LEVEL_TIME))
    return LEVEL_TIME[level]


def make_bot(
    name: str,
    *,
    level: int = 3,
    seed: int | None = None,
    time_per_move: float | None = None,
    advisor: PlacementAdvisor | None = None,
    iterations: int | None = None,
) -> Bot:
    """A bot by name. ``advisor`` is used by ``solver`` only (the caller plugs in the CP-SAT one;
    without one the solver bot uses the pure-Python HeuristicAdvisor and says so in its name)."""
    key = name.strip().lower()
    seconds = level_time(level)  # checks the level even when the time is given
    if time_per_move is not None:
        seconds = time_per_move
    if seconds <= 0:
        raise UnknownBotError(N_("time per move must be positive, got {seconds}"), seconds=seconds)
    if iterations is not None and iterations < 1:
        raise UnknownBotError(N_("iterations must be at least 1, got {iterations}"), iterations=iterations)
    if key == "random":
        from patchwork_opt.ai.bots.random_bot import RandomBot

        return RandomBot(seed)
    if key == "greedy":
        from patchwork_opt.ai.bots.greedy import GreedyBot

        return GreedyBot(seed)
    if key == "mcts":
        from patchwork_opt.ai.search.mcts import MctsBot

        return MctsBot(seed=seed, time_per_move=seconds, iterations=iterations)
    if key in ADVISED_BOTS:
        from patchwork_opt.ai.bots.solver_bot import ROOT_PLACEMENTS, SolverBot

        by_level = time_per_move is None
        top_k = LEVEL_ROOT_PLACEMENTS[level] if by_level else None
        reference = key == "solver-rollout"  # the solver as it was: rollouts, Python exact search
        bot = SolverBot(advisor, seed=seed, time_per_move=seconds, iterations=iterations,
                        exact=LEVEL_EXACT[level], blunder=LEVEL_BLUNDER[level],
                        max_iterations=LEVEL_ITERATIONS[level] if by_level else None,
                        top_k=ROOT_PLACEMENTS if top_k is None else top_k, reference=reference)
        if reference:
            bot.name = key if advisor is not None else f"{key}(heuristic)"
        return bot
    # Translators: keep the bots' names as they are
    raise UnknownBotError(N_("unknown bot {name!r} (bots: {bots})"), name=name, bots=", ".join(BOT_NAMES))
