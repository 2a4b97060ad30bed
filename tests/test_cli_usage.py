"""What a newcomer meets first: help, usage errors, --version, and one name per player in all text."""

from __future__ import annotations

import re
from importlib import metadata

import pytest
import typer
from typer.testing import CliRunner

from cli import app
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation

runner = CliRunner()


def test_version_prints_the_installed_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"patchwork-opt {metadata.version('patchwork-opt')}"


def _every_command() -> list[list[str]]:
    root = typer.main.get_command(app)
    out = []
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        subcommands = getattr(command, "commands", None)
        out += [[name, sub] for sub in subcommands] if subcommands else [[name]]
    return out


@pytest.mark.parametrize("command", _every_command())
def test_help_shows_flags_without_a_value_and_arguments_in_one_style(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "<bool>" not in result.stdout
    if "--json" in result.stdout:
        assert re.search(r"^\s+--json\s+Print one JSON object", result.stdout, re.MULTILINE)
    usage = result.stdout.splitlines()[0]
    assert not re.search(r"[{\[][a-z]", usage.replace("[OPTIONS]", "")), usage  # RECORD, QUILT...: upper case


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["fill"], "error: Missing option '--patches' (see patchwork fill --help)"),
        (["hint", "x", "--top", "three"], "error: Invalid value for '--top': "),
        (["show"], "error: Missing argument 'QUILT|POSITION|RECORD' (see patchwork show --help)"),
        (["nope"], "error: No such command 'nope'"),
        (["--bogus"], "error: No such option: --bogus"),
    ],
)
def test_usage_errors_are_one_error_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args, prog_name="patchwork")
    assert result.exit_code == 2
    assert result.stderr.startswith(message), result.stderr
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""


def test_show_hint_and_replay_name_the_same_player_to_move() -> None:
    state = State.new(seed=5)
    state.apply(ADVANCE)  # Player 1 advanced past Player 2: Player 2 is to move
    position = to_notation(state)
    shown = runner.invoke(app, ["show", position])
    hinted = runner.invoke(app, ["hint", position, "--time-limit", "0.2"])
    assert shown.exit_code == 0 and hinted.exit_code == 0, hinted.output
    assert "Player 2 to move" in shown.stdout and "Player 2 to move" in hinted.stdout
    assert "Player 0" not in shown.stdout + hinted.stdout
    assert "\ntrack  21·" in shown.stdout  # Player 2's token on space 0, Player 1's on space 1
