"""How good predicted win chances are, measured against who actually won (NumPy only).

Used where win chances are judged: training's report (``training.py``) and the calibration
benchmark (``bench/calibration.py``), so both quote the same figures:

- ``log_loss``: mean of ``-log p`` of what happened (a constant 50% scores 0.693; lower is better);
- ``brier``: mean squared error of the chance (a constant 50% scores 0.25);
- ``ece``: expected calibration error over equal-width bins, the gap between the mean chance
  and the share of wins in each bin, weighted by the bin's share of predictions;
- ``calibration_slope``: the outcome refitted on the logit of the prediction,
  ``won ~ sigmoid(slope * logit(p) + intercept)``: 1 for calibrated chances, below 1 when they
  are too sure of themselves (0.5: twice too sure), above 1 when too timid.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

EPS = 1e-6  # chances are clipped to [EPS, 1 - EPS] before logs and logits
ECE_BINS = 10
NEWTON_STEPS = 50


def _checked(p: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p = np.clip(np.asarray(p, dtype=np.float64), EPS, 1.0 - EPS)
    y = np.asarray(y, dtype=np.float64)
    if p.shape != y.shape or p.ndim != 1 or len(p) == 0:
        raise ValueError("predictions and outcomes must be two non-empty sequences of one length")
    return p, y


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p, y = _checked(p, y)
    return float(-np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)))


def brier(p: np.ndarray, y: np.ndarray) -> float:
    p, y = _checked(p, y)
    return float(np.mean((p - y) ** 2))


def ece(p: np.ndarray, y: np.ndarray, bins: int = ECE_BINS) -> float:
    p, y = _checked(p, y)
    which = np.minimum((p * bins).astype(np.int64), bins - 1)
    total = 0.0
    for b in range(bins):
        inside = which == b
        if inside.any():
            total += inside.mean() * abs(p[inside].mean() - y[inside].mean())
    return float(total)


def calibration_slope(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(slope, intercept) of the logistic refit of ``y`` on ``logit(p)`` (Newton's method on the
    two parameters). NaN where no slope is defined: the outcomes all alike, or split by the
    predictions (every win predicted above every loss, or below), where the fitted slope has no
    finite best and Newton's steps would only run off to some large number."""
    p, y = _checked(p, y)
    if y.min() == y.max():
        return math.nan, math.nan
    x = np.log(p / (1.0 - p))
    won, lost = x[y == 1], x[y == 0]
    if won.min() >= lost.max() or won.max() <= lost.min():
        return math.nan, math.nan
    design = np.column_stack([x, np.ones_like(x)])
    beta = np.zeros(2)
    for _ in range(NEWTON_STEPS):
        # clipped: on a small set the outcomes can be separated and the slope run off, and the
        # logistic of +-500 is 0 or 1 to double precision anyway
        q = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -500.0, 500.0)))
        grad = design.T @ (y - q)
        hess = design.T @ (design * (q * (1.0 - q))[:, None]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < 1e-10:
            break
    return float(beta[0]), float(beta[1])


def forecast_report(p: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """Every figure above for one set of predictions, rounded for printing."""
    slope, intercept = calibration_slope(p, y)
    return {
        "predictions": len(np.asarray(p)),
        "log_loss": round(log_loss(p, y), 4),
        "brier": round(brier(p, y), 4),
        "ece": round(ece(p, y), 4),
        "calibration_slope": None if math.isnan(slope) else round(slope, 3),
        "calibration_intercept": None if math.isnan(intercept) else round(intercept, 3),
        "win_share": round(float(np.mean(y)), 4),
    }
