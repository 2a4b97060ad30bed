"""The search's win map: the win chance a search backed up, turned into a calibrated one.

Fitted on held-out self-play by ``training.fit_search_map`` for one weights file and one UCT
constant, written beside the weights (``data/search_map.json``), applied by the analysis
(``analysis/run.py``) to every sampled move.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patchwork_opt.ai.learned.value import DATA_DIR, LEARNED_EXPLORATION, ValueModelError
from patchwork_opt.core.state import END, State
from patchwork_opt.formats.record import RecordError, write_atomic
from patchwork_opt.i18n import N_

SHIPPED_SEARCH_MAP = DATA_DIR / "search_map.json"
SEARCH_MAP_FORMAT = 2
EPS = 1e-6  # win chances are clipped to [EPS, 1 - EPS] before their logit


def _logit(p: float) -> float:
    p = min(max(p, EPS), 1.0 - EPS)
    return math.log(p / (1.0 - p))


@dataclass(frozen=True, slots=True)
class SearchMap:
    """The map from the win chance the search backed up to a calibrated one, fitted on held-out
    self-play games (``training.fit_search_map``) for one evaluator, one weights file and one UCT
    constant: ``logit(win') = (a + c * progress) * logit(win) + d * logit(static) + b``,
    ``progress`` the share of the track both tokens have covered (the search's figures are timid
    early and too sure late, measured: a slope alone would fix neither) and ``static`` the learned
    value of the position the move leads to (``value.win_after``): the search's mean over its tree
    is sure of itself where the value of one position is not, and the fit weighs the two.
    ``weights`` is the SHA-256 of the weights file it was fitted with: a map for other weights, or
    for a search exploring otherwise, does not apply."""

    evaluator: str
    weights: str
    a: float = 1.0
    c: float = 0.0
    b: float = 0.0
    d: float = 0.0
    exploration: float = LEARNED_EXPLORATION

    def __post_init__(self) -> None:
        if min(self.a, self.a + self.c) < 0:
            raise ValueModelError(N_("a search map must not turn the search's order round (a and a + c at least 0)"))

    def apply(self, win: float, progress: float, static: float = 0.5) -> float:
        if win <= 0.0 or win >= 1.0:
            return win
        t = (self.a + self.c * progress) * _logit(win) + self.d * _logit(static) + self.b
        return 1.0 / (1.0 + math.exp(-t))


def track_progress(state: State) -> float:
    """The share of the track both tokens have covered (0 at the start, 1 at the end)."""
    return (state.pos[0] + state.pos[1]) / (2 * END)


def file_digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def save_search_map(path: str | Path, found: SearchMap, meta: dict[str, Any]) -> None:
    data = {"format": SEARCH_MAP_FORMAT, "evaluator": found.evaluator, "weights": found.weights,
            "exploration": found.exploration, "a": found.a, "c": found.c, "b": found.b, "d": found.d, **meta}
    try:
        write_atomic(Path(path), json.dumps(data, indent=2) + "\n")
    except RecordError as exc:
        raise ValueModelError(exc.template, **exc.values) from None


def read_search_map(path: str | Path) -> SearchMap:
    try:
        data = json.loads(Path(path).read_text())
        if data.get("format") != SEARCH_MAP_FORMAT:
            raise ValueModelError(N_("{path}: search map format {found}, expected {expected}"), path=str(path),
                                  found=data.get("format"), expected=SEARCH_MAP_FORMAT)
        return SearchMap(str(data["evaluator"]), str(data["weights"]), float(data["a"]), float(data["c"]),
                         float(data["b"]), float(data["d"]), float(data["exploration"]))
    except ValueModelError:
        raise
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        # Translators: {reason} is the system's or the JSON reader's own words
        raise ValueModelError(N_("{path}: not a readable search map ({reason})"), path=str(path),
                              reason=str(exc)) from None
