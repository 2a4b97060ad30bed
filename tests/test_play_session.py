"""The play session's logic without a terminal: buying, placing, leather, undo, save, hints."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import ORDERED_CIRCLE

from patchwork_opt.ai.base import Bot, Decision
from patchwork_opt.ai.bots.greedy import GreedyBot
from patchwork_opt.apps.play.commands import Advance, CommandError, parse_command
from patchwork_opt.apps.play.session import Hinter, HintLine, Reply, Session
from patchwork_opt.core.bitboard import bit, mask_of
from patchwork_opt.core.catalogue import legal_placements, placement
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.record import Record


class AdvancingBot:
    """Always advances (or puts a leather patch on its first empty cell): a predictable opponent."""

    name = "advancer"

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
        if state.pending >= 0:
            quilt = state.quilts[state.pending]
            cell = next(i for i in range(81) if not quilt >> i & 1)
            return Decision(Move("leather", -1, 1 << cell), "fills the first empty cell")
        return Decision(ADVANCE, "always advances", expected=0.25)


def new_session(human: int = 0, bot: Bot | None = None, hinter: Hinter | None = None) -> Session:
    record = Record.start(State.new(ORDERED_CIRCLE))
    return Session(record, human, bot or AdvancingBot(), hinter=hinter)


def do(session: Session, line: str) -> Reply:
    """Type one line; then let the AI reply as the loop would."""
    command = parse_command(line)
    assert command is not None
    reply = session.handle(command)
    while session.ai_to_move:
        session.ai_move()
    return reply


def assert_refused(session: Session, refusals: dict[str, str]) -> None:
    """Each line is refused with its message (what the person reads), one after another."""
    for line, message in refusals.items():
        with pytest.raises(CommandError, match=re.escape(message)):
            do(session, line)


def test_buy_offers_ranked_legal_suggestions_and_places_the_chosen_one() -> None:
    s = new_session()
    reply = do(s, "buy 1")
    assert reply.placing and s.buying == 1
    assert 1 <= len(s.suggestions) <= 5
    legal = set(legal_placements(1, 0))
    assert all(sug.mask in legal for sug in s.suggestions)
    scores = [sug.score for sug in s.suggestions]
    assert scores == sorted(scores, reverse=True)
    chosen = s.suggestions[1].mask
    reply = do(s, "2")
    assert reply.moved and s.buying is None
    assert s.record.moves[0] == Move.buy(1, chosen)
    assert s.state.quilts[0] == chosen
    assert s.state.buttons[0] == 3  # paid 2 of 5


def test_exact_placements_by_orientation_and_by_cells() -> None:
    s = new_session()
    do(s, "buy #1")
    do(s, "o1 4,5")  # patch 1 standing up, top at row 4, col 5
    assert s.record.moves[0] == Move.buy(1, placement(1, 1, 4, 5))
    assert s.record.moves[1] == ADVANCE  # the bot's reply
    do(s, "buy 1 80,81,82,83")  # the circle moved on: offer 1 is now #2
    assert s.record.moves[2] == Move.buy(2, mask_of([(8, 0), (8, 1), (8, 2), (8, 3)]))


def test_bad_commands_are_refused_with_one_line_and_change_nothing() -> None:
    s = new_session()
    before = (list(s.record.moves), s.state.buttons[:], s.state.quilts[:])
    refusals = {
        "buy 3": "#3 costs 7 buttons and you have 5",
        "buy #9": "#9 is not on offer (on offer: #1, #2, #3)",
        "1": "nothing to place: buy a patch first",
        "cancel": "nothing to cancel",
        "save": "save needs a file name",
        "dance": "unknown command 'dance'",
    }
    assert_refused(s, refusals)
    do(s, "buy 1")
    placing_refusals = {
        "advance": "you are placing #1: place it, or cancel",
        "o5 0,0": "#1 has orientations o0-o1, not o5",
        "o0 0,7": "runs off the quilt",
        "00,01,11": "not the shape of #1",
        "44": "a patch needs more than one cell",
        "9": "there are 5 suggestions, numbered 1-5",
        "buy 2": "you are placing #1",
    }
    assert_refused(s, placing_refusals)
    assert not any("\n" in message for message in placing_refusals.values())
    do(s, "cancel")
    assert s.buying is None
    assert (s.record.moves, s.state.buttons, s.state.quilts) == before


def test_a_placement_on_covered_cells_names_them() -> None:
    s = new_session()
    do(s, "buy 1 00,01,02")
    with pytest.raises(CommandError, match="cells 02 of your quilt are already covered"):
        do(s, "buy #2 02,03,04,05")
    assert s.buying is None  # the whole one-line command was refused


def test_a_move_typed_in_record_notation_is_judged_by_the_rules_and_refused_in_your_words() -> None:
    """The session judges no move itself: the rules (State.check) refuse it and name the rule broken,
    the session says it to the person, and nothing changes."""
    s = new_session()
    do(s, "1@00,01,02")
    before = (list(s.record.moves), s.state.buttons[:], s.state.quilts[:])
    refusals = {
        "9@40,41,50,51,52,62": "#9 is not on offer (on offer: #2, #3, #4)",
        "3@40,41,42,43,44": "#3 costs 7 buttons and you have 3",
        "2@02,03,04,05": "cells 02 of your quilt are already covered",
        "L@44": "no leather patch is waiting to be placed",
    }
    assert_refused(s, refusals)
    assert (s.record.moves, s.state.buttons, s.state.quilts) == before
    do(s, "2@40,41,42,43")
    assert s.record.moves[len(before[0])] == Move.buy(2, mask_of([(4, 0), (4, 1), (4, 2), (4, 3)]))


def test_a_buy_the_rules_refuse_before_its_cells_are_chosen_is_said_in_your_words() -> None:
    """Not on offer, a leather patch to place first, fits nowhere: the rules (State.check_buy,
    State.check) name the rule, the session says it in one line, and nothing changes."""
    s = new_session()
    with pytest.raises(CommandError, match=re.escape("#9 is not on offer (on offer: #1, #2, #3)")):
        do(s, "buy #9 00,01,02")
    s.state.quilts[0] = mask_of([(r, c) for r in range(9) for c in range(9) if (r + c) % 2])  # lone cells
    with pytest.raises(CommandError, match=re.escape("#1 fits nowhere on your quilt")):
        do(s, "buy 1")
    assert s.buying is None and s.record.moves == []
    s.state.quilts[0] = 0
    s.state.pending = 0  # a leather patch waits on the person's quilt
    refusals = {
        "buy 1": "place your leather patch before you buy (a suggestion number or a cell)",
        "advance": "place your leather patch before you advance (a suggestion number or a cell)",
        "1@00,01,02": "place your leather patch before you buy (a suggestion number or a cell)",
    }
    for line, message in refusals.items():
        assert_refused(s, {line: message})
        assert s.buying is None and s.record.moves == [] and s.state.pending == 0


def test_ai_reply_says_what_it_did_in_words_without_internal_scores() -> None:
    s = new_session()
    s.handle(Advance())
    assert s.ai_to_move
    report = s.ai_move()
    assert report.move == ADVANCE
    assert report.text == "AI advances 2 spaces (+2 buttons)"  # from 0 to just past you on 1
    assert not s.ai_to_move


def test_leather_is_placed_from_suggestions_or_a_cell() -> None:
    # The person plays second and both advance: the person lands on the even spaces, 26 first.
    s = new_session(human=1)
    while not s.placing_leather:
        if s.ai_to_move:
            s.ai_move()
        else:
            do(s, "advance")
    assert s.state.pos[1] == 26
    assert s.suggestions and all(sug.mask.bit_count() == 1 for sug in s.suggestions)
    with pytest.raises(CommandError, match="place your leather patch"):
        do(s, "advance")
    with pytest.raises(CommandError, match="a leather patch is one cell"):
        do(s, "o0 4,4")
    do(s, "4,4")
    assert s.state.placed[1][-1] == (-1, bit(4, 4))
    assert Move.leather(4, 4) in s.record.moves
    assert not s.placing_leather


def test_leather_suggestion_fills_a_hole_first() -> None:
    s = new_session(human=1)
    hole_quilt = mask_of([(0, 1), (1, 0)])  # cell 0,0 is cut off
    s.state.quilts[1] = hole_quilt
    s.state.pending = 1
    s._suggest_leather()
    assert s.suggestions[0].mask == bit(0, 0)
    assert "1x1 hole" in s.suggestions[0].note


def test_undo_takes_back_the_persons_move_and_the_ai_replies() -> None:
    s = new_session()
    with pytest.raises(CommandError, match="nothing to undo"):
        do(s, "undo")
    do(s, "buy 1 1")
    after_first = s.state.clone()  # after the person's buy and the AI's reply
    do(s, "advance")
    moves_before_undo = len(s.record.moves)
    reply = do(s, "undo")
    assert reply.moved
    assert reply.lines[0].startswith("took back: you advance")
    assert "AI's" in reply.lines[0]
    assert len(s.record.moves) < moves_before_undo
    assert s.state == after_first
    do(s, "undo")
    assert s.record.moves == [] and s.state == State.new(ORDERED_CIRCLE)
    # both moves taken back are in the record the review reads (``takebacks``), the last one first
    assert [(t.ply, t.move.kind) for t in s.record.takebacks] == [(2, "advance"), (0, "buy")]


def test_undo_while_placing_puts_the_patch_back() -> None:
    s = new_session()
    do(s, "buy 1")
    reply = do(s, "undo")
    assert s.buying is None and s.record.moves == []
    assert reply.lines == ["put #1 back on offer"]


def test_undo_reaches_into_a_loaded_game() -> None:
    record = Record.start(State.new(ORDERED_CIRCLE))
    record.moves = [ADVANCE, ADVANCE, ADVANCE]  # person (0), AI (1), person (0)
    s = Session(record, 0, AdvancingBot())
    assert s.undo_marks == [0, 2]
    do(s, "undo")
    assert s.record.moves == [ADVANCE, ADVANCE]
    assert [(t.ply, t.move) for t in s.record.takebacks] == [(2, ADVANCE)]


def test_save_writes_a_record_that_replays_to_the_position(tmp_path: Path) -> None:
    s = new_session(bot=GreedyBot())
    do(s, "buy 2 1")
    path = tmp_path / "sub" / "game.json"
    reply = do(s, f"save {path}")
    assert str(path) in reply.lines[0]
    assert Record.load(path).replay() == s.state


def test_hint_calls_the_plugged_in_function_with_the_position() -> None:
    seen: list[tuple[State, int]] = []

    def hinter(state: State, count: int) -> Sequence[HintLine]:
        seen.append((state, count))
        return [HintLine(Move.buy(2, placement(2, 0, 0, 0)), "income early", 1.5), HintLine(ADVANCE, "cheap")]

    s = new_session(hinter=hinter)
    reply = do(s, "hint 2")
    assert seen and seen[0][1] == 2 and seen[0][0] == s.state
    assert reply.hints is not None and [h.reason for h in reply.hints] == ["income early", "cheap"]
    assert s.hint_text(reply.hints[0]) == "buy 2 00,01,02,03  (#2)"  # what the person would type
    assert s.hint_text(reply.hints[1]) == "advance"
    assert s.record.moves == []  # a hint plays nothing


def test_hint_without_a_hint_function_says_so() -> None:
    with pytest.raises(CommandError, match="no hint function"):
        do(new_session(), "hint")


def test_final_text_names_scores_and_winner() -> None:
    s = new_session()
    s.state.pos = [53, 53]
    s.state.buttons = [30, 10]
    assert s.over
    assert s.final_text() == f"game over: you {s.state.score(0)}, AI {s.state.score(1)}: you win"
    with pytest.raises(CommandError, match="the game is over"):
        do(s, "advance")


class ScriptedBot:
    """Plays the moves it is given, in order."""

    name = "scripted"

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves = iter(moves)

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
        return Decision(next(self.moves), "as scripted")


def test_landing_on_the_other_token_says_who_moves_again() -> None:
    circle = [25, 31, *(pid for pid in ORDERED_CIRCLE if pid not in (25, 31))]  # time 1 each
    record = Record.start(State.new(circle))
    s = Session(record, 0, ScriptedBot([ADVANCE, Move.buy(31, placement(31, 0, 0, 0))]))
    s.handle(Advance())  # you 0 -> 1
    s.ai_move()  # AI 0 -> 2
    reply = s.handle(parse_command("buy 1 1") or Advance())  # you 1 -> 2: on top of the AI
    assert reply.lines[-1] == "you landed on the AI's space, on top of its token: you move again"
    assert not s.ai_to_move
    s.handle(Advance())  # you 2 -> 3
    report = s.ai_move()  # AI buys #31: 2 -> 3, on top of you
    assert report.text.endswith("; it landed on your space, on top of your token: the AI moves again")
