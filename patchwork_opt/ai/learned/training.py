"""``patchwork train``: the learned evaluation fitted to self-play results with scikit-learn.

Only the ``train`` command imports this module (scikit-learn is the optional ``train`` extra);
the search reads the weights it writes with NumPy and Numba alone (``value.py``).

Games, not positions, are split (the positions of one game are alike, so a split by position
would leak): ``TRAIN_SHARE`` of the games fit the networks, ``CALIBRATION_SHARE`` fit the
logistic win map and choose the head, the rest are held out for the figures reported. Positions
followed by random opening moves are left out: their outcome says little about the position
under good play.

Two ways to the win chance are fitted and the one with the lower log loss on the calibration
games is kept (``value.py`` describes both): a logistic map of the margin the MLP regressor
predicts ("margin"), or an MLP classifier of who won with its logit mapped the same way
("classifier": Platt scaling). The margin regressor is shared. Every fit is seeded, so the same
data and ``--seed`` give the same weights (up to the last bits of floating-point sums when the
BLAS library differs).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold
from sklearn.neural_network import MLPClassifier, MLPRegressor

from patchwork_opt.ai.learned.dataset import SHARD_GLOB, DatasetError, PositionSet, read_positions
from patchwork_opt.ai.learned.features import FEATURE_NAMES, FEATURE_VERSION
from patchwork_opt.ai.learned.forecast import EPS, forecast_report, log_loss
from patchwork_opt.ai.learned.value import HEADS, Network, ValueWeights, save_weights
from patchwork_opt.ai.learned.winmap import SearchMap, file_digest
from patchwork_opt.i18n import N_

TRAIN_SHARE = 0.7
CALIBRATION_SHARE = 0.15
HIDDEN = (64, 32)  # hidden layers of both networks
MARGIN_UNIT = 20.0  # the regressor learns margin / MARGIN_UNIT (outputs near 1)
ALPHA = 1e-3  # L2 penalty
MAX_EPOCHS = 300
MIN_GAMES = 10  # fewer games cannot be split three ways

Say = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Split:
    train: np.ndarray  # boolean masks over the positions
    calibration: np.ndarray
    test: np.ndarray


def split_games(game_key: np.ndarray, seed: int) -> Split:
    """Each game to one part, by a seeded shuffle of the distinct games."""
    games = np.unique(game_key)
    order = np.random.default_rng(seed).permutation(len(games))
    n_train = round(TRAIN_SHARE * len(games))
    n_cal = max(1, round(CALIBRATION_SHARE * len(games)))
    part = np.empty(len(games), dtype=np.int64)
    part[order[:n_train]] = 0
    part[order[n_train : n_train + n_cal]] = 1
    part[order[n_train + n_cal :]] = 2
    of_position = part[np.searchsorted(games, game_key)]
    return Split(of_position == 0, of_position == 1, of_position == 2)


@dataclass(frozen=True, slots=True)
class TrainedValue:
    """The fitted models (scikit-learn objects, for comparing with the compiled inference), the
    head kept and the report."""

    feature_mean: np.ndarray
    feature_scale: np.ndarray
    regressor: MLPRegressor
    classifier: MLPClassifier
    win_map: dict[str, LogisticRegression]  # by head
    head: str
    report: dict[str, Any]

    def weights_for(self, head: str) -> ValueWeights:
        fitted = self.win_map[head]
        return ValueWeights(
            feature_mean=self.feature_mean, feature_scale=self.feature_scale, margin_unit=MARGIN_UNIT,
            margin_net=_network(self.regressor), head=head, win_a=float(fitted.coef_[0, 0]),
            win_b=float(fitted.intercept_[0]), win_net=_network(self.classifier) if head == "classifier" else None,
        )

    @property
    def weights(self) -> ValueWeights:
        """The weights of the head kept."""
        return self.weights_for(self.head)

    def sklearn_predict(self, x: np.ndarray, head: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(win, margin) for the mover of each row of raw features, through scikit-learn."""
        head = head or self.head
        z = (x - self.feature_mean) / self.feature_scale
        margin = self.regressor.predict(z) * MARGIN_UNIT
        t = margin if head == "margin" else _logit(self.classifier.predict_proba(z)[:, 1])
        return self.win_map[head].predict_proba(t.reshape(-1, 1))[:, 1], margin


def _network(model: MLPRegressor | MLPClassifier) -> Network:
    return Network(tuple(np.array(w) for w in model.coefs_), tuple(np.array(b) for b in model.intercepts_))


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-15, 1 - 1e-15)
    return np.asarray(np.log(p / (1.0 - p)))


def train_value(data: PositionSet, *, seed: int = 0, hidden: tuple[int, ...] = HIDDEN,
                max_epochs: int = MAX_EPOCHS, say: Say | None = None) -> TrainedValue:
    """Fit both heads on ``data``'s games and keep the better (see the module docstring)."""
    started = time.perf_counter()
    if data.games < MIN_GAMES:
        # Translators: {least} games at the least; {games} the games in the data given
        raise DatasetError(N_("training needs at least {least} games, the data has {games}"), least=MIN_GAMES,
                           games=data.games)
    keep = data.solver_played()
    x, margin, won, key = data.features[keep], data.margin[keep], data.won[keep].astype(np.int64), data.game_key[keep]
    split = split_games(key, seed)
    if len(np.unique(won[split.train])) < 2 or not split.calibration.any() or not split.test.any():
        raise DatasetError(N_("the training games need both winners and losers, and games left over to hold out"))
    mean = x[split.train].mean(axis=0)
    scale = x[split.train].std(axis=0)
    scale[scale < 1e-9] = 1.0  # a constant feature (say, early in a tiny data set)
    z = (x - mean) / scale
    if say is not None:
        say(f"training on {int(split.train.sum())} positions of the {data.games} games "
            f"({int(split.test.sum())} held out)")
    regressor, classifier = _fit_networks(z, margin, won, split, hidden=hidden, max_epochs=max_epochs,
                                          seed=seed, say=say)
    predicted = regressor.predict(z) * MARGIN_UNIT
    win_map, heads = _fit_win_maps({"margin": predicted, "classifier": _logit(classifier.predict_proba(z)[:, 1])},
                                   won, split)
    head = min(HEADS, key=lambda h: heads[h]["calibration_log_loss"])
    errors = predicted[split.test] - margin[split.test]
    held_out = heads[head]["held_out"]
    report = {
        "games": data.games,
        "positions": int(keep.sum()),
        "positions_left_out": int((~keep).sum()),  # followed by random opening moves
        "split_games": {part: len(np.unique(key[mask])) for part, mask in
                        (("train", split.train), ("calibration", split.calibration), ("held_out", split.test))},
        "seed": seed,
        "selfplay": data.runs,
        "head": head,
        "held_out_log_loss": held_out["log_loss"],
        "calibration_slope": held_out["calibration_slope"],
        "held_out": held_out,
        "heads": heads,
        "margin_mae": round(float(np.mean(np.abs(errors))), 3),
        "margin_rmse": round(float(np.sqrt(np.mean(errors**2))), 3),
        # the most win chance a point of predicted margin is worth (the margin head's map at 50%):
        # the review's point grades are set against it (``apps.judge.POINT_LABELS``)
        "win_per_point": round(float(win_map["margin"].coef_[0, 0]) / 4, 4),
        "hidden_layers": list(hidden),
        "epochs": {"margin": regressor.n_iter_, "win": classifier.n_iter_, "most": max_epochs},
        "features": list(FEATURE_NAMES),
        "feature_version": FEATURE_VERSION,
        "scikit_learn": sklearn.__version__,
        "seconds": round(time.perf_counter() - started, 1),
    }
    return TrainedValue(mean, scale, regressor, classifier, win_map, head, report)


def _fit_networks(z: np.ndarray, margin: np.ndarray, won: np.ndarray, split: Split, *, hidden: tuple[int, ...],
                  max_epochs: int, seed: int, say: Say | None) -> tuple[MLPRegressor, MLPClassifier]:
    """The margin regressor and the win classifier, fitted (seeded, early stopping) on the training
    games' standardised features ``z``; each says how many epochs it took."""
    common = {"hidden_layer_sizes": hidden, "alpha": ALPHA, "batch_size": 256, "max_iter": max_epochs,
              "early_stopping": True, "validation_fraction": 0.1, "n_iter_no_change": 15, "random_state": seed}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # reported as the epochs it took
        regressor = MLPRegressor(**common).fit(z[split.train], margin[split.train] / MARGIN_UNIT)
        if say is not None:
            say(f"margin network: {regressor.n_iter_} epochs (at most {max_epochs})")
        classifier = MLPClassifier(**common).fit(z[split.train], won[split.train])
        if say is not None:
            say(f"win network: {classifier.n_iter_} epochs (at most {max_epochs})")
    return regressor, classifier


def _fit_win_maps(inputs: dict[str, np.ndarray], won: np.ndarray,
                  split: Split) -> tuple[dict[str, LogisticRegression], dict[str, dict[str, Any]]]:
    """Each head's logistic win map, fitted on the calibration games from its input (the predicted
    margin, or the classifier's logit), with its calibration log loss and held-out report."""
    win_map: dict[str, LogisticRegression] = {}
    heads: dict[str, dict[str, Any]] = {}
    for head in HEADS:
        t = inputs[head].reshape(-1, 1)
        fitted = LogisticRegression(C=1e6, max_iter=1000).fit(t[split.calibration], won[split.calibration])
        win_map[head] = fitted
        p = fitted.predict_proba(t)[:, 1]
        heads[head] = {
            "calibration_log_loss": round(log_loss(p[split.calibration], won[split.calibration]), 4),
            "held_out": forecast_report(p[split.test], won[split.test]),
        }
    return win_map, heads


def train_command(data_dir: str, out: str, *, seed: int = 0, say: Say | None = None) -> dict[str, Any]:
    """``patchwork train``: read ``data_dir``, fit, write ``out`` and its JSON; the report."""
    target = Path(out)
    if target.suffix != ".npz":
        raise DatasetError(N_("--out {out}: the weights file must end in .npz"), out=out)
    if not target.parent.is_dir():
        raise DatasetError(N_("--out {out}: no directory {directory}"), out=out, directory=str(target.parent))
    data = read_positions(data_dir)
    if data.recomputed and say is not None:
        say("some shards hold features of another version: recomputed from their positions")
    trained = train_value(data, seed=seed, say=say)
    report = {**trained.report, "data": str(data_dir), "shards": shard_digests(data_dir)}
    save_weights(target, trained.weights, report)
    return report


def shard_digests(data_dir: str | Path) -> dict[str, str]:
    """Each shard trained on, by file name, with its SHA-256: the directory named in ``data`` is a
    path on the machine that trained, the digests say which files elsewhere are the same data."""
    return {path.name: file_digest(path) for path in sorted(Path(data_dir).glob(SHARD_GLOB))}


def render_train_report(report: dict[str, Any], out: str) -> str:
    held = report["held_out"]
    return "\n".join([
        f"trained      {report['positions']} positions of {report['games']} games "
        f"({report['split_games']['held_out']} games held out), seed {report['seed']}",
        f"win chance   head {report['head']}: held-out log loss {held['log_loss']:.3f}, calibration slope "
        f"{held['calibration_slope']}, ECE {held['ece']:.3f}, Brier {held['brier']:.3f}",
        f"margin       held-out mean absolute error {report['margin_mae']:.1f} points",
        f"weights      {out} (and {Path(out).with_suffix('.json').name} beside it)",
    ])


def fit_search_map(wins: np.ndarray, won: np.ndarray, progress: np.ndarray, statics: np.ndarray | None = None, *,
                   evaluator: str, weights: str, exploration: float,
                   games: np.ndarray | None = None) -> tuple[SearchMap, dict[str, Any]]:
    """The search's win map (``winmap.SearchMap``) fitted on held-out games: who won, by logistic
    regression on the logit of the win chance the search backed up, weighted early and late in the
    game (the logit times one minus the track covered, ``progress``, and times it), and the logit
    of the learned value after the move (``statics``; none: the map leaves it out). A search weight
    the fit finds below zero is held at zero (the map never turns the search's order round) and the
    rest fitted again. With ``games`` (each ply's game), the report also has the figures of the
    map fitted on four fifths of the games and judged on the fifth left out, in turn."""
    if len(np.unique(won)) < 2:
        raise DatasetError(N_("fitting a win map needs games won and games lost"))
    x = _logit(np.clip(np.asarray(wins, dtype=np.float64), EPS, 1.0 - EPS))
    g = np.asarray(progress, dtype=np.float64)
    columns = [x * (1.0 - g), x * g]
    if statics is not None:
        columns.append(_logit(np.clip(np.asarray(statics, dtype=np.float64), EPS, 1.0 - EPS)))
    design = np.column_stack(columns)
    kept, fitted = _fit_with_search_weights_kept_up(design, won)
    coef = np.zeros(design.shape[1])
    coef[kept] = fitted.coef_[0]
    early, late = coef[0], coef[1]
    d = coef[2] if statics is not None else 0.0
    found = SearchMap(evaluator, weights, float(early), float(late - early), float(fitted.intercept_[0]), float(d),
                      exploration)
    mapped = fitted.predict_proba(design[:, kept])[:, 1]
    report: dict[str, Any] = {"plies": len(x), "before": forecast_report(np.asarray(wins), won),
                              "after": forecast_report(mapped, won), "scikit_learn": sklearn.__version__}
    if statics is not None:
        report["static"] = forecast_report(np.asarray(statics), won)
    if games is not None and len(np.unique(games)) >= 5:
        held = np.empty(len(x))
        for train, test in GroupKFold(n_splits=5).split(design, won, groups=games):
            part_kept, part = _fit_with_search_weights_kept_up(design[train], won[train])
            held[test] = part.predict_proba(design[test][:, part_kept])[:, 1]
        report["cross_validated"] = forecast_report(held, won)
    return found, report


def _fit_with_search_weights_kept_up(design: np.ndarray, won: np.ndarray) -> tuple[list[int], LogisticRegression]:
    """The logistic fit of ``won`` on ``design``'s columns, the first two (the search's weights)
    dropped while the fit puts them below zero: the columns kept and the fit on them."""
    kept = list(range(design.shape[1]))
    while True:
        fitted = LogisticRegression(C=1e6, max_iter=1000).fit(design[:, kept], won)
        negative = [column for column, w in zip(kept, fitted.coef_[0], strict=True) if column < 2 and w < 0]
        if not negative or len(kept) == 1:
            return kept, fitted
        kept.remove(min(negative, key=lambda column: fitted.coef_[0][kept.index(column)]))
