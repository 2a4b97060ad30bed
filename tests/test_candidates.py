"""The one candidate list (``ai.candidates``) the sampling search, the analysis and the exact search
take their moves from, each with its options."""

from __future__ import annotations

import random
from collections.abc import Sequence

from patchwork_opt.ai.analysis.position import move_key
from patchwork_opt.ai.heuristic import TIME, leather_cell, rank_placements
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.ai.search.candidates import ADVISOR_FROM, EVERY, candidate_moves
from patchwork_opt.core.advice import RankedPlacement
from patchwork_opt.core.bitboard import has_full_window
from patchwork_opt.core.catalogue import legal_placements
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import END, State


def _positions(count: int, seed: int) -> list[State]:
    """Running positions of random games at every stage, some with a leather patch pending."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = State.new(seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 110)):
            if state.is_terminal():
                break
            state.apply(random_move(state, rng))
        if not state.is_terminal():
            out.append(state)
    return out


def _completes(state: State, move: Move) -> bool:
    return has_full_window(state.quilts[state.to_move()] | move.mask)


def test_few_per_offer_are_legal_distinct_and_never_miss_a_7x7_completion() -> None:
    for state in _positions(300, seed=1):
        if state.pending >= 0:
            continue
        legal = set(state.legal_moves())
        quilt = state.quilts[state.to_move()]
        for per_offer in (1, 3):
            for distinct in (False, True):
                moves = candidate_moves(state, per_offer=per_offer, distinct=distinct)
                assert moves[0] == ADVANCE and moves.count(ADVANCE) == 1
                assert set(moves) <= legal and len(set(moves)) == len(moves)
                assert {m.patch for m in moves if m.kind == "buy"} == set(state.buyable())
                for pid in state.buyable():
                    own = [m for m in moves if m.patch == pid]
                    completing = any(has_full_window(quilt | m) for m in legal_placements(pid, quilt))
                    assert (state.bonus < 0 and completing) == any(_completes(state, m) for m in own)
                    assert 1 <= len(own) <= per_offer + completing
                    if distinct:
                        assert len({move_key(quilt, m) for m in own}) == len(own)


def test_the_ranked_placements_come_in_the_rankers_order() -> None:
    """Without an advisor the heuristic ranks; an advisor takes over once the quilt has
    ``ADVISOR_FROM`` covered cells."""

    class LastFirst:
        """Ranks the legal placements from the highest mask down: easy to tell from the heuristic."""

        def rank_placements(self, quilt: int, patch_id: int, upcoming: Sequence[int],
                            top_k: int) -> list[RankedPlacement]:
            masks = sorted(legal_placements(patch_id, quilt), reverse=True)[:top_k]
            return [RankedPlacement(m, -i) for i, m in enumerate(masks)]

        def bonus_feasible(self, quilt: int, patches: Sequence[int]) -> bool | None:
            return None

    seen = set()
    for state in _positions(200, seed=2):
        if state.pending >= 0:
            continue
        state.bonus = 1 - state.to_move()  # the bonus is gone: no completion in the way of the order
        quilt = state.quilts[state.to_move()]
        advised = quilt.bit_count() >= ADVISOR_FROM
        seen.add(advised)
        moves = candidate_moves(state, per_offer=2, advisor=LastFirst())
        for pid in state.buyable():
            placed = [m.mask for m in moves if m.patch == pid]
            if advised:
                assert placed == sorted(legal_placements(pid, quilt), reverse=True)[:2]
            else:
                assert placed == [m for _, m in rank_placements(quilt, pid, top_k=2)]
    assert seen == {False, True}


def test_every_move_is_each_legal_move_once_up_to_symmetry_best_guesses_first() -> None:
    checked = 0
    for state in _positions(400, seed=3):
        p = state.to_move()
        reaches_end = state.pos[p] == END or any(state.pos[p] + TIME[pid] >= END for pid in state.circle[:3])
        if reaches_end:  # one placement per outcome class there: the exact search's tests cover it
            continue
        quilt = state.quilts[p]
        moves = candidate_moves(state, per_offer=EVERY)
        keys = [move_key(quilt, m) for m in moves]
        assert len(set(keys)) == len(keys)
        assert set(keys) == {move_key(quilt, m) for m in state.legal_moves()}
        if state.pending < 0:
            before_advance = moves[: moves.index(ADVANCE)]
            for pid in state.buyable():  # each offer's best placement is tried before advancing
                assert any(m.patch == pid for m in before_advance)
            assert all(_completes(state, m) or not any(n.patch == m.patch for n in before_advance[:i])
                       for i, m in enumerate(before_advance))
        checked += 1
    assert checked >= 100


def test_a_pending_leather_patch_lists_the_best_distinct_cells_the_bots_first() -> None:
    found = 0
    for state in _positions(600, seed=4):
        if state.pending < 0:
            continue
        quilt = state.quilts[state.to_move()]
        cells = candidate_moves(state, per_offer=3, distinct=True)
        assert all(m.kind == "leather" and not m.mask & quilt for m in cells)
        assert 1 <= len(cells) <= 3 and len({move_key(quilt, m) for m in cells}) == len(cells)
        assert cells[0].mask == leather_cell(quilt, state.bonus < 0)  # the one ranking of leather cells
        found += 1
    assert found >= 5
