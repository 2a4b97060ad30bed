"""What the play screen shows: both quilts with each patch's letter, the track, the offers."""

from __future__ import annotations

import io
import re

from conftest import ORDERED_CIRCLE
from rich.console import Console

from patchwork_opt.ai.bots.greedy import GreedyBot
from patchwork_opt.apps.play import draw
from patchwork_opt.apps.play.commands import Buy
from patchwork_opt.apps.play.session import Session
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import placement
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record


def text_of(renderable: object) -> str:
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def session_after(moves: list[Move]) -> Session:
    record = Record.start(State.new(ORDERED_CIRCLE))
    record.moves = moves
    return Session(record, 0, GreedyBot())


def quilt_rows(screen: str, player: int) -> list[str]:
    """The 9 cell rows of one player's quilt panel, as ``. A ...`` strings."""
    rows = []
    for line in screen.splitlines():
        panels = [part for part in line.split("│") if part.strip()[:1].isdigit() and len(part.split()) == 10]
        if len(panels) == 2:
            rows.append(" ".join(panels[player].split()[1:]))
    return rows


def test_board_shows_each_players_patches_by_letter_and_the_scores() -> None:
    mine = placement(1, 0, 0, 0)  # patch 1 (1x3) on row 0
    s = session_after([Move.buy(1, mine), ADVANCE])
    screen = text_of(draw.board(s))
    rows = quilt_rows(screen, 0)
    assert rows[0] == "A A A · · · · · ·"
    assert all(set(row.split()) == {"·"} for row in rows[1:])
    assert all(set(row.split()) == {"·"} for row in quilt_rows(screen, 1))
    assert f"score now {s.state.score(0)}" in screen and f"score now {s.state.score(1)}" in screen
    assert "You · Player 1" in screen and "AI (greedy) · Player 2" in screen


def test_track_shows_tokens_income_marks_and_leather_left() -> None:
    s = session_after([ADVANCE])  # you to 1, AI still on 0
    line = next(ln for ln in text_of(draw.track(s)).splitlines() if ln.startswith("time "))
    spaces = line[len("time ") :]
    assert spaces[0] == "A" and spaces[1] == "Y"
    assert [i for i, ch in enumerate(spaces) if ch == "$"] == [5, 11, 17, 23, 29, 35, 41, 47, 53]
    assert [i for i, ch in enumerate(spaces) if ch == "L"] == [26, 32, 38, 44, 50]


def test_offers_show_cost_time_income_and_what_cannot_be_bought() -> None:
    s = session_after([])
    screen = text_of(draw.offers(s))
    assert "1  #1" in screen and "2  #2" in screen and "3  #3" in screen
    assert "cost 2  time 2" in screen and "cost 7  time 1" in screen
    assert screen.count("you can buy it") == 2 and "can't afford" in screen  # #3 costs 7 of 5
    assert "██████" in screen  # patch 1 drawn as three cells


def test_placement_view_numbers_the_suggestions_on_the_quilt_and_lists_orientations() -> None:
    s = session_after([])
    s.handle(Buy(offer=1))
    screen = text_of(draw.placement_view(s))
    # the row of small quilts: card k shows suggestion k's cells as the digit k
    drawn: dict[int, set[tuple[int, int]]] = {}
    for line in screen.splitlines():
        cards = [part.strip() for part in line.split("│")[1::2]]
        for k, card in enumerate(cards, start=1):
            if len(card) == 10 and card[0].isdigit():
                row = int(card[0])
                drawn.setdefault(k, set()).update((row, c) for c, ch in enumerate(card[1:]) if ch == str(k))
    assert len(s.suggestions) == 5
    for k, suggestion in enumerate(s.suggestions, start=1):
        assert drawn[k] == set(cells_of(suggestion.mask))
    assert "o0" in screen and "o1" in screen


def test_at_80x24_the_suggestions_come_last_one_line_each_and_fit_above_the_prompt() -> None:
    s = session_after([])
    s.handle(Buy(offer=1))
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(draw.placement_view(s))
    lines = console.export_text().splitlines()
    start = next(i for i, line in enumerate(lines) if "pick a suggestion" in line)
    notes = [line for line in lines[start:] if re.match(r"[1-5]  \d\d,", line)]
    assert len(notes) == len(s.suggestions) and lines[-1] == notes[-1]  # the notes end the view
    assert len(lines) - start + 2 <= 24  # with the status line and the prompt: one 80x24 screen
    assert all(len(line) <= 80 for line in notes)


def test_offers_explain_the_button_glyph_and_the_score_says_the_bonus_is_in_it() -> None:
    assert "() a button on the patch" in text_of(draw.offers(session_after([])))
    s = session_after([])
    s.state.bonus = 0
    assert "score now -150 (7x7 bonus +7 included)" in text_of(draw.player_panel(s, 0))
