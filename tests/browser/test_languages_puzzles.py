"""An opened puzzle in its players' languages, in a real browser (issue 50): the page's own words
(the ``pages`` catalogue) and the server's (the ``messages`` catalogue: the moves, the themes, the
task) together. In the pseudo-locale (``?lang=en-XA``) at desktop and phone size an endgame and a
fill show no visible text outside the catalogues; in German, French and Russian (an endgame; a fill in
German) they show no English message of either catalogue, nothing overflowing its box, and axe-core
finds nothing serious (in German). The checks and the ``sized`` page (at each of served_pages.SCREENS)
are test_languages.py's, imported."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db)
    SCREENS,
    browser_fixture,
    checked_page,
    serious_violations,
    served_db_fixture,
    server_fixture,
)
from test_languages import (  # noqa: F401  (fixture sized)
    OVERFLOWING,
    VISIBLE_TEXT,
    english_messages,
    outside_the_catalogue,
    sized_fixture,
)

from patchwork_opt.i18n import DOMAIN, LOCALE_DIR
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle
from patchwork_opt.puzzles.kinds.fill import FillPuzzle

pytestmark = pytest.mark.slow
BANK = shipped_bank()
#: A puzzle of each kind the page opens by its id: an endgame with themes, and a fill.
PUZZLES = {
    "endgame": next(p for p in BANK.puzzles["endgame"] if isinstance(p, EndgamePuzzle) and p.themes).id,
    "fill": next(p for p in BANK.puzzles["fill"] if isinstance(p, FillPuzzle)).id,
}


@cache
def english_said(code: str) -> frozenset[str]:
    """The server's English sentences (the ``messages`` catalogue) a page in ``code`` must not show
    whole: those without placeholders whose translation differs (the page's own are
    ``english_messages``)."""
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        catalog = read_po(f, locale=code, domain=DOMAIN)
    found: set[str] = set()
    for m in catalog:
        if m.id and isinstance(m.id, str) and "{" not in m.id and re.search(r"[A-Za-z]{3}", m.id) \
                and m.string != m.id:
            found.add(m.id)
    return frozenset(found)


def opened(page: Page, server: str, kind: str, lang: str) -> Page:
    """The puzzles page in ``lang`` with the puzzle of ``kind`` open, its task and board drawn."""
    puzzle = PUZZLES[kind]
    page.goto(f"{server}/puzzles?lang={lang}#{puzzle}")
    page.wait_for_selector(f"body[data-ready=true][data-puzzle='{puzzle}'][data-busy=false]")
    page.wait_for_selector("[data-testid=task]:not(:empty)")
    return page


@pytest.mark.parametrize("kind", ["endgame", "fill"])
def test_an_opened_puzzle_in_the_pseudo_locale_has_no_text_outside_the_catalogues(sized: Page, server: str,
                                                                                   kind: str) -> None:
    opened(sized, server, kind, "en-XA")
    escaped = sorted({text for text in sized.evaluate(VISIBLE_TEXT) if outside_the_catalogue(text)})
    assert escaped == [], f"{kind}: text outside the catalogue: {escaped}"


@pytest.mark.parametrize(("kind", "code"), [("endgame", "de"), ("endgame", "fr"), ("endgame", "ru"), ("fill", "de")])
def test_an_opened_puzzle_leaves_no_english_no_overflow_and_is_accessible(browser: Browser, server: str, kind: str,
                                                                          code: str) -> None:
    for page in checked_page(browser, **SCREENS["desktop"]):
        opened(page, server, kind, code)
        assert page.evaluate("() => document.documentElement.lang") == code
        shown = page.evaluate(VISIBLE_TEXT)
        left = sorted({text for text in shown if text in english_messages(code) | english_said(code)})
        assert left == [], f"{kind} in {code}: English left: {left}"
        assert page.evaluate(OVERFLOWING) == [], f"{kind} in {code}: text overflowing its box"
        if code == "de":  # axe once a kind (German runs longest)
            assert serious_violations(page) == []
