"""A one-line text form of a whole position that round-trips, as FEN does for chess.

``<circle> <first player> <second player> <on top> <pending leather> <bonus> <leather left> <first at 53> <printing>``

- circle: patch ids from the neutral token, comma-separated (``-`` when empty);
- player: ``position/buttons/income/quilt`` with the quilt as 21 hex digits of its 81-bit mask;
- on top: the player who moved last (0 for the first, 1 for the second, as in JSON; text says
  Player 1 and Player 2); pending leather, bonus, first at 53: 0, 1 or ``-``;
- leather left: the spaces still holding a leather patch, comma-separated or ``-``;
- printing: the five leather spaces the game started with, comma-separated.
"""

from __future__ import annotations

import re

from patchwork_opt.core.bitboard import FULL
from patchwork_opt.core.catalogue import PATCH_COUNT
from patchwork_opt.core.errors import NotationError
from patchwork_opt.core.state import END, State, check_leather
from patchwork_opt.core.words import player_name
from patchwork_opt.i18n import N_

_FIELDS = 9
_QUILT_HEX = re.compile(r"[0-9a-f]{21}")


def _opt_player(value: int) -> str:
    return "-" if value < 0 else str(value)


def _int_list(values: list[int]) -> str:
    return ",".join(str(v) for v in values) or "-"


def to_notation(state: State) -> str:
    players = [
        f"{state.pos[p]}/{state.buttons[p]}/{state.income[p]}/{state.quilts[p]:021x}" for p in (0, 1)
    ]
    return " ".join(
        [
            _int_list(state.circle),
            *players,
            str(state.last_mover),
            _opt_player(state.pending),
            _opt_player(state.bonus),
            _int_list(state.leather_left()),
            _opt_player(state.first_end),
            _int_list(list(state.printing)),
        ]
    )


def _parse_int(text: str, what: str, low: int, high: int) -> int:
    if not text.isdigit():
        # Translators: a field of the position notation ({what}: "circle[3]", "Player 1 buttons") and what it holds
        raise NotationError(N_("{what}: expected a number, got {text!r}"), what=what, text=text)
    value = int(text)
    if not low <= value <= high:
        raise NotationError(N_("{what}: {value} is outside {low}..{high}"), what=what, value=value, low=low, high=high)
    return value


def _parse_player_opt(text: str, what: str) -> int:
    if text == "-":
        return -1
    if text not in ("0", "1"):
        raise NotationError(N_("{what}: expected 0, 1 or -, got {text!r}"), what=what, text=text)
    return int(text)


def _parse_list(text: str, what: str, low: int, high: int) -> list[int]:
    if text == "-":
        return []
    return [_parse_int(t, f"{what}[{i}]", low, high) for i, t in enumerate(text.split(","))]


def from_notation(text: str) -> State:
    fields = text.split()
    if len(fields) != _FIELDS:
        raise NotationError(N_("a position has {fields} space-separated fields, found {found}"), fields=_FIELDS,
                            found=len(fields))
    circle = _parse_list(fields[0], "circle", 0, PATCH_COUNT - 1)
    if len(set(circle)) != len(circle):
        # Translators: "circle" is the name of the notation's first field (the patches around the board)
        raise NotationError(N_("circle: a patch id appears twice"))
    try:
        printing = check_leather(_parse_list(fields[8], "printing", 1, END - 1))
    except ValueError as exc:
        # Translators: "printing" names the notation's last field (the leather spaces of the board's printing)
        raise NotationError(N_("printing: {error}"), error=exc) from None
    state = State.new(leather=printing)
    state.circle = circle
    for p in (0, 1):
        parts = fields[1 + p].split("/")
        if len(parts) != 4:
            raise NotationError(N_("{player}: expected position/buttons/income/quilt, got {text!r}"),
                                player=player_name(p), text=fields[1 + p])
        state.pos[p] = _parse_int(parts[0], f"{player_name(p)} position", 0, END)
        state.buttons[p] = _parse_int(parts[1], f"{player_name(p)} buttons", 0, 10**6)
        state.income[p] = _parse_int(parts[2], f"{player_name(p)} income", 0, 10**3)
        if not _QUILT_HEX.fullmatch(parts[3]):
            raise NotationError(N_("{player} quilt: expected 21 hex digits, got {text!r}"), player=player_name(p),
                                text=parts[3])
        quilt = int(parts[3], 16)
        if quilt > FULL:
            raise NotationError(N_("{player} quilt: {text!r} sets bits beyond the 81 cells"), player=player_name(p),
                                text=parts[3])
        state.quilts[p] = quilt
    state.last_mover = _parse_player_opt(fields[3], "on top")
    if state.last_mover < 0:
        raise NotationError(N_("on top: expected 0 or 1"))
    state.pending = _parse_player_opt(fields[4], "pending leather")
    state.bonus = _parse_player_opt(fields[5], "bonus")
    left = _parse_list(fields[6], "leather left", 1, END - 1)
    if not set(left) <= set(printing):
        raise NotationError(N_("leather left: {left} are not all among the printing's spaces {printing}"), left=left,
                            printing=list(printing))
    state.leather = sum(1 << s for s in left)
    state.first_end = _parse_player_opt(fields[7], "first at 53")
    if state.first_end >= 0 and state.pos[state.first_end] != END:
        raise NotationError(N_("first at 53: {player} is not on space {space}"), player=player_name(state.first_end),
                            space=END)
    if state.pending >= 0 and state.quilts[state.pending] == FULL:
        raise NotationError(N_("pending leather: {player}'s quilt is full"), player=player_name(state.pending))
    return state
