"""``patchwork play`` in a real pseudo-terminal, as a person sees it: prompts, colours, spinner; and
at 80x24, the screen itself (a terminal emulator reads the output): the quilts and the prompt on it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pyte
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
        child.expect_exact("then: #")  # the offers, and the patches after them
        child.expect_exact("you> ")
        assert "\x1b[" in child.before  # a terminal gets colours

        child.sendline("hint")
        child.expect_exact("hints, best first:")
        child.expect(r"1\. (buy #\d+ at rows? \d|advance \d)")  # the move in words
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


def _screen_after(child: pexpect.spawn, screen: pyte.Screen, stream: pyte.Stream, prompt: str) -> list[str]:
    """Read until ``prompt`` shows, feeding the terminal emulator; the 24 lines it shows then."""
    child.expect_exact(prompt)
    stream.feed(child.before + child.after)
    return [line.rstrip() for line in screen.display]


@pytest.mark.skipif(not PATCHWORK.exists(), reason="the patchwork script is not installed in this venv")
def test_at_80x24_the_quilts_the_news_and_the_prompt_are_all_on_screen() -> None:
    child = pexpect.spawn(
        str(PATCHWORK), ["play", "--ai", "greedy", "--seed", "1"], dimensions=(24, 80), encoding="utf-8",
        timeout=TIMEOUT, env={"TERM": "xterm-256color", "PATH": str(PATCHWORK.parent), "COLUMNS": "80", "LINES": "24"},
    )
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    try:
        shown = [_screen_after(child, screen, stream, "you> ")]
        child.sendline("buy 1")
        placing = _screen_after(child, screen, stream, "place #27> ")
        # the placement choices: five small quilts, each said in words, the shapes, the prompt
        assert any(line.startswith("place #27") and "pick a suggestion" in line for line in placing)
        assert sum(bool(re.match(r"[1-5]  rows? \d", line)) for line in placing) == 5
        assert placing[max(i for i, line in enumerate(placing) if line)].startswith("place #27>")
        child.sendline("1")
        shown.append(_screen_after(child, screen, stream, "you> "))
        child.sendline("advance")
        shown.append(_screen_after(child, screen, stream, "you> "))
        for lines in shown:
            text = "\n".join(lines)
            # both quilts whole: the names, the column numbers and all nine rows, side by side
            assert any(re.match(r" You .*the AI \(greedy\)", line) for line in lines), text
            assert sum(bool(re.match(r"\s*[0-8]  (\S ){8}\S.* [0-8]  (\S ){8}\S", line)) for line in lines) == 9, text
            assert any(line.startswith("time ") for line in lines), text
            last = max(i for i, line in enumerate(lines) if line)
            assert lines[last].startswith("you>"), text  # the prompt, on screen, last
            assert lines[last - 1].startswith("your move:"), text  # under the status line
        # what the AI did is on screen too, under the board
        assert any(line.startswith("AI ") for line in shown[1]), "\n".join(shown[1])
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
