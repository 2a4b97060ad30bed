"""A position set up from a physical game: what a player reads off the table, made a position.

The circle's order, both quilts as cells, both tokens, buttons and income, the leather patches left
on the track and who holds the 7x7 bonus (``PhysicalSetup``, a pydantic model: the published schema
and the reader are one) become the position's notation, read back by the one notation reader
(``notation.from_notation``), which refuses what cannot be written down. What can be written down
but cannot have happened is refused too, with one line naming it (``SetupError``): a leather patch
gone from a space no token has reached, a bonus nobody earned, quilts covering more or fewer cells
than the patches off the circle and the leather patches taken, income those patches do not carry,
or quilts no share of those patches between the players can make. Whether the cells of a quilt can
be cut into exactly those patches is not checked (that is a packing problem, not a bookkeeping one).
"""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from patchwork_opt.core.bitboard import FULL, has_full_window
from patchwork_opt.core.catalogue import LEATHER_COUNT, PATCH_COUNT, PATCHES
from patchwork_opt.core.errors import IllegalMoveError, NotationError
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import END, State, leather_spaces
from patchwork_opt.core.words import player_name
from patchwork_opt.formats.models import CellModel, LeatherSpace, PatchId
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.i18n import N_, _, ngettext

Seat = Literal[0, 1]
T = TypeVar("T")


def _each_once(items: list[T]) -> list[T]:
    """A list whose schema says ``uniqueItems``, refused as the schema refuses it."""
    seen: list[T] = []
    for item in items:
        if item in seen:
            raise ValueError(_("{item} is listed twice", item=list(item) if isinstance(item, tuple) else item))
        seen.append(item)
    return items


class SetupError(IllegalMoveError):
    """A set-up that can be written down but cannot occur in a game: a request the rules refuse
    (exit code 1, HTTP 422), named in one line."""


class PlayerSetup(BaseModel):
    """One player as the table shows them."""

    model_config = ConfigDict(extra="forbid")
    position: int = Field(ge=0, le=END, strict=True, description="the space of their time token (0-53)")
    buttons: int = Field(ge=0, le=10**6, strict=True, description="buttons in hand")
    income: int = Field(ge=0, le=1000, strict=True, description="buttons on their quilt (paid at each income mark)")
    quilt: list[CellModel] = Field(max_length=81, json_schema_extra={"uniqueItems": True},
                                   description="covered cells of their quilt, [row, col], each once")

    _cells_once = field_validator("quilt")(_each_once)


class PhysicalSetup(BaseModel):
    """A position read off a physical game."""

    model_config = ConfigDict(extra="forbid")
    circle: list[PatchId] = Field(max_length=PATCH_COUNT, json_schema_extra={"uniqueItems": True},
                                  description="the patches left on the circle, clockwise from the neutral token")
    players: list[PlayerSetup] = Field(min_length=2, max_length=2, description="Player 1 (who started), then 2")
    leather_left: list[LeatherSpace] = Field(max_length=LEATHER_COUNT, json_schema_extra={"uniqueItems": True},
                                             description="the spaces still holding a leather patch")
    bonus: Seat | None = Field(default=None, description="who holds the 7x7 bonus tile (null: nobody yet)")
    on_top: Seat | None = Field(default=None, description="whose token is on top when both share a space (that "
                                "player moves next); needed only then")
    pending_leather: Seat | None = Field(default=None, description="who has taken a leather patch and must "
                                         "place it now (null: nobody)")
    first_at_end: Seat | None = Field(default=None, description="who reached space 53 first; needed only when "
                                      "both are there")
    printing: Literal["revised", "classic"] = Field(default="revised", description="the board's leather spaces")

    _once = field_validator("circle", "leather_left")(_each_once)


def setup_notation(setup: PhysicalSetup) -> str:
    """The set-up in the position notation (``notation.py``), before it is read back."""
    pos = [p.position for p in setup.players]
    quilts = [_quilt(setup, p) for p in (0, 1)]
    on_top = setup.on_top
    if on_top is None:
        if pos[0] == pos[1]:
            # Translators: a physical set-up's fault; on_top is a field's name: keep it as it is
            raise SetupError(N_("both tokens are on space {space}: say whose token is on top (on_top)"), space=pos[0])
        on_top = 0 if pos[0] > pos[1] else 1  # whoever is ahead: it decides nothing until they meet
    first: int | None = setup.first_at_end
    if first is None and END in pos:
        if pos[0] == pos[1]:
            # Translators: a physical set-up's fault; first_at_end is a field's name: keep it as it is
            raise SetupError(N_("both tokens are on space {space}: say who got there first (first_at_end)"), space=END)
        first = pos.index(END)
    players = [f"{p.position}/{p.buttons}/{p.income}/{quilts[i]:021x}" for i, p in enumerate(setup.players)]
    return " ".join([
        ",".join(map(str, setup.circle)) or "-", *players, str(on_top), _seat(setup.pending_leather),
        _seat(setup.bonus), ",".join(map(str, sorted(setup.leather_left))) or "-", _seat(first),
        ",".join(map(str, leather_spaces(setup.printing))),
    ])


def _quilt(setup: PhysicalSetup, p: int) -> int:
    try:
        return Quilt.from_cells(setup.players[p].quilt).mask
    except NotationError as exc:
        raise SetupError(N_("{player}'s quilt: {error}"), player=player_name(p), error=exc) from None


def _seat(value: int | None) -> str:
    return "-" if value is None else str(value)


def setup_state(setup: PhysicalSetup) -> State:
    """The position the set-up shows; ``SetupError`` names what cannot be (see the module's doc)."""
    try:
        state = from_notation(setup_notation(setup))
    except NotationError as exc:
        raise SetupError(exc.template, **exc.values) from None  # the reader's words, as a set-up's fault
    _check_leather(state)
    _check_bonus(state)
    _check_patches(state)
    return state


def _check_leather(state: State) -> None:
    left = set(state.leather_left())
    ahead = max(state.pos)
    for space in state.printing:
        if space > ahead and space not in left:
            # Translators: leather_left is a field's name: keep it as it is
            raise SetupError(N_("leather space {space}: no token has reached it, so its leather patch is still there "
                                "(add it to leather_left)"), space=space)
    p = state.pending
    if p >= 0 and not any(s <= state.pos[p] and s not in left for s in state.printing):
        raise SetupError(N_("{player} cannot have a leather patch to place: every leather space they reached still "
                            "holds its patch"), player=player_name(p))


def _check_bonus(state: State) -> None:
    for p in (0, 1):
        square = has_full_window(state.quilts[p])
        if state.bonus == p and not square:
            raise SetupError(N_("{player} holds the bonus but their quilt has no complete 7x7 square"),
                             player=player_name(p))
        if state.bonus < 0 and square:
            raise SetupError(N_("{player}'s quilt has a complete 7x7 square, so someone holds the bonus"),
                             player=player_name(p))


def _check_patches(state: State) -> None:
    """The quilts' cells and the players' income against the patches off the circle and the leather
    patches taken (a full quilt may have had to pass one up)."""
    off = [PATCHES[i] for i in range(PATCH_COUNT) if i not in set(state.circle)]
    covered = [q.bit_count() for q in state.quilts]
    taken = LEATHER_COUNT - len(state.leather_left()) - (1 if state.pending >= 0 else 0)
    area, income = sum(p.area for p in off), sum(p.income for p in off)
    full = FULL in state.quilts
    leathers = [n for n in range(taken + 1) if n == taken or full]
    if not any(sum(covered) == area + n for n in leathers):
        # the counts in words are said as the set-up is refused (the reader's language is in effect then)
        patches = ngettext("{count} patch", "{count} patches", len(off))
        leathers_taken = ngettext("{count} leather patch", "{count} leather patches", taken)
        # Translators: {patches} is "12 patches", {leathers} "2 leather patches"; the rest count cells
        raise SetupError(N_("the quilts cover {covered} cells, but the {patches} off the circle cover {area} and with "
                            "the {leathers} taken make {total}"), covered=sum(covered), patches=patches, area=area,
                         leathers=leathers_taken, total=area + taken)
    if sum(state.income) != income:
        raise SetupError(N_("the players' income adds up to {income}, but the patches off the circle carry {carried} "
                            "buttons"), income=sum(state.income), carried=income)
    shares = {(0, 0)}
    for patch in off:
        shares |= {(a + patch.area, i + patch.income) for a, i in shares}
    n = sum(covered) - area  # the leather patches on the quilts
    if not any((covered[0] - k, state.income[0]) in shares for k in range(n + 1)):
        raise SetupError(N_("no share of the patches off the circle gives {first} a quilt of {covered} cells with "
                            "income {income} and {second} the rest"), first=player_name(0), covered=covered[0],
                         income=state.income[0], second=player_name(1))
