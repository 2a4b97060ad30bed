"""The service and the CLI answer in the language asked for: the API's hint words follow
Accept-Language or ``?lang=`` and say which in ``Content-Language``; ``LANG=de_DE.UTF-8 patchwork
hint POSITION`` answers in German; ``--json``'s keys and enum values stay English."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.solver_services import web_services
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import words_in
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.i18n import using

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)  # starlette suggests httpx2; httpx works the same here
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
STATE = State.new(seed=3)
POSITION = to_notation(STATE)
#: No language from the environment but the one a test gives (CliRunner's None unsets a variable).
NO_LOCALE: dict[str, str | None] = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(tmp_path_factory.mktemp("i18n") / "games.db", web_services(max_ai_seconds=0.05))
    with TestClient(base_url=LOCAL, app=app) as c:
        yield c


def _said(code: str, hints: list[dict[str, object]]) -> list[str]:
    """Each hint's move as the engine says it in ``code``."""
    with using(code):
        return [words_in(STATE, Move.from_json(h["line"][0])) for h in hints]  # type: ignore[index]


@pytest.mark.parametrize(("asked", "code"), [
    ({"headers": {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}}, "de"),
    ({"params": {"lang": "ru"}, "headers": {"Accept-Language": "de"}}, "ru"),
    ({"params": {"lang": "fr"}}, "fr"),
    ({}, "en"),
])
def test_the_api_says_a_hint_in_the_language_asked_for(client: TestClient, asked: dict, code: str) -> None:
    response = client.post("/api/hint", json={"position": POSITION, "top": 3, "time_limit": 0.3}, **asked)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Language"] == code
    assert "Accept-Language" in response.headers["Vary"]
    hints = response.json()["hints"]
    assert [h["words"] for h in hints] == _said(code, hints)
    assert all(h["reason"].startswith(h["words"]) for h in hints)
    assert {h["type"] for h in hints} <= {"advance", "buy", "leather"}  # enum values stay English
    advance = next(h for h in hints if h["type"] == "advance")
    expected = {"de": "Feld vorrücken (+1 Knopf)", "ru": "продвинуться на 1 деление (+1 пуговица)",
                "fr": "avancer de 1 case (+1 bouton)", "en": "advance 1 space (+1 button)"}[code]
    assert expected in advance["words"]


@pytest.mark.parametrize(("code", "words"), [
    ("fr", 'La graine : il faut un nombre entier ; "x" n\'en est pas un.'),
    ("de", 'Der Startwert muss eine ganze Zahl sein; "x" ist keine.'),
    ("ru", 'Начальное значение (seed): нужно целое число; "x" — не целое число.'),
    ("en", 'The seed must be a whole number; "x" is not one.'),
])
def test_a_refusal_says_its_words_in_the_language_asked_for(client: TestClient, code: str, words: str) -> None:
    response = client.post("/api/games", json={"seed": "x"}, headers={"Accept-Language": code})
    assert response.status_code == 422
    assert response.headers["Content-Language"] == code
    assert response.json()["words"] == words
    assert response.json()["detail"].startswith("body.seed: ")  # the place, for programs, stays as it is


def test_the_cli_answers_in_the_language_of_lang() -> None:
    result = CliRunner().invoke(cli.app, ["hint", POSITION, "--top", "3", "--time-limit", "0.3"],
                                env={**NO_LOCALE, "LANG": "de_DE.UTF-8"})
    assert result.exit_code == 0, result.output
    assert "Spieler 1 ist am Zug: 3 Vorschläge, der beste zuerst" in result.output
    assert "Feld vorrücken (+1 Knopf): von hier gewinnst du etwa" in result.output
    assert "Player" not in result.output and "advance" not in result.output


def test_the_fill_names_what_it_counts_in_the_language_of_lang() -> None:
    for objective, counted in (("cells", "Felder 18: optimal (bewiesen)"), ("points", "Punkte 49: optimal (bewiesen)")):
        result = CliRunner().invoke(cli.app, ["--lang", "de", "fill", "--patches", "1,2,5,7", "--objective", objective,
                                              "--workers", "1", "--time-limit", "10"], env=NO_LOCALE)
        assert result.exit_code == 0, result.output
        assert counted in result.output and objective not in result.output


def test_the_7x7_verdict_says_the_solvers_reasons_in_the_language_of_lang() -> None:
    quilt = str(Path(__file__).resolve().parents[1] / "examples" / "quilts" / "nearly-bonus.txt")
    result = CliRunner().invoke(cli.app, ["--lang", "de", "bonus", quilt, "--patches", "1,2,3,4,5,6", "--workers", "1",
                                          "--time-limit", "10"], env=NO_LOCALE)
    assert result.exit_code == 0, result.output
    assert "7x7-Quadrat: unmöglich: jedes 7x7-Quadrat ist widerlegt" in result.output
    assert "): unmöglich, Feld [4, 4] kann von keinem der Flicken belegt werden" in result.output
    assert not any(word in result.output for word in ("infeasible", "cannot", "refuted", "patches"))


def test_lang_outranks_the_environment_and_json_keeps_english_keys() -> None:
    result = CliRunner().invoke(cli.app, ["--lang", "ru", "hint", POSITION, "--top", "2", "--time-limit", "0.3",
                                          "--json"], env={**NO_LOCALE, "LANG": "de_DE.UTF-8"})
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"player", "hints", "search"} <= data.keys()
    advance = next(h for h in data["hints"] if h["type"] == "advance")
    assert advance["words"] == "продвинуться на 1 деление (+1 пуговица)"


def test_an_unknown_lang_is_one_line_and_exit_2() -> None:
    result = CliRunner().invoke(cli.app, ["--lang", "xx", "hint", POSITION], env=NO_LOCALE)
    assert result.exit_code == 2
    assert result.output.strip() == "error: unknown language 'xx': one of en, de, fr, ru"


def test_the_cli_says_its_errors_in_the_language_of_the_environment(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli.app, ["hint", POSITION, "--top", "0"], env={**NO_LOCALE, "LC_ALL": "fr_FR.UTF-8"})
    assert result.exit_code == 2
    assert result.output.strip() == "erreur : top doit valoir au moins 1, reçu 0"
