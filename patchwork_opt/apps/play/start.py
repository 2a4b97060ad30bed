"""``patchwork play`` from its options: the record to start from, the bot, its compiled code ready
before the first move, the session (saved at once when asked, so a path that cannot be written is
refused before the game starts) and the game run in the terminal."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from patchwork_opt.apps.play.loop import run, terminal_for
from patchwork_opt.apps.play.session import Session, start_record
from patchwork_opt.apps.warmup import groups_for_bot, prepare
from patchwork_opt.apps.wiring import play_bot
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import _

if TYPE_CHECKING:
    from patchwork_opt.apps.play import HintLine

#: ``--you``: the seat the person takes
PLAY_SIDES = {"first": 0, "second": 1}
PLAY_HINT_SECONDS = 1.0  # the AI's time for a hint in terminal play
PLAY_REVIEW_SECONDS = 0.2  # the AI's time per position for the review offered after a game


def play_hinter(state: State, count: int) -> list[HintLine]:
    """The AI's ranked moves of the position with their win chances, as terminal play shows them."""
    from patchwork_opt.apps.hints import advised_hints
    from patchwork_opt.apps.play import HintLine

    result = advised_hints(state, deadline=Deadline.after(PLAY_HINT_SECONDS), top=count)
    return [HintLine(Move.from_json(h.line[0]), h.reason) for h in result.hints]


def play_reviewer(record: Record) -> str:
    """The review of a finished game, as terminal play offers it."""
    from patchwork_opt.apps.hints import review_record
    from patchwork_opt.apps.review import render_review

    return render_review(review_record(record, seconds=PLAY_REVIEW_SECONDS))


def play_in_terminal(*, ai: str, level: int, seed: int | None, you: str, leather: str | None, load: str | None,
                     save: str | None) -> int:
    """A game against ``ai`` at ``level`` on standard input and output, new (``seed``, ``leather``)
    or continued from the record ``load``, kept in ``save``; the exit code when it ends."""
    if you not in PLAY_SIDES:
        # Translators: keep --you, first and second (the option and its values) as they are
        raise PatchworkError(_("--you must be first or second, not {you!r}", you=you))
    record = start_record(load, seed, leather)
    # the bot's, and what the game's hints and review use
    prepare(list(dict.fromkeys([*groups_for_bot(ai, level), "search", "learned", "exact"])))
    bot, advisor = play_bot(ai, level, seed)
    session = Session(record, PLAY_SIDES[you], bot, advisor=advisor, hinter=play_hinter)
    if save is not None:
        session.save(save)
    return run(session, terminal_for(sys.stdin, sys.stdout, sys.stderr), save, play_reviewer)
