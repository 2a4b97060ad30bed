"""``patchwork selfplay``: the solver against itself, written down as training data.

Games are played by the match machinery (``match.run_match``: one process, a process pool or a
Ray cluster), each on a circle of its own dealt from the run's seed and the game's index, and
each opened with between 0 and ``random_openings`` random legal moves (drawn per game; the data
marks them, see ``ai/learned/dataset.py``) so that games differ beyond their circles and the data holds
lopsided positions the solver would not reach against itself. The main process turns every
finished game into rows (``dataset.game_rows``) and writes a shard every ``SHARD_GAMES`` games,
so a long run that stops keeps the games it finished. The format is ``ai/learned/dataset.py``'s docstring.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patchwork_opt.ai.learned.dataset import (
    RECORDS,
    DatasetError,
    GameRows,
    game_rows,
    shard_name,
    shards_of_seed,
    write_shard,
)
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.apps.match import GameResult, GameTask, MatchSpec, bot_for, bot_seed, check_run, play, run_match
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import N_, _, ngettext, number, percent, signed

SHARD_GAMES = 100  # games per shard file
BOT = "solver"
DEFAULT_SECONDS = 0.1  # time per move when neither a time nor iterations are given

Progress = Callable[[str, float, float], None]


@dataclass(frozen=True, slots=True)
class SelfPlayGame:
    """Plays one task of a self-play run (picklable, so process pools and Ray ship it).

    ``namespace`` keeps the circles of different uses apart: the calibration benchmark deals from
    its own, so its games are never games trained on."""

    random_openings: int = 0
    namespace: str = "selfplay"

    def circle_seed(self, seed: int, index: int) -> int:
        return random.Random(f"{self.namespace}|{seed}|game|{index}").getrandbits(48)

    def openings(self, seed: int, index: int) -> int:
        """The random opening moves of game ``index`` (0 to ``random_openings``)."""
        if self.random_openings <= 0:
            return 0
        return random.Random(f"{self.namespace}|{seed}|game|{index}|openings").randint(0, self.random_openings)

    def __call__(self, task: GameTask) -> GameResult:
        spec = task.spec
        started = time.perf_counter()
        state = State.new(seed=self.circle_seed(spec.seed, task.index))
        record = Record.start(state)
        rng = random.Random(f"{self.namespace}|{spec.seed}|game|{task.index}|moves")
        for _opening in range(self.openings(spec.seed, task.index)):
            if state.is_terminal():
                break
            move = random_move(state, rng)
            state.apply(move)
            record.moves.append(move)
        bots = [bot_for(spec, seat, bot_seed(spec.seed, task.index, seat)) for seat in (0, 1)]
        record.moves += play(state, bots)
        record.players = [bots[0].name, bots[1].name]
        winner = state.winner()
        return GameResult(
            index=task.index, pair=task.index, p1_seat=0, scores=(state.score(0), state.score(1)),
            p1_won=winner == 0, record=record, seconds=time.perf_counter() - started,
        )


@dataclass(frozen=True, slots=True)
class SelfPlayReport:
    games: int
    positions: int
    shards: list[str]
    first_player_wins: int
    mean_margin: float  # first player's score minus the second's, on average
    seconds: float
    workers: int
    backend: str

    @property
    def games_per_hour(self) -> float:
        return 3600.0 * self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "positions": self.positions, "shards": self.shards,
            "first_player_wins": self.first_player_wins, "mean_margin": round(self.mean_margin, 3),
            "seconds": round(self.seconds, 3), "workers": self.workers, "backend": self.backend,
            "games_per_hour": round(self.games_per_hour, 1),
            "games_per_hour_per_worker": round(self.games_per_hour / self.workers, 1),
        }


def selfplay_spec(*, games: int, seed: int, time_per_move: float | None, iterations: int | None,
                  advisor_factory: str | None) -> MatchSpec:
    """The match a self-play run plays (checked: counts, clock, bot)."""
    if games < 1:
        raise DatasetError(N_("--games must be at least 1, got {games}"), games=games)
    if time_per_move is not None and iterations is not None:
        raise DatasetError(N_("give --time-per-move or --iterations, not both"))
    if time_per_move is None and iterations is None:
        time_per_move = DEFAULT_SECONDS
    spec = MatchSpec(p1=BOT, p2=BOT, games=games, seed=seed, time_per_move=time_per_move, iterations=iterations,
                     advisor_factory=advisor_factory)
    spec.check()
    return spec


def check_request(spec: MatchSpec, out: str | Path, *, random_openings: int, workers: int, backend: str) -> None:
    """Refuse a run that cannot go as asked before any game is played (and any progress shown): bad
    counts, an ``out`` that is a file or already holds this seed's games (two runs of one seed
    would be the same games twice)."""
    if random_openings < 0:
        raise DatasetError(N_("--random-openings must be at least 0, got {count}"), count=random_openings)
    check_run(workers, backend)
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise DatasetError(N_("--out {out}: exists and is not a directory"), out=out)
    if root.is_dir() and shards_of_seed(root, spec.seed):
        raise DatasetError(
            f"--out {out}: already holds self-play games of seed {spec.seed}; choose another --seed or --out")


def prepare_out(out: str | Path) -> Path:
    """The output directory and its ``records/``, created when missing."""
    root = Path(out)
    try:
        (root / RECORDS).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        # Translators: {reason} is the system's reason, in English
        raise DatasetError(N_("--out {out}: cannot create it: {reason}"), out=out,
                           reason=exc.strerror or str(exc)) from None
    return root


def run_selfplay(
    spec: MatchSpec,
    out: str | Path,
    *,
    random_openings: int = 0,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    say: Callable[[str], None] | None = None,
) -> SelfPlayReport:
    """Play ``spec``'s games and write them under ``out`` (see ``ai/learned/dataset.py``)."""
    check_request(spec, out, random_openings=random_openings, workers=workers, backend=backend)
    player = SelfPlayGame(random_openings)
    root = prepare_out(out)
    run = {"bot": BOT, "time_per_move": spec.time_per_move, "iterations": spec.iterations,
           "random_openings": player.random_openings, "advisor": spec.advisor_factory}
    started = time.perf_counter()
    pending: list[GameRows] = []
    shards: list[str] = []
    positions = 0
    done = 0

    def flush() -> None:
        nonlocal positions
        if not pending:
            return
        path = root / shard_name(spec.seed, len(shards) + 1)
        write_shard(path, pending, run)
        shards.append(path.name)
        positions += sum(len(g.margin) for g in pending)
        pending.clear()
        if say is not None:
            # Translators: self-play's progress line: {done} of {games} games played, {file} the shard just written
            say(_("self-play: {done}/{games} games, {file} written", done=done, games=spec.games, file=path.name))

    def on_result(result: GameResult) -> None:
        nonlocal done
        index = result.index
        result.record.save(root / RECORDS / f"game-s{spec.seed}-{index + 1:05d}.json")
        pending.append(game_rows(result.record, game=index, seed=spec.seed,
                                 circle_seed=player.circle_seed(spec.seed, index),
                                 opening=player.openings(spec.seed, index)))
        done += 1
        if progress is not None:
            progress(_("self-play games"), done, spec.games)
        if len(pending) >= SHARD_GAMES:
            flush()

    try:
        results = run_match(spec, workers=workers, backend=backend, address=address, on_result=on_result,
                            game=player)
    finally:
        flush()  # the games finished so far are kept, whatever stopped the run
    margins = [r.scores[0] - r.scores[1] for r in results]
    return SelfPlayReport(
        games=len(results), positions=positions, shards=shards, first_player_wins=sum(r.p1_won for r in results),
        mean_margin=sum(margins) / len(margins), seconds=time.perf_counter() - started, workers=workers,
        backend=backend,
    )


def render_report(report: SelfPlayReport, out: str) -> str:
    data = report.to_json()
    # Translators: the lines of self-play's summary (a label padded to 13 characters, then its figures)
    games = ngettext("{count} game", "{count} games", report.games)
    positions = ngettext("{count} position", "{count} positions", report.positions)
    return "\n".join([
        ngettext("self-play    {games}, {positions} in {count} shard under {out}/",
                 "self-play    {games}, {positions} in {count} shards under {out}/", len(report.shards), games=games,
                 positions=positions, out=out),
        _("first player won {wins} ({share}), mean margin {margin}", wins=report.first_player_wins,
          share=percent(report.first_player_wins / report.games), margin=signed(report.mean_margin, 1)),
        ngettext("time         {seconds}s: {rate} games/hour with {count} worker ({per_worker} per worker)",
                 "time         {seconds}s: {rate} games/hour with {count} workers ({per_worker} per worker)",
                 report.workers, seconds=number(report.seconds, 1), rate=number(data["games_per_hour"], 0),
                 per_worker=number(data["games_per_hour_per_worker"], 0)),
    ])
