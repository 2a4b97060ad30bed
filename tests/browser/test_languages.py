"""The pages in their players' languages, in a real browser (issue 50). In the pseudo-locale
(``?lang=en-XA``: every message wrapped and accented) at desktop and phone size, a page shows no
visible text outside the catalogues; in German, Russian and French it shows no English message, no
button, label or heading whose text overflows its box (German runs about 30% longer), and axe-core
finds nothing serious. The language picker switches the language, the choice (a cookie) survives a
reload, and ``?lang=ru`` gives ``<html lang="ru">``.

The pages are checked as they open: the workshop, the analysis board, how to play, the puzzles page
(its introduction, before a puzzle is asked for) and the game page's welcome. The game page is also
checked as its scripts (js/game/*) speak during a game against the AI (a move made and the AI's
answer: the status line, the boards, the moves played) and after one (the result, the scores and
the review: on the rigged server, whose review is instant), in the pseudo-locale at both sizes and
in German, French and Russian; and a game between people (a friend by a link, then two players at
one device) in the pseudo-locale and German."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page, expect
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db, rigged_server, rigged_db, rigged_store)
    SCREENS,
    advancing_game,
    browser_fixture,
    checked_page,
    rigged_db_fixture,
    rigged_server_fixture,
    rigged_store_fixture,
    serious_violations,
    served_db_fixture,
    server_fixture,
)

from patchwork_opt.apps.web.game_store import GameStore
from patchwork_opt.apps.web.page_words import DOMAIN
from patchwork_opt.i18n import LOCALE_DIR

pytestmark = pytest.mark.slow
#: The pages wholly translated, and what each shows once ready.
PAGES = {"/workshop": "body[data-ready='true']", "/analysis": "body[data-ready='true']", "/rules": "#site-nav a",
         "/puzzles": "body[data-ready='true'][data-busy='false']", "/": "body[data-ready='true']"}

#: The visible text of a page, a text node (or a read attribute) at a time: the picker's language
#: names (each in itself), <code> (commands) and what the argument's selector matches left out.
VISIBLE_TEXT = """(skip) => {
  const out = [];
  const left = `code, script, style, .language-picker select${skip ? `, ${skip}` : ""}`;
  const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(left) || !shown(el)) continue;
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    if (text) out.push(text);
  }
  for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!shown(el) || el.closest(left)) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const text = (el.getAttribute(name) || "").trim();
      if (text) out.push(text);
    }
  }
  return out;
}"""

#: Buttons, labels and headings whose text runs out of their box.
OVERFLOWING = """() => {
  const panelOf = (el) => el.parentElement && el.parentElement.closest("section, .board, .side");
  const beyond = (el) => {  // a control wider than its panel: it spills over the next one
    const panel = panelOf(el);
    if (!panel) return false;
    const r = el.getBoundingClientRect(), p = panel.getBoundingClientRect();
    return r.right > p.right + 1 || r.left < p.left - 1;
  };
  return [...document.querySelectorAll("button, label, h1, h2, h3, legend, summary, th, .site-nav a")]
    .filter((el) => el.getClientRects().length > 0 && !el.closest(".sr-only") && el.clientWidth > 1
      && (el.scrollWidth > el.clientWidth + 1 || beyond(el)))
    .map((el) => `${el.tagName.toLowerCase()}#${el.id}: ${el.textContent.trim().slice(0, 60)}`);
}"""


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


@pytest.fixture(name="sized", params=sorted(SCREENS))
def sized_fixture(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A checked page at each of ``SCREENS`` (test_languages_puzzles.py uses it too)."""
    for page in checked_page(browser, **SCREENS[request.param]):
        page.set_default_timeout(120_000)
        yield page


def opened(page: Page, server: str, path: str, lang: str) -> Page:
    page.goto(f"{server}{path}?lang={lang}")
    page.wait_for_selector(PAGES[path])
    return page


def check_words(page: Page, where: str, lang: str, skip: str = "") -> None:
    """The page as it is now: in the pseudo-locale no text outside the catalogue; in a language no
    English message, no text overflowing its box, and (once a page and language, at desktop size)
    nothing serious for axe-core. ``skip``: a selector of what is not read."""
    shown = page.evaluate(VISIBLE_TEXT, skip)
    if lang == "en-XA":
        escaped = sorted({text for text in shown if outside_the_catalogue(text)})
        assert escaped == [], f"{where}: text outside the catalogue: {escaped}"
        return
    english = english_messages(lang)
    left = sorted({text for text in shown if text in english})
    assert left == [], f"{where} in {lang}: English left: {left}"
    assert page.evaluate(OVERFLOWING) == [], f"{where} in {lang}: text overflowing its box"
    if page.viewport_size and page.viewport_size["width"] > 1000:
        assert serious_violations(page) == []


def settled(page: Page) -> None:
    """No request running, and the person to move or the game over."""
    page.wait_for_selector("body[data-busy='false']:is([data-turn='human'], [data-turn='over'])")


def start(page: Page, server: str, lang: str, opponent: str = "ai") -> None:
    """A new game from the welcome screen (seed 12, the greedy AI), the page in ``lang``."""
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("body[data-ready='true']")
    page.select_option("#opponent", opponent)
    page.fill("#seed", "12")
    page.click("#welcome-start")
    page.wait_for_selector(f"body[data-busy='false'][data-opponent='{opponent}']")


@pytest.mark.parametrize("lang", ["en-XA", "de", "fr", "ru"])
def test_the_game_screen_speaks_the_language_during_and_after_a_game(sized: Page, rigged_server: str,
                                                                     rigged_store: GameStore, lang: str) -> None:
    start(sized, rigged_server, lang)
    settled(sized)
    sized.click("#advance")
    sized.wait_for_function("() => Number(document.body.dataset.ply) >= 2")
    settled(sized)
    expect(sized.locator("#status")).not_to_be_empty()
    expect(sized.locator("#log li")).not_to_have_count(0)
    check_words(sized, "the game screen during a game", lang)
    finished = advancing_game(rigged_store, seed=4)
    sized.goto(f"{rigged_server}/?lang={lang}#{finished.id}")
    sized.wait_for_selector("body[data-ready='true'][data-turn='over'][data-busy='false']")
    sized.click("#review-start")
    sized.wait_for_selector("body[data-review-ply='0'][data-busy='false']")
    expect(sized.locator("#review-marks li")).not_to_have_count(0)
    # the win-chance chart (the server's picture, apps/chart.py: its title, axis and percentages) is read too
    check_words(sized, "a finished game and its review", lang)


@pytest.mark.parametrize("lang", ["en-XA", "de"])
def test_a_game_between_people_speaks_the_language(browser: Browser, rigged_server: str, lang: str) -> None:
    for page in checked_page(browser, **SCREENS["desktop"]):
        page.set_default_timeout(120_000)
        start(page, rigged_server, lang, "friend")  # the invite link, who plays first
        page.click("#advance")
        page.wait_for_selector("body[data-busy='false'][data-turn='other']")
        expect(page.locator("#last-moved")).not_to_be_empty()
        check_words(page, "a game with a friend", lang)
        start(page, rigged_server, lang, "here")  # two players at this device: Player 1, Player 2
        page.click("#advance")
        page.wait_for_selector("body[data-busy='false'][data-turn='human'][data-ply='1']")
        check_words(page, "a game at one device", lang)


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
