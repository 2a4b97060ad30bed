"""The command line's help and Click's own words follow the language (``--lang``, else the
environment): every command's and option's help, the help's frame ("Usage:", "Options",
"[default: 6]") and the usage errors ("Missing option '--patches'"), through the ``cli`` catalogue
(docs/languages.md). Nothing escapes it (the pseudo-locale finds every help text wrapped), and no
language carries over from one command to the next in one process."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cli import app
from patchwork_opt import i18n
from patchwork_opt.apps import click_words, typer_app

runner = CliRunner()
NO_LOCALE = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}


def _flat(text: str) -> str:
    """``text`` with its whitespace as one space each (Click wraps help lines where it likes)."""
    return " ".join(text.split())


def _bare(text: str) -> str:
    """``text`` without whitespace: Click also breaks a line after a hyphen ("solver-" / "rollout")."""
    return "".join(text.split())


def _commands() -> list[tuple[list[str], Any]]:
    """Every command and group of ``patchwork`` with its path, the root first."""
    root = typer.main.get_command(app)
    found: list[tuple[list[str], Any]] = [([], root)]
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        found.append(([name], command))
        found += [([name, sub], c) for sub, c in (getattr(command, "commands", None) or {}).items()]
    return found


def _english_help(command: Any) -> list[str]:
    """The help texts a command's help page shows: its own and its parameters'."""
    texts = [command.help] + [p.help for p in command.params] + ["Show this message and exit."]
    return [t for t in texts if t]


def _help(args: list[str], env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, [*args, "--help"], env=env or NO_LOCALE, prog_name="patchwork")
    assert result.exit_code == 0, result.output
    assert i18n.current() == i18n.SOURCE  # the language of one command is not the next one's
    return result.stdout


def test_hint_help_in_german_with_lang() -> None:
    shown = _help(["--lang", "de", "hint"])
    assert shown.startswith("Aufruf: patchwork hint [OPTIONS] {QUILT|POSITION|RECORD}")
    for heading in ("Argumente:", "Optionen:"):
        assert f"\n{heading}\n" in shown
    flat = _flat(shown)
    assert "Die besten Platzierungen eines Flickens" in flat
    assert "[Standard: 6]" in flat and "[erforderlich]" in flat and "Diese Hilfe zeigen und beenden." in flat
    english = [_bare(t) for t in _english_help(typer.main.get_command(app).commands["hint"])]  # type: ignore[attr-defined]
    assert [t for t in english if t in _bare(shown)] == []
    assert not re.search(r"\b(Usage|Options|Arguments|default|required)\b", shown)


def test_the_group_help_in_german_from_the_environment() -> None:
    """``patchwork --help`` answers before any command runs: the environment's language is in effect already."""
    shown = _help([], env={**NO_LOCALE, "LANG": "de_DE.UTF-8"})
    assert shown.startswith("Aufruf: patchwork [OPTIONS] COMMAND [ARGS]...")
    assert "\nBefehle:\n" in shown and "\nOptionen:\n" in shown
    assert re.search(r"^  hint +Die besten Platzierungen", shown, re.MULTILINE)
    assert re.search(r"^  --lang CODE +Sprache der Ausgaben", shown, re.MULTILINE)
    assert "Show this message" not in shown and "Best placements" not in shown


def test_lang_before_help_wins_over_the_environment() -> None:
    shown = _help(["--lang", "ru"], env={**NO_LOCALE, "LANG": "de_DE.UTF-8"})
    assert shown.startswith("Использование: patchwork") and "\nКоманды:\n" in shown


@pytest.mark.parametrize(("args", "env", "said"), [
    (["--lang", "fr", "puzzle", "new"], NO_LOCALE, ("Utilisation :", "Créer un problème à partir de parties",
                                                    "[par défaut : endgame]")),
    (["bench", "hint"], {**NO_LOCALE, "LC_ALL": "ru_RU.UTF-8"}, ("Использование:", "Параметры:",
                                                                  "Задержка лучшего места", "[по умолчанию: 200]")),
])
def test_a_command_help_in_french_and_russian(args: list[str], env: dict[str, str], said: tuple[str, ...]) -> None:
    flat = _flat(_help(args, env))
    assert all(part in flat for part in said), flat
    assert "Show this message" not in flat


def test_english_help_is_unchanged_and_no_language_carries_over() -> None:
    _help(["--lang", "de", "fill"])
    shown = _help(["fill"])
    assert shown.startswith("Usage: patchwork fill [OPTIONS]")
    assert "\nOptions:\n" in shown and "Patch ids to choose from" in shown and "[required]" in shown


def test_lang_lists_the_languages_there_are_catalogues_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fifth language is catalogue files, not code: ``--lang``'s help names it as it is added."""
    assert "--lang CODE Language of the words: en, de, fr, ru (default:" in " ".join(_help([]).split())
    monkeypatch.setattr(typer_app, "languages", lambda: ("en", "de", "fr", "ru", "nl"))
    assert "--lang CODE Language of the words: en, de, fr, ru, nl (default:" in " ".join(_help([]).split())


@pytest.mark.parametrize(("path", "command"), _commands(), ids=lambda x: " ".join(x) if isinstance(x, list) else "")
def test_every_help_text_is_in_the_catalogue(path: list[str], command: Any) -> None:
    """In the pseudo-locale every help text of every command is shown wrapped and accented: a text
    not marked ``H_`` (or not in cli.pot) would show plain. The commands a group lists are too."""
    page = _help(["--lang", i18n.PSEUDO, *path])
    assert page.startswith(i18n.pseudo("Usage:"))
    shown = _bare(page)
    for text in _english_help(command):
        assert _bare(i18n.pseudo(text).replace("{codes}", ", ".join(i18n.languages()))) in shown, text
    for name, sub in (getattr(command, "commands", None) or {}).items():
        listed = re.search(rf"^  {re.escape(name)} +(\S+)", page, re.MULTILINE)
        assert listed and listed.group(1).startswith("["), (name, sub.help)


#: Usage errors in German: Click's words inside the frame are translated, on one line.
GERMAN_ERRORS = [
    (["hint", "x", "--top", "x"], "Fehler: Ungültiger Wert für '--top': das ist keine ganze Zahl "
                                  "(siehe patchwork hint --help)"),
    (["fill", "--patches", "1", "--time-limit", "x"], "Fehler: Ungültiger Wert für '--time-limit': das ist keine "
                                                      "Zahl (siehe patchwork fill --help)"),
    (["fill"], "Fehler: Option '--patches' fehlt (siehe patchwork fill --help)"),
    (["show"], "Fehler: Argument 'QUILT|POSITION|RECORD' fehlt (siehe patchwork show --help)"),
    (["hint", "x", "--topp", "3"], "Fehler: Unbekannte Option: --topp (mögliche Optionen: --top) "
                                   "(siehe patchwork hint --help)"),
    (["hint", "x", "--zzz"], "Fehler: Unbekannte Option: --zzz (siehe patchwork hint --help)"),
    (["hint", "x", "y"], "Fehler: Unerwartetes zusätzliches Argument (y) (siehe patchwork hint --help)"),
    (["hint", "x", "y", "z"], "Fehler: Unerwartete zusätzliche Argumente (y z) (siehe patchwork hint --help)"),
    (["hnt"], "Fehler: Unbekannter Befehl 'hnt'. Meintest du 'hint'? (siehe patchwork --help)"),
    (["play", "--level", "9"], "Fehler: Ungültiger Wert für '--level': höchstens 5 erlaubt "
                               "(siehe patchwork play --help)"),
    (["play", "--level", "0"], "Fehler: Ungültiger Wert für '--level': mindestens 1 nötig "
                               "(siehe patchwork play --help)"),
    (["hint", "x", "--json=1"], "Fehler: Option '--json' nimmt keinen Wert"),
    (["hint", "x", "--top"], "Fehler: Option '--top' braucht einen Wert"),
]


@pytest.mark.parametrize(("args", "line"), GERMAN_ERRORS)
def test_usage_errors_in_german_are_one_line_in_german(args: list[str], line: str) -> None:
    result = runner.invoke(app, ["--lang", "de", *args], env=NO_LOCALE, prog_name="patchwork")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [line] and result.stdout == ""
    assert i18n.current() == i18n.SOURCE


def _templates_matching(message: str) -> set[str]:
    """The ``USAGE_ERRORS`` templates (and ``EXTRA_ARGUMENTS``) that say ``message`` or a value inside it."""
    found: set[str] = set()
    for template in (*click_words.USAGE_ERRORS, click_words.EXTRA_ARGUMENTS):
        match = click_words._pattern(template).fullmatch(message)
        if match:
            found.add(template)
            for value in match.groupdict().values():
                found |= _templates_matching(value)
            break
    return found


def test_every_usage_error_template_is_what_click_says_in_english() -> None:
    """Each template is met by a real English error above, so an upgrade of Typer (or pydantic) that
    rewords one fails here rather than leaving it English in every language."""
    met: set[str] = set()
    for args, _line in GERMAN_ERRORS:
        result = runner.invoke(app, args, env=NO_LOCALE, prog_name="patchwork")
        said = re.fullmatch(r"error: (.*?)(?: \(see .* --help\))?", result.stderr.strip())
        assert said, result.stderr
        for message in (said.group(1), said.group(1) + "."):  # the frame drops Click's full stop
            met |= _templates_matching(message)
    assert met == {*click_words.USAGE_ERRORS, click_words.EXTRA_ARGUMENTS}


def test_the_frame_words_are_typers_own() -> None:
    """The frame's words are the texts Typer's Click says (``_("Options")``, ``prefix = "Usage: "``),
    so a rewording in an upgrade is seen here."""
    source = "\n".join(path.read_text() for path in Path(typer.__file__).parent.glob("**/*.py"))
    missing = [word for word in (click_words.USAGE, *click_words.FRAME) if f'"{word}' not in source]
    assert missing == []
