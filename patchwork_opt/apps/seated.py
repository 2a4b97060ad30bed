"""Who sits in each seat of a reviewed game, so that a sentence about a player is one message per
kind of player (you, the AI, a named player), never a translated name put into English word order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from patchwork_opt.core.words import player_name
from patchwork_opt.i18n import _


@dataclass(frozen=True, slots=True)
class Seated:
    """A seat's player: the person reading (``you``), the AI (``bot``: its level's name), or a named
    player (``name``: a record's player, or "Player 1" and "Player 2")."""

    kind: Literal["you", "ai", "named"]
    bot: str = ""
    name: str = ""

    def label(self) -> str:
        """The player as a label (a table's column, before a colon), in the language in effect."""
        if self.kind == "you":
            # Translators: the person's seat (the terminal game, a review's players)
            return _("You")
        if self.kind == "ai":
            # Translators: the AI's seat as a label (a review's players); {name} is its level's name
            return _("The AI ({name})", name=self.bot)
        return self.name


def you() -> Seated:
    return Seated("you")


def the_ai(bot: str) -> Seated:
    return Seated("ai", bot=bot)


def named(name: str) -> Seated:
    return Seated("named", name=name)


def numbered() -> list[Seated]:
    """Player 1 and Player 2, in the language in effect (a record without names, a game between people)."""
    return [named(player_name(0)), named(player_name(1))]


def won_words(winner: Seated, high: int, low: int) -> str:
    """A finished game's result, one message per kind of winner: "You won, 20 to 12"."""
    if winner.kind == "you":
        # Translators: a finished game's result when the person reading won, {high} points to {low}
        return _("You won, {high} to {low}", high=high, low=low) if high != low else _(
            # Translators: the person reading won with as many points as the AI, by the tie-break rule
            "You won on the tie-break, {high} to {low}", high=high, low=low)
    if winner.kind == "ai":
        # Translators: a finished game's result when the AI ({name}: its level) won, {high} points to {low}
        return _("The AI ({name}) won, {high} to {low}", name=winner.bot, high=high, low=low) if high != low else _(
            # Translators: the AI ({name}: its level) won with as many points as the person, by the tie-break rule
            "The AI ({name}) won on the tie-break, {high} to {low}", name=winner.bot, high=high, low=low)
    # Translators: a finished game's result: {winner} ("Player 1") won, {high} points to {low}
    return _("{winner} won, {high} to {low}", winner=winner.name, high=high, low=low) if high != low else _(
        "{winner} won on the tie-break, {high} to {low}", winner=winner.name, high=high, low=low)


def chart_title(first: Seated, second: Seated) -> str:
    """The win-chance chart's title: whose chance the curve is (the first player's), one message per
    kind of player; the other player is named as a label."""
    if first.kind == "you":
        # Translators: the review chart's title: the curve is your chance to win; {other} is the other
        # player as a label ("The AI (greedy)")
        return _("Your chance to win (above the middle line: you are ahead; below: {other})", other=second.label())
    if first.kind == "ai":
        # Translators: the review chart's title: the curve is the AI's ({name}: its level) chance to win;
        # {other} is the other player as a label ("You")
        return _("The AI's ({name}) chance to win (above the middle line: the AI is ahead; below: {other})",
                 name=first.bot, other=second.label())
    # Translators: the review chart's title: the curve is {name}'s ("Player 1") chance to win; {other}
    # is the other player ("Player 2")
    return _("{name}: chance to win (above the middle line: {name} ahead; below: {other})", name=first.name,
             other=second.label())
