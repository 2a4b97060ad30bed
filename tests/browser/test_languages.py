"""The pages in their players' languages, in a real browser (issue 50). In the pseudo-locale
(``?lang=en-XA``: every message wrapped and accented) at desktop and phone size, a page shows no
visible text outside the catalogues; in German, Russian and French it shows no English message, no
button, label or heading whose text overflows its box (German runs about 30% longer), and axe-core
finds nothing serious. The language picker switches the language, the choice (a cookie) survives a
reload, and ``?lang=ru`` gives ``<html lang="ru">``.

The pages are checked as they open: the workshop, the analysis board, how to play, the puzzles page
(its introduction, before a puzzle is asked for) and the game page's welcome (before a game starts:
the game screen's scripts, js/game/*, still say their words in English)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page, expect
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db)
    browser_fixture,
    checked_page,
    serious_violations,
    served_db_fixture,
    server_fixture,
)

from patchwork_opt.apps.web.page_words import DOMAIN
from patchwork_opt.i18n import LOCALE_DIR

pytestmark = pytest.mark.slow
#: The pages wholly translated, and what each shows once ready.
PAGES = {"/workshop": "body[data-ready='true']", "/analysis": "body[data-ready='true']", "/rules": "#site-nav a",
         "/puzzles": "body[data-ready='true'][data-busy='false']", "/": "body[data-ready='true']"}
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

#: The visible text of a page, a text node (or a read attribute) at a time: the picker's language
#: names (each in itself) and <code> (commands) left out.
VISIBLE_TEXT = """() => {
  const out = [];
  const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("code, script, style, .language-picker select") || !shown(el)) continue;
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    if (text) out.push(text);
  }
  for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!shown(el) || el.closest(".language-picker select")) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const text = (el.getAttribute(name) || "").trim();
      if (text) out.push(text);
    }
  }
  return out;
}"""

#: Buttons, labels and headings whose text runs out of their box.
OVERFLOWING = """() => [...document.querySelectorAll("button, label, h1, h2, h3, legend, summary, th, .site-nav a")]
  .filter((el) => el.getClientRects().length > 0 && !el.closest(".sr-only") && el.clientWidth > 1
    && el.scrollWidth > el.clientWidth + 1)
  .map((el) => `${el.tagName.toLowerCase()}#${el.id}: ${el.textContent.trim().slice(0, 60)}`)"""


@cache
def english_messages(code: str) -> frozenset[str]:
    """The English messages a page in ``code`` must not show: those whose translation differs."""
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        catalog = read_po(f, locale=code, domain=DOMAIN)
    found: set[str] = set()
    for m in catalog:
        if not m.id:
            continue
        ids = [str(x) for x in m.id] if isinstance(m.id, tuple | list) else [str(m.id)]
        forms = [str(x) for x in m.string] if isinstance(m.string, tuple | list) else [str(m.string)]
        for english in ids:
            if "{" not in english and re.search(r"[A-Za-z]{3}", english) and english not in forms:
                found.add(english)
    return frozenset(found)


def outside_the_catalogue(text: str) -> str:
    """What of a text is not a pseudo-translation: the text with every ``[...]`` (innermost first)
    taken out, when a word of two letters or more is left."""
    left, before = text, None
    while left != before:
        before, left = left, re.sub(r"\[[^\[\]]*\]", " ", left)
    return left if re.search(r"[A-Za-z]{2,}", left) else ""


@pytest.fixture(name="sized", params=sorted(SIZES))
def sized_fixture(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    for page in checked_page(browser, viewport=SIZES[request.param]):
        page.set_default_timeout(120_000)
        yield page


def opened(page: Page, server: str, path: str, lang: str) -> Page:
    page.goto(f"{server}{path}?lang={lang}")
    page.wait_for_selector(PAGES[path])
    return page


@pytest.mark.parametrize("path", sorted(PAGES))
def test_the_pseudo_locale_leaves_no_text_outside_the_catalogue(sized: Page, server: str, path: str) -> None:
    opened(sized, server, path, "en-XA")
    escaped = sorted({text for text in sized.evaluate(VISIBLE_TEXT) if outside_the_catalogue(text)})
    assert escaped == [], f"{path}: text outside the catalogue: {escaped}"


@pytest.mark.parametrize("code", ["de", "fr", "ru"])
@pytest.mark.parametrize("path", sorted(PAGES))
def test_each_language_leaves_no_english_no_overflow_and_is_accessible(sized: Page, server: str, path: str,
                                                                        code: str) -> None:
    opened(sized, server, path, code)
    assert sized.evaluate("() => document.documentElement.lang") == code
    english = english_messages(code)
    left = sorted({text for text in sized.evaluate(VISIBLE_TEXT) if text in english})
    assert left == [], f"{path} in {code}: English left: {left}"
    assert sized.evaluate(OVERFLOWING) == [], f"{path} in {code}: text overflowing its box"
    if sized.viewport_size and sized.viewport_size["width"] > 1000:  # axe once a page and language
        assert serious_violations(sized) == []


def test_the_picker_switches_the_language_and_a_reload_keeps_it(sized: Page, server: str) -> None:
    sized.goto(f"{server}/workshop")
    sized.wait_for_selector("body[data-ready='true']")
    assert sized.evaluate("() => document.documentElement.lang") == "en"
    sized.get_by_role("combobox", name="Language").select_option("de")
    sized.wait_for_function("() => document.documentElement.lang === 'de'")
    sized.wait_for_selector("body[data-ready='true']")
    expect(sized.get_by_role("heading", level=1)).to_have_text("Patchwork-Werkstatt")
    sized.reload()
    sized.wait_for_selector("body[data-ready='true']")
    assert sized.evaluate("() => document.documentElement.lang") == "de"
    expect(sized.get_by_role("button", name="Optimale Füllung")).to_be_visible()
    sized.goto(f"{server}/rules?lang=ru")
    expect(sized.locator("html")).to_have_attribute("lang", "ru")
