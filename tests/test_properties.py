"""Random games to the end, checked after every move against the reference model.

The reference model (patchwork_opt/bench/reference.py) is written from the rules alone (sets of
cells, shapes turned by hand from the raw catalogue JSON), so the engine's bitboards, tables and
shortcuts are checked against something that shares none of them.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from patchwork_opt.ai.random_play import playout, random_move
from patchwork_opt.bench.reference import ALL_CELLS, PRINTINGS, Ref, as_ref
from patchwork_opt.core.bitboard import FULL, cells_of
from patchwork_opt.core.catalogue import PATCHES, is_placement
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import END, State
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.record import Record

_PRINTINGS = PRINTINGS


def assert_same(state: State, ref: Ref) -> None:
    opt = lambda v: -1 if v is None else v  # noqa: E731
    assert state.circle == ref.circle
    assert state.pos == ref.pos
    assert state.buttons == ref.buttons
    assert state.income == ref.income
    assert [set(cells_of(q)) for q in state.quilts] == ref.covered
    assert state.leather_left() == sorted(ref.leather)
    assert state.pending == opt(ref.pending)
    assert state.bonus == opt(ref.bonus)
    assert state.first_end == opt(ref.first53)
    assert state.is_terminal() == ref.over()
    if not ref.over():
        assert state.to_move() == ref.mover()
    assert [state.score(0), state.score(1)] == [ref.score(0), ref.score(1)]
    assert state.winner() == ref.winner()


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), printing=st.sampled_from(["revised", "classic"]))
def test_engine_agrees_with_the_reference_model_on_whole_games(seed: int, printing: str) -> None:
    """Same legal moves and same position after every move of a random game."""
    rng = random.Random(seed)
    state = State.new(seed=seed, leather=printing)
    ref = Ref(circle=state.circle[:], leather=_PRINTINGS[printing][:])
    while not state.is_terminal():
        moves = list(state.legal_moves())
        assert len(moves) == len(set(moves)) == state.count_moves()
        assert {as_ref(m) for m in moves} == ref.legal()
        # Mostly buys, so quilts fill and leather, bonus and full quilts all come up.
        buys = [m for m in moves if m.kind == "buy"]
        move = rng.choice(buys) if buys and rng.random() < 0.8 else rng.choice(moves)
        state.apply(move)
        ref.play(as_ref(move))
        assert_same(state, ref)
    assert ref.over()


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    printing=st.sampled_from(["revised", "classic"]),
    empties=st.tuples(st.integers(1, 24), st.integers(1, 24)),
    pos=st.tuples(st.integers(0, 45), st.integers(0, 45)),
    income=st.tuples(st.integers(0, 9), st.integers(0, 9)),
    buttons=st.tuples(st.integers(0, 25), st.integers(0, 25)),
    last_mover=st.integers(0, 1),
)
def test_engine_agrees_with_the_reference_model_on_crowded_endgames(
    seed: int,
    printing: str,
    empties: tuple[int, int],
    pos: tuple[int, int],
    income: tuple[int, int],
    buttons: tuple[int, int],
    last_mover: int,
) -> None:
    """Nearly full quilts and high income: bonus squares, full quilts, leather discarded, many marks."""
    rng = random.Random(seed)
    state = State.new(seed=seed, leather=printing)
    ref = Ref(circle=state.circle[:], leather=_PRINTINGS[printing][:])
    for p in (0, 1):
        # (4, 4) lies in every 7x7 window, so nobody holds the bonus yet.
        holes = {(4, 4), *rng.sample(sorted(ALL_CELLS - {(4, 4)}), empties[p] - 1)}
        ref.covered[p] = set(ALL_CELLS - holes)
        state.quilts[p] = sum(1 << (r * 9 + c) for r, c in ref.covered[p])
    state.pos, ref.pos = list(pos), list(pos)
    state.income, ref.income = list(income), list(income)
    state.buttons, ref.buttons = list(buttons), list(buttons)
    state.last_mover = ref.top = last_mover
    assert_same(state, ref)
    while not state.is_terminal():
        moves = list(state.legal_moves())
        assert {as_ref(m) for m in moves} == ref.legal()
        buys = [m for m in moves if m.kind == "buy"]
        move = rng.choice(buys) if buys and rng.random() < 0.8 else rng.choice(moves)
        state.apply(move)
        ref.play(as_ref(move))
        assert_same(state, ref)


# --- invariants over random games ---------------------------------------------------------------


def check_invariants(before: State, move: Move, after: State) -> None:
    """What must hold across any single legal move."""
    mover = before.to_move()
    assert mover == (
        before.pending
        if before.pending >= 0
        else 0
        if before.pos[0] < before.pos[1]
        else 1
        if before.pos[1] < before.pos[0]
        else before.last_mover
    )
    other = 1 - mover
    for p in (0, 1):
        assert after.buttons[p] >= 0
        assert before.pos[p] <= after.pos[p] <= END
        placed_area = sum(1 if pid == -1 else PATCHES[pid].area for pid, _ in after.placed[p])
        assert after.quilts[p].bit_count() == placed_area, "placements never overlap"
        union = 0
        for pid, mask in after.placed[p]:
            assert mask & union == 0
            union |= mask
            assert (mask.bit_count() == 1) if pid == -1 else is_placement(pid, mask)
        assert union == after.quilts[p] and after.quilts[p] <= FULL
    # Only the mover's side changes (apart from the shared circle and leather track).
    assert after.pos[other] == before.pos[other]
    assert after.buttons[other] == before.buttons[other]
    assert after.quilts[other] == before.quilts[other]
    if move.kind == "leather":
        assert after.pos == before.pos and after.pending == -1
    else:
        assert after.pos[mover] > before.pos[mover], "a token move always goes forward"
    held = len(after.leather_left()) + sum(1 for p in (0, 1) for pid, _ in after.placed[p] if pid == -1)
    assert held <= 5
    bought = [pid for p in (0, 1) for pid, _ in after.placed[p] if pid >= 0]
    assert sorted(bought + after.circle) == list(range(33)), "every patch is in the circle or on a quilt"
    if before.bonus >= 0:
        assert after.bonus == before.bonus


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), printing=st.sampled_from(["revised", "classic"]))
def test_random_games_keep_every_invariant_and_end(seed: int, printing: str) -> None:
    rng = random.Random(seed)
    state = State.new(seed=seed, leather=printing)
    start = state.clone()
    record = Record.start(state)
    plies = 0
    while not state.is_terminal():
        move = random_move(state, rng)
        if plies % 7 == 0:
            assert move in set(state.legal_moves()), "random_move plays a legal move"
        before = state.clone()
        state.apply(move)
        record.moves.append(move)
        check_invariants(before, move, state)
        text = to_notation(state)
        again = from_notation(text)
        assert to_notation(again) == text and again == state
        assert again.to_move() == state.to_move() or state.is_terminal()
        assert again.count_moves() == state.count_moves()
        plies += 1
        assert plies < 400, "a game always ends: every token move goes forward"
    assert state.pos == [END, END] and state.winner() in (0, 1)
    assert start.circle == record.circle
    # The record replays to the same position, and survives a save and a load.
    assert record.replay() == state
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        record.save(path)
        loaded = Record.load(path)
    assert loaded.to_json() == record.to_json()
    assert loaded.moves == record.moves and loaded.leather == record.leather
    assert loaded.replay() == state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 60))
def test_playout_is_random_move_repeated(seed: int, plies: int) -> None:
    """``playout`` plays exactly the validated moves ``random_move`` picks, so only legal ones."""
    rng = random.Random(seed)
    state = State.new(seed=seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(random_move(state, rng))
    fast = state.clone()
    playout(fast, random.Random(seed + 1))
    slow = state.clone()
    rng = random.Random(seed + 1)
    while not slow.is_terminal():
        slow.apply(random_move(slow, rng))
    assert fast == slow
    assert fast.is_terminal() and fast.winner() in (0, 1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_playout_ends_in_a_consistent_finished_game(seed: int) -> None:
    state = State.new(seed=seed)
    playout(state, random.Random(seed))
    assert state.is_terminal()
    for p in (0, 1):
        assert state.buttons[p] >= 0
        union = 0
        for pid, mask in state.placed[p]:
            assert mask & union == 0
            assert (mask.bit_count() == 1) if pid == -1 else is_placement(pid, mask)
            union |= mask
        assert union == state.quilts[p]
    bought = [pid for p in (0, 1) for pid, _ in state.placed[p] if pid >= 0]
    assert sorted(bought + state.circle) == list(range(33))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_clone_is_independent(seed: int) -> None:
    rng = random.Random(seed)
    state = State.new(seed=seed)
    for _ in range(20):
        state.apply(random_move(state, rng))
    copy = state.clone()
    text = to_notation(state)
    placed = [list(state.placed[0]), list(state.placed[1])]
    playout(copy, rng)
    assert to_notation(state) == text
    assert state.placed == placed
