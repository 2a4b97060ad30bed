"""The learned evaluation's features: the compiled vector agrees with one computed from the State."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import cells_mask, late_positions, make_state, random_record

from patchwork_opt.ai.heuristic import isolated, purchase_value, window_progress
from patchwork_opt.ai.learned.features import FEATURE_NAMES, N_FEATURES, features_of_positions, state_features
from patchwork_opt.ai.search.candidates import completing_placement
from patchwork_opt.ai.search.fastcore import encode
from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS
from patchwork_opt.core.errors import GameOverError
from patchwork_opt.core.state import BONUS_POINTS, END, OFFER_SIZE, State, marks_ahead


def reference(state: State) -> dict[str, float]:
    """The features from the State's own facts and the pure-Python heuristics, by name."""
    me = state.to_move()
    out: dict[str, float] = {}
    offers = state.circle[:OFFER_SIZE]
    for side, p in (("me", me), ("opp", 1 - me)):
        pos, quilt, income = state.pos[p], state.quilts[p], state.income[p]
        marks = marks_ahead(pos)
        buyable = [state.circle[k] for k in state.buyable_offers(p)] if pos < END else []
        out.update({
            f"{side}_position": pos, f"{side}_buttons": state.buttons[p], f"{side}_income": income,
            f"{side}_marks_ahead": marks, f"{side}_income_to_come": income * marks,
            f"{side}_empty": state.empty_cells(p), f"{side}_holes": isolated(FULL & ~quilt).bit_count(),
            f"{side}_window": window_progress(quilt), f"{side}_bonus": float(state.bonus == p),
            f"{side}_score": state.score(p),
            f"{side}_leather_ahead": sum(1 for s in state.leather_left() if s > pos),
            f"{side}_best_offer": max((purchase_value(pid, pos) for pid in buyable), default=0.0),
            f"{side}_buyable": len(buyable),
            f"{side}_completes_7x7": float(
                state.bonus < 0 and any(completing_placement(quilt, pid) for pid in buyable)
            ),
        })
        out[f"{side}_projected"] = state.score(p) + income * marks + BONUS_POINTS * out[f"{side}_completes_7x7"]
    mine, theirs = state.pos[me], state.pos[1 - me]
    target = state.advance_target(me)
    out.update({
        "gap": theirs - mine, "same_space": float(mine == theirs), "pending": float(state.pending >= 0),
        "bonus_free": float(state.bonus < 0), "patches_left": len(state.circle), "advance_spaces": target - mine,
        "advance_leather": sum(1 for s in state.leather_left() if mine < s <= target),
        "projected_margin": out["me_projected"] - out["opp_projected"],
    })
    mine_buyable = state.buyable_offers(me)
    for k in range(OFFER_SIZE):
        ok = k in mine_buyable
        out[f"offer{k}_value"] = purchase_value(offers[k], mine) if ok else 0.0
        out[f"offer{k}_buyable"] = float(ok)
    return out


def sample_positions() -> list[State]:
    """Every position of a few random games and late positions of noisy-greedy games."""
    states = []
    for seed in range(6):
        record = random_record(seed)
        state = record.initial_state()
        for move in record.moves:
            states.append(state.clone())
            state.apply(move)
    for seed in range(3):
        states += late_positions(seed, 20)
    return states


def test_compiled_features_agree_with_the_state_reference() -> None:
    states = sample_positions()
    assert len(states) > 250
    compiled = features_of_positions(np.stack([encode(s) for s in states]))
    assert compiled.shape == (len(states), N_FEATURES)
    for state, row in zip(states, compiled, strict=True):
        expected = reference(state)
        assert set(expected) == set(FEATURE_NAMES)
        got = dict(zip(FEATURE_NAMES, row, strict=True))
        for name in FEATURE_NAMES:
            assert got[name] == pytest.approx(expected[name]), (name, state)
    # the samples exercise the rarer figures too
    assert compiled[:, FEATURE_NAMES.index("pending")].max() == 1.0
    assert compiled[:, FEATURE_NAMES.index("me_holes")].max() > 0


def test_a_completable_7x7_is_seen_for_either_player() -> None:
    window = WINDOW_MASKS[0]
    gap = cells_mask([(0, 0), (0, 1)])  # patch 0 is the 1x2 patch
    state = make_state([0, 5, 6], pos=(3, 4), buttons=(5, 5), quilts=(window & ~gap, window & ~gap))
    names = dict(zip(FEATURE_NAMES, state_features(state), strict=True))
    assert names["me_completes_7x7"] == 1.0 and names["opp_completes_7x7"] == 1.0
    assert names["me_window"] == 47
    assert names["me_projected"] == names["me_score"] + 7 and names["projected_margin"] == 0
    state.bonus = 1  # taken: nothing left to complete
    names = dict(zip(FEATURE_NAMES, state_features(state), strict=True))
    assert names["me_completes_7x7"] == 0.0 and names["bonus_free"] == 0.0


def test_features_are_the_movers_view() -> None:
    state = make_state(pos=(10, 6), buttons=(20, 3), income=(4, 1))
    names = dict(zip(FEATURE_NAMES, state_features(state), strict=True))
    assert state.to_move() == 1
    assert (names["me_position"], names["me_buttons"], names["me_income"]) == (6, 3, 1)
    assert (names["opp_position"], names["opp_buttons"], names["opp_income"]) == (10, 20, 4)
    assert names["gap"] == 4 and names["advance_spaces"] == 5


def test_a_finished_game_has_no_features() -> None:
    state = random_record(1).replay()
    with pytest.raises(GameOverError):
        state_features(state)
