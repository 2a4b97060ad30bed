"""Self-play positions on disk: the NumPy files ``patchwork selfplay`` writes and ``patchwork train`` reads.

A data directory holds ``records/`` (each game's record, as ``patchwork replay`` reads it, named
``game-s<seed>-<game>.json``) and shards ``positions-s<seed>-<n>.npz`` (``numpy.savez_compressed``;
``numpy.load`` reads them, no pickles). A shard holds whole games; each array has one row per
position where a player is to move (a pending leather patch included), in game and ply order:

===================  =======  =================================================================
array                dtype    meaning
===================  =======  =================================================================
``features``         float32  ``features.FEATURE_NAMES``, for the player to move (``[n, N_FEATURES]``)
``positions``        int64    the flat position of ``fastcore`` (``[n, SLEN]``): features of another
                              ``FEATURE_VERSION`` are recomputed from it
``margin``           int16    the final score of the player to move minus the opponent's
``won``              int8     1 when the player to move won the game (tie-break included), else 0
``player``           int8     the player to move (0 moves first)
``ply``              int16    moves played before the position (0: the start)
``game``             int32    the game's index within its run
``seed``             int64    the run's ``--seed`` (a run's seed and a game's index name the game)
``circle_seed``      int64    the seed its circle was dealt from (``State.new(seed=...)``)
``opening``          int16    the game's random opening moves: positions with ``ply < opening`` are
                              followed by random moves, the rest by the solver's play
``random_move``      int8     1 when the move played from the position was a random opening move
``format``           int64    scalar, ``FORMAT`` (this layout)
``feature_version``  int64    scalar, the ``features.FEATURE_VERSION`` of ``features``
``run``              str      scalar, JSON: how the games were played (bot, ``time_per_move`` or
                              ``iterations``, ``random_openings``, the placement advisor)
===================  =======  =================================================================
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from patchwork_opt.ai.learned.features import FEATURE_VERSION, N_FEATURES, features_of_positions
from patchwork_opt.ai.search.fastcore import SLEN, encode
from patchwork_opt.core.errors import PatchworkError, RecordError
from patchwork_opt.formats.record import Record, write_atomic
from patchwork_opt.i18n import N_

FORMAT = 1
SHARD_GLOB = "positions-*.npz"
_SHARD_NAME = re.compile(r"positions-s(-?\d+)-(\d+)\.npz")
RECORDS = "records"


class DatasetError(PatchworkError):
    """A self-play data directory that cannot be written or read as asked."""


@dataclass(frozen=True, slots=True)
class GameRows:
    """One finished game, position by position (the arrays of a shard, for one game)."""

    features: np.ndarray
    positions: np.ndarray
    margin: np.ndarray
    won: np.ndarray
    player: np.ndarray
    ply: np.ndarray
    game: int
    seed: int
    circle_seed: int
    opening: int


def game_rows(record: Record, *, game: int, seed: int, circle_seed: int, opening: int) -> GameRows:
    """Every position of a finished game with what training needs (the record must end the game)."""
    state = record.initial_state()
    positions = np.empty((len(record.moves), SLEN), dtype=np.int64)
    players = np.empty(len(record.moves), dtype=np.int8)
    for ply, move in enumerate(record.moves):
        positions[ply] = encode(state)
        players[ply] = state.to_move()
        state.apply(move)
    winner = state.winner()
    if winner is None:
        raise DatasetError(f"game {game} of seed {seed} is not finished")
    scores = (state.score(0), state.score(1))
    sign = np.where(players == 0, 1, -1)
    return GameRows(
        features=features_of_positions(positions).astype(np.float32),
        positions=positions,
        margin=(sign * (scores[0] - scores[1])).astype(np.int16),
        won=(players == winner).astype(np.int8),
        player=players,
        ply=np.arange(len(record.moves), dtype=np.int16),
        game=game, seed=seed, circle_seed=circle_seed, opening=opening,
    )


def shard_name(seed: int, n: int) -> str:
    return f"positions-s{seed}-{n:04d}.npz"


def shards_of_seed(directory: str | Path, seed: int) -> list[Path]:
    """The shards of run ``seed`` already in ``directory``."""
    found = []
    for path in sorted(Path(directory).glob(SHARD_GLOB)):
        m = _SHARD_NAME.fullmatch(path.name)
        if m is not None and int(m.group(1)) == seed:
            found.append(path)
    return found


def write_shard(path: str | Path, games: Sequence[GameRows], run: dict[str, Any]) -> None:
    """Write ``games`` as one shard (atomically: a file either holds whole games or is absent);
    ``run`` says how they were played."""
    if not games:
        raise DatasetError("a shard holds at least one game")
    target = Path(path)
    n = [len(g.margin) for g in games]

    def per_game(value: str, dtype: type) -> np.ndarray:
        return np.concatenate([np.full(k, getattr(g, value), dtype=dtype) for g, k in zip(games, n, strict=True)])

    opening = per_game("opening", np.int16)
    ply = np.concatenate([g.ply for g in games])
    arrays = {
        "features": np.concatenate([g.features for g in games]),
        "positions": np.concatenate([g.positions for g in games]),
        "margin": np.concatenate([g.margin for g in games]),
        "won": np.concatenate([g.won for g in games]),
        "player": np.concatenate([g.player for g in games]),
        "ply": ply,
        "game": per_game("game", np.int32),
        "seed": per_game("seed", np.int64),
        "circle_seed": per_game("circle_seed", np.int64),
        "opening": opening,
        "random_move": (ply < opening).astype(np.int8),
        "format": np.array(FORMAT, dtype=np.int64),
        "feature_version": np.array(FEATURE_VERSION, dtype=np.int64),
        "run": np.array(json.dumps(run, sort_keys=True)),
    }
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    try:
        write_atomic(target, buffer.getvalue())
    except RecordError as exc:
        raise DatasetError(exc.template, **exc.values) from None


@dataclass(frozen=True, slots=True)
class PositionSet:
    """The positions of every shard of a directory, as training reads them."""

    features: np.ndarray  # float64 [n, N_FEATURES], the current FEATURE_VERSION
    margin: np.ndarray  # float64, final margin for the player to move
    won: np.ndarray  # int8
    ply: np.ndarray
    opening: np.ndarray
    game_key: np.ndarray  # int64: one value per game (seed and game index joined)
    games: int
    runs: list[dict[str, Any]]  # how the games were played, one entry per distinct way
    recomputed: bool  # some shard had other features: they were recomputed from the positions

    def solver_played(self) -> np.ndarray:
        """Mask of the positions followed by the solver's play alone (after any random opening)."""
        return self.ply >= self.opening


def read_positions(directory: str | Path) -> PositionSet:
    """Every shard of ``directory`` (DatasetError when there is none, or one is not a shard)."""
    root = Path(directory)
    if not root.is_dir():
        # Translators: {directory} is the folder given to patchwork train
        raise DatasetError(N_("{directory}: not a directory of self-play data"), directory=str(directory))
    paths = sorted(root.glob(SHARD_GLOB))
    if not paths:
        # Translators: {pattern} is the shards' file names (positions-*.npz); keep "patchwork selfplay" as it is
        raise DatasetError(N_("{directory}: no self-play shards ({pattern}); write some with patchwork selfplay"),
                           directory=str(directory), pattern=SHARD_GLOB)
    feats, margins, wons, plies, openings, keys = [], [], [], [], [], []
    runs: list[dict[str, Any]] = []
    recomputed = False
    for path in paths:
        try:
            with np.load(path, allow_pickle=False) as data:
                if int(data["format"]) != FORMAT:
                    raise DatasetError(N_("{path}: shard format {found}, expected {expected}"), path=str(path),
                                       found=int(data["format"]), expected=FORMAT)
                if int(data["feature_version"]) == FEATURE_VERSION and data["features"].shape[1] == N_FEATURES:
                    feats.append(data["features"].astype(np.float64))
                else:
                    feats.append(features_of_positions(data["positions"].astype(np.int64)))
                    recomputed = True
                margins.append(data["margin"].astype(np.float64))
                wons.append(data["won"].astype(np.int8))
                plies.append(data["ply"].astype(np.int64))
                openings.append(data["opening"].astype(np.int64))
                keys.append(data["seed"].astype(np.int64) * 1_000_003 + data["game"].astype(np.int64))
                run = {**json.loads(str(data["run"])), "seed": int(data["seed"][0])}
                if run not in runs:
                    runs.append(run)
        except DatasetError:
            raise
        except (OSError, ValueError, KeyError) as exc:
            # Translators: {reason} is the system's or NumPy's own words
            raise DatasetError(N_("{path}: not a readable self-play shard ({reason})"), path=str(path),
                               reason=str(exc)) from None
    game_key = np.concatenate(keys)
    return PositionSet(
        features=np.concatenate(feats), margin=np.concatenate(margins), won=np.concatenate(wons),
        ply=np.concatenate(plies), opening=np.concatenate(openings), game_key=game_key,
        games=len(np.unique(game_key)), runs=runs, recomputed=recomputed,
    )

