"""Refusals in the reader's language, whole: a list of names joined by the language's own list
pattern ("endgame oder fill", not "endgame or fill"), a record file's schema errors said from the
one table of Pydantic's kinds of error (the field's place kept as the format names it), and the
puzzle bank's, training's and compile notices' lines; in de, fr and ru, from the command line and
the API."""

from __future__ import annotations

import json
import pickle
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Services
from patchwork_opt.core.errors import PatchworkError, RecordError, words
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record
from patchwork_opt.formats.schema_words import refusal
from patchwork_opt.i18n import N_, using
from patchwork_opt.puzzles.bank import read_bank_file
from patchwork_opt.puzzles.model import PuzzleFormatError

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

CIRCLE = State.new(seed=3).circle
NO_LOCALE: dict[str, str | None] = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli.app, list(args), env=NO_LOCALE)
    return result.exit_code, result.stderr


# --- lists of names --------------------------------------------------------------------------------


@pytest.mark.parametrize(("code", "said"), [
    ("de", "Fehler: die Art muss endgame oder fill sein, nicht 'x'\n"),
    ("fr", "erreur : le type doit être endgame ou fill, pas 'x'\n"),
    ("ru", "ошибка: вид должен быть endgame или fill, а не 'x'\n"),
    ("en", "error: kind must be endgame or fill, not 'x'\n"),
])
def test_the_kinds_a_puzzle_may_be_are_listed_in_the_readers_words(code: str, said: str) -> None:
    assert run("--lang", code, "puzzle", "new", "--kind", "x") == (2, said)


@pytest.mark.parametrize(("code", "said"), [
    ("de", "budget, 7x7 oder points"), ("fr", "budget, 7x7 ou points"), ("ru", "budget, 7x7 или points"),
    ("en", "budget, 7x7, or points"),
])
def test_three_names_take_the_languages_list_pattern(code: str, said: str) -> None:
    exit_code, err = run("--lang", code, "puzzle", "new", "--kind", "fill", "--theme", "leather")
    assert exit_code == 2 and said in err and err.count("\n") == 1


def test_a_domain_errors_list_is_joined_when_it_is_said_and_english_in_its_own_line() -> None:
    """Raised in German, said in Russian: the list follows the reader, ``str`` stays English, and a
    worker's error keeps its list when pickled back."""
    from patchwork_opt.core.state import leather_spaces

    with using("de"), pytest.raises(PatchworkError) as info:
        leather_spaces("newest")
    assert str(info.value) == "unknown leather printing 'newest' (expected revised or classic)"
    error = pickle.loads(pickle.dumps(info.value))
    with using("ru"):
        assert words(error).endswith("revised или classic)")
    with using("fr"):
        assert words(error).endswith("revised ou classic)")


# --- a record's schema errors ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("refusals")
    (root / "short.json").write_text(json.dumps({"circle": CIRCLE[:12], "moves": []}))
    (root / "extra.json").write_text(json.dumps({"circle": CIRCLE, "moves": [], "winner": 0}))
    (root / "move.json").write_text(json.dumps({"circle": CIRCLE, "moves": [{"type": "buy", "patch": "1"}]}))
    return root


@pytest.mark.parametrize(("code", "short", "extra", "move"), [
    ("de", "circle braucht alle 33 Flicken; es sind 12", "winner ist kein Feld dieses Formats",
     'Halbzug 0: patch muss eine ganze Zahl sein; "1" ist keine'),
    ("fr", "circle : il faut les 33 morceaux ; il y en a 12", "winner : ce format n'a pas ce champ",
     'demi-coup 0 : patch : il faut un nombre entier ; "1" n\'en est pas un'),
    ("ru", "circle: нужны все 33 лоскута; сейчас 12", "winner: в этом формате нет такого поля",
     'полуход 0: patch: нужно целое число; "1" — не целое число'),
])
def test_a_bad_record_file_is_refused_in_the_readers_words(files: Path, code: str, short: str, extra: str,
                                                            move: str) -> None:
    for name, said in (("short.json", short), ("extra.json", extra), ("move.json", move)):
        exit_code, err = run("--lang", code, "replay", str(files / name))
        assert exit_code == 2 and err.count("\n") == 1 and err.rstrip().endswith(said), err
        assert "Input should" not in err and "Field required" not in err


def test_our_own_validators_words_are_said_when_the_error_is_said() -> None:
    twice = [*CIRCLE[:-1], CIRCLE[0]]
    with using("de"), pytest.raises(RecordError) as info:
        Record.from_json({"circle": twice, "moves": []})
    assert str(info.value) == f"circle: must hold each of the 33 patch ids once; missing [{CIRCLE[-1]}]"
    with using("ru"):
        assert words(info.value) == (f"circle: должен содержать каждый из 33 номеров лоскутов один раз; "
                                     f"не хватает [{CIRCLE[-1]}]")


def test_a_kind_of_error_the_table_does_not_word_still_names_the_field() -> None:
    unknown = refusal({"type": "uuid_parsing", "loc": ("id",), "msg": "Input should be a valid UUID"}, "id",
                      place=True)
    with using("de"):
        assert words(unknown) == "id liegt nicht in lesbarer Form vor"
    with using("fr"):
        assert words(unknown) == "id : forme illisible"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(tmp_path_factory.mktemp("refusals") / "games.db", Services())
    with TestClient(base_url="http://127.0.0.1", app=app) as c:
        yield c


@pytest.mark.parametrize(("code", "detail", "said"), [
    ("de", "body.circle: der Kreis braucht alle 33 Flicken; es sind 12",
     "Der Kreis braucht alle 33 Flicken; es sind 12."),
    ("ru", "body.circle: круг: нужны все 33 лоскута; сейчас 12", "Круг: нужны все 33 лоскута; сейчас 12."),
    ("fr", "body.circle: le cercle : il faut les 33 morceaux ; il y en a 12",
     "Le cercle : il faut les 33 morceaux ; il y en a 12."),
])
def test_the_api_says_a_bad_records_detail_and_words_from_the_same_table(client: TestClient, code: str, detail: str,
                                                                        said: str) -> None:
    answer = client.post("/api/analysis/record", json={"circle": CIRCLE[:12], "moves": []},
                         headers={"Accept-Language": code})
    assert answer.status_code == 422 and answer.headers["Content-Language"] == code
    assert answer.json() == {"detail": detail, "words": said}


@pytest.mark.parametrize(("code", "said"), [
    ("de", "Die Adresse des Auftrags liegt nicht in lesbarer Form vor."),
    ("en-XA", "[[ţĥé ĵöƀ'š àđđŕéšš] îš ñöţ îñ à ƒöŕɱ ţĥàţ çàñ ƀé ŕéàđ]."),  # the field's name inside the message
])
def test_a_field_of_an_address_is_named_in_the_readers_words(client: TestClient, code: str, said: str) -> None:
    answer = client.get("/api/workshop/jobs/%20", params={"lang": code})
    assert answer.status_code == 422 and answer.json()["words"] == said


# --- the puzzle bank, training and compiling -------------------------------------------------------


def test_a_bank_file_that_is_no_bank_is_refused_in_the_readers_words(tmp_path: Path) -> None:
    bad = tmp_path / "endgames.json"
    bad.write_text(json.dumps({"format": 1, "puzzles": [{"kind": "endgame"}]}))
    with pytest.raises(PuzzleFormatError) as info:
        read_bank_file(bad, "endgame")
    assert str(info.value) == f"{bad}: puzzles[0]: id is missing"
    with using("de"):
        assert words(info.value) == f"{bad}: puzzles[0]: id fehlt"
    with using("ru"):
        assert words(info.value) == f"{bad}: puzzles[0]: id: не указано"


@pytest.mark.parametrize(("args", "de", "ru"), [
    (["puzzle", "bank", "--workers", "0"], "Fehler: --workers muss mindestens 1 sein, angegeben: 0",
     "ошибка: --workers должно быть не меньше 1, получено: 0"),
    (["puzzle", "bank", "--backend", "x"], "Fehler: unbekanntes Backend 'x' (erwartet local oder ray)",
     "ошибка: неизвестный бэкенд 'x' (ожидается local или ray)"),
    (["train", "--data", "{tmp}/none", "--out", "{tmp}/w.npz"], "Fehler: {tmp}/none: kein Verzeichnis mit "
     "Selbstspiel-Daten", "ошибка: {tmp}/none: не каталог с данными самоигры"),
    (["train", "--data", "{tmp}", "--out", "{tmp}/w.npz"], "Fehler: {tmp}: keine Selbstspiel-Dateien "
     "(positions-*.npz); schreibe welche mit patchwork selfplay",
     "ошибка: {tmp}: нет файлов самоигры (positions-*.npz); запишите их командой patchwork selfplay"),
    (["train", "--data", "{tmp}", "--out", "{tmp}/w.txt"], "Fehler: --out {tmp}/w.txt: die Gewichtsdatei muss auf .npz "
     "enden", "ошибка: --out {tmp}/w.txt: файл весов должен оканчиваться на .npz"),
])
def test_bad_input_to_bank_and_train_is_refused_in_the_readers_words(tmp_path: Path, args: list[str], de: str,
                                                                     ru: str) -> None:
    given = [a.format(tmp=tmp_path) for a in args]
    if given[:2] == ["puzzle", "bank"]:
        given += ["--out", str(tmp_path / "bank")]
    for code, said in (("de", de), ("ru", ru)):
        assert run("--lang", code, *given) == (2, said.format(tmp=tmp_path) + "\n")


def test_the_compile_notice_names_the_parts_in_the_readers_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from patchwork_opt.apps import warmup

    warmed: list[str] = []
    groups = {name: warmup.Group(name, words, lambda name=name: warmed.append(name), 1)  # type: ignore[misc]
              for name, words in (("search", N_("the game search")), ("learned", N_("its learned evaluation")))}
    monkeypatch.setattr(warmup, "GROUPS", groups)
    monkeypatch.setattr(warmup, "is_ready", lambda name: False)
    monkeypatch.setattr(warmup, "_mark", lambda name: None)
    monkeypatch.setattr("patchwork_opt.jitcache.upgraded", lambda: False)
    said: list[str] = []
    with using("de"):
        warmup.prepare(["search", "learned"], parallel=False, say=said.append)
    assert said[0].startswith("kompiliere für die erste Nutzung: die Partiesuche und ihre gelernte Bewertung (")
    assert said[-1].startswith("kompiliert in ") and warmed == ["search", "learned"]


def test_a_compile_met_on_the_way_is_announced_in_the_commands_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """``jitcache``'s own notice (a compile no command prepared): said in the language the command
    runs in, its closing line too, which a thread of its own says."""
    from patchwork_opt import jitcache

    class Watch:
        active = False

        def seconds(self) -> float:
            return 0.0

    said: list[str] = []
    monkeypatch.setattr(jitcache, "_say", lambda text, end="\n": said.append(text))
    monkeypatch.setattr(jitcache, "upgraded", lambda: False)
    with using("fr"):
        notice = jitcache._Notice(Watch())  # type: ignore[arg-type]
        notice.started("solvers.search.kernels.place")
        notice.started("patchwork_opt.ai.search.exactcore.search.solve")
    notice.close()  # outside the command's context, as its own thread closes it
    assert said[0] == ("compilation pour la première utilisation : la recherche d'assemblage (une seule fois, "
                       "environ 6 s ; les exécutions suivantes chargent le code compilé)...")
    assert said[-1].endswith("la recherche d'assemblage et la recherche exacte de fin de partie en 0,0 s "
                             "(non compté dans les temps de recherche indiqués)")


@pytest.mark.parametrize(("code", "said"), [
    ("de", "Eintrag 1 (die Züge des Protokolls) hat den unbekannten Typ 'jump'; die Typen sind 'advance', 'buy' oder "
           "'leather'."),
    ("fr", "L'élément 1 (les coups de l'enregistrement) : type inconnu 'jump' ; les types sont 'advance', 'buy' ou "
           "'leather'."),
])
def test_an_item_of_a_list_is_named_without_gluing_cases(client: TestClient, code: str, said: str) -> None:
    """"Eintrag 1 von die Züge", "l'élément 1 de les coups" glued an article to a case it cannot take."""
    answer = client.post("/api/analysis/record", json={"circle": CIRCLE, "moves": [{"type": "jump"}]},
                         headers={"Accept-Language": code})
    assert answer.status_code == 422 and answer.json()["words"] == said
