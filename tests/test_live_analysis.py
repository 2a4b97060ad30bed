"""The live analysis loop (``ai/analysis/live.py``): snapshots that grow as it thinks, a stop from
another thread, the exact search proving outcomes late in the game, and one way of saying a line."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import pytest
from conftest import late_positions, leather_position

from patchwork_opt.ai.analysis.live import MAX_LINES, live_analysis, snapshot_json, spoken_line
from patchwork_opt.core.errors import GameOverError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import words_in as move_words
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import using

#: Player 2 to move before move 11 of a recorded game: UCT's best move leaves the next ones unvisited
#: for seconds there (the analysis board's lines 2 and 3 stood still while line 1 grew)
MIDGAME = Record.load(Path(__file__).parent / "data" / "solver_rollout_game.json").replay(10)


def test_the_figures_grow_until_the_time_is_up() -> None:
    state = State.new(seed=7)
    snapshots = list(live_analysis(state, max_seconds=1.5))
    assert len(snapshots) >= 3
    nodes = [s.nodes for s in snapshots]
    assert nodes == sorted(nodes) and nodes[-1] > nodes[0] > 0  # one search continued, not restarted
    assert [s.end for s in snapshots] == [None] * (len(snapshots) - 1) + ["time"]
    seconds = [s.seconds for s in snapshots]
    assert seconds == sorted(seconds) and seconds[-1] >= 1.5
    best = snapshots[-1].analysis.best
    assert best.visits > snapshots[0].analysis.best.visits
    for snapshot in snapshots:
        for m in snapshot.lines():
            state.check(m.move)  # every line starts with a legal move of the player to move


def test_every_line_shown_grows_in_every_snapshot() -> None:
    snapshots = list(live_analysis(MIDGAME, max_seconds=3.0))
    assert len(snapshots) >= 5
    for before, after in itertools.pairwise(snapshots[1:]):  # the first comes before every move is tried
        visits = {m.move: m.visits for m in after.analysis.moves}
        for m in before.lines(3):
            assert visits[m.move] > m.visits, f"{m.move} stood at {m.visits} visits from {before.seconds:.1f} s"


def test_a_stop_from_another_thread_ends_the_loop_with_a_last_snapshot() -> None:
    stop = StopSignal()
    seen = []
    timer = threading.Timer(0.8, stop.set)
    timer.start()
    started = time.perf_counter()
    for snapshot in live_analysis(State.new(seed=8), stop=stop):  # no time limit: only the stop ends it
        seen.append(snapshot)
    took = time.perf_counter() - started
    assert seen[-1].end == "stopped" and all(s.end is None for s in seen[:-1])
    assert seen[-1].analysis.moves  # what it knew when stopped
    assert took < 5.0  # it stopped when told, not at some limit of its own (there is none)


def test_a_late_position_is_solved_with_proven_lines() -> None:
    state = late_positions(3, 44)[0]
    snapshots = list(live_analysis(state, max_seconds=20.0))
    last = snapshots[-1]
    assert last.end == "solved" and last.search == "exact"
    assert all(m.exact for m in last.analysis.moves)
    data = snapshot_json(state, last)
    top = data["lines"][0]
    assert top["proven"] and top["outcome_proven"]
    assert top["margin_at_least"] == top["margin_at_most"] == top["margin"]
    assert top["win"] in (0.0, 1.0) and "with best play" in top["outcome"]
    assert data["done"] and data["end"] == "solved"


def test_a_pending_leather_patch_is_analysed_and_its_line_said() -> None:
    state = leather_position()
    snapshots = list(live_analysis(state, max_seconds=5.0))
    data = snapshot_json(state, snapshots[-1])
    assert data["lines"] and all(line["move"]["type"] == "leather" for line in data["lines"])
    assert data["lines"][0]["proven"]  # the end of the game: every cell's outcome is known
    assert data["lines"][0]["words"].startswith("put the leather patch on")


def test_a_snapshot_says_each_line_in_the_players_words() -> None:
    state = State.new(seed=9)
    snapshot = list(live_analysis(state, max_seconds=0.6))[-1]
    data = snapshot_json(state, snapshot, 3)
    assert set(data) == {"seconds", "nodes", "player", "search", "done", "end", "lines"}
    assert 1 <= len(data["lines"]) <= 3 and data["player"] == state.to_move()
    for line, m in zip(data["lines"], snapshot.lines(3), strict=True):
        assert line["move"] == m.move.to_json() and line["words"] == move_words(state, m.move)
        assert len(line["line"]) == len(line["line_moves"]) >= 1
        walk = state.clone()
        for text, step in zip(line["line"], line["line_moves"], strict=True):
            move = Move.from_json(step["move"])
            assert step["player"] == walk.to_move()
            assert text == f"Player {walk.to_move() + 1}: {move_words(walk, move)}"
            walk.apply(move)  # the line is playable move by move, leather placements included
    assert len(snapshot_json(state, snapshot)["lines"]) <= MAX_LINES
    # in Russian, each step of a line is one Russian sentence, the player's seat and the move in words
    with using("ru"):
        said = snapshot_json(state, snapshot, 1)["lines"][0]
        first = Move.from_json(said["line_moves"][0]["move"])
        assert said["line"][0] == f"Игрок {state.to_move() + 1}: {move_words(state, first)}"


def test_the_sampling_searchs_unlisted_leather_placement_is_said_where_it_happens() -> None:
    state = next(s for s in late_positions(5, 20) if s.pending < 0)
    walk, line = state.clone(), list[Move]()
    while walk.pending < 0 and len(line) < 30:  # advance until a move earns a leather patch
        line.append(Move.advance())
        walk.apply(line[-1])
    if walk.pending < 0:
        pytest.skip("no leather patch earned on this path")
    said = spoken_line(state, [*line, Move.advance()])
    kinds = [move.kind for _, move, _ in said]
    assert kinds == ["advance"] * len(line) + ["leather", "advance"]
    assert said[len(line)][2].startswith("put the leather patch on")


def test_a_finished_game_has_nothing_to_analyse() -> None:
    state = State.new(seed=2)
    while not state.is_terminal():
        state.apply(Move.advance() if state.pending < 0 else next(state.legal_moves()))
    with pytest.raises(GameOverError):
        next(live_analysis(state, max_seconds=1.0))
