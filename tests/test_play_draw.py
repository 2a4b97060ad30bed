"""What the play screen shows, laid out for 80x24: both quilts side by side with each patch's
letter and the players' figures, the track in two lines, the offers, the placement choices."""

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
from patchwork_opt.i18n import using


def text_of(renderable: object, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def session_after(moves: list[Move]) -> Session:
    record = Record.start(State.new(ORDERED_CIRCLE))
    record.moves = moves
    return Session(record, 0, GreedyBot())


def quilt_rows(screen: str, player: int) -> list[str]:
    """The 9 cell rows of one player's quilt, as ``. A ...`` strings (quilts sit side by side)."""
    rows = []
    for line in screen.splitlines():
        found = re.findall(r"(?:^|\s)([0-8])  ((?:\S ){8}\S)", line)
        if len(found) == 2:
            rows.append(found[player][1])
    return rows


def test_board_shows_each_players_patches_by_letter_and_the_scores() -> None:
    mine = placement(1, 0, 0, 0)  # patch 1 (1x3) on row 0
    s = session_after([Move.buy(1, mine), ADVANCE])
    screen = text_of(draw.board(s))
    rows = quilt_rows(screen, 0)
    assert len(rows) == 9 and rows[0] == "A A A · · · · · ·"
    assert all(set(row.split()) == {"·"} for row in rows[1:])
    assert all(set(row.split()) == {"·"} for row in quilt_rows(screen, 1))
    assert f"score {s.state.score(0)}" in screen and f"score {s.state.score(1)}" in screen
    first = screen.splitlines()[0]
    assert "You" in first and "the AI (greedy)" in first and "Player" not in screen


def test_the_board_fits_an_80x24_screen_with_room_for_the_news_and_the_prompt() -> None:
    s = session_after([Move.buy(1, placement(1, 0, 0, 0)), ADVANCE])
    lines = text_of(draw.board(s)).splitlines()
    assert all(len(line) <= 80 for line in lines)
    # the board, four lines of news, the status line and the prompt: one screen
    assert len(lines) + 4 + 2 <= draw.SCREEN_LINES


def test_track_shows_tokens_income_marks_and_leather_left_in_two_lines() -> None:
    s = session_after([ADVANCE])  # you to 1, AI still on 0
    text = text_of(draw.track(s))
    assert len(text.splitlines()) == 2
    line = next(ln for ln in text.splitlines() if ln.startswith("time "))
    spaces = line[len("time "):len("time ") + 54]
    assert spaces[0] == "A" and spaces[1] == "Y"
    assert [i for i, ch in enumerate(spaces) if ch == "$"] == [5, 11, 17, 23, 29, 35, 41, 47, 53]
    assert [i for i, ch in enumerate(spaces) if ch == "L"] == [26, 32, 38, 44, 50]
    assert "Y you at 1, A the AI at 0" in text


def test_the_track_is_labelled_in_the_players_language_with_its_legend_under_the_spaces() -> None:
    with using("ru"):
        text = text_of(draw.track(session_after([ADVANCE])))
    board, legend = text.splitlines()
    assert board.startswith("время A") and "time" not in text
    assert legend.index("Y") == board.index("A")  # the legend starts under space 0, whatever the label's length


def test_offers_show_cost_time_income_and_what_cannot_be_bought() -> None:
    s = session_after([])
    screen = text_of(draw.offers(s))
    assert "1 #1  cost 2" in screen and "2 #2  cost" in screen and "3 #3  cost 7" in screen
    assert "time 2  income 0" in screen and "time 1  income 1" in screen
    assert screen.count("too dear") == 1  # #3 costs 7 of 5
    assert "██████" in screen  # patch 1 drawn as three cells
    assert "() a button on a" in screen and "then: #4 #5 #6" in screen
    assert len(screen.splitlines()) <= 5


def test_placement_view_numbers_the_suggestions_on_the_quilt_and_says_them_in_words() -> None:
    s = session_after([])
    s.handle(Buy(offer=1))
    screen = text_of(draw.placement_view(s))
    # the row of small quilts: card k shows suggestion k's cells as the digit k
    drawn: dict[int, set[tuple[int, int]]] = {}
    for line in screen.splitlines():
        for k, card in enumerate(re.findall(r"([0-8])([^\s]{9})", line), start=1):
            row, cells = int(card[0]), card[1]
            drawn.setdefault(k, set()).update((row, c) for c, ch in enumerate(cells) if ch == str(k))
    assert len(s.suggestions) == 5
    for k, suggestion in enumerate(s.suggestions, start=1):
        assert drawn[k] == set(cells_of(suggestion.mask))
    assert "o0" in screen and "o1" in screen
    # each suggestion in words: where, how snug, whether it shuts a cell in; no internal scores
    notes = [line for line in screen.splitlines() if re.match(r"[1-5]  rows? \d", line)]
    assert len(notes) == 5
    said = r"\d+ sides? touch(es)? the edge or your patches; (no cell|\d+ cells?) shut in"
    assert all(re.search(said, n) for n in notes)
    assert not re.search(r"\d\.\d", screen)  # no figures like 0.417


def test_at_80x24_the_placement_view_fits_above_the_status_line_and_the_prompt() -> None:
    s = session_after([])
    s.handle(Buy(offer=1))
    lines = text_of(draw.placement_view(s)).splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert len(lines) + 2 <= draw.SCREEN_LINES


def test_the_score_says_the_bonus_is_in_it() -> None:
    s = session_after([])
    s.state.bonus = 0
    assert "7x7 bonus +7" in text_of(draw.quilts(s)) and "(in the score)" in text_of(draw.quilts(s))
