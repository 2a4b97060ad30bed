"""The pages in the visitor's language: each page's HTML said in the language chosen (``?lang=``, the
picker's cookie, Accept-Language) with ``<html lang>`` set, the scripts' catalogue as JSON with plural
forms by CLDR category, and the HTML's messages found by ``pybabel extract``."""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.page_words import _category_forms, extract_html, message_of

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(base_url=LOCAL, app=create_app(tmp_path_factory.mktemp("pages") / "games.db")) as c:
        yield c


def _heading(page: str) -> str:
    found = re.search(r"<h1>([^<]*)</h1>", page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(("asked", "lang", "heading"), [
    ({"params": {"lang": "ru"}}, "ru", "Как играть в «Пэчворк»"),
    ({"headers": {"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"}}, "de", "So spielt man Patchwork"),
    ({"cookies": {"lang": "fr"}}, "fr", "Comment jouer à Patchwork"),
    ({}, "en", "How to play Patchwork"),
])
def test_how_to_play_comes_in_the_language_chosen(client: TestClient, asked: dict, lang: str, heading: str) -> None:
    client.cookies.clear()
    cookies = asked.pop("cookies", None)
    if cookies:
        client.cookies.update(cookies)
    answer = client.get("/rules", **asked)
    client.cookies.clear()
    assert answer.status_code == 200
    assert f'<html lang="{lang}"' in answer.text
    assert answer.headers["content-language"] == lang
    assert _heading(answer.text) == heading


def test_the_address_outranks_the_pickers_cookie(client: TestClient) -> None:
    client.cookies.update({"lang": "de"})
    answer = client.get("/workshop", params={"lang": "en-XA"})
    client.cookies.clear()
    assert _heading(answer.text).startswith("[") and '<html lang="en-XA"' in answer.text


def test_the_scripts_catalogue_names_the_languages_in_themselves(client: TestClient) -> None:
    answer = client.get("/i18n/ru.json").json()
    assert answer["lang"] == "ru"
    assert {"code": "de", "name": "Deutsch"} in answer["languages"]
    assert answer["messages"]["Play"] == "Играть"


def test_an_unknown_language_is_refused_in_one_line(client: TestClient) -> None:
    answer = client.get("/i18n/xx.json")
    assert answer.status_code == 404
    assert "unknown language 'xx'" in answer.json()["detail"]


@pytest.mark.parametrize(("code", "forms"), [
    ("ru", {"one": 0, "few": 1, "many": 2}),
    ("fr", {"one": 0, "many": 1, "other": 2}),
    ("de", {"one": 0, "other": 1}),
])
def test_plural_forms_are_sent_by_cldr_category(code: str, forms: dict[str, int]) -> None:
    found = _category_forms(code)
    assert {category: found[category] for category in forms} == forms


def test_a_pages_text_is_one_message_with_its_translators_note() -> None:
    page = b"""<html lang="en"><body>
      <!-- Translators: the button that starts a new game -->
      <button type="button" aria-label="Start a new game">New   game</button>
      <p>12</p>
    </body></html>"""
    extracted = extract_html(io.BytesIO(page), None, ["Translators:"], {})
    found = [(message, notes) for _line, _fn, message, notes in extracted]
    assert found == [("Start a new game", ["Translators: the button that starts a new game"]), ("New game", [])]
    assert message_of("  53 ") is None


def test_every_page_has_a_language_picker_and_a_lang_of_its_own() -> None:
    static = Path(__file__).resolve().parents[1] / "patchwork_opt" / "apps" / "web" / "static"
    for page in static.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert '<html lang="en">' in text, page.name
        assert 'id="site-nav"' in text, f"{page.name} draws no header nav, so no language picker"
