"""The learned evaluation at run time: its weights file, and inference compiled with Numba.

A value model (fitted by ``training.py`` to self-play results) gives, for the player to move, the
expected final margin and the chance of winning. Its weights are plain NumPy arrays in a small
``.npz`` (``patchwork_opt/data/value.npz`` ships one, with what made it in ``value.json`` beside
it), read here without scikit-learn: the search evaluates leaves in compiled code.

The model: the features (``features.py``) standardised, a ReLU network whose one output times
``margin_unit`` is the margin; the win chance is a logistic map of either that margin (head
``margin``) or the logit of a second ReLU network trained on who won (head ``classifier``), the
map fitted to held-out games so that the chances are calibrated.

``learned_value(s, params, rng)`` is the leaf evaluator of the compiled search's evaluator slot:
``(value, win, margin)`` for player 0 from a flat position, ``params`` the flattened weights
(``ValueWeights.flatten``; ``rng`` is unused: the value is deterministic). ``win_chance(state)``
is the same for a ``State``, for the player to move.
"""

from __future__ import annotations

import functools
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.heuristic import leather_cell
from patchwork_opt.ai.learned.features import FEATURE_VERSION, N_FEATURES, features
from patchwork_opt.ai.search.fastcore import CompiledEvaluator, encode, outcome_value, to_move
from patchwork_opt.core.errors import GameOverError, PatchworkError, RecordError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import write_atomic
from patchwork_opt.i18n import N_, one_of

WEIGHTS_FORMAT = 1
HEADS = ("margin", "classifier")
DATA_DIR = Path(__file__).resolve().parents[2] / "data"
SHIPPED_WEIGHTS = DATA_DIR / "value.npz"

# flattened parameters: a header, the standardisation, then the networks
P_FORMAT, P_FEATURES, P_HEAD, P_WIN_A, P_WIN_B, P_UNIT = 0, 1, 2, 3, 4, 5
P_HEADER = 6

_CACHE = True


class ValueModelError(PatchworkError):
    """A weights file that is missing, unreadable or made for other features."""


@dataclass(frozen=True, slots=True)
class Network:
    """A ReLU network: ``coefs[i]`` is layer i's ``[inputs, outputs]`` matrix (scikit-learn's
    ``coefs_``), ``intercepts[i]`` its biases; the last layer's one output is returned as is."""

    coefs: tuple[np.ndarray, ...]
    intercepts: tuple[np.ndarray, ...]

    def flatten(self) -> np.ndarray:
        sizes = [self.coefs[0].shape[0], *(c.shape[1] for c in self.coefs)]
        parts = [np.array([len(self.coefs), *sizes], dtype=np.float64)]
        for w, b in zip(self.coefs, self.intercepts, strict=True):
            parts += [np.asarray(w, dtype=np.float64).ravel(), np.asarray(b, dtype=np.float64).ravel()]
        return np.concatenate(parts)

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The output for each row of ``x`` (standardised features), in NumPy: the reference the
        compiled inference is tested against."""
        h = x
        for i, (w, b) in enumerate(zip(self.coefs, self.intercepts, strict=True)):
            h = h @ w + b
            if i < len(self.coefs) - 1:
                h = np.maximum(h, 0.0)
        return np.asarray(h[:, 0])


@dataclass(frozen=True, slots=True)
class ValueWeights:
    feature_mean: np.ndarray
    feature_scale: np.ndarray
    margin_unit: float  # points per unit of the margin network's output
    margin_net: Network
    head: str  # "margin" or "classifier" (see the module docstring)
    win_a: float  # the logistic map: win = 1 / (1 + exp(-(win_a * x + win_b)))
    win_b: float
    win_net: Network | None = None  # the classifier of head "classifier"

    def __post_init__(self) -> None:
        if self.head not in HEADS:
            # Translators: {heads} lists the heads' names (margin, classifier), kept as they are
            raise ValueModelError(N_("unknown win head {head!r} (expected {heads})"), head=self.head,
                                  heads=one_of(HEADS))
        if (self.head == "classifier") != (self.win_net is not None):
            raise ValueModelError(N_("the classifier head needs its network, the margin head none"))
        if self.feature_mean.shape != (N_FEATURES,) or self.feature_scale.shape != (N_FEATURES,):
            raise ValueModelError(N_("the weights are for {found} features, not {expected}"),
                                  found=self.feature_mean.shape[0], expected=N_FEATURES)

    def flatten(self) -> np.ndarray:
        """The float64 parameter vector the compiled inference reads."""
        header = np.zeros(P_HEADER, dtype=np.float64)
        header[P_FORMAT] = WEIGHTS_FORMAT
        header[P_FEATURES] = N_FEATURES
        header[P_HEAD] = HEADS.index(self.head)
        header[P_WIN_A], header[P_WIN_B], header[P_UNIT] = self.win_a, self.win_b, self.margin_unit
        parts = [header, self.feature_mean.astype(np.float64), self.feature_scale.astype(np.float64),
                 self.margin_net.flatten()]
        if self.win_net is not None:
            parts.append(self.win_net.flatten())
        return np.concatenate(parts)

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(win, margin) for the mover of each row of raw features ``x``, in NumPy."""
        z = (x - self.feature_mean) / self.feature_scale
        margin = self.margin_net.forward(z) * self.margin_unit
        t = margin if self.win_net is None else self.win_net.forward(z)
        return 1.0 / (1.0 + np.exp(-(self.win_a * t + self.win_b))), margin


def _network_arrays(prefix: str, net: Network) -> dict[str, np.ndarray]:
    out = {f"{prefix}_layers": np.array(len(net.coefs), dtype=np.int64)}
    for i, (w, b) in enumerate(zip(net.coefs, net.intercepts, strict=True)):
        out[f"{prefix}_w{i}"] = np.asarray(w, dtype=np.float64)
        out[f"{prefix}_b{i}"] = np.asarray(b, dtype=np.float64)
    return out


def _network_of(data: Any, prefix: str) -> Network:
    layers = int(data[f"{prefix}_layers"])
    return Network(tuple(np.array(data[f"{prefix}_w{i}"]) for i in range(layers)),
                   tuple(np.array(data[f"{prefix}_b{i}"]) for i in range(layers)))


def save_weights(path: str | Path, weights: ValueWeights, meta: dict[str, Any]) -> Path:
    """Write the weights (``.npz``) and ``meta`` beside them (the same name, ``.json``); the JSON path."""
    target = Path(path)
    arrays: dict[str, np.ndarray] = {
        "format": np.array(WEIGHTS_FORMAT, dtype=np.int64),
        "feature_version": np.array(FEATURE_VERSION, dtype=np.int64),
        "feature_mean": weights.feature_mean.astype(np.float64),
        "feature_scale": weights.feature_scale.astype(np.float64),
        "margin_unit": np.array(weights.margin_unit),
        "head": np.array(HEADS.index(weights.head), dtype=np.int64),
        "win_map": np.array([weights.win_a, weights.win_b]),
        **_network_arrays("margin", weights.margin_net),
    }
    if weights.win_net is not None:
        arrays.update(_network_arrays("win", weights.win_net))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    meta_path = target.with_suffix(".json")
    try:
        write_atomic(target, buffer.getvalue())
        write_atomic(meta_path, json.dumps(meta, indent=2) + "\n")
    except RecordError as exc:
        raise ValueModelError(exc.template, **exc.values) from None
    return meta_path


def load_weights(path: str | Path = SHIPPED_WEIGHTS) -> ValueWeights:
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != WEIGHTS_FORMAT:
                raise ValueModelError(N_("{path}: weights format {found}, expected {expected}"), path=str(path),
                                      found=int(data["format"]), expected=WEIGHTS_FORMAT)
            if int(data["feature_version"]) != FEATURE_VERSION:
                # Translators: keep "patchwork train" as it is
                raise ValueModelError(N_("{path}: trained on features version {found}, these are version {expected}: "
                                         "train again (patchwork train)"), path=str(path),
                                      found=int(data["feature_version"]), expected=FEATURE_VERSION)
            head = HEADS[int(data["head"])]
            a, b = (float(v) for v in data["win_map"])
            return ValueWeights(
                feature_mean=np.array(data["feature_mean"]), feature_scale=np.array(data["feature_scale"]),
                margin_unit=float(data["margin_unit"]), margin_net=_network_of(data, "margin"), head=head,
                win_a=a, win_b=b, win_net=_network_of(data, "win") if head == "classifier" else None,
            )
    except ValueModelError:
        raise
    except (OSError, ValueError, KeyError, IndexError) as exc:
        # Translators: {reason} is the system's or NumPy's own words
        raise ValueModelError(N_("{path}: not a readable value-model weights file ({reason})"), path=str(path),
                              reason=str(exc)) from None


@functools.cache
def shipped_params() -> np.ndarray:
    """The flattened weights shipped with the package (read once)."""
    return load_weights(SHIPPED_WEIGHTS).flatten()


# --- compiled inference ----------------------------------------------------------------------------


@nb.njit(cache=_CACHE)
def _network(params: np.ndarray, at: int, x: np.ndarray) -> tuple[float, int]:
    """The output of the network stored at ``params[at:]`` for input ``x``, and where it ends."""
    layers = int(params[at])
    sizes = at + 1
    at = sizes + layers + 1
    h = x
    for layer in range(layers):
        n_in, n_out = int(params[sizes + layer]), int(params[sizes + layer + 1])
        bias = at + n_in * n_out
        out = params[bias : bias + n_out].copy()
        for i in range(n_in):
            hi = h[i]
            if hi != 0.0:
                row = at + i * n_out
                for j in range(n_out):
                    out[j] += hi * params[row + j]
        at = bias + n_out
        if layer < layers - 1:
            for j in range(n_out):
                if out[j] < 0.0:
                    out[j] = 0.0
        h = out
    return h[0], at


@nb.njit(cache=_CACHE)
def predict(x: np.ndarray, params: np.ndarray) -> tuple[float, float]:
    """(win, margin) for the player to move, from raw features ``x``."""
    n = int(params[P_FEATURES])
    z = np.empty(n, dtype=np.float64)
    for i in range(n):
        z[i] = (x[i] - params[P_HEADER + i]) / params[P_HEADER + n + i]
    out, at = _network(params, P_HEADER + 2 * n, z)
    margin = out * params[P_UNIT]
    t = margin
    if params[P_HEAD] == 1.0:
        t, at = _network(params, at, z)
    win = 1.0 / (1.0 + math.exp(-(params[P_WIN_A] * t + params[P_WIN_B])))
    return win, margin


@nb.njit(cache=_CACHE)
def predict_rows(x: np.ndarray, params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``predict`` for each row of ``x``."""
    wins = np.empty(x.shape[0], dtype=np.float64)
    margins = np.empty(x.shape[0], dtype=np.float64)
    for i in range(x.shape[0]):
        wins[i], margins[i] = predict(x[i], params)
    return wins, margins


@nb.njit(cache=_CACHE)
def learned_value(s: np.ndarray, params: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    """The evaluator slot's leaf value: (value, win, margin) for player 0 of a running position,
    the value being ``policy.outcome_value`` of the predicted win chance and margin."""
    win, margin = predict(features(s), params)
    if to_move(s) == 1:
        win, margin = 1.0 - win, -margin
    return outcome_value(win, margin), win, margin


#: The UCT constant of a search valued by the learned value: its values are deterministic and their
#: small differences real, so it explores less than the rollout's ``policy.EXPLORATION`` (measured:
#: ``docs/strength.md``).
LEARNED_EXPLORATION = 0.35


def learned_evaluator(params: np.ndarray | None = None, exploration: float = LEARNED_EXPLORATION) -> CompiledEvaluator:
    """The learned value as a leaf evaluator of ``CompiledSearch`` (the shipped weights by default)."""
    return CompiledEvaluator("learned", learned_value, shipped_params() if params is None else params,
                             exploration=exploration)


def win_chance(state: State, params: np.ndarray | None = None) -> tuple[float, float]:
    """(win chance, expected final margin) of the player to move in ``state`` (shipped weights by default)."""
    if state.is_terminal():
        raise GameOverError(N_("the game is over: there is nothing to evaluate"))
    win, margin = predict(features(encode(state)), shipped_params() if params is None else params)
    return float(win), float(margin)


def win_after(state: State, move: Move, params: np.ndarray | None = None) -> tuple[float, float]:
    """(win chance, expected final margin) of the player to move in ``state`` once ``move`` is
    played, by the learned value of the position it leads to, as the search's tree holds it (a
    leather patch it earns placed on ``heuristic.leather_cell``'s cell, the compiled search's one);
    a finished game gives its own result. The search's win map weighs this beside the figures the
    search backed up (``winmap.SearchMap``)."""
    mover = state.to_move()
    after = state.clone()
    after.apply(move)
    if after.pending >= 0:
        after.apply(Move("leather", -1, leather_cell(after.quilts[after.pending], after.bonus < 0)))
    if after.is_terminal():
        return (1.0 if after.winner() == mover else 0.0), float(after.score(mover) - after.score(1 - mover))
    win, margin = win_chance(after, params)
    return (win, margin) if after.to_move() == mover else (1.0 - win, -margin)
