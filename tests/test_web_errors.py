"""The one error table: each domain error's exit code (the CLI) and HTTP status (the service)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.apps.web.errors import NothingToReviewError, PlyNotFoundError, ServiceMissingError
from patchwork_opt.apps.web.guards import TooManyGamesError
from patchwork_opt.apps.web.jobs import ClientBusyError, QueueFullError
from patchwork_opt.apps.web.store import GameNotFoundError, StaleGameError, StoreError
from patchwork_opt.core.errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    PatchworkError,
    RecordError,
    ReplayError,
)
from patchwork_opt.core.state import State

runner = CliRunner()


@pytest.mark.parametrize(
    ("error", "exit_code", "status"),
    [
        (NotationError("x"), 2, 400),
        (RecordError("x"), 2, 400),
        (IllegalMoveError("x"), 1, 422),
        (GameOverError(), 1, 409),
        (StaleGameError("x"), 1, 409),
        (GameNotFoundError("x"), 2, 404),
        (PlyNotFoundError("x"), 2, 404),
        (NothingToReviewError("x"), 1, 409),
        (ReplayError(3, "illegal"), 1, 422),
        (ReplayError(3, "unreadable", exit_code=2), 2, 400),
        (ClientBusyError("x", 5), 2, 429),
        (TooManyGamesError("x", 5), 2, 429),
        (QueueFullError("x", 5), 2, 503),
        (ServiceMissingError("x"), 2, 503),
        (StoreError("x"), 2, 503),
    ],
)
def test_each_error_has_its_exit_code_and_http_status(error: PatchworkError, exit_code: int, status: int) -> None:
    assert (error.exit_code, error.http_status) == (exit_code, status)


def test_an_error_naming_only_its_exit_code_gets_the_status_of_its_row() -> None:
    class Refused(PatchworkError):
        exit_code = 1

    class Unreadable(PatchworkError):
        pass

    assert Refused("x").http_status == 422 and Unreadable("x").http_status == 400


def test_move_text_that_cannot_be_read_is_a_notation_error_in_every_command(tmp_path: Path) -> None:
    """exit 2 (input that cannot be read), not 1 (a move the rules refuse), in replay and move."""
    state = State.new(seed=3)
    unreadable = tmp_path / "unreadable.json"
    unreadable.write_text(json.dumps({"circle": state.circle, "moves": [{"type": "jump"}]}))
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps({"circle": state.circle, "moves": [{"type": "leather", "cell": [0, 0]}]}))
    for command in (["replay"], ["move", "--ai", "greedy"]):
        result = runner.invoke(app, [*command, str(unreadable)])
        assert result.exit_code == 2 and result.stderr.startswith("error: ply 0: unknown move type"), result.output
        result = runner.invoke(app, [*command, str(illegal)])
        assert result.exit_code == 1 and "no leather patch" in result.stderr, result.output
