"""Generate tests/data/perft.json: legal-move counts from fixed positions, stored by notation.

Positions are reached by seeded random plies, so running this again gives the same file:

    .venv/bin/python tests/data/make_perft.py            # rewrite tests/data/perft.json
    .venv/bin/python tests/data/make_perft.py --check    # only compare with the stored file

Each depth-1 count is computed twice (``count_moves`` and a brute-force scan of every
placement of every offered patch) and the generator stops if they disagree; depth 2 sums the
depth-1 counts of every child position.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from patchwork_opt.ai.random_play import random_move
from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation, to_notation

HERE = Path(__file__).resolve().parent
OUT = HERE / "perft.json"
DEPTH2_LIMIT = 1500  # depth 2 only where depth 1 is at most this (keeps the test fast)


def brute_force_count(state: State) -> int:
    """Depth 1 from the rules directly: every placement mask of every affordable offer, plus advance."""
    if state.is_terminal():
        return 0
    p = state.to_move()
    quilt = state.quilts[p]
    if state.pending >= 0:
        return sum(1 for cell in range(81) if not quilt >> cell & 1)
    count = 1
    for pid in state.circle[:3]:
        if PATCHES[pid].cost <= state.buttons[p]:
            count += sum(1 for mask in PLACEMENTS[pid] if not mask & quilt and mask & ~FULL == 0)
    return count


def depth1(state: State) -> int:
    n = state.count_moves()
    listed = sum(1 for _ in state.legal_moves())
    brute = brute_force_count(state)
    if not n == listed == brute:
        raise SystemExit(f"depth-1 counts disagree at {to_notation(state)}: {n} {listed} {brute}")
    return n


def depth2(state: State) -> int:
    total = 0
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        total += child.count_moves()
    return total


def after_plies(seed: int, plies: int, leather: str) -> State:
    rng = random.Random(seed * 1000 + plies)
    state = State.new(seed=seed, leather=leather)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(random_move(state, rng))
    return state


def buy_heavy(seed: int, plies: int, leather: str) -> State:
    """A game that buys whenever it can (nine times in ten), so quilts fill up."""
    rng = random.Random(seed * 1000 + plies)
    state = State.new(seed=seed, leather=leather)
    for _ in range(plies):
        if state.is_terminal():
            break
        moves = list(state.legal_moves())
        buys = [m for m in moves if m.kind == "buy"]
        state.apply(rng.choice(buys) if buys and rng.random() < 0.9 else rng.choice(moves))
    return state


def with_bonus(seed: int, plies: int, leather: str) -> State:
    """A buy-heavy position whose player to move is given a covered 7x7 square and the bonus.

    Random placements almost never complete a square, so this one is set up by hand.
    """
    state = buy_heavy(seed, plies, leather)
    p = state.to_move()
    state.quilts[p] |= WINDOW_MASKS[4]
    state.bonus = p
    return state


def first_pending(seed: int, leather: str) -> State:
    """The first position of a seeded random game where a leather patch waits to be placed."""
    rng = random.Random(seed)
    state = State.new(seed=seed, leather=leather)
    while state.pending < 0:
        if state.is_terminal():
            raise SystemExit(f"seed {seed}: no leather taken in the whole game")
        state.apply(random_move(state, rng))
    return state


def last_before_end(seed: int, leather: str) -> State:
    """The last position before the end of a seeded random game (a crowded endgame)."""
    rng = random.Random(seed)
    state = State.new(seed=seed, leather=leather)
    previous = state.clone()
    while not state.is_terminal():
        previous = state.clone()
        state.apply(random_move(state, rng))
    return previous


def positions() -> list[tuple[str, State]]:
    out: list[tuple[str, State]] = []
    for seed, leather in ((0, "revised"), (1, "revised"), (2, "classic")):
        out.append((f"start seed {seed} {leather}", State.new(seed=seed, leather=leather)))
    for seed, leather in ((3, "revised"), (4, "classic"), (5, "revised")):
        for plies in (4, 10, 18, 26):
            out.append((f"seed {seed} {leather} after {plies} plies", after_plies(seed, plies, leather)))
        for plies in (20, 35, 50):
            out.append((f"seed {seed} {leather} after {plies} buying plies", buy_heavy(seed, plies, leather)))
    for seed, leather in ((6, "revised"), (7, "classic")):
        out.append((f"seed {seed} {leather} first pending leather", first_pending(seed, leather)))
        out.append((f"seed {seed} {leather} last ply before the end", last_before_end(seed, leather)))
    for seed, leather in ((8, "revised"), (9, "classic")):
        out.append((f"seed {seed} {leather} with a 7x7 square added", with_bonus(seed, 12, leather)))
    return out


def build() -> dict[str, Any]:
    entries = []
    for name, state in positions():
        # Counts are taken from the stored text, so the test sees exactly what is measured here.
        text = to_notation(state)
        loaded = from_notation(text)
        d1 = depth1(loaded)
        entry: dict[str, Any] = {"name": name, "position": text, "depth1": d1}
        if d1 <= DEPTH2_LIMIT:
            entry["depth2"] = depth2(loaded)
        entries.append(entry)
    return {"generator": "tests/data/make_perft.py", "positions": entries}


def main(argv: list[str]) -> int:
    data = build()
    text = json.dumps(data, indent=1) + "\n"
    if "--check" in argv:
        same = OUT.exists() and json.loads(OUT.read_text(encoding="utf-8")) == data
        print("perft.json is up to date" if same else "perft.json differs from a fresh run")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(data['positions'])} positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
