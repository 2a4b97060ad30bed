"""Proof-number search (``ai/search/proofnumber.py``): its win/loss answers are the signs of the exact
search's values, for the root and for every root move; a spent budget answers None; a finished game
is refused."""

from __future__ import annotations

import pytest
from conftest import late_positions, leather_position, tie_break_position

from patchwork_opt.ai.search import exactcore
from patchwork_opt.ai.search.proofnumber import ProofResult, ProofSearch, prove, prove_moves
from patchwork_opt.bench.exact import cut_position
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.state import State


def _exact_wins(state: State) -> dict[object, bool]:
    result = exactcore.solve(state, every_move=True, table=exactcore.ExactTable(16))
    assert result.solved
    return {m.move: m.value is not None and m.value > 0 for m in result.moves}


def _check(state: State, search: ProofSearch) -> int:
    """df-pn agrees with the exact values at the root and on every root move; its nodes at the root."""
    truth = _exact_wins(state)
    root = search.prove(state, node_limit=2_000_000)
    assert root.win == any(truth.values())
    nodes = root.nodes
    moves = search.prove_moves(state, node_limit=2_000_000)
    assert [m for m, _ in moves] == exactcore.root_moves(state)
    assert {m: w for m, w in moves} == truth
    return nodes


def test_answers_are_the_signs_of_the_exact_values_on_late_positions() -> None:
    search = ProofSearch(8)
    checked = searched = won = 0
    for seed in range(14):
        for state in late_positions(seed, 44)[:2] + late_positions(seed, 42)[:2]:
            searched += _check(state, search) > 50
            won += bool(search.prove(state, node_limit=2_000_000).win)
            checked += 1
    assert checked >= 50 and searched >= 5 and 0 < won < checked


def test_hand_built_endgames_tie_break_and_leather() -> None:
    search = ProofSearch(1)
    _check(tie_break_position(), search)
    assert search.prove(tie_break_position(), node_limit=1000).win is True  # won on the tie-break
    _check(leather_position(), search)


def test_a_spent_budget_answers_none_and_a_fresh_search_still_proves() -> None:
    hard = cut_position(1, 36)
    out = prove(hard, node_limit=2000, megabytes=1)
    assert out == ProofResult(None, out.nodes) and out.nodes >= 2000
    moves = prove_moves(hard, node_limit=2000, megabytes=1)
    assert moves and any(w is None for _, w in moves)
    assert [m for m, _ in moves] == exactcore.root_moves(hard)
    easy = late_positions(5, 44)[0]
    search = ProofSearch(1)
    assert search.prove(hard, node_limit=500).win is None
    assert search.prove(easy, node_limit=2_000_000).win is not None  # the stop does not stick


def test_refusals() -> None:
    over = late_positions(0, 44)[0]
    while not over.is_terminal():
        over.apply(next(iter(over.legal_moves())))
    with pytest.raises(GameOverError):
        prove(over, node_limit=100, megabytes=1)
    with pytest.raises(GameOverError):
        prove_moves(over, node_limit=100, megabytes=1)
    state = late_positions(0, 44)[0]
    with pytest.raises(PatchworkError, match="node limit"):
        prove(state, node_limit=0, megabytes=1)
    with pytest.raises(PatchworkError, match="positive size"):
        ProofSearch(0)
