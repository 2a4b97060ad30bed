"""``patchwork play`` in a real pseudo-terminal, as a person sees it: prompts, colours, spinner."""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect
import pytest

from patchwork_opt.formats.record import Record

PATCHWORK = Path(sys.executable).parent / "patchwork"
TIMEOUT = 60


@pytest.mark.skipif(not PATCHWORK.exists(), reason="the patchwork script is not installed in this venv")
def test_hint_buy_place_advance_undo_quit_in_a_terminal(tmp_path: Path) -> None:
    record_path = tmp_path / "game.json"
    child = pexpect.spawn(
        str(PATCHWORK),
        ["play", "--ai", "greedy", "--seed", "1", "--save", str(record_path)],
        dimensions=(50, 120),
        encoding="utf-8",
        timeout=TIMEOUT,
        env={"TERM": "xterm-256color", "PATH": str(PATCHWORK.parent), "COLUMNS": "120", "LINES": "50"},
    )
    try:
        child.expect_exact("on offer (buy 1-3):")
        child.expect_exact("you> ")
        assert "\x1b[" in child.before  # a terminal gets colours

        child.sendline("hint")
        child.expect_exact("hints, best first:")
        child.expect(r"1\. (buy [123] [0-8,]+|advance)")
        child.expect_exact("you> ")

        child.sendline("buy 7")  # a bad line: one line saying why, then the same prompt
        child.expect_exact("error: there are at most 3 patches on offer, numbered 1-3, not 7")
        child.expect_exact("you> ")

        child.sendline("buy 1")
        child.expect_exact("pick a suggestion")
        child.expect_exact("place #27> ")
        child.sendline("1")
        child.expect_exact("you buy #27 for 3 buttons")
        child.expect(r"AI (buys|advances)")  # the AI replies and says what it did
        child.expect_exact("you> ")

        child.sendline("advance")
        child.expect_exact("you advance")
        child.expect_exact("you> ")
        after_advance = len(Record.load(record_path).moves)

        child.sendline("undo")
        child.expect_exact("took back: you advance")
        child.expect_exact("you> ")

        child.sendline("quit")
        child.expect_exact("bye")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    moves = Record.load(record_path).moves
    assert moves[0].kind == "buy" and moves[0].patch == 27
    assert len(moves) < after_advance  # the advance and the AI's replies are gone
