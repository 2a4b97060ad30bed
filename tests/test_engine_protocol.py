"""``patchwork engine`` through a real subprocess (pexpect): the protocol of docs/engine.md."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from conftest import late_positions

from patchwork_opt.apps.engine.protocol import (
    Go,
    Position,
    ProtocolError,
    SetOption,
    format_info,
    parse_bestmove,
    parse_command,
    parse_info,
)
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import words_in
from patchwork_opt.formats.notation import to_notation

PATCHWORK = Path(sys.executable).parent / "patchwork"
START = 600  # the first start on a machine may compile the searches (about a minute, more when busy)
MOVE = 60
BESTMOVE = re.compile(r"bestmove (\S+)\r?\n")
INFO = re.compile(r"(info time \d+ nodes \d+[^\r\n]*)\r?\n")


@pytest.fixture(scope="module")
def engine() -> Iterator[pexpect.spawn]:
    if not PATCHWORK.exists():
        pytest.skip("the patchwork script is not installed in this venv")
    child = pexpect.spawn(str(PATCHWORK), ["engine"], encoding="utf-8", timeout=MOVE, echo=False)
    child.delaybeforesend = None  # pexpect waits 50 ms before each line by default: the stop test times it
    child.sendline("isready")
    child.expect_exact("readyok", timeout=START)
    yield child
    child.sendline("quit")
    child.expect(pexpect.EOF, timeout=MOVE)
    child.close()
    assert child.exitstatus == 0


def _bestmove(engine: pexpect.spawn) -> tuple[Move, list[str]]:
    """The move of the next ``bestmove`` and the ``info`` lines before it."""
    engine.expect(BESTMOVE)
    return Move.parse(engine.match.group(1)), INFO.findall(engine.before)


def test_upi_names_the_engine_and_its_options(engine: pexpect.spawn) -> None:
    engine.sendline("upi")
    engine.expect_exact("upiok")
    lines = engine.before.splitlines()
    assert any(line.startswith("id name patchwork-opt") for line in lines)
    assert any(line.startswith("id author") for line in lines)
    for name in ("AI", "Level", "Threads", "Hash", "MultiPV"):
        assert any(line.startswith(f"option name {name} type") for line in lines), name
    engine.sendline("isready")
    engine.expect_exact("readyok")


def test_go_movetime_answers_a_legal_move_with_its_figures(engine: pexpect.spawn) -> None:
    state = State.new(seed=3)
    engine.sendline("newgame")
    engine.sendline("position startpos seed 3")
    engine.sendline("go movetime 200")
    engine.expect(BESTMOVE)
    move, before = Move.parse(engine.match.group(1)), engine.before
    state.check(move)
    info = parse_info(INFO.findall(before)[-1])
    assert info.win is not None and 0.0 <= info.win <= 1.0
    assert info.nodes > 0 and info.pv[0] == move
    # the move in the words every page and command says it with (core/words.py)
    assert f"info string pv {words_in(state, move)}" in before


def test_moves_and_notation_set_up_the_same_position(engine: pexpect.spawn) -> None:
    state = State.new(seed=5)
    moves = []
    for _ in range(4):
        move = next(m for m in state.legal_moves() if m.kind == "buy") if state.pending < 0 else next(
            state.legal_moves())
        state.apply(move)
        moves.append(str(move))
    engine.sendline(f"position startpos circle {','.join(map(str, State.new(seed=5).circle))} moves {' '.join(moves)}")
    engine.sendline("go nodes 300")
    first, _ = _bestmove(engine)
    engine.sendline(f"position notation {to_notation(state)}")
    engine.sendline("go nodes 300")
    second, _ = _bestmove(engine)
    state.check(first)
    state.check(second)


def test_bad_lines_get_one_error_line_and_the_engine_keeps_running(engine: pexpect.spawn) -> None:
    for line, expected in [
        ("fly away", "info string error: unknown command 'fly'"),
        ("go movetime soon", "info string error: go movetime: expected a whole number"),
        ("position startpos seed 1 moves 12@00", "info string error: moves[0] '12@00'"),
        ("position startpos seed 1 moves 99@00", "info string error: moves[0] '99@00': unknown patch id 99"),
        ("setoption name Level value 9", "info string error: setoption Level: 9 is outside 1..5"),
        ("setoption name Colour value red", "info string error: setoption: unknown option 'Colour'"),
        ("position notation 1 2 3", "info string error: position notation: a position has 9"),
    ]:
        engine.sendline(line)
        engine.expect_exact(expected)
        engine.sendline("isready")
        engine.expect_exact("readyok")


def test_an_illegal_move_names_its_place_and_the_position_stays(engine: pexpect.spawn) -> None:
    state, moves = State.new(seed=2), []
    while not state.is_terminal():
        moves.append(Move.advance() if state.pending < 0 else next(state.legal_moves()))
        state.apply(moves[-1])
    engine.sendline("position startpos seed 2")
    engine.sendline("position startpos seed 2 moves " + " ".join(map(str, moves)) + " A")
    engine.expect_exact(f"info string error: position moves[{len(moves)}] A: the game is over")
    engine.sendline("go nodes 200")  # the position before the refused command
    move, _ = _bestmove(engine)
    State.new(seed=2).check(move)


def test_stop_ends_an_infinite_search_at_once(engine: pexpect.spawn) -> None:
    """The protocol promises an answer within 50 ms (measured in docs/engine.md); the test allows
    for a loaded machine, and tells "at once" from "when the search ends by itself" (never)."""
    engine.sendline("position startpos seed 4")
    engine.sendline("go infinite")
    engine.expect(INFO)  # searching: at least one round reported
    engine.sendline("go movetime 100")  # refused while searching
    engine.expect_exact("info string error: go: a search is running")
    sent = time.perf_counter()
    engine.sendline("stop")
    engine.expect(BESTMOVE)
    elapsed = time.perf_counter() - sent
    State.new(seed=4).check(Move.parse(engine.match.group(1)))
    assert elapsed < 0.5, f"stop answered after {elapsed * 1000:.0f} ms"


def test_stop_ends_a_timed_search_with_the_best_move_so_far(engine: pexpect.spawn) -> None:
    engine.sendline("position startpos seed 5")
    engine.sendline("go movetime 60000")
    time.sleep(0.5)  # let the search start
    sent = time.perf_counter()
    engine.sendline("stop")
    engine.expect(BESTMOVE, timeout=30)
    elapsed = time.perf_counter() - sent
    State.new(seed=5).check(Move.parse(engine.match.group(1)))
    assert elapsed < 2.0, f"stop answered a 60 s search after {elapsed:.1f} s"


def test_stop_ends_the_mcts_baseline_too(engine: pexpect.spawn) -> None:
    """Every bot is told ``stop`` alike (``Bot.decide(state, stop)``): the Python MCTS ends after the
    simulation running instead of its 60 s."""
    engine.sendline("setoption name AI value mcts")
    engine.sendline("position startpos seed 7")
    engine.sendline("go movetime 60000")
    time.sleep(0.5)  # let the search start
    sent = time.perf_counter()
    engine.sendline("stop")
    engine.expect(BESTMOVE, timeout=30)
    elapsed = time.perf_counter() - sent
    engine.sendline("setoption name AI value solver")
    State.new(seed=7).check(Move.parse(engine.match.group(1)))
    assert elapsed < 2.0, f"stop answered a 60 s mcts search after {elapsed:.1f} s"


MULTIPV = re.compile(r"info multipv (\d) time (\d+) nodes (\d+) [^\r\n]*pv (\S+)[^\r\n]*\r?\n")


def test_go_infinite_reports_the_live_analysis_growing_until_stop(engine: pexpect.spawn) -> None:
    state = State.new(seed=7)
    engine.sendline("setoption name MultiPV value 3")
    engine.sendline("position startpos seed 7")
    engine.sendline("go infinite")
    seen: list[tuple[int, int, int, Move]] = []
    while len(seen) < 9:  # three snapshots of three lines
        engine.expect(MULTIPV)
        rank, millis, nodes, first = engine.match.groups()
        seen.append((int(rank), int(millis), int(nodes), Move.parse(first)))
    engine.sendline("stop")
    move, _ = _bestmove(engine)
    engine.sendline("setoption name MultiPV value 1")
    assert [rank for rank, *_ in seen] == [1, 2, 3] * 3
    snapshots = [seen[i:i + 3] for i in range(0, 9, 3)]
    assert all(len({(ms, n) for _, ms, n, _ in shot}) == 1 for shot in snapshots)  # one snapshot, three lines
    times, nodes = [shot[0][1] for shot in snapshots], [shot[0][2] for shot in snapshots]
    assert times == sorted(times) and nodes[0] < nodes[1] < nodes[2]  # one search, continued
    for *_, first in seen:
        state.check(first)
    state.check(move)


def test_go_infinite_proves_a_late_position_then_waits_for_stop(engine: pexpect.spawn) -> None:
    state = late_positions(3, 44)[0]
    engine.sendline(f"position notation {to_notation(state)}")
    engine.sendline("go infinite")
    engine.expect(r"(info time \d+ nodes \d+ win (1\.0000|0\.0000) margin \S+ exact yes pv [^\r\n]*)\r?\n")
    lines = [engine.match.group(1)]
    with pytest.raises(pexpect.TIMEOUT):  # solved: nothing more to say, and no answer before stop
        engine.expect(BESTMOVE, timeout=1.0)
    engine.sendline("stop")
    move, later = _bestmove(engine)
    # a round may prove one move's margin before the search has solved the rest: the last line is
    # the solved position's best, and that is the answer
    last = parse_info((lines + later)[-1])
    assert last.exact and last.win in (0.0, 1.0)
    assert move == last.pv[0]


def test_go_on_a_finished_game_is_refused(engine: pexpect.spawn) -> None:
    state = State.new(seed=6)
    while not state.is_terminal():
        state.apply(Move.advance() if state.pending < 0 else next(state.legal_moves()))
    engine.sendline(f"position notation {to_notation(state)}")
    engine.sendline("go movetime 50")
    engine.expect_exact("info string error: go: the game is over")


def test_the_protocol_reads_what_the_docs_name() -> None:
    assert parse_command("setoption name Level value 2") == SetOption("Level", "2")
    assert parse_command("go") == Go("level")
    assert parse_command("go nodes 10") == Go("nodes", 10)
    assert parse_command("position startpos seed 7 moves A L@44") == Position(
        seed=7, moves=(Move.advance(), Move.leather(4, 4)))
    assert parse_command("   ") is None
    assert parse_bestmove("bestmove 0@00,01") == Move.parse("0@00,01")
    with pytest.raises(ProtocolError, match="takes no arguments"):
        parse_command("stop now")
    ranked = parse_info("info multipv 2 time 5 nodes 9 win 0.5000 exact no pv A")
    assert ranked.multipv == 2 and ranked.pv == (Move.advance(),) and format_info(ranked).startswith("info multipv 2 ")
