"""Random games to the end, checked after every move; and a naive second implementation of RULES.md.

The reference model below is written from RULES.md alone (sets of cells, shapes turned by
hand from the raw catalogue JSON), so the engine's bitboards, tables and shortcuts are
checked against something that shares none of them.
"""

from __future__ import annotations

import json
import random
import tempfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from patchwork_opt.core.bitboard import FULL, cells_of
from patchwork_opt.core.catalogue import PATCHES, is_placement
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import END, State
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.record import Record

Cell = tuple[int, int]
RefMove = tuple[object, ...]

# --- the reference model ----------------------------------------------------------------------

_RAW = json.loads(resources.files("patchwork_opt").joinpath("data/patches.json").read_text(encoding="utf-8"))
_MARKS = (5, 11, 17, 23, 29, 35, 41, 47, 53)
_PRINTINGS = {"revised": [26, 32, 38, 44, 50], "classic": [20, 26, 32, 44, 50]}


def _ref_placements(shape: list[str]) -> list[frozenset[Cell]]:
    cells = [(r, c) for r, row in enumerate(shape) for c, ch in enumerate(row) if ch != "."]
    shapes: set[frozenset[Cell]] = set()
    for mirror in (1, -1):
        turned = [(r, c * mirror) for r, c in cells]
        for _ in range(4):
            turned = [(c, -r) for r, c in turned]
            top = min(r for r, _ in turned)
            left = min(c for _, c in turned)
            shapes.add(frozenset((r - top, c - left) for r, c in turned))
    out = []
    for s in shapes:
        for dr in range(9):
            for dc in range(9):
                moved = frozenset((r + dr, c + dc) for r, c in s)
                if all(r < 9 and c < 9 for r, c in moved):
                    out.append(moved)
    return out


REF_PLACEMENTS = {int(p["id"]): _ref_placements(p["shape"]) for p in _RAW}
REF_FACTS = {int(p["id"]): (int(p["cost"]), int(p["time"]), int(p["income"])) for p in _RAW}
ALL_CELLS = frozenset((r, c) for r in range(9) for c in range(9))


@dataclass
class Ref:
    """A position kept in the plainest way: sets of cells, lists of spaces, None for nobody."""

    circle: list[int]
    leather: list[int]
    pos: list[int] = field(default_factory=lambda: [0, 0])
    buttons: list[int] = field(default_factory=lambda: [5, 5])
    income: list[int] = field(default_factory=lambda: [0, 0])
    covered: list[set[Cell]] = field(default_factory=lambda: [set(), set()])
    pending: int | None = None
    top: int = 0
    bonus: int | None = None
    first53: int | None = None

    def over(self) -> bool:
        return self.pos == [53, 53] and self.pending is None

    def mover(self) -> int:
        if self.pending is not None:
            return self.pending
        if self.pos[0] != self.pos[1]:
            return 0 if self.pos[0] < self.pos[1] else 1
        return self.top

    def legal(self) -> set[RefMove]:
        if self.over():
            return set()
        p = self.mover()
        if self.pending is not None:
            return {("L", cell) for cell in ALL_CELLS - self.covered[p]}
        moves: set[RefMove] = {("A",)}
        for pid in self.circle[:3]:
            if REF_FACTS[pid][0] <= self.buttons[p]:
                moves |= {("B", pid, pl) for pl in REF_PLACEMENTS[pid] if not pl & self.covered[p]}
        return moves

    def play(self, move: RefMove) -> None:
        assert move in self.legal(), move
        p = self.mover()
        if move[0] == "L":
            self.covered[p].add(move[1])  # type: ignore[arg-type]
            self.pending = None
            self._check_bonus(p)
        elif move[0] == "A":
            new = min(self.pos[1 - p] + 1, 53)
            self.buttons[p] += new - self.pos[p]
            self._token(p, new)
        else:
            pid = move[1]
            assert isinstance(pid, int)
            cost, time, income = REF_FACTS[pid]
            i = self.circle.index(pid)
            self.circle = self.circle[i + 1 :] + self.circle[:i]
            self.buttons[p] -= cost
            self.income[p] += income
            self.covered[p] |= move[2]  # type: ignore[arg-type]
            self._check_bonus(p)
            self._token(p, min(self.pos[p] + time, 53))

    def _token(self, p: int, new: int) -> None:
        old = self.pos[p]
        self.buttons[p] += self.income[p] * sum(1 for m in _MARKS if old < m <= new)
        crossed = [s for s in sorted(self.leather) if old < s <= new]
        if crossed:
            self.leather.remove(crossed[0])
            if len(self.covered[p]) < 81:
                self.pending = p
        self.pos[p] = new
        self.top = p
        if new == 53 and self.first53 is None:
            self.first53 = p

    def _check_bonus(self, p: int) -> None:
        if self.bonus is None and any(
            all((t + r, left + c) in self.covered[p] for r in range(7) for c in range(7))
            for t in range(3)
            for left in range(3)
        ):
            self.bonus = p

    def score(self, p: int) -> int:
        return self.buttons[p] + (7 if self.bonus == p else 0) - 2 * (81 - len(self.covered[p]))

    def winner(self) -> int | None:
        if not self.over():
            return None
        s0, s1 = self.score(0), self.score(1)
        return self.first53 if s0 == s1 else (0 if s0 > s1 else 1)


def as_ref(move: Move) -> RefMove:
    if move.kind == "advance":
        return ("A",)
    if move.kind == "leather":
        return ("L", cells_of(move.mask)[0])
    return ("B", move.patch, frozenset(cells_of(move.mask)))


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
        move = state.random_move(rng)
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
        state.apply(state.random_move(rng))
    fast = state.clone()
    fast.playout(random.Random(seed + 1))
    slow = state.clone()
    rng = random.Random(seed + 1)
    while not slow.is_terminal():
        slow.apply(slow.random_move(rng))
    assert fast == slow
    assert fast.is_terminal() and fast.winner() in (0, 1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_playout_ends_in_a_consistent_finished_game(seed: int) -> None:
    state = State.new(seed=seed)
    state.playout(random.Random(seed))
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
        state.apply(state.random_move(rng))
    copy = state.clone()
    text = to_notation(state)
    placed = [list(state.placed[0]), list(state.placed[1])]
    copy.playout(rng)
    assert to_notation(state) == text
    assert state.placed == placed
