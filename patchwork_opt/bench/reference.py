"""A second, deliberately plain implementation of the rules: the engine's reference model.

Written from the rules alone, it shares none of the engine's machinery: positions are sets of
cells and lists of spaces, shapes are turned by hand from the raw catalogue JSON, and moves are
plain tuples (``("A",)``, ``("B", patch, cells)``, ``("L", cell)``). The property tests check the
engine against it move by move, and ``patchwork bench engine`` uses it as the naive baseline.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from importlib import resources

from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State

Cell = tuple[int, int]
RefMove = tuple[object, ...]

_RAW = json.loads(resources.files("patchwork_opt").joinpath("data/patches.json").read_text(encoding="utf-8"))
MARKS = (5, 11, 17, 23, 29, 35, 41, 47, 53)
PRINTINGS = {"revised": [26, 32, 38, 44, 50], "classic": [20, 26, 32, 44, 50]}
ALL_CELLS = frozenset((r, c) for r in range(9) for c in range(9))


def _placements(shape: list[str]) -> list[frozenset[Cell]]:
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


PLACEMENTS = {int(p["id"]): _placements(p["shape"]) for p in _RAW}
FACTS = {int(p["id"]): (int(p["cost"]), int(p["time"]), int(p["income"])) for p in _RAW}


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
            if FACTS[pid][0] <= self.buttons[p]:
                moves |= {("B", pid, pl) for pl in PLACEMENTS[pid] if not pl & self.covered[p]}
        return moves

    def play(self, move: RefMove) -> None:
        """Play a move of ``legal()`` (not checked here: the property tests check membership)."""
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
            cost, time, income = FACTS[pid]
            i = self.circle.index(pid)
            self.circle = self.circle[i + 1 :] + self.circle[:i]
            self.buttons[p] -= cost
            self.income[p] += income
            self.covered[p] |= move[2]  # type: ignore[arg-type]
            self._check_bonus(p)
            self._token(p, min(self.pos[p] + time, 53))

    def _token(self, p: int, new: int) -> None:
        old = self.pos[p]
        self.buttons[p] += self.income[p] * sum(1 for m in MARKS if old < m <= new)
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

    def random_game(self, rng: random.Random) -> int:
        """Play to the end choosing a uniform move kind (each patch, advance, leather), then a
        uniform move of that kind (as the engine's ``random_move``); returns the plies played."""
        plies = 0
        while not self.over():
            by_kind: dict[object, list[RefMove]] = {}
            for move in self.legal():
                by_kind.setdefault(move[1] if move[0] == "B" else move[0], []).append(move)
            kinds = sorted(by_kind, key=str)
            choice = by_kind[kinds[int(rng.random() * len(kinds))]]
            self.play(choice[int(rng.random() * len(choice))])
            plies += 1
        return plies


# --- bridges to the engine's types (the model above uses none of them) ------------------------


def as_ref(move: Move) -> RefMove:
    """The reference model's form of an engine move."""
    if move.kind == "advance":
        return ("A",)
    if move.kind == "leather":
        return ("L", cells_of(move.mask)[0])
    return ("B", move.patch, frozenset(cells_of(move.mask)))


def ref_of(state: State) -> Ref:
    """The reference model's copy of an engine position."""
    opt = lambda v: None if v < 0 else v  # noqa: E731
    return Ref(
        circle=state.circle[:],
        leather=state.leather_left(),
        pos=state.pos[:],
        buttons=state.buttons[:],
        income=state.income[:],
        covered=[set(cells_of(q)) for q in state.quilts],
        pending=opt(state.pending),
        top=state.last_mover,
        bonus=opt(state.bonus),
        first53=opt(state.first_end),
    )
