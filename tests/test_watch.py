"""``patchwork hint POSITION --watch``: live lines into a pipe (one a snapshot), JSON lines with
``--json``, redrawn in place on a terminal, and Ctrl-C ending it cleanly with exit code 0."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
from conftest import late_positions

from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation

PATCHWORK = Path(sys.executable).parent / "patchwork"
START = 600  # the first start on a machine may compile the searches

pytestmark = pytest.mark.skipif(not PATCHWORK.exists(), reason="the patchwork script is not installed in this venv")


def hint(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PATCHWORK), "hint", *args], capture_output=True, text=True, timeout=START)


def test_into_a_pipe_each_snapshot_is_one_line() -> None:
    state = State.new(seed=21)
    done = hint(to_notation(state), "--watch", "--time-limit", "1.5", "--top", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) >= 3
    for line in lines:
        assert " nodes " in line and "#1 " in line and "#3 " not in line
    assert lines[-1].split("s ", 1)[0] >= "1.5"  # the last snapshot, at the time limit


def test_json_lines_one_object_a_snapshot_on_stdout_alone() -> None:
    state = late_positions(8, 30)[0]
    done = hint(to_notation(state), "--watch", "--time-limit", "1.5", "--json")
    assert done.returncode == 0, done.stderr
    snapshots = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(snapshots) >= 2 and snapshots[-1]["done"] and snapshots[-1]["end"] in ("time", "solved")
    assert not any(s["done"] for s in snapshots[:-1])
    for snapshot in snapshots:
        assert snapshot["player"] == state.to_move() and 1 <= len(snapshot["lines"]) <= 5
        for line in snapshot["lines"]:
            state.check(Move.from_json(line["move"]))


def test_ctrl_c_ends_it_cleanly_with_exit_code_0() -> None:
    state = State.new(seed=22)
    child = subprocess.Popen([str(PATCHWORK), "hint", to_notation(state), "--watch", "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        first = json.loads(child.stdout.readline())  # thinking: no time limit, only Ctrl-C ends it
        assert not first["done"]
        child.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    assert "Traceback" not in err and "interrupted" not in err
    last = json.loads(out.splitlines()[-1])
    assert last["done"] and last["end"] == "stopped"
    assert time.perf_counter() - sent < 30  # stopped on the signal, not by some limit of its own (none)


def test_a_reader_that_stops_reading_ends_it_quietly() -> None:
    state = State.new(seed=24)
    child = subprocess.Popen([str(PATCHWORK), "hint", to_notation(state), "--watch"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stderr is not None
        assert " nodes " in child.stdout.readline()
        child.stdout.close()  # as ``| head -1`` does
        assert child.wait(timeout=60) == 0
        assert child.stderr.read() == ""
    finally:
        if child.poll() is None:
            child.kill()


def test_on_a_terminal_the_lines_are_redrawn_in_place() -> None:
    state = State.new(seed=23)
    shown = io.StringIO()
    child = pexpect.spawn(str(PATCHWORK), ["hint", to_notation(state), "--watch", "--time-limit", "1.5"],
                          encoding="utf-8", timeout=START, dimensions=(40, 120))
    child.logfile_read = shown
    child.expect("time is up")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    screen = shown.getvalue()
    assert screen.count("Player 1 to move") >= 3 and "#1 " in screen
    assert "\x1b[2K" in screen and "\x1b[1A" in screen  # each snapshot erases the one before it


@pytest.mark.parametrize(("args", "message"), [
    (["--patch", "3"], "error: --watch analyses the moves of a position: it takes no --patch"),
    (["--top", "9"], "error: --top with --watch: 1..5 lines, got 9"),
    (["--time-limit", "0"], "error: time limit must be positive, got 0"),
])
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    done = hint(to_notation(State.new(seed=1)), "--watch", *args)
    assert done.returncode == 2 and done.stderr.strip() == message and done.stdout == ""


def test_a_quilt_has_no_moves_to_watch(tmp_path: Path) -> None:
    quilt = tmp_path / "q.txt"
    quilt.write_text("\n".join(["." * 9] * 9) + "\n")
    done = hint(str(quilt), "--watch")
    assert done.returncode == 2 and done.stderr.strip() == "error: --watch analyses a position or a record, not a " \
                                                           "bare quilt"
