"""The catalogues are whole: every message the source says is in each language's ``.po``,
translated, not fuzzy, with the same placeholders; the template the pseudo-locale is made from is
current. CI fails here when a message is added without its translations (docs/languages.md). Each
domain is checked: ``messages`` (the engine, the service, the CLI), ``pages`` (the pages' HTML
and scripts) and ``cli`` (the command line's ``--help`` and Click's own words)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from patchwork_opt.apps.web.page_words import DOMAIN as PAGES
from patchwork_opt.i18n import CLI_DOMAIN as CLI
from patchwork_opt.i18n import DOMAIN as MESSAGES
from patchwork_opt.i18n import LOCALE_DIR, PSEUDO, SOURCE, catalogue, languages

ROOT = Path(__file__).resolve().parents[1]
_FIELD = re.compile(r"\{([^{}]*)\}")
#: Each domain's extraction keywords (docs/languages.md) and a message it must hold.
DOMAINS = {
    MESSAGES: ([], "as pictured"),
    PAGES: (["-k", "t", "-k", "tn:1,2", "--no-default-keywords"], "How to play"),
    CLI: (["-k", "H_", "-k", "HN_:1,2", "--no-default-keywords"], "Show this message and exit."),
}


@pytest.fixture(scope="module", params=sorted(DOMAINS))
def domain(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory, domain: str) -> Catalog:
    """The messages of the source as ``pybabel extract`` finds them now (the command of docs/languages.md)."""
    out = tmp_path_factory.mktemp("pot") / f"{domain}.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", str(LOCALE_DIR / f"{domain}.cfg"),
         *DOMAINS[domain][0],
         "-c", "Translators:", "--add-location=file", "--sort-by-file", "--no-wrap", "-o", str(out), "."],
        cwd=ROOT, check=True, capture_output=True,
    )
    return _read(out, SOURCE, domain)


def _read(path: Path, locale: str, domain: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale, domain=domain)


def _keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


def _fields(texts: object) -> set[str]:
    items = texts if isinstance(texts, tuple | list) else (texts,)
    return {name for text in items for name in _FIELD.findall(str(text).replace("{{", "").replace("}}", ""))}


def test_the_source_has_messages_to_translate(extracted: Catalog, domain: str) -> None:
    assert len(_keys(extracted)) > 20, "is the extraction broken?"
    assert ("", DOMAINS[domain][1]) in {(c or "", i) for c, i in _keys(extracted)}


def test_the_template_is_current(extracted: Catalog, domain: str) -> None:
    """The domain's ``.pot`` holds what the source says (the pseudo-locale is made from it)."""
    assert _keys(_read(LOCALE_DIR / f"{domain}.pot", SOURCE, domain)) == _keys(extracted)


@pytest.mark.parametrize("code", [code for code in languages() if code != SOURCE])
def test_every_message_is_translated_with_its_placeholders(extracted: Catalog, domain: str, code: str) -> None:
    catalog = _read(LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.po", code, domain)
    entries = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
    missing = sorted(i for key in _keys(extracted) if key not in entries for i in [key[1]])
    fuzzy = sorted(key[1] for key in _keys(extracted) if key in entries and entries[key].fuzzy)
    empty, wrong = [], []
    for key in _keys(extracted):
        entry = entries.get(key)
        if entry is None:
            continue
        forms = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
        if not all(forms):
            empty.append(key[1])
        elif any(_fields(form) != _fields(entry.id) for form in forms):
            wrong.append(key[1])
    assert (missing, fuzzy, empty, wrong) == ([], [], [], []), (
        f"{domain}, {code}: missing {missing}, fuzzy {fuzzy}, untranslated {empty}, placeholders differ {wrong}")


def test_the_pseudo_locale_wraps_every_message_and_keeps_its_placeholders(domain: str) -> None:
    template = _read(LOCALE_DIR / f"{domain}.pot", SOURCE, domain)
    said = catalogue(domain, PSEUDO)
    for message in template:
        if not message.id or message.context:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        forms = said[key] if isinstance(said[key], list) else [said[key]]
        for form in forms:
            assert isinstance(form, str) and form.startswith("[") and form.endswith("]"), key
            assert _fields(form) == _fields(message.id), key


#: The polite German address. A sentence whose "sie"/"ihr" ("they", "it") would stand capitalised at its start
#: is worded otherwise, so that no reader takes it for the polite "you".
_POLITE = re.compile(r"\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b")


def test_german_says_du_to_the_player_everywhere(domain: str) -> None:
    """The pages and the service's messages share one screen, so they share one register: du, as lichess's
    German does ("du bist am Zug", "finde einen gewinnenden Zug"), never the polite Sie."""
    catalog = _read(LOCALE_DIR / "de" / "LC_MESSAGES" / f"{domain}.po", "de", domain)
    polite = sorted(str(form) for m in catalog if m.id
                    for form in (m.string if isinstance(m.string, tuple | list) else (m.string,))
                    if _POLITE.search(form or ""))
    assert polite == [], f"{domain}, de: the polite Sie in {polite}"
