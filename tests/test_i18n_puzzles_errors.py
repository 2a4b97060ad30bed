"""The puzzles' words and the engine's errors in the reader's language: a puzzle's task, themes and
verdict from the API in German; a position the notation's reader refuses, said in Russian by the
API and by the command line (the engine raises its message as a template, the boundary says it)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import cli
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.schemas.solvers import HintRequest
from patchwork_opt.apps.web.services import Services
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.i18n import _, using
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds import THEME_WORDS
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle
from patchwork_opt.puzzles.kinds.fill import FillPuzzle
from patchwork_opt.puzzles.proof import distinct_moves, move_key

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
BANK = shipped_bank()
ENDGAME = next(p for p in BANK.puzzles["endgame"] if isinstance(p, EndgamePuzzle) and p.themes)
FILL = next(p for p in BANK.puzzles["fill"] if isinstance(p, FillPuzzle))
#: A position whose circle holds patch 0 twice: the notation's pattern takes it, its reader does not.
FIELDS = to_notation(State.new(seed=3)).split(" ")
TWICE = " ".join(["0,0", *FIELDS[1:]])
NO_LOCALE: dict[str, str | None] = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(tmp_path_factory.mktemp("puzzles-i18n") / "games.db", Services())
    with TestClient(base_url=LOCAL, app=app) as c:
        yield c


def test_a_puzzles_task_and_themes_are_said_in_german(client: TestClient) -> None:
    view = client.get(f"/api/puzzles/{ENDGAME.id}", params={"lang": "de"}).json()
    assert view["task"].startswith(f"Spieler {ENDGAME.player + 1} (du) ist am Zug: finde einen gewinnenden Zug.")
    assert f"Schwierigkeit {ENDGAME.difficulty} von 5. Themen: " in view["task"]
    with using("de"):
        assert [t["words"] for t in view["themes"]] == [_(THEME_WORDS[t]) for t in ENDGAME.themes]
    assert view["themes"][0]["words"] != THEME_WORDS[ENDGAME.themes[0]]
    assert {t["theme"] for t in view["themes"]} == set(ENDGAME.themes)  # the ids stay as they are
    fill = client.get(f"/api/puzzles/{FILL.id}", headers={"Accept-Language": "de"}).json()
    assert fill["task"].startswith("Fülle den Flickenteppich mit einigen der Flicken")
    assert "patch" not in fill["task"] and "Difficulty" not in fill["task"]


def test_an_endgames_verdict_is_said_in_german(client: TestClient) -> None:
    state = ENDGAME.state()
    wins = {move_key(state, m) for m in ENDGAME.winning}
    wrong = next(m for k, m in distinct_moves(state).items() if k not in wins)
    verdict = client.post(f"/api/puzzles/{ENDGAME.id}/answer", params={"lang": "de"},
                          json={"move": wrong.to_json()}).json()
    assert verdict["correct"] is False
    assert verdict["text"].startswith("falsch: bestes Spiel widerlegt das, und du verlierst ")
    assert "ein gewinnender Zug war: " in verdict["text"]


def test_a_position_the_notation_refuses_is_said_in_russian_by_the_api(client: TestClient) -> None:
    response = client.get("/api/analysis/position", params={"position": TWICE, "lang": "ru"})
    assert response.status_code == 422, response.text
    assert "circle: номер лоскута встречается дважды" in response.json()["words"]
    english = client.get("/api/analysis/position", params={"position": TWICE}).json()
    assert "circle: a patch id appears twice" in english["words"]


def test_a_position_the_notation_refuses_is_said_in_russian_by_the_cli(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli.app, ["--lang", "ru", "hint", TWICE], env=NO_LOCALE)
    assert result.exit_code == 2
    assert result.output.strip() == "ошибка: circle: номер лоскута встречается дважды"
    record = tmp_path / "game.json"
    record.write_text('{"circle": [' + ",".join(str(i) for i in range(33)) + '], "moves": [{"type": "buy", '
                      '"patch": 1, "cells": [[0, 0], [0, 1], [1, 1]]}]}')
    replayed = CliRunner().invoke(cli.app, ["--lang", "ru", "replay", str(record)], env=NO_LOCALE)
    assert replayed.exit_code == 1, replayed.output
    assert replayed.output.strip().startswith("ошибка: полуход 0: клетки [[0, 0], [0, 1], [1, 1]] не являются "
                                              "размещением лоскута 1")


def test_a_matchs_summary_is_said_in_german() -> None:
    from patchwork_opt.apps.match import MatchSpec, render_summary, run_match, summarize

    spec = MatchSpec(p1="greedy", p2="random", games=6, seed=5)
    summary = summarize(spec, run_match(spec))
    with using("de"):
        text = render_summary(summary)
    assert text.startswith("greedy (p1) gegen random (p2): 6 Partien in 3 Paaren, Plätze innerhalb eines Paars")
    assert "Siege        greedy " in text and "zu wenige Partien für 95%-Intervalle: 3 Paare gespielt" in text
    assert " wins " not in text and "games" not in text


def test_the_terminal_games_refusals_are_said_in_french() -> None:
    from conftest import ORDERED_CIRCLE

    from patchwork_opt.ai.bots.greedy import GreedyBot
    from patchwork_opt.apps.play.commands import CommandError, parse_command
    from patchwork_opt.apps.play.session import Session
    from patchwork_opt.formats.record import Record

    session = Session(Record.start(State.new(ORDERED_CIRCLE)), 0, GreedyBot())
    said = {}
    with using("fr"):
        for line in ("buy 3", "buy #9", "1"):
            command = parse_command(line)
            assert command is not None
            with pytest.raises(CommandError) as refused:
                session.handle(command)
            said[line] = str(refused.value)
    assert said == {"buy 3": "#3 coûte 7 boutons et vous en avez 5",
                    "buy #9": "#9 n'est pas proposé (proposés : #1, #2, #3)",
                    "1": "rien à poser : achetez d'abord un morceau (buy 1-3 ou buy #ID)"}


def test_a_requests_own_refusal_is_said_in_german() -> None:
    """A validator's own sentence (what a 422 says after the field's name) in the language in effect:
    a patch listed twice, and a position, record and quilt all missing."""
    with using("de"), pytest.raises(ValidationError, match="Flicken 5 steht zweimal in der Liste"):
        HintRequest.model_validate({"quilt": [], "patch": 3, "next": [5, 5]})
    with using("de"), pytest.raises(ValidationError, match="gib genau eines an: position, record oder quilt"):
        HintRequest.model_validate({"patch": 3})
    with pytest.raises(ValidationError, match="patch 5 is listed twice"):
        HintRequest.model_validate({"quilt": [], "patch": 3, "next": [5, 5]})


def test_the_fills_option_errors_are_said_in_russian() -> None:
    said = CliRunner().invoke(cli.app, ["--lang", "ru", "fill", "--patches", "1,2", "--objective", "area"],
                              env=NO_LOCALE)
    assert said.exit_code != 0
    assert "--objective должно быть cells или points, а не 'area'" in said.output
