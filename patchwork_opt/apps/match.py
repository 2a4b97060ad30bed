"""Bot-versus-bot matches: paired games, parallel or on a Ray cluster, and their statistics.

Games come in pairs on the same circle with the seats swapped, so the luck of a circle (and of
moving first) cancels out within each pair. Statistics treat the pair as the sampling unit for
the score difference; wins give an Elo difference through the logistic model.
"""

from __future__ import annotations

import importlib
import math
import random
import re
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.bots.registry import ADVISED_BOTS, BOT_NAMES, UnknownBotError, make_bot
from patchwork_opt.apps.engine.client import EngineBot, engine_command, is_engine
from patchwork_opt.cluster import started_ray
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record, writable_dir
from patchwork_opt.i18n import N_, _, ngettext, number, one_of, percent, signed

Z95 = 1.959963984540054
#: Pairs a match needs before it quotes 95% intervals: the normal approximation behind them is
#: not to be trusted on a handful of samples (with one pair, it is no interval at all).
MIN_PAIRS_FOR_INTERVALS = 10
MAX_PLIES = 2000  # far above any real game (each ply moves a token or fills a cell): a runaway guard


class MatchError(PatchworkError):
    """A match that cannot be run as asked (bad counts, missing backend...)."""


#: The one line a ``--backend ray`` run without the ``ray`` extra ends with (as the CLI names the other extras).
RAY_MISSING = "the ray backend needs the 'ray' extra: pip install -e '.[ray]'"


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """What to play. ``p2_time_per_move`` and ``p2_level`` give --p2 a clock and a level of its
    own (a handicap match such as solver at 1 s against mcts at 5 s, or level 2 against level 1);
    without them both bots have ``time_per_move`` and ``level``.
    ``advisor_factory`` is ``"module:callable"`` building the solver bot's PlacementAdvisor inside
    each worker (the engine never imports it itself)."""

    p1: str
    p2: str
    games: int
    seed: int = 0
    level: int = 3
    time_per_move: float | None = None
    iterations: int | None = None
    advisor_factory: str | None = None
    p2_time_per_move: float | None = None
    p2_level: int | None = None

    def bot_name(self, role: int) -> str:
        """--p1's name for role 0, --p2's for role 1."""
        return self.p2 if role else self.p1

    def time_for(self, role: int) -> float | None:
        """Seconds per move of --p1 (role 0) or --p2 (role 1); None: the level's time."""
        if role and self.p2_time_per_move is not None:
            return self.p2_time_per_move
        return self.time_per_move

    def level_for(self, role: int) -> int:
        """Level of --p1 (role 0) or --p2 (role 1)."""
        if role and self.p2_level is not None:
            return self.p2_level
        return self.level

    def check(self) -> None:
        for name in (self.p1, self.p2):
            if is_engine(name):
                engine_command(name)  # a command line (the program itself starts with the first game)
            elif name.strip().lower() not in BOT_NAMES:
                raise UnknownBotError(_("unknown bot {name!r} (bots: {bots}, or engine:CMD)", name=name,
                                        bots=", ".join(BOT_NAMES)))
        if self.games < 1:
            raise MatchError(_("--games must be at least 1, got {games}", games=self.games))
        # Building the bots once checks the level, time and iterations with the registry's messages
        # (an engine's too: it gets the same level, time and iterations).
        for role in (0, 1):
            make_bot("random" if is_engine(self.bot_name(role)) else self.bot_name(role), level=self.level_for(role),
                     time_per_move=self.time_for(role), iterations=self.iterations)


@dataclass(frozen=True, slots=True)
class GameTask:
    index: int
    pair: int
    p1_seat: int  # 0: --p1 moves first in this game
    spec: MatchSpec


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, seen from the bots: ``scores[0]`` is --p1's score."""

    index: int
    pair: int
    p1_seat: int
    scores: tuple[int, int]
    p1_won: bool
    record: Record
    seconds: float


def circle_seed(seed: int, pair: int) -> int:
    return random.Random(f"match|{seed}|pair|{pair}").getrandbits(48)


def bot_seed(seed: int, index: int, seat: int) -> int:
    return random.Random(f"match|{seed}|game|{index}|seat|{seat}").getrandbits(48)


def game_tasks(spec: MatchSpec) -> list[GameTask]:
    """Games 2i and 2i+1 share circle i; --p1 moves first in the even one."""
    return [GameTask(i, i // 2, i % 2, spec) for i in range(spec.games)]


_ADVISORS: dict[str, PlacementAdvisor] = {}


def load_advisor(factory: str) -> PlacementAdvisor:
    """Build (once per process) the advisor named ``module:callable``."""
    if factory not in _ADVISORS:
        module_name, _, attr = factory.partition(":")
        try:
            module = importlib.import_module(module_name)
            _ADVISORS[factory] = getattr(module, attr)()
        except (ImportError, AttributeError) as exc:
            # Translators: {reason} is what went wrong, in English
            raise MatchError(N_("cannot load the placement advisor {factory!r}: {reason}"), factory=factory,
                             reason=exc) from None
    return _ADVISORS[factory]


def bot_for(spec: MatchSpec, role: int, seed: int) -> Bot:
    """--p1's bot (role 0) or --p2's (role 1), each with its own clock."""
    name = spec.bot_name(role)
    if is_engine(name):
        return EngineBot(name, level=spec.level_for(role), seed=seed, time_per_move=spec.time_for(role),
                         iterations=spec.iterations)
    advisor = None
    if name.strip().lower() in ADVISED_BOTS and spec.advisor_factory:
        advisor = load_advisor(spec.advisor_factory)
    return make_bot(
        name,
        level=spec.level_for(role),
        seed=seed,
        time_per_move=spec.time_for(role),
        advisor=advisor,
        iterations=spec.iterations,
    )


def play(state: State, bots: Sequence[Bot]) -> list[Move]:
    """Play ``bots[0]`` (seat 0) against ``bots[1]`` from ``state`` to the end, in place.

    Every move goes through ``State.apply``, so a bot's illegal move raises IllegalMoveError.
    """
    moves: list[Move] = []
    while not state.is_terminal():
        if len(moves) >= MAX_PLIES:
            raise MatchError(N_("game did not finish within {plies} plies"), plies=MAX_PLIES)
        move = bots[state.to_move()].decide(state).move
        state.apply(move)
        moves.append(move)
    return moves


def play_game(task: GameTask) -> GameResult:
    """One game of a match (top-level so process pools and Ray can ship it)."""
    spec = task.spec
    started = time.perf_counter()
    state = State.new(seed=circle_seed(spec.seed, task.pair))
    record = Record.start(state)
    roles = (0, 1) if task.p1_seat == 0 else (1, 0)  # who sits in seat 0 and seat 1
    bots = [bot_for(spec, roles[seat], bot_seed(spec.seed, task.index, seat)) for seat in (0, 1)]
    record.moves = play(state, bots)
    record.players = [bots[0].name, bots[1].name]  # what `analyze` shows
    s1, s2 = state.score(task.p1_seat), state.score(1 - task.p1_seat)
    return GameResult(
        index=task.index,
        pair=task.pair,
        p1_seat=task.p1_seat,
        scores=(s1, s2),
        p1_won=state.winner() == task.p1_seat,
        record=record,
        seconds=time.perf_counter() - started,
    )


# --- running ------------------------------------------------------------------------------------


def run_match(
    spec: MatchSpec,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    game: Callable[[GameTask], GameResult] = play_game,
) -> list[GameResult]:
    """Play every game of ``spec``; results come back sorted by game index. ``game`` plays one task
    (a top-level function or a picklable callable: self-play adds random openings through it)."""
    spec.check()
    check_run(workers, backend)
    tasks = game_tasks(spec)
    results: list[GameResult] = []

    def collect(result: GameResult) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    if backend == "local":
        if workers == 1:
            for task in tasks:
                collect(game(task))
        else:
            with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
                futures = [pool.submit(game, task) for task in tasks]
                for future in as_completed(futures):
                    collect(future.result())
    else:
        _run_on_ray(tasks, workers, address, collect, game)
    results.sort(key=lambda r: r.index)
    return results


BACKENDS = ("local", "ray")


def check_run(workers: int, backend: str) -> None:
    """Refuse a bad worker count or backend before any game is played."""
    if workers < 1:
        raise MatchError(_("--workers must be at least 1, got {workers}", workers=workers))
    if backend not in BACKENDS:
        raise MatchError(_("unknown backend {backend!r} (expected {backends})", backend=backend,
                           backends=one_of(BACKENDS)))
    if backend == "ray":
        try:
            import ray  # noqa: F401  (the games import it anyway: checked here before any progress is drawn)
        except ImportError:
            raise MatchError(RAY_MISSING) from None


def check_save_dir(directory: str | Path) -> None:
    """Refuse a --save path that cannot hold records before any game is played (the directory is
    made now, when missing), so a long match is never played for records that cannot be kept."""
    try:
        writable_dir(directory, "--save")
    except PatchworkError as exc:
        raise MatchError(exc.template, **exc.values) from None


def player_name(name: str) -> str:
    """A bot's name in lower case; an ``engine:CMD`` player's command as given."""
    return name.strip() if is_engine(name) else name.strip().lower()


def checked_spec(
    p1: str, p2: str, *, games: int, seed: int, level: int, time_per_move: float | None, iterations: int | None,
    workers: int, backend: str, save: str | None, advisor_factory: str | None = None,
    p2_time_per_move: float | None = None, p2_level: int | None = None,
) -> MatchSpec:
    """The match ``patchwork match`` asks for, every option checked before any game is played."""
    spec = MatchSpec(p1=player_name(p1), p2=player_name(p2), games=games, seed=seed, level=level,
                     time_per_move=time_per_move, iterations=iterations, advisor_factory=advisor_factory,
                     p2_time_per_move=p2_time_per_move, p2_level=p2_level)
    spec.check()
    check_run(workers, backend)
    if save:
        check_save_dir(save)
    return spec


def _play_task(game: Callable[[GameTask], GameResult], task: GameTask) -> GameResult:
    return game(task)


def _run_on_ray(
    tasks: list[GameTask], workers: int, address: str | None, collect: Callable[[GameResult], None],
    game: Callable[[GameTask], GameResult] = play_game,
) -> None:
    try:
        ray = started_ray(workers, address)
    except ImportError:
        raise MatchError(RAY_MISSING) from None
    remote_game = ray.remote(_play_task)
    pending = [remote_game.remote(game, task) for task in tasks]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        collect(ray.get(done[0]))


def _file_part(name: str) -> str:
    """A player's name as a piece of a file name (an engine's command holds spaces and slashes)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")


def save_records(results: Sequence[GameResult], directory: str | Path, spec: MatchSpec) -> list[Path]:
    """Write each game as ``game-0001.json`` (a record ``patchwork replay`` reads)."""
    out = Path(directory)
    paths = []
    for r in results:
        first, second = (spec.p1, spec.p2) if r.p1_seat == 0 else (spec.p2, spec.p1)
        path = out / f"game-{r.index + 1:04d}-{_file_part(first)}-vs-{_file_part(second)}.json"
        r.record.save(path)
        paths.append(path)
    return paths


# --- statistics ---------------------------------------------------------------------------------


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Mean and normal-approximation 95% interval (the interval is the mean alone for n < 2)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, (m, m)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return m, (m - half, m + half)


def elo_of(p: float) -> float:
    return 400.0 * math.log10(p / (1.0 - p))


def elo_ci(wins: int, games: int) -> tuple[float, tuple[float | None, float | None], bool]:
    """Elo difference from a win share, with the Wilson 95% interval of the share mapped through.

    A share of 0 or 1 has an infinite Elo; the share is then clamped to half a game from the
    edge (``clamped`` says so), so the figure stays finite and honest about its direction, and
    the interval is open on that side (None): only the other bound is known.
    """
    p = wins / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    edge = 0.5 / games

    def clip(x: float) -> float:
        return min(max(x, edge), 1 - edge)

    low, high = elo_of(clip(centre - half)), elo_of(clip(centre + half))
    return elo_of(clip(p)), (None if p <= 0 else low, None if p >= 1 else high), p <= 0 or p >= 1


@dataclass(frozen=True, slots=True)
class MatchSummary:
    p1: str
    p2: str
    games: int
    wins: tuple[int, int]
    mean_score: tuple[float, float]
    mean_score_ci95: tuple[tuple[float, float], tuple[float, float]] | None  # None: too few pairs
    score_diff: float
    score_diff_ci95: tuple[float, float] | None
    elo: float
    elo_ci95: tuple[float | None, float | None] | None  # a bound is None after a sweep
    elo_clamped: bool
    seconds: float
    pairs: int
    first_seat_wins: int = 0
    time_per_move: tuple[float | None, float | None] = (None, None)  # None: the level's time
    levels: tuple[int, int] = (3, 3)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 3)

        def interval(ci: tuple[float | None, float | None] | None) -> list[float | None] | None:
            return None if ci is None else [r(x) for x in ci]

        scores_ci = self.mean_score_ci95 or (None, None)
        return {
            "p1": self.p1,
            "p2": self.p2,
            "games": self.games,
            "pairs": self.pairs,
            "wins": list(self.wins),
            "win_rate": r(self.wins[0] / self.games),
            "mean_score": [r(x) for x in self.mean_score],
            "mean_score_ci95": [interval(ci) for ci in scores_ci],
            "score_diff": {"mean": r(self.score_diff), "ci95": interval(self.score_diff_ci95)},
            "elo": {"diff": r(self.elo), "ci95": interval(self.elo_ci95), "clamped": self.elo_clamped},
            "first_seat_wins": self.first_seat_wins,
            "time_per_move": list(self.time_per_move),
            "level": list(self.levels),
            "seconds": r(self.seconds),
            **self.extra,
        }


def summarize(spec: MatchSpec, results: Sequence[GameResult], seconds: float = 0.0) -> MatchSummary:
    """Wins by bot across both seats; the score difference (--p1 minus --p2) averaged per pair
    (a pair's two games form one sample, an unpaired last game its own) for the interval."""
    if not results:
        raise MatchError(_("no games were played"))
    n = len(results)
    w1 = sum(1 for r in results if r.p1_won)
    by_pair: dict[int, list[float]] = {}
    for r in results:
        by_pair.setdefault(r.pair, []).append(float(r.scores[0] - r.scores[1]))
    pair_means = [statistics.fmean(v) for v in by_pair.values()]
    diff_mean = statistics.fmean(r.scores[0] - r.scores[1] for r in results)
    _mean, diff_ci = mean_ci(pair_means)
    half = (diff_ci[1] - diff_ci[0]) / 2
    m1, ci1 = mean_ci([float(r.scores[0]) for r in results])
    m2, ci2 = mean_ci([float(r.scores[1]) for r in results])
    elo, elo_interval, clamped = elo_ci(w1, n)
    first_seat = sum(1 for r in results if r.p1_won == (r.p1_seat == 0))
    intervals = len(by_pair) >= MIN_PAIRS_FOR_INTERVALS
    return MatchSummary(
        p1=spec.p1,
        p2=spec.p2,
        games=n,
        wins=(w1, n - w1),
        mean_score=(m1, m2),
        mean_score_ci95=(ci1, ci2) if intervals else None,
        score_diff=diff_mean,
        score_diff_ci95=(diff_mean - half, diff_mean + half) if intervals else None,
        elo=elo,
        elo_ci95=elo_interval if intervals else None,
        elo_clamped=clamped,
        seconds=seconds,
        pairs=len(by_pair),
        first_seat_wins=first_seat,
        time_per_move=(spec.time_for(0), spec.time_for(1)),
        levels=(spec.level_for(0), spec.level_for(1)),
    )


def _bracket(ci: tuple[float | None, float | None] | None, digits: int, *, sign: bool = False) -> str:
    """`` [low, high]`` written as the language writes numbers; nothing without an interval (too few pairs)."""
    if ci is None or ci[0] is None or ci[1] is None:
        return ""
    said = signed if sign else number
    return f" [{said(ci[0], digits)}, {said(ci[1], digits)}]"


def _with_interval(value: str, interval: str) -> str:
    # Translators: a figure and its 95% confidence interval ("+35   95% CI [-12, +80]")
    return _("{value}   95% CI{interval}", value=value, interval=interval) if interval else value


def _elo_text(summary: MatchSummary) -> str:
    if not summary.elo_clamped:
        return _with_interval(signed(round(summary.elo), 0), _bracket(summary.elo_ci95, 0, sign=True))
    won = summary.wins[0] > 0
    winner = summary.p1 if won else summary.p2
    if summary.elo_ci95 is None:
        # Translators: every game of a match was won by one player ({player}: its name): no Elo difference to say
        return _("sweep: every game won by {player}", player=winner)
    bound = signed(round(summary.elo_ci95[0 if won else 1] or 0.0), 0)
    # Translators: a sweep's Elo: one bound of its 95% interval ({bound}: "+400"), the other one open
    return (_("sweep: every game won by {player} (95% CI > {bound}; the other bound is open)", player=winner,
              bound=bound) if won else
            _("sweep: every game won by {player} (95% CI < {bound}; the other bound is open)", player=winner,
              bound=bound))


def _clock_text(seconds: float | None) -> str:
    # Translators: a bot's time per move in a match: the time its level gives, or seconds
    return _("level's time") if seconds is None else _("{seconds} s", seconds=number(seconds))


def render_summary(summary: MatchSummary) -> str:
    """The text of ``patchwork match``: wins, mean scores, score difference and Elo, with 95%
    intervals when there are pairs enough for them, and a line saying so when there are not."""
    p1, p2, n, pairs = summary.p1, summary.p2, summary.games, summary.pairs
    w1, w2 = summary.wins
    m1, m2 = summary.mean_score
    c1, c2 = summary.mean_score_ci95 or (None, None)
    # Translators: the lines of a match's summary: a label padded to 13 characters, then its figures; {p1} and
    # {p2} are the two players' names
    games = ngettext("{count} game", "{count} games", n)
    lines = [
        ngettext("{p1} (p1) vs {p2} (p2): {games} in {count} pair, seats swapped within a pair",
                 "{p1} (p1) vs {p2} (p2): {games} in {count} pairs, seats swapped within a pair", pairs, p1=p1, p2=p2,
                 games=games),
        _("wins         {p1} {w1}   {p2} {w2}   ({share} for {p1})", p1=p1, w1=w1, p2=p2, w2=w2,
          share=percent(w1 / n, 1)),
        _("mean score   {p1} {m1}   {p2} {m2}", p1=p1, m1=number(m1, 1) + _bracket(c1, 1), p2=p2,
          m2=number(m2, 1) + _bracket(c2, 1)),
        _("score diff   {diff}", diff=_with_interval(signed(summary.score_diff, 1),
                                                      _bracket(summary.score_diff_ci95, 1, sign=True))),
        _("Elo diff     {elo}", elo=_elo_text(summary)),
    ]
    if summary.levels[0] != summary.levels[1]:
        lines.append(_("level        {p1} {l1}   {p2} {l2}", p1=p1, l1=summary.levels[0], p2=p2, l2=summary.levels[1]))
    t1, t2 = summary.time_per_move
    if t1 is not None or t2 is not None:
        lines.append(_("time/move    {p1} {t1}   {p2} {t2}", p1=p1, t1=_clock_text(t1), p2=p2, t2=_clock_text(t2)))
    if summary.score_diff_ci95 is None:
        lines.append(ngettext("intervals    too few games for 95% intervals: {count} pair played, intervals from "
                              "{least} pairs ({games} games) on",
                              "intervals    too few games for 95% intervals: {count} pairs played, intervals from "
                              "{least} pairs ({games} games) on", pairs, least=MIN_PAIRS_FOR_INTERVALS,
                              games=2 * MIN_PAIRS_FOR_INTERVALS))
    lines.append(_("time         {seconds}s", seconds=number(summary.seconds, 1)))
    return "\n".join(lines)
