"""The language things are said in: the language in effect, its catalogues' words, its numbers and plurals.

How to use it
-------------
Say every sentence a person reads as one whole message with named placeholders, and mark it so
``pybabel extract`` finds it (docs/languages.md has the commands)::

    from patchwork_opt.i18n import _, ngettext, number

    # Translators: a move of the player to move; {patch} is a patch number, {where} where it lies
    _("buy #{patch} at {where}", patch=18, where=where)
    ngettext("{count} button", "{count} buttons", n)          # {count} is filled in, per locale
    _("{seconds} s", seconds=number(0.5, 1))                   # "0,5 s" in de, fr and ru
    pgettext("quilt cell", "cell")                             # a context where one English word is two
    _("kind must be {kinds}", kinds=one_of(["endgame", "fill"]))  # "endgame oder fill": CLDR's list pattern

A ``# Translators:`` comment on the line before (or the line of) the call reaches the translator as
the entry's ``#.`` note. Placeholders are ``str.format`` fields filled from the keyword arguments;
a message given no keywords is returned as translated, braces and all. ``N_`` marks a message kept
in a table and translated where it is said (``_(TABLE[key])``).

The language in effect is a context variable (``LANGUAGE``): a web request sets it from
``choose(query, cookie, accept_language)`` (apps/web's middleware), the CLI from ``--lang`` or the
environment (``from_environment``); ``using("de")`` sets it for a block. English is the default, and
the source's own words are English: English needs no catalogue.

Catalogues: ``patchwork_opt/locale/<lang>/LC_MESSAGES/<domain>.po`` beside ``<domain>.pot``. The
languages are the folders that hold the ``messages`` domain (``languages()``): a fifth language is a
``.po`` file, not code. The ``.po`` files are read with Babel at first use and kept (``.mo`` files are
never built or shipped, so they cannot drift from the ``.po``); a fuzzy entry is not used. A domain
is a set of messages (``messages``: what the engine, the service and the CLI say; ``pages``: the
browser's; ``cli``: the command line's ``--help`` and Click's own words, marked ``H_``), each with
its own files; ``gettext_in`` and ``catalogue`` take the domain.

The pseudo-locale ``en-XA`` wraps and accents every message of a domain's ``.pot`` (``[Ŝţàŕţ]``,
placeholders untouched): text that shows up without the accents escaped the catalogue. It is made
from the ``.pot`` as it is read, never written by hand.

Numbers: ``number``, ``signed`` and ``percent`` write them as the locale does (Babel's CLDR data:
``0,5`` in de, fr and ru). Plurals: gettext's ``Plural-Forms`` of each catalogue (Babel writes
CLDR's rule there: Russian's one, few and many, French's singular for 0 and 1); a count that is no
whole number takes CLDR's category for it (``1,5`` is French "one"; Russian's fractional "other"
says the form of 2, its genitive singular).

Lists of names in a sentence: ``one_of`` and ``all_of`` join them by the language's own pattern (CLDR's
"or" and "and" lists) when they are written, so a domain error that keeps one among its values lists
them in its reader's language (``Listed``).

Babel is imported on first use only, so importing the engine stays light (tests/test_layers.py).
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

#: Where the catalogues live: ``<lang>/LC_MESSAGES/<domain>.po`` and ``<domain>.pot``.
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The language of the source's words.
SOURCE = "en"
#: The pseudo-locale: every message wrapped and accented (``[Ŝţàŕţ]``), made from the ``.pot``.
PSEUDO = "en-XA"
#: The engine's, the service's and the CLI's messages.
DOMAIN = "messages"

#: The language in effect (a code of ``languages()`` or ``PSEUDO``).
LANGUAGE: ContextVar[str] = ContextVar("language", default=SOURCE)


@cache
def languages() -> tuple[str, ...]:
    """The languages there are words for: English, then each folder with a ``messages`` catalogue,
    sorted (``("en", "de", "fr", "ru")``). The pseudo-locale is not among them."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE, *(code for code in found if code != SOURCE))


def known(code: str) -> str | None:
    """``code`` as one of ``languages()`` (or ``PSEUDO``), or None: ``de-AT``, ``de_DE.UTF-8`` and
    ``DE`` are ``de``."""
    if code.strip().lower() in (PSEUDO.lower(), "en_xa"):
        return PSEUDO
    base = re.split(r"[-_.@]", code.strip(), maxsplit=1)[0].lower()
    return base if base in languages() else None


def current() -> str:
    """The language in effect."""
    return LANGUAGE.get()


def set_language(code: str) -> Token[str]:
    """Put ``code`` (a known code, else English) in effect in this context; the token resets it."""
    return LANGUAGE.set(known(code) or SOURCE)


@contextmanager
def using(code: str) -> Iterator[None]:
    """``code`` in effect for a block (English for an unknown code)."""
    token = set_language(code)
    try:
        yield
    finally:
        LANGUAGE.reset(token)


# ==== choosing the language ======================================================================


def accept_language(header: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header that there are words for, most wanted first
    (``"de-CH,de;q=0.9,en;q=0.5"`` -> ``["de", "en"]``); a ``q=0`` range is refused."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        code = known(tag) if tag and tag != "*" and quality > 0 else None
        if code is not None and code != PSEUDO:
            ranked.append((-quality, i, code))
    return list(dict.fromkeys(code for _q, _i, code in sorted(ranked)))


def choose(query: str | None = None, cookie: str | None = None, accept: str | None = None) -> str:
    """The language to answer in: the address's ``?lang=``, else the ``lang`` cookie (the pages'
    picker), else the best of ``Accept-Language``, else English. An unknown code is passed over."""
    for given in (query, cookie):
        code = known(given) if given else None
        if code is not None:
            return code
    return next(iter(accept_language(accept)), SOURCE)


#: The environment variables a program's language is read from, in gettext's order.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the environment: the first of ``LANGUAGE`` (a ``:`` list, its first known
    code), ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set; English when it names no language
    there are words for (``C``, ``POSIX``)."""
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name, "")
        if not value:
            continue
        for part in value.split(":") if name == "LANGUAGE" else [value]:
            code = known(part) if part and part not in ("C", "POSIX") else None
            if code is not None:
                return code
        if name != "LANGUAGE":
            return SOURCE  # the first set of LC_ALL/LC_MESSAGES/LANG decides, as gettext reads them
    return SOURCE


# ==== catalogues ==================================================================================


def _babel_locale(code: str) -> Any:
    from babel import Locale

    return Locale.parse(SOURCE if code == PSEUDO else code)


@cache
def translations(domain: str, code: str) -> _gettext.NullTranslations:
    """The ``domain``'s words in language ``code``: its ``.po`` read with Babel (fuzzy entries left
    out), the pseudo-locale made from the ``.pot``; English, or a language without this domain's
    file, gives the source's words."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    if code == PSEUDO:
        catalog = pseudo_catalog(domain)
    else:
        path = LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.po"
        if code == SOURCE or not path.is_file():
            return _gettext.NullTranslations()
        with path.open("rb") as f:
            catalog = read_po(f, locale=code, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


_PLACEHOLDER = re.compile(r"(\{\{|\}\}|\{[^{}]*\}|<[^<>]*>|&[a-z]+;|%\([a-z_]+\)[sd])")
_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŜŢÛṼŴẊÝŽ",
)


def pseudo(text: str) -> str:
    """``text`` wrapped and accented (``Start`` -> ``[Ŝţàŕţ]``), its placeholders, markup and
    escaped braces untouched."""
    parts = _PLACEHOLDER.split(text)
    return "[" + "".join(p if i % 2 else p.translate(_ACCENTED) for i, p in enumerate(parts)) + "]"


def pseudo_catalog(domain: str) -> Any:
    """The pseudo-locale's catalogue of ``domain``: each message of its ``.pot``, pseudo-translated."""
    from babel.messages.pofile import read_po

    with (LOCALE_DIR / f"{domain}.pot").open("rb") as f:
        catalog = read_po(f, locale=SOURCE, domain=domain)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            message.string = tuple(pseudo(i) for i in message.id)
        else:
            message.string = pseudo(message.id)
    return catalog


def catalogue(domain: str, code: str) -> dict[str, str | list[str]]:
    """The ``domain``'s translated messages in ``code`` as plain data (for a page's script):
    ``{msgid: text}``, ``{msgid: [forms...]}`` for a plural (keyed by its singular), and
    ``"context\\x04msgid"`` keys for a message with a context. Empty for English."""
    table = translations(domain, code)
    raw: dict[Any, str] = getattr(table, "_catalog", {})
    out: dict[str, str | list[str]] = {}
    plural: dict[str, list[tuple[int, str]]] = {}
    for key, text in raw.items():
        if key == "":
            continue
        if isinstance(key, tuple):
            plural.setdefault(key[0], []).append((key[1], text))
        else:
            out[key] = text
    for key, forms in plural.items():
        out[key] = [text for _i, text in sorted(forms)]
    return out


# ==== saying things ===============================================================================


def N_(message: str) -> str:
    """``message`` unchanged, marked for extraction: a table's words, translated where they are said."""
    return message


#: The command line's help and Click's own words (``H_``): a domain of its own, said by the CLI's frame.
CLI_DOMAIN = "cli"


def H_(message: str) -> str:
    """``message`` unchanged, marked for the ``cli`` domain: a command's or an option's ``--help`` text
    or one of Click's own words, translated where the command line's frame shows it
    (``apps/click_words.py``). Extracted with ``-k H_ -k HN_:1,2 --no-default-keywords``, so the
    ``messages`` template does not take it in."""
    return message


def HN_(singular: str, plural: str) -> tuple[str, str]:
    """``H_`` for a message with plural forms: ``(singular, plural)`` unchanged, said with a count."""
    return singular, plural


def gettext_in(domain: str, message: str, /, **values: Any) -> str:
    """``message`` of ``domain`` in the language in effect, its ``{placeholders}`` filled from ``values``."""
    text = translations(domain, current()).gettext(message)
    return text.format(**values) if values else text


def _(message: str, /, **values: Any) -> str:
    """``message`` in the language in effect, its ``{placeholders}`` filled from ``values``."""
    return gettext_in(DOMAIN, message, **values)


def pgettext(context: str, message: str, /, **values: Any) -> str:
    """``_`` for a message that needs a ``context`` to be translated right (one English word, two meanings)."""
    text = translations(DOMAIN, current()).pgettext(context, message)
    return text.format(**values) if values else text


def _plural_index(count: float | int | Decimal) -> int:
    """The whole number whose plural form ``count`` takes in the language in effect: ``count`` when
    it is whole; else the smallest whole number in CLDR's category of ``count`` (2 when none is:
    Russian's "other", whose words take the genitive singular, the form of 2). A ``Decimal`` counts
    its shown decimals, as CLDR does: ``decimal(1, 1)`` ("1.0") is English "other", "1.0 points"."""
    shown = isinstance(count, Decimal) and int(count.as_tuple().exponent) < 0
    if not shown and float(count).is_integer():
        return abs(int(count))
    rule = _babel_locale(current()).plural_form
    category = rule(count)
    return next((n for n in range(200) if rule(n) == category), 2)


def ngettext(singular: str, plural: str, count: float | int | Decimal, /, **values: Any) -> str:
    """The form of ``singular``/``plural`` that ``count`` takes in the language in effect, with
    ``{count}`` written as the locale writes numbers and the other placeholders from ``values``."""
    text = translations(DOMAIN, current()).ngettext(singular, plural, _plural_index(count))
    values.setdefault("count", number(count))
    return text.format(**values)


def npgettext(
    context: str, singular: str, plural: str, count: float | int | Decimal, /, **values: Any
) -> str:
    """``ngettext`` with a ``context``."""
    text = translations(DOMAIN, current()).npgettext(context, singular, plural, _plural_index(count))
    values.setdefault("count", number(count))
    return text.format(**values)


# ==== numbers =====================================================================================


def _pattern(digits: int | None, sign: bool) -> str | None:
    if digits is None and not sign:
        return None
    body = "#,##0" + ("." + "0" * digits if digits else "" if digits is not None else ".###")
    return f"+{body};-{body}" if sign else body


def decimal(value: float | int, digits: int) -> Decimal:
    """``value`` rounded to ``digits`` decimals that it keeps when counted or written: the count of
    ``ngettext`` for a figure shown with decimals (``decimal(1.0, 1)`` says "1.0 points")."""
    return Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-digits))


def number(value: float | int | Decimal, digits: int | None = None) -> str:
    """``value`` as the language in effect writes it: ``0,5`` in de, fr and ru, ``1 234`` in fr;
    ``digits`` fixes the decimals (none given: a ``Decimal``'s own, else as many as it has, up to 3)."""
    if isinstance(value, int) and digits is None and abs(value) < 1000:
        return str(value)  # the common case needs no locale data
    if isinstance(value, Decimal) and digits is None and int(value.as_tuple().exponent) < 0:
        digits = -int(value.as_tuple().exponent)
    from babel.numbers import format_decimal

    return str(format_decimal(value, format=_pattern(digits, False), locale=_babel_locale(current())))


def signed(value: float | int | Decimal, digits: int | None = None) -> str:
    """``number`` with its sign always shown: ``+0,25``, ``-1``."""
    from babel.numbers import format_decimal

    return str(format_decimal(value, format=_pattern(digits, True), locale=_babel_locale(current())))


def percent(share: float, digits: int = 0, *, sign: bool = False) -> str:
    """``share`` (0.5) as a percentage the locale's way: ``50%``, ``50 %`` in de and fr; ``sign``
    shows a plus too (``+9%``), but none on what rounds to zero."""
    from babel.numbers import format_percent

    body = "#,##0" + ("." + "0" * digits if digits else "")
    locale = _babel_locale(current())
    pattern = locale.percent_formats[None].pattern.split(";")[0].replace("#,##0", body, 1)
    if sign and round(abs(share) * 100, digits) > 0:
        pattern = f"+{pattern};-{pattern}"
    return str(format_percent(share, format=pattern, locale=locale))


# ==== lists of names ==============================================================================


@dataclass(frozen=True, slots=True)
class Listed:
    """Names said as one list in the language in effect *when it is written* (``format``, ``str``):
    ``endgame or fill``, ``endgame oder fill``, ``endgame ou fill``, ``endgame или fill`` (CLDR's
    list patterns, Babel's ``format_list``). A domain error keeps it as a value, so its line lists
    the names in the reader's language when ``core.errors.words`` says it, and ``str(error)`` in
    English; a sentence said at once (``_``) lists them in the language in effect."""

    items: tuple[str, ...]
    style: str

    def __str__(self) -> str:
        if len(self.items) < 2:
            return "".join(self.items)
        from babel.lists import format_list

        return str(format_list(list(self.items), style=self.style, locale=_babel_locale(current())))  # type: ignore[arg-type]

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def one_of(items: Iterable[object]) -> Listed:
    """The names as alternatives: ``endgame or fill`` (``a, b, or c``; ``a, b oder c`` in German)."""
    return Listed(tuple(str(item) for item in items), "or")


def all_of(items: Iterable[object]) -> Listed:
    """The names all together: ``endgame and fill`` (``a, b, and c``; ``a, b и c`` in Russian)."""
    return Listed(tuple(str(item) for item in items), "standard")
