"""The pages' words (the ``pages`` catalogue): each page's HTML said in the request's language as it is
served, and the catalogue the pages' scripts read (``GET /i18n/{lang}.json``).

One source: a page's HTML is written in English; every text between tags and every ``aria-label``,
``title``, ``placeholder`` and ``alt`` of it is a message of the ``pages`` domain, found by
``extract_html`` (``pybabel extract`` with ``locale/pages.cfg``) and replaced here by its translation
(a ``<!-- Translators: ... -->`` comment before a text reaches the translator). Scripts say their words
through ``js/components/i18n.js`` (``t``/``tn``), which reads the same catalogue as JSON; plural forms
are sent keyed by CLDR's category (one, few, many, other), which ``Intl.PluralRules`` names in the
page, so the page needs no plural rule of its own. ``<html lang>`` is the language the page is in.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import IO, Any

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.i18n import PSEUDO, SOURCE, _, catalogue, gettext_in, languages, translations

#: The pages' own words, beside the engine's ``messages``.
DOMAIN = "pages"
STATIC_DIR = Path(__file__).parent / "static"
#: Attributes a person reads (or hears, from a screen reader).
READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")

_TEXT = re.compile(r">([^<]+)<")
_ATTRIBUTE = re.compile(r'\b(' + "|".join(READ_ATTRIBUTES) + r')="([^"]*)"')
_HTML_LANG = re.compile(r'<html lang="[^"]*"')
_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
_SPACE = re.compile(r"\s+")
#: Text with nothing to translate: numbers, signs, notation.
_NO_WORDS = re.compile(r"^[\W\d_]*$")


class UnknownLanguageError(PatchworkError):
    """A language there are no words for (``GET /i18n/{lang}.json``)."""

    http_status = 404

    def __init__(self, code: str) -> None:
        super().__init__(_("unknown language {code!r}: one of {codes}", code=code, codes=", ".join(languages())))


def message_of(text: str) -> str | None:
    """The message a text of a page is (its words, spaces collapsed), or None when it has no words."""
    said = _SPACE.sub(" ", html.unescape(text)).strip()
    return None if _NO_WORDS.match(said) else said


def _said(text: str, code: str) -> str:
    """``text`` of a page in language ``code``, its surrounding spaces kept."""
    message = message_of(text)
    if message is None:
        return text
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    translated = translations(DOMAIN, code).gettext(message)
    return lead + html.escape(translated, quote=False) + trail


@cache
def page_in(name: str, code: str) -> str:
    """The page ``name`` (a file of ``static/``) in language ``code``, with ``<html lang>`` set."""
    page = _COMMENT.sub("", (STATIC_DIR / name).read_text(encoding="utf-8"))
    if code != SOURCE:
        page = _TEXT.sub(lambda m: ">" + _said(m.group(1), code) + "<", page)
        page = _ATTRIBUTE.sub(
            lambda m: f'{m.group(1)}="{html.escape(_said(m.group(2), code).strip() or m.group(2))}"', page
        )
    return _HTML_LANG.sub(f'<html lang="{code}"', page, count=1)


def _category_forms(code: str) -> dict[str, int]:
    """Which gettext plural form each CLDR category takes in ``code``: the catalogue's own rule read
    at whole and fractional numbers, named by Babel's CLDR category of each."""
    from babel import Locale

    locale = Locale.parse(SOURCE if code == PSEUDO else code)
    table = translations(DOMAIN, code)
    index_of: Any = getattr(table, "plural", lambda n: int(n != 1))
    found: dict[str, int] = {}
    for n in [*range(0, 200), 1_000_000, 0.5, 1.5, 2.5]:
        found.setdefault(locale.plural_form(n), int(index_of(int(n)) if n == int(n) else index_of(2)))
    return found


@cache
def page_catalogue(code: str) -> dict[str, Any]:
    """What ``GET /i18n/{code}.json`` sends: the language, the languages a page may offer (each named in
    itself), and the pages' messages ``{msgid: text}``, a plural as ``{category: text}``."""
    from babel import Locale

    forms = _category_forms(code) if code != SOURCE else {}
    messages: dict[str, Any] = {}
    for key, text in catalogue(DOMAIN, code).items():
        messages[key] = {category: text[i] for category, i in forms.items() if i < len(text)} \
            if isinstance(text, list) else text
    offered = [{"code": c, "name": (Locale.parse(c).get_display_name(c) or c).capitalize()} for c in languages()]
    return {"lang": code, "languages": offered, "messages": messages}


def say(message: str, /, **values: Any) -> str:
    """``message`` of the pages' catalogue in the language in effect (a page's words said by the server)."""
    return gettext_in(DOMAIN, message, **values)


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method for the pages' HTML (``locale/pages.cfg``): each text between tags
    and each read attribute, as ``pybabel extract`` wants them; a ``<!-- Translators: ... -->``
    comment goes with the message after it."""
    page = fileobj.read().decode("utf-8")
    # comments blanked in place (lines kept), each translator's note kept at its end
    notes = {m.end(): _SPACE.sub(" ", m.group(1).strip()) for m in _COMMENT.finditer(page)
             if any(m.group(1).strip().startswith(tag) for tag in comment_tags)}
    clean = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), page)
    found: list[tuple[int, str]] = []
    for pattern, group in ((_TEXT, 1), (_ATTRIBUTE, 2)):
        for m in pattern.finditer(clean):
            message = message_of(m.group(group))
            if message is not None:
                found.append((m.start(group), message))
    pending = sorted(notes.items())
    for at, message in sorted(found):
        said = [note for end, note in pending if end <= at]
        pending = [(end, note) for end, note in pending if end > at]
        yield clean.count("\n", 0, at) + 1, None, message, said[-1:]
