"""Russian never makes a verb or an adjective agree with a name put into a sentence.

A named player may be a woman ("Ann" from a record, a friend's name): "{winner} выиграл" says a man
won. So where a placeholder names a player by name (``{winner}``, ``{player}``, ``{name}`` ...), the
Russian catalogues word the sentence so nothing agrees with it ("Победа: {winner}, счёт 20:12",
"{player}: сначала нужно положить ..."). A placeholder that stands beside a noun naming the player
("игрок {number}", "ИИ ({name})") is that noun's apposition: the verb agrees with the noun, whatever
the name, and is fine. This test reads both Russian catalogues and fails on a past-tense verb
(-л, -ла, -лся, -лась: a neuter -ло agrees with no person) or a short adjective of agreement
(должен, готов ...) within three words of a bare name placeholder."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from patchwork_opt.i18n import LOCALE_DIR

#: The placeholders that name a person or a player by name.
NAMED = re.compile(r"\{(winner|loser|player|name|opponent|who|first|second|mover|friend)\}")
#: A word that agrees in gender: a past-tense verb, or a short adjective said of a person.
AGREES = re.compile(r"^[а-яё]+(л|ла|лся|лась)$|^(долж[её]н|должна|готов|готова|рад|рада|уверен|уверена)$")
#: Words that end like a masculine or feminine past tense and are none (nouns, adverbs: "узел", "сначала").
NOT_VERBS = {"числа", "правила", "начала", "сначала", "стол", "угол", "узел", "узла", "сила", "дела", "игла", "пол"}
#: Nouns a name placeholder may stand beside, as their apposition (the verb agrees with the noun).
NOUNS = {"игрок", "игрока", "игроку", "игроком", "игроке", "ии", "бот", "бота", "боту", "ботом", "соперник",
         "соперника", "сопернику"}
_WORD = re.compile(r"[А-Яа-яЁё]+")


def _bare(text: str, start: int) -> bool:
    """The placeholder at ``start`` is not the apposition of a noun before it."""
    before = _WORD.findall(text[:start][-30:])
    return not before or before[-1].lower() not in NOUNS or not re.search(r"[\s«(\"]*$", text[:start])


def agreeing(text: str) -> list[str]:
    """The words within three words of a bare name placeholder of ``text`` that agree in gender."""
    found = []
    for match in NAMED.finditer(text):
        if not _bare(text, match.start()):
            continue
        near = _WORD.findall(text[:match.start()])[-3:] + _WORD.findall(text[match.end():])[:3]
        found += [w for w in near if AGREES.match(w.lower()) and w.lower() not in NOT_VERBS]
    return found


def test_the_rule_finds_a_verb_agreeing_with_a_name_and_passes_a_neutral_wording() -> None:
    assert agreeing("{winner} выиграл со счётом {high}:{low}") == ["выиграл"]
    assert agreeing("всухую: все партии выиграла {player}") == ["выиграла"]
    assert agreeing("{player} должен сначала положить лоскут") == ["должен"]
    assert agreeing("Победа: {winner}, счёт {high}:{low}") == []
    assert agreeing("Игрок {number} сдался: побеждает игрок {winner}") == []
    assert agreeing("ИИ ({name}) выбрал недопустимый ход {move}") == []


@pytest.mark.parametrize("domain", ["messages", "pages"])
def test_no_russian_word_agrees_with_a_players_name(domain: str) -> None:
    with (LOCALE_DIR / "ru" / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        catalog = read_po(f, locale="ru", domain=domain)
    wrong = [(form, words) for m in catalog if m.id
             for form in (m.string if isinstance(m.string, tuple | list) else (m.string,))
             for words in [agreeing(form or "")] if words]
    assert wrong == [], f"ru {domain}: a word agrees with a name: {wrong}"
