"""The one error table: each domain error's exit code (the CLI) and HTTP status (the service)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.errors import NothingToReviewError, PlyNotFoundError, ServiceMissingError
from patchwork_opt.apps.web.game_store import GameNotFoundError, StaleGameError, StoreError
from patchwork_opt.apps.web.guards import TooManyGamesError
from patchwork_opt.apps.web.jobs import ClientBusyError, QueueFullError
from patchwork_opt.apps.web.services import Services
from patchwork_opt.core.errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    PatchworkError,
    RecordError,
    ReplayError,
)
from patchwork_opt.core.state import State

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

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
        said = result.stderr
        assert result.exit_code == 2 and said.startswith("error: ply 0: move has the unknown type 'jump'"), said
        result = runner.invoke(app, [*command, str(illegal)])
        assert result.exit_code == 1 and "no leather patch" in result.stderr, result.output


# --- the same refusal for a program and for a player -------------------------------------------------


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Iterator[TestClient]:
    """The app without solvers: request validation and the domain's refusals answer all the same."""
    with TestClient(create_app(tmp_path / "g.db", Services()), base_url="http://127.0.0.1") as client:
        yield client


def test_a_circle_too_short_is_said_in_a_players_words_beside_the_fields_place(client: TestClient) -> None:
    state = State.new(seed=3)
    refused = client.post("/api/analysis/record", json={"circle": state.circle[:12], "moves": []})
    assert refused.status_code == 422
    body = refused.json()
    assert body["detail"] == "body.circle: the circle needs all 33 patches; it has 12"  # the place, then the words
    assert body["words"] == "The circle needs all 33 patches; it has 12."


def test_a_position_that_cannot_be_read_says_so_without_the_apis_places(client: TestClient) -> None:
    body = client.get("/api/analysis/position", params={"position": "not a position"}).json()
    assert body["detail"].startswith("query.position: this position can't be read: not a position in the notation")
    assert body["words"] == "This position can't be read: not a position in the notation (9 space-separated fields)."
    missing = client.get("/api/analysis/position").json()
    assert missing == {"detail": "query.position: this position is missing", "words": "This position is missing."}


def test_numbers_out_of_range_name_the_limit_and_what_was_sent_in_sentences(client: TestClient) -> None:
    refused = client.post("/api/workshop/fills", json={"patches": [1, "x", 40], "budget": -1, "marks": 12})
    assert refused.status_code == 422
    words = refused.json()["words"]
    assert words == ('Item 2 of the patches chosen must be a whole number; "x" is not one. '
                     "Item 3 of the patches chosen must be 32 or less; it is 40. "
                     "The income marks ahead must be 9 or less; they are 12. The budget must be 0 or more; it is -1.")
    for api_words in ("body.", "Input should", "validation"):
        assert api_words not in words
    empty = client.post("/api/workshop/fills", json={"patches": []}).json()["words"]
    assert empty == "The patches chosen need at least 1 patch; they have 0."
    assert client.get("/api/workshop/patches", params={"cost": "lots"}).json()["words"] == (
        "The cost filter can't be read: expected a number or a range like 2-4.")


def test_every_error_answer_has_words_and_the_schema_says_so(client: TestClient) -> None:
    missing = client.get("/api/games/abcdefghijklmnop")
    assert missing.status_code == 404 and missing.json()["words"] == missing.json()["detail"]
    assert client.get("/api/no-such-route").json() == {"detail": "Not Found", "words": "Not Found"}
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ErrorBody"]
    assert set(schema["required"]) == {"detail", "words"}
