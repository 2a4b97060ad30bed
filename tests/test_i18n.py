"""The language things are said in: choosing it (query, cookie, Accept-Language, the environment),
CLDR's plurals (Russian's one/few/many, French's singular for 0 and 1), the locale's decimals, the
pseudo-locale, and a fifth language that is a file alone."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from patchwork_opt import i18n
from patchwork_opt.core.move import Move
from patchwork_opt.core.words import move_words, player_name
from patchwork_opt.i18n import PSEUDO, choose, from_environment, number, percent, pseudo, signed, using


def test_the_four_languages_are_found_from_the_locale_folder() -> None:
    assert set(i18n.languages()) >= {"en", "de", "fr", "ru"}
    assert i18n.languages()[0] == "en"


@pytest.mark.parametrize(("count", "word"), [
    (1, "пуговица"), (2, "пуговицы"), (5, "пуговиц"), (11, "пуговиц"), (21, "пуговица"), (22, "пуговицы"),
    (25, "пуговиц"), (0, "пуговиц"), (12, "пуговиц"), (104, "пуговицы")])
def test_russian_counts_take_cldr_one_few_and_many(count: int, word: str) -> None:
    with using("ru"):
        said = move_words(Move.advance(), count)
    assert said.endswith(f"(+{count} {word})"), said


@pytest.mark.parametrize(("count", "said"), [
    (0, "avancer de 0 case (+0 bouton)"), (1, "avancer de 1 case (+1 bouton)"),
    (2, "avancer de 2 cases (+2 boutons)")])
def test_french_says_the_singular_for_zero_and_one(count: int, said: str) -> None:
    with using("fr"):
        assert move_words(Move.advance(), count) == said


def test_german_and_english_say_the_singular_for_one_only() -> None:
    with using("de"):
        assert move_words(Move.advance(), 1) == "1 Feld vorrücken (+1 Knopf)"
        assert move_words(Move.advance(), 0) == "0 Felder vorrücken (+0 Knöpfe)"
    assert move_words(Move.advance(), 1) == "advance 1 space (+1 button)"


def test_a_count_that_is_no_whole_number_takes_its_cldr_category() -> None:
    one, many = "advance {count} space (+{count} button)", "advance {count} spaces (+{count} buttons)"
    with using("fr"):  # 1,5 is French "one"
        assert i18n.ngettext(one, many, 1.5) == "avancer de 1,5 case (+1,5 bouton)"
    with using("ru"):  # Russian's "other": the genitive singular, the form of 2
        assert i18n.ngettext(one, many, 1.5) == "продвинуться на 1,5 деления (+1,5 пуговицы)"
    assert i18n.ngettext(one, many, 1.5) == "advance 1.5 spaces (+1.5 buttons)"


@pytest.mark.parametrize(("code", "half", "plus", "share"), [
    ("en", "0.5", "+0.25", "50%"), ("de", "0,5", "+0,25", "50\xa0%"), ("fr", "0,5", "+0,25", "50\xa0%"),
    ("ru", "0,5", "+0,25", "50\xa0%")])
def test_numbers_follow_the_locale(code: str, half: str, plus: str, share: str) -> None:
    with using(code):
        assert (number(0.5, 1), signed(0.25, 2), percent(0.5)) == (half, plus, share)


def test_the_language_in_effect_is_set_for_a_block_and_restored() -> None:
    with using("ru"):
        assert player_name(0) == "Игрок 1"
        with using("xx"):  # unknown: English
            assert player_name(1) == "Player 2"
        assert i18n.current() == "ru"
    assert player_name(0) == "Player 1"


def test_choosing_takes_the_address_then_the_cookie_then_accept_language() -> None:
    assert choose("fr", "de", "ru") == "fr"
    assert choose(None, "de", "ru") == "de"
    assert choose("xx", None, "de-CH,de;q=0.9,en;q=0.5") == "de"
    assert choose(None, None, "es, ru;q=0.8, de;q=0.9") == "de"
    assert choose(None, None, "ru;q=0, fr;q=0.1") == "fr"
    assert choose(None, None, "es") == "en"
    assert choose(None, None, None) == "en"


@pytest.mark.parametrize(("environ", "code"), [
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LANGUAGE": "xx:fr:de", "LANG": "de_DE.UTF-8"}, "fr"),
    ({"LC_ALL": "ru_RU.UTF-8", "LANG": "de_DE.UTF-8"}, "ru"), ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_MESSAGES": "fr_FR", "LANG": "C.UTF-8"}, "fr"), ({}, "en")])
def test_the_environment_names_the_language_as_gettext_reads_it(environ: dict[str, str], code: str) -> None:
    assert from_environment(environ) == code


def test_the_pseudo_locale_wraps_and_accents_but_keeps_placeholders() -> None:
    assert pseudo("Start") == "[Ŝţàŕţ]"
    assert pseudo("buy #{patch} at {where}") == "[ƀûý #{patch} àţ {where}]"
    with using(PSEUDO):
        assert player_name(0) == "[Þĺàýéŕ 1]"


def test_a_fifth_language_is_a_catalogue_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(i18n.LOCALE_DIR, tmp_path / "locale")
    nl = tmp_path / "locale" / "nl" / "LC_MESSAGES"
    nl.mkdir(parents=True)
    text = (i18n.LOCALE_DIR / "de" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    (nl / "messages.po").write_text(text.replace('msgstr "Spieler {number}"', 'msgstr "Speler {number}"'),
                                    encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    i18n.languages.cache_clear()
    i18n.translations.cache_clear()
    try:
        assert "nl" in i18n.languages()
        assert choose(None, None, "nl-BE,en;q=0.5") == "nl"
        with using("nl"):
            assert player_name(1) == "Speler 2"
    finally:
        monkeypatch.undo()
        i18n.languages.cache_clear()
        i18n.translations.cache_clear()


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.ClassDef)


def _own_scope(node: ast.AST) -> list[ast.AST]:
    """The nodes of ``node``'s own scope: not those of a function, lambda or comprehension inside it."""
    out: list[ast.AST] = []
    for child in ast.iter_child_nodes(node):
        out.append(child)
        if not isinstance(child, _SCOPES):
            out += _own_scope(child)
    return out


def _binds_underscore(tree: ast.AST) -> list[int]:
    """Functions that bind ``_`` in their own scope (a loop or unpacking target, an argument) and say
    a message with ``_(...)``: there ``_`` is the local, not ``i18n._``, and saying fails."""
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = func.args
        named = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a]
        stored = [n for n in _own_scope(func)
                  if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)]
        says = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                   for n in ast.walk(func))
        if says and ("_" in named or stored):
            found.append(func.lineno)
    return found


def test_no_module_that_says_words_hides_the_translation_function() -> None:
    root = Path(__file__).resolve().parents[1]
    wrong = []
    for path in [*root.joinpath("patchwork_opt").rglob("*.py"), root / "cli.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = any(isinstance(n, ast.ImportFrom) and n.module == "patchwork_opt.i18n"
                      and any(a.name == "_" for a in n.names) for n in ast.walk(tree))
        if imports:
            wrong += [f"{path.relative_to(root)}:{line}" for line in _binds_underscore(tree)]
    assert wrong == []
