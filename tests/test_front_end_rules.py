"""The rules live once in the pages: what the server says, or one module of static/js.

Where an advance lands comes from the server (each player's ``advance_to`` in every position view),
so no page works it out; the 7x7 square and the quilt's code of the notation are written once, in
``components/geometry.js`` (tests/browser/test_components.py holds them to the engine's). These
tests fail when a second copy comes back.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import State
from patchwork_opt.formats.models import PositionModel
from patchwork_opt.formats.notation import to_notation

JS = Path(__file__).resolve().parents[1] / "patchwork_opt" / "apps" / "web" / "static" / "js"
GEOMETRY = JS / "components" / "geometry.js"

#: Each rule, as a pattern of its code, and the one module allowed to hold it (None: the server).
RULES: dict[str, tuple[re.Pattern[str], Path | None]] = {
    # "one space past the other token": a token's position plus one
    "the advance target": (re.compile(r"\.position\s*\+\s*1\b"), None),
    # a complete 7x7 square: the window's side in a loop bound
    "the 7x7 check": (re.compile(r"[\w)]\s*[-+<]=?\s*7\b"), GEOMETRY),
    # the quilt as the notation writes it: 21 hex digits of an 81-bit mask
    "the quilt's code": (re.compile(r"padStart\(21\b|BigInt\(|toString\(16\)"), GEOMETRY),
}


def code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a module that are code: its comments (// lines, /** */ blocks) left out."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if not stripped.startswith(("//", "/*", "*")):
            out.append((number, line.split(" // ")[0]))
    return out


def test_each_rule_of_the_front_end_is_written_in_one_place_at_most() -> None:
    modules = sorted(JS.rglob("*.js"))
    assert GEOMETRY in modules
    for rule, (pattern, home) in RULES.items():
        found = [f"{path.relative_to(JS)}:{n}: {line.strip()}" for path in modules if path != home
                 for n, line in code_lines(path) if pattern.search(line)]
        assert not found, f"{rule} is written again outside {home.name if home else 'the server'}: {found}"
        if home is not None:
            assert any(pattern.search(line) for _, line in code_lines(home)), f"{rule} left {home.name}"


def test_every_position_view_says_where_each_players_advance_lands() -> None:
    """The field the pages draw an advance from is the engine's own move: advancing the player to
    move puts their token on it, in positions from the start to the end (the end at most)."""
    rng = random.Random(48)
    seen_end = False
    for seed in range(6):
        state = State.new(seed=seed)
        while not state.is_terminal():
            view = PositionModel.of(state)
            for p in (0, 1):
                assert view.players[p].advance_to == state.advance_target(p)
            if state.pending < 0:
                p = state.to_move()
                after = state.clone()
                after.apply(ADVANCE)
                assert after.pos[p] == view.players[p].advance_to, to_notation(state)
                seen_end |= view.players[p].advance_to == 53
            moves = list(state.legal_moves())
            state.apply(rng.choice(moves))
    assert seen_end


def test_the_game_page_shows_its_offers_tray_and_advance_on_the_shared_position_board() -> None:
    """What the offers, the tray and Advance say is said once (components/position.js): the game page's
    modules build no patch card, tray or placement control of their own."""
    own = re.compile(r"\bpatchCard\(|\bdrawTray\(|new Placer\(|\"Advance\b|`Advance\b")
    found = [f"{path.relative_to(JS)}:{n}: {line.strip()}" for path in sorted((JS / "game").glob("*.js"))
             for n, line in code_lines(path) if own.search(line)]
    assert not found, f"the game page draws its own offers, tray or Advance: {found}"
    assert "new PositionBoard(" in (JS / "game" / "board.js").read_text(encoding="utf-8")
