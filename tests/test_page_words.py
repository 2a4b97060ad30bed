"""The pages in the visitor's language: each page's HTML said in the language chosen (``?lang=``, the
picker's cookie, Accept-Language) with ``<html lang>`` set, the scripts' catalogue as JSON with plural
forms by CLDR category, and the HTML's messages found by ``pybabel extract``."""

from __future__ import annotations

import ast
import io
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.page_words import _category_forms, extract_html, message_of

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
ROOT = Path(__file__).resolve().parents[1]


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


#: A string literal of JavaScript, and a ``t(`` or ``tn(`` call whose message is literals joined with ``+``
#: (what ``pybabel extract`` reads) or a template literal (which it does not).
_JS_LITERAL = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
_JS_SAID = re.compile(rf"""(?<![\w$.])tn?\(\s*({_JS_LITERAL}(?:\s*\+\s*{_JS_LITERAL})*|`)""")


def _messages_by_file() -> dict[str, set[str]]:
    """Each file the pages' template names, and the messages it found there."""
    with (ROOT / "patchwork_opt" / "locale" / "pages.pot").open("rb") as template:
        catalogue = read_po(template, domain="pages")
    found: dict[str, set[str]] = {}
    for message in catalogue:
        if message.id:
            for file, _line in message.locations:
                found.setdefault(file, set()).add(message.id if isinstance(message.id, str) else message.id[0])
    return found


def test_every_message_the_scripts_say_is_in_the_pages_template() -> None:
    # pybabel's JavaScript extractor misses a t() inside a quoted attribute of a template literal
    # (aria-label="${t(...)}") and any message written as a template literal, and such a message shows in
    # English in every language: each call must be found in its own file's entries of pages.pot.
    extracted = _messages_by_file()
    missed = []
    for script in sorted((ROOT / "patchwork_opt" / "apps" / "web" / "static" / "js").rglob("*.js")):
        source = script.read_text(encoding="utf-8")
        file = script.relative_to(ROOT).as_posix()
        for call in _JS_SAID.finditer(source):
            line = source.count("\n", 0, call.start()) + 1
            if call.group(1) == "`":
                missed.append(f"{file}:{line}: a template literal as the message (give t() named values instead)")
                continue
            message = "".join(ast.literal_eval(part) for part in re.findall(_JS_LITERAL, call.group(1)))
            if message not in extracted.get(file, set()):
                missed.append(f"{file}:{line}: {message!r} is not in pages.pot (say it before the template)")
    assert missed == []
