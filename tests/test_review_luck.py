"""Luck apart from skill in a review: the deal (Player 1's win chance at the start with this circle
against the shipped average, measured with the same analysis; each player's luck, zero-sum), each
player's error rate over the decisions with a real choice, and the take-backs a review counts."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import random_record
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.analysis.position import analyse_position
from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.apps.deal import (
    DEAL_ITERATIONS,
    DEAL_SEED,
    SHIPPED_DEAL,
    Deal,
    DealAverage,
    analysis_digests,
    deal_of,
    deal_words,
    read_deal_averages,
    shipped_averages,
    start_win,
)
from patchwork_opt.apps.judge import PlyReview, label_rule
from patchwork_opt.apps.review import (
    error_rate_of,
    had_choice,
    measures_rule,
    render_review,
    review_game,
    review_move,
    takebacks_of,
)
from patchwork_opt.bench.deal import deal_circle, summary_of
from patchwork_opt.core.bitboard import FULL
from patchwork_opt.core.catalogue import LEATHER_PRINTINGS
from patchwork_opt.core.errors import RecordError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record, TakeBack

runner = CliRunner()


def _ply(ply: int, player: int, win_before: float, loss: float) -> PlyReview:
    return PlyReview(ply=ply, player=player, played=ADVANCE, best=ADVANCE, win_before=win_before,
                     win_after=win_before - loss, loss=loss, points_lost=0.0, label="good", margin_before=0.0,
                     margin_after=0.0, exact=False, played_words="advance", best_words="advance")


def test_the_error_rate_is_the_mean_loss_over_decisions_with_a_real_choice() -> None:
    plies = [
        _ply(0, 0, 0.60, 0.10),  # a decision
        _ply(1, 0, 0.50, 0.00),  # a decision, the best move
        _ply(2, 0, 0.55, 0.30),  # only advancing was possible: no decision
        _ply(3, 0, 0.99, 0.01),  # a game already decided, little lost: no decision
        _ply(4, 0, 0.99, 0.40),  # decided, but the move threw it away: a decision (as for accuracy)
    ]
    choices = [True, True, False, True, True]
    rate, decisions = error_rate_of(plies, choices)
    assert decisions == 3 and rate == pytest.approx((0.10 + 0.00 + 0.40) / 3)
    assert error_rate_of(plies[2:4], choices) == (0.0, 0)  # none counted: 0 over 0 decisions


def test_a_real_choice_is_two_moves_leaving_different_positions() -> None:
    start = State.new(seed=1)
    assert had_choice(start)  # buy or advance
    broke = start.clone()
    broke.buttons[0] = 0  # nothing affordable (every patch costs a button or more, or fits nowhere)
    assert broke.buyable() == [] and not had_choice(broke)
    leather = start.clone()
    leather.pending = 0
    corners = (1 << 0) | (1 << 8)  # two empty cells, mirror images of each other: one quilt either way
    leather.quilts[0] = FULL & ~corners
    assert not had_choice(leather)
    leather.quilts[0] = FULL & ~((1 << 0) | (1 << 40))  # a corner and the centre: two quilts
    assert had_choice(leather)


def test_take_backs_are_counted_per_player_and_checked_where_they_were_played() -> None:
    record = random_record(5)
    states = [record.initial_state()]
    for move in record.moves:
        states.append(states[-1].clone())
        states[-1].apply(move)
    # advancing taken back at three plies where it was legal (no leather patch waiting), one twice
    plies = [i for i, s in enumerate(states[:-1]) if s.pending < 0][:2]
    record.takebacks = [TakeBack(plies[0], ADVANCE), TakeBack(plies[1], ADVANCE), TakeBack(plies[1], ADVANCE)]
    counts = [0, 0]
    for t in record.takebacks:
        counts[states[t.ply].to_move()] += 1
    assert takebacks_of(record, states) == (counts[0], counts[1])
    # a take-back of a move that could not have been played there is a corrupt record
    corrupt = replace(record, takebacks=[TakeBack(plies[0], Move("leather", -1, 1))])
    with pytest.raises(RecordError, match=r"takebacks\[0\]: .* cannot have been played at ply"):
        takebacks_of(corrupt, states)


def test_take_backs_round_trip_through_the_record_and_bad_ones_get_one_line(tmp_path: Path) -> None:
    record = random_record(6)
    record.takebacks = [TakeBack(0, ADVANCE)]
    path = tmp_path / "game.json"
    record.save(path)
    assert Record.load(path).takebacks == [TakeBack(0, ADVANCE)]
    data = json.loads(path.read_text())
    assert data["takebacks"] == [{"ply": 0, "move": {"type": "advance"}}]
    data["takebacks"] = [{"ply": len(record.moves) + 1, "move": {"type": "advance"}}]
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["analyze", str(path)])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert lines[0].startswith("error: ") and "takebacks[0].ply" in lines[0]
    Record.start(State.new(seed=1)).save(path)
    assert "takebacks" not in json.loads(path.read_text())  # a record without any stays as it was


def test_luck_is_zero_sum_and_said_in_words() -> None:
    average = DealAverage("revised", 1000, 0.53, 0.52, 0.54)
    deal = Deal(0.62, average)
    first, second = deal.luck
    assert first == pytest.approx(0.09) and first + second == 0.0
    data = deal.to_json()
    assert data == {"first_win": 0.62, "average_first_win": 0.53, "luck": [0.09, -0.09], "circles": 1000}
    said = deal_words(deal, ["Ann", "Bob"])
    assert "Ann wins 62%" in said and "53%" in said and "+9% for Ann" in said and "-9% for Bob" in said


def test_the_deal_analysis_is_repeatable_and_the_same_whatever_reviews_it() -> None:
    circle = tuple(State.new(seed=8).circle)
    leather = LEATHER_PRINTINGS["revised"]
    first = start_win(circle, leather)
    start_win.cache_clear()
    analysed = analyse_position(State.new(list(circle), leather=leather), iterations=DEAL_ITERATIONS, seed=DEAL_SEED)
    assert analysed.best.win == first == start_win(circle, leather)


def test_the_shipped_average_was_measured_with_the_review_s_deal_analysis() -> None:
    """The shipped averages were made by ``bench deal`` with today's analysis: over at least 1,000
    circles of each printing, for the shipped weights and win map; and the first circles it kept
    come out the same when valued again (else luck would not average zero: rerun ``patchwork bench
    deal --write patchwork_opt/data/deal.json``)."""
    data = json.loads(SHIPPED_DEAL.read_text())
    assert data["iterations"] == DEAL_ITERATIONS and data["seed"] == DEAL_SEED
    assert {k: data[k] for k in analysis_digests()} == analysis_digests(), "rerun bench deal --write"
    averages = shipped_averages()
    assert set(averages) == set(LEATHER_PRINTINGS)
    for name, average in averages.items():
        assert average.circles >= 1000 and average.low < average.mean < average.high
        kept = data["printings"][name]["first"]
        for index in range(2):
            again = start_win(tuple(deal_circle(data["circles_seed"], index)), LEATHER_PRINTINGS[name])
            assert again == pytest.approx(kept[index], abs=1e-5), (name, index, "rerun bench deal --write")


def test_the_summary_s_interval_is_the_mean_s() -> None:
    import numpy as np

    values = np.array([0.2, 0.4, 0.6, 0.8] * 25)
    summary = summary_of(values)
    sd = float(values.std(ddof=1))
    assert summary["mean"] == 0.5 and summary["circles"] == 100
    assert summary["interval"] == [round(0.5 - 1.959964 * sd / 10, 5), round(0.5 + 1.959964 * sd / 10, 5)]


def test_a_record_with_leather_spaces_of_no_printing_has_no_deal() -> None:
    record = random_record(4)
    assert deal_of(replace(record, leather=(10, 20, 30, 40, 50))) is None


def test_analyze_reports_the_deal_and_each_player_s_error_rate(tmp_path: Path) -> None:
    record = random_record(7)
    record.takebacks = [TakeBack(1, record.moves[1])]
    path = tmp_path / "game.json"
    record.save(path)
    result = runner.invoke(app, ["analyze", str(path), "--time-per-move", "0.03", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    deal = data["deal"]
    assert set(deal) >= {"first_win", "average_first_win", "luck"}
    assert deal["luck"][0] == -deal["luck"][1] == pytest.approx(deal["first_win"] - deal["average_first_win"], abs=2e-4)
    assert deal["first_win"] == round(start_win(tuple(record.circle), tuple(record.leather)), 4)
    mover = Record(record.circle, record.moves[:1]).replay().to_move()
    for seat, player in enumerate(data["players"]):
        assert 0 <= player["error_rate"] <= 1 and 0 < player["decisions"] <= sum(
            p["player"] == seat for p in data["plies"])
        assert player["takebacks"] == (1 if seat == mover else 0)
    text = runner.invoke(app, ["analyze", str(path), "--time-per-move", "0.03"])
    assert text.exit_code == 0, text.output
    assert "error rate" in text.stdout and "deal: Player 1 wins" in text.stdout and "take-backs 1" in text.stdout


def test_a_move_judged_alone_gets_the_label_and_figures_of_its_ply_in_the_review() -> None:
    """A teaching game's verdict (``review_move``, right after the move) is the ply of the review of
    the game stopped there, from the same analyses: what the review knows at that point."""
    record = random_record(9)
    record.moves = record.moves[:6]
    analyses: dict[str, SearchedPosition] = {}

    def analyse(state: State, extra: Sequence[Move]) -> SearchedPosition:
        """Kept by position, as the service's analysis cache keeps them."""
        key = to_notation(state)
        if key not in analyses:
            analyses[key] = analyse_position(state, iterations=300, seed=0, extra=extra)
        return analyses[key]

    state = record.initial_state()
    for i, move in enumerate(record.moves):
        judged = review_move(state, move, analyse, ply=i)
        head = replace(record, moves=record.moves[:i + 1])
        assert judged == review_game(head, analyse=analyse, with_deal=False).plies[i]
        state.apply(move)


def test_the_legend_states_both_formulas() -> None:
    rule = measures_rule()
    assert "103.1668 * exp(-0.04354" in rule and "mean win chance lost per decision" in rule
    assert "add up to zero" in rule


def test_docs_quote_the_page_s_legend_word_for_word() -> None:
    """docs/review.md quotes the legend the page shows (the review's label_rule and measures_rule)."""
    doc = (Path(__file__).parent.parent / "docs" / "review.md").read_text()
    quoted = " ".join(line[2:] for line in doc.splitlines() if line.startswith("> "))
    assert label_rule() in quoted and measures_rule() in quoted


def test_the_text_review_puts_the_error_rate_beside_accuracy() -> None:
    record = random_record(3)
    record.moves = record.moves[:4]
    review = review_game(record, iterations=200, with_deal=False)
    lines = render_review(review).splitlines()
    summary = [line for line in lines if re.search(r"\baccuracy\b", line)]  # not a ply's "inaccuracy"
    assert len(summary) == 2 and all("error rate" in line and "decision" in line for line in summary)
    assert "take-backs" not in render_review(review)  # shown when the game has any


def test_bench_deal_writes_a_deal_file_the_review_reads(tmp_path: Path) -> None:
    target = tmp_path / "deal.json"
    result = runner.invoke(app, ["bench", "deal", "--circles", "2", "--printing", "revised", "--json",
                                 "--write", str(target)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    revised = data["printings"]["revised"]
    values = [start_win(tuple(deal_circle(0, i)), LEATHER_PRINTINGS["revised"]) for i in range(2)]
    assert revised["circles"] == 2 and revised["mean"] == pytest.approx(sum(values) / 2, abs=1e-5)
    assert revised["first"] == [round(v, 6) for v in values]
    assert read_deal_averages(target) == {"revised": DealAverage("revised", 2, revised["mean"], *revised["interval"])}
    for args, wrong in ((["--circles", "1"], "--circles"), (["--printing", "deluxe"], "--printing deluxe"),
                        (["--write", str(tmp_path / "deal.txt")], "--write")):
        refused = runner.invoke(app, ["bench", "deal", *args])
        lines = [line for line in refused.output.splitlines() if line.strip()]
        assert refused.exit_code == 2 and len(lines) == 1 and wrong in lines[0], (args, refused.output)
