"""The one action encoding and observation tensor of the OpenSpiel game, the PettingZoo and the
Gymnasium environments (docs/rl.md).

Actions are ``ACTION_COUNT`` integers:

- ``0``: advance;
- ``1 .. 7349``: buy, one per (patch, placement): ``1 + i`` where ``i`` indexes
  ``catalogue.ALL_PLACEMENTS`` (every patch id in order, each with its placements on an empty
  quilt in the catalogue's order);
- ``7350 .. 7430``: place the pending leather patch on cell ``row * 9 + col``.

The observation is ``OBSERVATION_SIZE`` float32 values, seen by one player ("me" first):

- for me, then the opponent: the 81 cells of the quilt (1 covered), then the position / 53, the
  buttons and the income (each over the most the rules allow: every value is 0..1), whether they
  hold the 7x7 bonus, must place a leather patch, are to move, and reached space 53 first
  (``PLAYER_FEATURES`` values each);
- the 52 track spaces 1..52, 1 where a leather patch still lies;
- the circle from the neutral token: 33 slots of 33 values, slot ``k`` one-hot of the patch id
  ``k`` places ahead (the first three are on offer; slots past the patches left are zero).

Legal actions come from bits, not loops over placements: for each patch and cell, the placements
covering that cell are the bits of one int, and per row and pattern of covered cells their OR
(made once per patch), so the placements an offer can still take are nine lookups, unpacked
straight into the action mask.
"""

from __future__ import annotations

import functools

import numpy as np

from patchwork_opt.core.bitboard import CELLS, SIZE
from patchwork_opt.core.catalogue import ALL_PLACEMENTS, PATCH_COUNT, PATCHES, PLACEMENTS
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import END, INCOME_MARKS, OFFER_SIZE, START_BUTTONS, State

ADVANCE_ACTION = 0
BUY_BASE = 1
LEATHER_BASE = BUY_BASE + len(ALL_PLACEMENTS)
ACTION_COUNT = LEATHER_BASE + CELLS

PLAYER_FEATURES = CELLS + 7
TRACK_FEATURES = END - 1
CIRCLE_FEATURES = PATCH_COUNT * PATCH_COUNT
OBSERVATION_SIZE = 2 * PLAYER_FEATURES + TRACK_FEATURES + CIRCLE_FEATURES
_TRACK_AT = 2 * PLAYER_FEATURES
_CIRCLE_AT = _TRACK_AT + TRACK_FEATURES

#: the most income and buttons a player can hold: every patch's income, paid at every mark, plus a
#: button per space advanced (so the observation stays within 0..1)
MAX_INCOME = sum(p.income for p in PATCHES)
MAX_BUTTONS = START_BUTTONS + END + len(INCOME_MARKS) * MAX_INCOME

#: the first action of each patch's placements; per patch and cell, the placements covering the
#: cell as the bits of an int (bit ``i``: placement ``i``), and all its placements' bits
PATCH_BASE: tuple[int, ...] = tuple(BUY_BASE + sum(len(PLACEMENTS[q]) for q in range(p)) for p in range(PATCH_COUNT))
_COVERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << i for i, m in enumerate(masks) if m >> cell & 1) for cell in range(CELLS)) for masks in PLACEMENTS
)
_ROW = (1 << SIZE) - 1
_ALL_FIT: tuple[int, ...] = tuple((1 << len(masks)) - 1 for masks in PLACEMENTS)
_ACTION_BYTES = (ACTION_COUNT + 7) // 8  # every action, as bits
_ALL_CELLS = (1 << CELLS) - 1
_INDEX_OF: tuple[dict[int, int], ...] = tuple({m: i for i, m in enumerate(masks)} for masks in PLACEMENTS)
_COST = tuple(p.cost for p in PATCHES)
_CIRCLE_SLOTS = np.arange(PATCH_COUNT) * PATCH_COUNT + _CIRCLE_AT
#: where the unpacked bits of (my quilt: 88 bits, their quilt: 88, the leather spaces: 56) go
_BIT_SOURCES = np.concatenate([np.arange(CELLS), 88 + np.arange(CELLS), 176 + np.arange(1, END)])
_SCALAR_SLOTS = np.concatenate([CELLS + np.arange(7), PLAYER_FEATURES + CELLS + np.arange(7)])
_BIT_SLOTS = np.concatenate([np.arange(CELLS), PLAYER_FEATURES + np.arange(CELLS), _TRACK_AT + np.arange(END - 1)])


def move_to_action(move: Move) -> int:
    if move.kind == "advance":
        return ADVANCE_ACTION
    if move.kind == "leather":
        return LEATHER_BASE + move.mask.bit_length() - 1
    return PATCH_BASE[move.patch] + _INDEX_OF[move.patch][move.mask]


def action_to_move(action: int) -> Move:
    """The move of an action number (any number in range; whether it is legal is the state's say)."""
    action = int(action)
    if not 0 <= action < ACTION_COUNT:
        raise ValueError(f"action {action} is outside 0..{ACTION_COUNT - 1}")
    if action == ADVANCE_ACTION:
        return ADVANCE
    if action >= LEATHER_BASE:
        return Move("leather", -1, 1 << (action - LEATHER_BASE))
    pid, mask = ALL_PLACEMENTS[action - BUY_BASE]
    return Move("buy", pid, mask)


@functools.cache
def _row_covers(pid: int) -> tuple[tuple[int, ...], ...]:
    """For each quilt row and each of its 512 patterns of covered cells, the placements of patch
    ``pid`` those cells block (as ``_COVERS``' bits): nine lookups block a whole quilt."""
    covers = _COVERS[pid]
    rows = []
    for row in range(SIZE):
        table = [0] * (1 << SIZE)
        for pattern in range(1, 1 << SIZE):
            low = pattern & -pattern
            table[pattern] = table[pattern ^ low] | covers[row * SIZE + low.bit_length() - 1]
        rows.append(tuple(table))
    return tuple(rows)


@functools.lru_cache(maxsize=8192)
def _fitting(pid: int, quilt: int) -> int:
    """The placements of patch ``pid`` that fit ``quilt``, as the bits of an int (bit ``i``:
    placement ``i``); a quilt keeps its answers while its owner advances: the cache makes those free."""
    blocked = 0
    for row, table in enumerate(_row_covers(pid)):
        pattern = quilt >> (row * SIZE) & _ROW
        if pattern:
            blocked |= table[pattern]
    return _ALL_FIT[pid] & ~blocked


def action_mask(state: State) -> np.ndarray:
    """``ACTION_COUNT`` int8 values, 1 for each legal action of the player to move (all zero when
    the game is over). The legal actions are one int of bits, unpacked at once."""
    if state.is_terminal():
        return np.zeros(ACTION_COUNT, dtype=np.int8)
    p = state.to_move()
    quilt = state.quilts[p]
    if state.pending >= 0:
        bits = (_ALL_CELLS & ~quilt) << LEATHER_BASE
    else:
        bits = 1 << ADVANCE_ACTION
        buttons = state.buttons[p]
        for pid in state.circle[:OFFER_SIZE]:
            if _COST[pid] <= buttons:
                bits |= _fitting(pid, quilt) << PATCH_BASE[pid]
    packed = np.frombuffer(bits.to_bytes(_ACTION_BYTES, "little"), dtype=np.uint8)
    return np.unpackbits(packed, count=ACTION_COUNT, bitorder="little").view(np.int8)


def play_legal(state: State, action: int) -> None:
    """Play ``action``, known legal (it is set in ``action_mask(state)``), through the state's fast
    path: no second check, no ``Move``. Anything else must go through ``State.apply``."""
    p = state.to_move()
    if action == ADVANCE_ACTION:
        state.advance_unchecked(p)
    elif action >= LEATHER_BASE:
        state.leather_unchecked(p, 1 << (action - LEATHER_BASE))
    else:
        pid, mask = ALL_PLACEMENTS[action - BUY_BASE]
        state.buy_unchecked(p, state.circle.index(pid), mask)


def legal_actions(state: State) -> np.ndarray:
    """The legal actions of the player to move, ascending (int64; empty when the game is over)."""
    return np.flatnonzero(action_mask(state))


@functools.lru_cache(maxsize=4096)
def _circle_slots(circle: tuple[int, ...]) -> np.ndarray:
    """The observation's indices set to 1 for a circle (slot ``k``: the patch ``k`` places ahead)."""
    return _CIRCLE_SLOTS[:len(circle)] + np.array(circle, dtype=np.int64)


def observation(state: State, player: int) -> np.ndarray:
    """The observation tensor of ``state`` seen by ``player`` (0 or 1), as the module describes."""
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    me, them = player, 1 - player
    quilts = state.quilts
    packed = b"".join((quilts[me].to_bytes(11, "little"), quilts[them].to_bytes(11, "little"),
                       state.leather.to_bytes(7, "little")))
    out[_BIT_SLOTS] = np.unpackbits(np.frombuffer(packed, dtype=np.uint8), bitorder="little")[_BIT_SOURCES]
    mover = -1 if state.is_terminal() else state.to_move()
    pos, buttons, income = state.pos, state.buttons, state.income
    out[_SCALAR_SLOTS] = [
        value
        for p in (me, them)
        for value in (pos[p] / END, buttons[p] / MAX_BUTTONS, income[p] / MAX_INCOME, state.bonus == p,
                      state.pending == p, mover == p, state.first_end == p)
    ]
    if state.circle:
        out[_circle_slots(tuple(state.circle))] = 1.0
    return out
