"""The rules of RULES.md: a Game (fixed facts) and a State (one position).

Search needs only ``clone``, ``legal_moves``, ``apply``, ``is_terminal`` and ``returns``.
The hot paths keep everything in plain ints and small lists.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from patchwork_opt.core.bitboard import CELLS, FULL, has_full_window, iter_bits
from patchwork_opt.core.catalogue import (
    LEATHER_PRINTINGS,
    PATCH_COUNT,
    PATCHES,
    POINTS_PER_CELL,
    fits_anywhere,
    is_placement,
    legal_placements,
)
from patchwork_opt.core.errors import GameOverError, IllegalMoveError, PatchworkError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.symmetry import canonical
from patchwork_opt.core.words import player_name
from patchwork_opt.i18n import N_, ngettext, one_of

END = 53
INCOME_MARKS: tuple[int, ...] = (5, 11, 17, 23, 29, 35, 41, 47, 53)
START_BUTTONS = 5
BONUS_POINTS = 7
OFFER_SIZE = 3
LEATHER_PATCH = -1  # patch id recorded in a quilt's history for a leather patch
#: MARKS_UPTO[s]: income marks at or before space s, so a move old -> new crosses
#: MARKS_UPTO[new] - MARKS_UPTO[old] marks.
MARKS_UPTO: tuple[int, ...] = tuple(sum(1 for m in INCOME_MARKS if m <= s) for s in range(END + 1))
#: SPACES_AFTER[s]: bits of the spaces strictly after s.
SPACES_AFTER: tuple[int, ...] = tuple(((1 << (END + 1)) - 1) & ~((1 << (s + 1)) - 1) for s in range(END + 1))
COST: tuple[int, ...] = tuple(p.cost for p in PATCHES)  # each patch's cost in buttons, by id


def leather_spaces(printing: str) -> tuple[int, ...]:
    try:
        return LEATHER_PRINTINGS[printing]
    except KeyError:
        raise PatchworkError(N_("unknown leather printing {printing!r} (expected {expected})"), printing=printing,
                             expected=one_of(LEATHER_PRINTINGS)) from None


def check_leather(spaces: Sequence[object]) -> tuple[int, ...]:
    """Five distinct spaces strictly inside the track (1..52)."""
    if len(spaces) != 5:
        raise PatchworkError(N_("leather needs 5 spaces, got {count}"), count=len(spaces))
    out = []
    for s in spaces:
        if not isinstance(s, int) or isinstance(s, bool) or not 1 <= s < END:
            raise PatchworkError(N_("leather space {space!r} is not a space 1..{last}"), space=s, last=END - 1)
        out.append(s)
    if len(set(out)) != len(out):
        raise PatchworkError(N_("leather spaces repeat: {spaces}"), spaces=out)
    return tuple(sorted(out))


def check_circle(circle: Sequence[object]) -> list[int]:
    """A circle is every patch id exactly once."""
    ids = []
    for i, pid in enumerate(circle):
        if not isinstance(pid, int) or isinstance(pid, bool) or not 0 <= pid < PATCH_COUNT:
            raise PatchworkError(N_("circle[{i}]: unknown patch id {pid!r} (ids are 0..{last})"), i=i, pid=pid,
                                 last=PATCH_COUNT - 1)
        ids.append(pid)
    if len(ids) != PATCH_COUNT or len(set(ids)) != PATCH_COUNT:
        missing = sorted(set(range(PATCH_COUNT)) - set(ids))
        raise PatchworkError(N_("circle must hold each of the {count} patch ids once; got {entries} entries, missing "
                                "{missing}"), count=PATCH_COUNT, entries=len(ids), missing=missing)
    return ids


def random_circle(rng: random.Random) -> list[int]:
    """The standard set-up: a random order, with patch 0 last (the neutral token sits after it)."""
    others = list(range(1, PATCH_COUNT))
    rng.shuffle(others)
    return [*others, 0]


@dataclass(frozen=True, slots=True)
class PlayerView:
    position: int
    buttons: int
    income: int
    quilt: int
    bonus: bool
    empty: int
    score: int


class State:
    """A position. Mutable for speed; ``clone`` is cheap. Players are 0 and 1."""

    __slots__ = (
        "circle",
        "pos",
        "buttons",
        "income",
        "quilts",
        "placed",
        "leather",
        "pending",
        "last_mover",
        "bonus",
        "first_end",
        "printing",
    )

    circle: list[int]
    pos: list[int]
    buttons: list[int]
    income: list[int]
    quilts: list[int]
    placed: list[list[tuple[int, int]]]
    leather: int
    pending: int
    last_mover: int
    bonus: int
    first_end: int
    printing: tuple[int, ...]

    # --- set-up ---------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        circle: Sequence[int] | None = None,
        *,
        seed: int | None = None,
        leather: str | Sequence[int] = "revised",
    ) -> State:
        """A new game from an explicit circle, or a random one from ``seed``."""
        spaces = leather_spaces(leather) if isinstance(leather, str) else check_leather(leather)
        ids = check_circle(circle) if circle is not None else random_circle(random.Random(seed))
        state = cls.__new__(cls)
        state.circle = ids
        state.pos = [0, 0]
        state.buttons = [START_BUTTONS, START_BUTTONS]
        state.income = [0, 0]
        state.quilts = [0, 0]
        state.placed = [[], []]
        state.leather = sum(1 << s for s in spaces)
        state.pending = -1
        state.last_mover = 0
        state.bonus = -1
        state.first_end = -1
        state.printing = spaces
        return state

    def clone(self) -> State:
        other = State.__new__(State)
        other.circle = self.circle[:]
        other.pos = self.pos[:]
        other.buttons = self.buttons[:]
        other.income = self.income[:]
        other.quilts = self.quilts[:]
        other.placed = [self.placed[0][:], self.placed[1][:]]
        other.leather = self.leather
        other.pending = self.pending
        other.last_mover = self.last_mover
        other.bonus = self.bonus
        other.first_end = self.first_end
        other.printing = self.printing
        return other

    # --- facts ------------------------------------------------------------------------------
    def to_move(self) -> int:
        """The player to move: a pending leather first, else the one behind, else the one on top."""
        if self.pending >= 0:
            return self.pending
        return turn_order(self.pos[0], self.pos[1], self.last_mover)

    def is_terminal(self) -> bool:
        return self.pos[0] == END and self.pos[1] == END and self.pending < 0

    def offers(self) -> list[int]:
        """Patch ids on offer: the first three of the circle."""
        return self.circle[:OFFER_SIZE]

    def leather_left(self) -> list[int]:
        return list(iter_bits(self.leather))

    def empty_cells(self, player: int) -> int:
        return CELLS - self.quilts[player].bit_count()

    def score(self, player: int) -> int:
        bonus = BONUS_POINTS if self.bonus == player else 0
        return self.buttons[player] + bonus - POINTS_PER_CELL * self.empty_cells(player)

    def winner(self) -> int | None:
        """The winner of a finished game (tie-break: first to reach the end), else None."""
        if not self.is_terminal():
            return None
        s0, s1 = self.score(0), self.score(1)
        if s0 != s1:
            return 0 if s0 > s1 else 1
        return self.first_end

    def returns(self) -> tuple[float, float]:
        """+1 for the winner, -1 for the loser; (0, 0) while the game is running."""
        w = self.winner()
        if w is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if w == 0 else (-1.0, 1.0)

    def player(self, p: int) -> PlayerView:
        return PlayerView(
            position=self.pos[p],
            buttons=self.buttons[p],
            income=self.income[p],
            quilt=self.quilts[p],
            bonus=self.bonus == p,
            empty=self.empty_cells(p),
            score=self.score(p),
        )

    # --- moves ------------------------------------------------------------------------------
    def affordable_offers(self, player: int) -> list[int]:
        """Indices (into the circle, 0..2, in its order) of the offered patches ``player`` has
        the buttons for. The one statement of "affordable": searches that find a fit by sampling
        placements (rollouts, playouts, the greedy rule) start from it, and ``buyable_offers``
        adds the fit; keeping the circle's order keeps their random draws and tie-breaks."""
        buttons = self.buttons[player]
        out = []
        k = 0
        for pid in self.circle[:OFFER_SIZE]:  # a plain loop: rollouts call this at every move
            if COST[pid] <= buttons:
                out.append(k)
            k += 1  # noqa: SIM113 (a counter: enumerate costs a fifth more here, measured)
        return out

    def buyable_offers(self, player: int) -> list[int]:
        """``affordable_offers`` whose patch fits somewhere on ``player``'s quilt: the offers they
        could buy on their turn (the one statement of "affordable offers that fit")."""
        circle, quilt = self.circle, self.quilts[player]
        return [k for k in self.affordable_offers(player) if fits_anywhere(circle[k], quilt)]

    def buyable(self) -> list[int]:
        """Offered patch ids the player to move can buy now (none while a leather patch waits)."""
        if self.pending >= 0 or self.is_terminal():
            return []
        return [self.circle[k] for k in self.buyable_offers(self.to_move())]

    def can_buy(self, patch_id: int) -> bool:
        """Whether the player to move can buy patch ``patch_id`` now (``buyable``)."""
        return patch_id in self.buyable()

    def legal_moves(self) -> Iterator[Move]:
        """Every legal move: leather placements when one is pending, else buys then advance."""
        if self.is_terminal():
            return
        p = self.to_move()
        quilt = self.quilts[p]
        if self.pending >= 0:
            for index in iter_bits(FULL & ~quilt):
                yield Move("leather", -1, 1 << index)
            return
        for k in self.affordable_offers(p):
            pid = self.circle[k]
            for mask in legal_placements(pid, quilt):
                yield Move("buy", pid, mask)
        yield ADVANCE

    def count_moves(self) -> int:
        if self.is_terminal():
            return 0
        p = self.to_move()
        quilt = self.quilts[p]
        if self.pending >= 0:
            return CELLS - quilt.bit_count()
        circle = self.circle
        return 1 + sum(len(legal_placements(circle[k], quilt)) for k in self.affordable_offers(p))

    def check(self, move: Move) -> None:
        """Raise IllegalMoveError naming why ``move`` is not legal here."""
        if self.is_terminal():
            raise GameOverError(N_("the game is over"))
        p = self.to_move()
        if self.pending >= 0:
            if move.kind != "leather":
                raise self._leather_first(p)
            if move.mask.bit_count() != 1 or move.mask > FULL:
                raise IllegalMoveError(N_("a leather patch covers exactly one cell"))
            if move.mask & self.quilts[p]:
                # Translators: {cell} is (row, column); {player} "Player 1" or "Player 2"
                raise IllegalMoveError(N_("leather cell {cell} is already covered on {player}'s quilt"),
                                       why="covered", cells=move.mask, cell=move.cells[0], player=player_name(p))
            return
        if move.kind == "leather":
            raise IllegalMoveError(N_("no leather patch is waiting to be placed"))
        if move.kind == "advance":
            return
        self._check_offered(move.patch)
        if not is_placement(move.patch, move.mask):
            raise IllegalMoveError(N_("the cells {shape} are not a placement of patch {pid}"), why="not_a_placement",
                                   patch=move.patch, cells=move.mask, shape=move.cells, pid=move.patch)
        self._check_affordable(p, move.patch)
        overlap = move.mask & self.quilts[p]
        if overlap:
            cells = [list(c) for c in Move("leather", -1, overlap).cells]
            raise IllegalMoveError(N_("patch {pid} overlaps covered cells {covered} on {player}'s quilt"),
                                   why="covered", patch=move.patch, cells=overlap, pid=move.patch, covered=cells,
                                   player=player_name(p))

    def check_buy(self, patch_id: int) -> None:
        """Raise IllegalMoveError naming why the player to move cannot buy patch ``patch_id`` now,
        before a placement is chosen: a leather patch waits to be placed first, the patch is not on
        offer, too dear, or fits nowhere on their quilt. A client that lets a player pick the patch
        first and its cells after (the terminal game) asks this, then ``check`` for the placement."""
        if self.is_terminal():
            raise GameOverError(N_("the game is over"))
        p = self.to_move()
        if self.pending >= 0:
            raise self._leather_first(p)
        self._check_offered(patch_id)
        self._check_affordable(p, patch_id)
        if not fits_anywhere(patch_id, self.quilts[p]):
            raise IllegalMoveError(N_("patch {pid} fits nowhere on {player}'s quilt"), why="fits_nowhere",
                                   patch=patch_id, pid=patch_id, player=player_name(p))

    def _leather_first(self, p: int) -> IllegalMoveError:
        return IllegalMoveError(N_("{player} must first place the leather patch they took"), why="leather_first",
                                player=player_name(p))

    def _check_offered(self, patch_id: int) -> None:
        offers = self.circle[:OFFER_SIZE]
        if patch_id not in offers:
            raise IllegalMoveError(N_("patch {pid} is not on offer (offered: {offers})"), why="not_offered",
                                   patch=patch_id, pid=patch_id, offers=offers)

    def _check_affordable(self, p: int, patch_id: int) -> None:
        cost = PATCHES[patch_id].cost
        if cost > self.buttons[p]:
            # the count in words is said as the move is refused (the reader's language is in effect then)
            price = ngettext("{count} button", "{count} buttons", cost)
            # Translators: a refused buy: {price} is "7 buttons", {player} "Player 1", {has} the buttons they have
            raise IllegalMoveError(N_("patch {pid} costs {price}, {player} has {has}"), why="too_dear", patch=patch_id,
                                   pid=patch_id, price=price, player=player_name(p), has=self.buttons[p])

    def apply(self, move: Move) -> None:
        """Play a legal move (validated); raises IllegalMoveError and leaves the state untouched."""
        self.check(move)
        p = self.to_move()
        if move.kind == "advance":
            self.advance_unchecked(p)
        elif move.kind == "buy":
            self.buy_unchecked(p, self.circle.index(move.patch), move.mask)
        else:
            self.leather_unchecked(p, move.mask)

    # --- the fast path for search -------------------------------------------------------------
    # Search plays thousands of moves per second and knows its moves are legal, so it uses these
    # instead of ``apply``: no checks, no Move objects. ``p`` must be ``to_move()``; a buy's
    # ``offer_index`` is 0..2 into the circle and ``mask`` a placement of that patch that fits;
    # a leather mask is one empty cell while ``pending == p``. Breaking these leaves the state
    # inconsistent: callers that cannot promise them call ``apply``.

    def advance_target(self, p: int) -> int:
        """Where advancing takes player ``p``: the space just past the opponent, at most the end."""
        target = self.pos[1 - p] + 1
        return target if target < END else END

    def leather_between(self, old: int, new: int) -> int:
        """The bit of the leather space a move from ``old`` to ``new`` takes (0 for none)."""
        taken = self.leather & SPACES_AFTER[old] & ~SPACES_AFTER[new]
        return taken & -taken  # at most one leather patch per move

    def advance_unchecked(self, p: int) -> None:
        target = self.advance_target(p)
        self.buttons[p] += target - self.pos[p]
        self._token_to(p, target)

    def buy_unchecked(self, p: int, offer_index: int, mask: int) -> None:
        circle = self.circle
        pid = circle[offer_index]
        patch = PATCHES[pid]
        self.buttons[p] -= patch.cost
        quilt = self.quilts[p] | mask
        self.quilts[p] = quilt
        self.income[p] += patch.income
        self.placed[p].append((pid, mask))
        self.circle = circle[offer_index + 1 :] + circle[:offer_index]
        if self.bonus < 0 and has_full_window(quilt):
            self.bonus = p
        target = self.pos[p] + patch.time
        self._token_to(p, target if target < END else END)

    def leather_unchecked(self, p: int, mask: int) -> None:
        quilt = self.quilts[p] | mask
        self.quilts[p] = quilt
        self.placed[p].append((LEATHER_PATCH, mask))
        self.pending = -1
        if self.bonus < 0 and has_full_window(quilt):
            self.bonus = p

    def _token_to(self, p: int, new: int) -> None:
        old = self.pos[p]
        crossed = MARKS_UPTO[new] - MARKS_UPTO[old]
        if crossed:
            self.buttons[p] += crossed * self.income[p]
        taken = self.leather_between(old, new)
        if taken:
            self.leather ^= taken
            if self.quilts[p] != FULL:
                self.pending = p
        self.pos[p] = new
        self.last_mover = p
        if new == END and self.first_end < 0:
            self.first_end = p

    # --- identity ------------------------------------------------------------------------------
    def key(self, *, symmetric: bool = False) -> tuple[object, ...]:
        """Everything that decides the rest of the game and its record: equal keys, equal states.

        The one position key: equality, the mcts tree's reuse of a subtree and the exact search's
        table all use it. ``symmetric`` keys each quilt by its canonical form instead (quilts equal
        up to a rotation or reflection of the board lead to the same rest of the game): the exact
        search's table, where it makes positions met again by symmetric placements one entry.
        """
        q0, q1 = self.quilts
        if symmetric:
            q0, q1 = canonical(q0), canonical(q1)
        return (
            tuple(self.circle),
            tuple(self.pos),
            tuple(self.buttons),
            tuple(self.income),
            (q0, q1),
            self.leather,
            self.pending,
            self.last_mover,
            self.bonus,
            self.first_end,
            self.printing,
        )

    def __repr__(self) -> str:
        return (
            f"State(pos={self.pos}, buttons={self.buttons}, income={self.income}, "
            f"quilts={[f'{q:021x}' for q in self.quilts]}, offers={self.offers()}, to_move={self.to_move()})"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]


def turn_order(pos0: int, pos1: int, last_mover: int) -> int:
    """Whose turn it is with no leather pending: the player behind, else the one on top."""
    if pos0 < pos1:
        return 0
    if pos1 < pos0:
        return 1
    return last_mover


def marks_ahead(position: int) -> int:
    """Income marks still ahead of ``position``: how often income bought now still pays."""
    return MARKS_UPTO[END] - MARKS_UPTO[position]
