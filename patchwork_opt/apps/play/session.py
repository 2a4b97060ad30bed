"""One game of a person against a bot: whose turn, what the person typed, the undo stack, saving.

No drawing and no terminal here: the loop (``loop.py``) reads lines and prints, ``draw.py``
draws. Slow calls (the bot, the advisor, the hint function) are made here; the loop wraps
them in a spinner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.heuristic import HeuristicAdvisor
from patchwork_opt.apps.play.commands import (
    Advance,
    Buy,
    Cancel,
    Command,
    CommandError,
    Help,
    Hint,
    Place,
    PlaceSpec,
    PlayMove,
    Quit,
    Save,
    Show,
    Undo,
)
from patchwork_opt.apps.play.suggest import Suggestion, leather_suggestions, patch_suggestions
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.bitboard import bit, cells_of
from patchwork_opt.core.catalogue import PATCHES, placement
from patchwork_opt.core.errors import IllegalMoveError, PatchworkError, words
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import OFFER_SIZE, State, leather_spaces
from patchwork_opt.core.words import cells_words, move_words, placed_words
from patchwork_opt.formats.record import Record, TakeBack
from patchwork_opt.i18n import _, ngettext

DEFAULT_TOP_K = 5


@dataclass(frozen=True, slots=True)
class HintLine:
    """One ranked move from the hint function, with why it is good."""

    move: Move
    reason: str
    value: float | None = None


#: The hint function the CLI plugs in (the solvers' hints): the position and how many moves.
Hinter = Callable[[State, int], Sequence[HintLine]]


@dataclass(frozen=True, slots=True)
class AiReport:
    """What the bot did (the move, a sentence saying what and why, what it expects)."""

    move: Move
    text: str
    expected: float | None


@dataclass(slots=True)
class Reply:
    """What to show after a command: lines of text, and what to draw again."""

    lines: list[str] = field(default_factory=list)
    moved: bool = False  # the position changed: draw the board
    placing: bool = False  # a placement is to be chosen: draw the suggestions
    show: bool = False  # draw the board (asked for)
    help: bool = False
    hints: list[HintLine] | None = None
    quit: bool = False


def you_text(move: Move) -> str:
    """``you buy #12 for 3 buttons ...``: the move said to the person who made it."""
    if move.kind == "advance":
        # Translators: the person's own move, said to them in the terminal game
        return _("you advance")
    if move.kind == "leather":
        # Translators: the person's own move; {where}: "row 4, col 4"
        return _("you put the leather patch on {where}", where=cells_words(move.mask))
    p = PATCHES[move.patch]
    # Translators: the person's own move: they buy patch {patch} for {count} buttons (its time and income)
    # and sew it at {where}
    return ngettext("you buy #{patch} for {count} button (time {time}, income {income}) at {where}",
                    "you buy #{patch} for {count} buttons (time {time}, income {income}) at {where}", p.cost,
                    patch=p.id, time=p.time, income=p.income, where=placed_words(p.id, move.mask))


def cells_text(mask: int) -> str:
    """``34,35,45``: the cells in the move notation (row digit, column digit)."""
    return ",".join(f"{r}{c}" for r, c in cells_of(mask))


class Session:
    """A game of ``human`` (player 0 or 1) against ``bot``, from ``record`` (a new or loaded game)."""

    def __init__(
        self,
        record: Record,
        human: int,
        bot: Bot,
        *,
        advisor: PlacementAdvisor | None = None,
        hinter: Hinter | None = None,
        top_k: int = DEFAULT_TOP_K,
    ) -> None:
        if human not in (0, 1):
            raise PatchworkError(_("the person sits at seat 0 (Player 1) or 1 (Player 2), not {human!r}", human=human))
        self.record = Record(record.circle[:], list(record.moves), record.leather,
                             takebacks=list(record.takebacks))
        self.state: State = self.record.replay()
        self.human = human
        self.bot = bot
        self.advisor: PlacementAdvisor = advisor if advisor is not None else HeuristicAdvisor()
        self.hinter = hinter
        self.top_k = top_k
        self.buying: int | None = None  # patch id bought and not yet placed
        self.suggestions: list[Suggestion] = []
        #: Ply index of each of the person's moves (leather placements excepted): undo goes back to one.
        self.undo_marks: list[int] = self._marks_of(self.record)
        if self.placing_leather:
            self._suggest_leather()

    # --- whose turn ------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def ai_to_move(self) -> bool:
        return not self.over and self.state.to_move() != self.human

    @property
    def placing_leather(self) -> bool:
        return not self.over and self.state.pending == self.human

    @property
    def placing(self) -> bool:
        return self.buying is not None or self.placing_leather

    @property
    def ai(self) -> int:
        return 1 - self.human

    def _marks_of(self, record: Record) -> list[int]:
        state = record.initial_state()
        marks = []
        for ply, move in enumerate(record.moves):
            if state.to_move() == self.human and move.kind != "leather":
                marks.append(ply)
            state.apply(move)
        return marks

    # --- the bot ---------------------------------------------------------------------------
    def ai_move(self) -> AiReport:
        """Let the bot choose and play its move (it must be the bot's turn)."""
        if not self.ai_to_move:
            raise PatchworkError(_("it is not the AI's turn"))
        decision = self.bot.decide(self.state.clone())
        move = decision.move
        try:
            self.state.check(move)
        except PatchworkError as exc:
            raise PatchworkError(_("the AI ({name}) chose an illegal move {move}: {error}", name=self.bot.name,
                                   move=str(move), error=words(exc))) from None
        # what it did in words, short enough to stay on one line of an 80x24 screen beside the
        # board (the offers on screen give the patch's price; no internal scores)
        # Translators: the AI's move in the terminal game ({move}: "buys #12 at ...", said of another)
        text = _("AI {move}", move=self._ai_words(move))
        self._play(move)
        again = self.again_text(self.ai)
        # Translators: the AI's move ({move}), then why it moves again ({again})
        return AiReport(move, _("{move}; {again}", move=text, again=again) if again else text, decision.expected)

    def _ai_words(self, move: Move) -> str:
        """``buys #12 at rows 0-2, cols 0-2, turned right``, ``advances 3 spaces (+3 buttons)``,
        ``puts the leather patch on row 4, col 4``: the AI's move, before it is played."""
        spaces = self.state.advance_target(self.ai) - self.state.pos[self.ai]
        return move_words(move, spaces, third_person=True)

    def again_text(self, mover: int) -> str | None:
        """Why ``mover`` moves again after their move, if they do: on top of the other token, or
        still behind it (the rules give the turn to the player behind, on a tie to the one on top)."""
        state = self.state
        if state.is_terminal() or state.pending >= 0 or state.to_move() != mover:
            return None
        if mover == self.human:
            if state.pos[0] == state.pos[1]:
                return _("you landed on the AI's space, on top of its token: you move again")
            return _("you are still behind the AI on the time track: you move again")
        if state.pos[0] == state.pos[1]:
            return _("it landed on your space, on top of your token: the AI moves again")
        return _("it is still behind you on the time track: the AI moves again")

    # --- the person's commands -------------------------------------------------------------
    def handle(self, command: Command) -> Reply:
        """Carry out one command; CommandError (one line) when it is refused, nothing changed."""
        if isinstance(command, Help):
            return Reply(help=True)
        if isinstance(command, Show):
            return Reply(show=True, placing=self.placing)
        if isinstance(command, Quit):
            return Reply(quit=True)
        if isinstance(command, Save):
            self.save(command.path)
            saved = ngettext("saved the record ({count} move) to {path}", "saved the record ({count} moves) to {path}",
                             len(self.record.moves), path=command.path)
            return Reply([saved])
        if isinstance(command, Undo):
            return self._undo()
        if isinstance(command, Hint):
            return self._hint(command.count)
        if self.over:
            # Translators: keep the commands (undo, save, show, quit) as they are
            raise CommandError(_("the game is over: undo, save, show or quit"))
        if self.ai_to_move:
            raise CommandError(_("it is the AI's turn"))
        if isinstance(command, Cancel):
            if self.buying is None:
                raise CommandError(_("nothing to cancel: no patch is waiting to be placed"))
            pid, self.buying = self.buying, None
            self.suggestions = []
            return Reply([_("put #{pid} back on offer", pid=pid)], show=True)
        if isinstance(command, Advance):
            self._not_buying("advance")
            return self._human_move(ADVANCE)
        if isinstance(command, Buy):
            return self._buy(command)
        if isinstance(command, Place):
            return self._place(command.spec)
        if isinstance(command, PlayMove):
            return self._play_text_move(command.move)
        raise CommandError(_("unknown command {command!r}", command=command))

    def _not_buying(self, what: str) -> None:
        """A patch chosen and not yet placed is this session's own step (the rules know a buy only
        with its cells): it is placed or put back before anything else."""
        if self.buying is not None:
            # Translators: keep "cancel" (a command) as it is
            raise CommandError(_("you are placing #{pid}: place it, or cancel, before you buy", pid=self.buying)
                               if what == "buy" else
                               _("you are placing #{pid}: place it, or cancel, before you advance", pid=self.buying))

    def _buy(self, command: Buy) -> Reply:
        self._not_buying("buy")
        if command.offer is not None:
            offers = self.state.offers()
            if command.offer > len(offers):  # late in the game fewer than three remain to number
                raise CommandError(ngettext("only {count} patch is on offer", "only {count} patches are on offer",
                                            len(offers)))
            pid = offers[command.offer - 1]
        else:
            assert command.patch is not None
            pid = command.patch
        try:  # the rules judge the buy before its cells are chosen (State.check_buy); this says why not
            self.state.check_buy(pid)
        except IllegalMoveError as exc:
            raise CommandError(self._refusal(exc, "buy")) from None
        suggestions = patch_suggestions(
            self.advisor, self.state.quilts[self.human], pid, self._upcoming(pid), self.top_k
        )
        self.buying, self.suggestions = pid, suggestions
        if command.place is not None:
            try:
                return self._place(command.place)
            except CommandError:
                self.buying, self.suggestions = None, []
                raise
        return Reply(placing=True)

    def _upcoming(self, pid: int) -> list[int]:
        """The circle as it will be after buying ``pid``: what can be bought next."""
        circle = self.state.circle
        k = circle.index(pid)
        return circle[k + 1 :] + circle[:k]

    def _place(self, spec: PlaceSpec) -> Reply:
        if self.placing_leather:
            return self._human_move(Move("leather", -1, self._leather_mask(spec)))
        if self.buying is None:
            # Translators: keep the commands (buy 1-3, buy #ID) as they are
            raise CommandError(_("nothing to place: buy a patch first (buy 1-3 or buy #ID)"))
        return self._human_move(Move.buy(self.buying, self._patch_mask(self.buying, spec)))

    def _suggested(self, number: int) -> int:
        if not 1 <= number <= len(self.suggestions):
            raise CommandError(ngettext("there is {count} suggestion, numbered 1-{last}",
                                        "there are {count} suggestions, numbered 1-{last}", len(self.suggestions),
                                        last=len(self.suggestions)))
        return self.suggestions[number - 1].mask

    def _patch_mask(self, pid: int, spec: PlaceSpec) -> int:
        if spec.suggestion is not None:
            return self._suggested(spec.suggestion)
        count = len(PATCHES[pid].orientations)
        if spec.orientation is not None:
            assert spec.cell is not None
            if spec.orientation >= count:
                raise CommandError(_("#{pid} has orientations o0-o{last}, not o{given}", pid=pid, last=count - 1,
                                     given=spec.orientation))
            try:
                mask = placement(pid, spec.orientation, *spec.cell)
            except PatchworkError:
                o = PATCHES[pid].orientations[spec.orientation]
                # Translators: an orientation of a patch that runs off the quilt: its size, and where its
                # top-left cell was put ({row},{col})
                raise CommandError(_("o{orientation} of #{pid} is {height} rows by {width} columns: with its top-left "
                                     "on {row},{col} it runs off the quilt", orientation=spec.orientation, pid=pid,
                                     height=o.height, width=o.width, row=spec.cell[0], col=spec.cell[1])) from None
        elif spec.cells:
            mask = spec.cells  # its shape and the cells it covers are the rules' to judge (State.check)
        else:
            raise CommandError(_("a patch needs more than one cell: a suggestion, o0-o{last} row,col, or all its cells",
                                 last=count - 1))
        return mask

    def _leather_mask(self, spec: PlaceSpec) -> int:
        if spec.suggestion is not None:
            return self._suggested(spec.suggestion)
        if spec.orientation is not None:
            raise CommandError(_("a leather patch is one cell: give a suggestion number or a cell like 4,5"))
        if spec.cell is not None:
            mask = bit(*spec.cell)
        elif spec.cells.bit_count() == 1:
            mask = spec.cells
        else:
            raise CommandError(_("a leather patch is one cell: give one cell like 4,5"))
        return mask

    def _play_text_move(self, move: Move) -> Reply:
        if self.buying is not None and not (move.kind == "buy" and move.patch == self.buying):
            raise CommandError(_("you are placing #{pid}: place it, or cancel first", pid=self.buying))
        return self._human_move(move)

    def _human_move(self, move: Move) -> Reply:
        """Play the person's move if the rules (``State.check``) take it; their refusal in the person's words."""
        try:
            self.state.check(move)
        except IllegalMoveError as exc:
            raise CommandError(self._refusal(exc, move.kind)) from None
        if move.kind != "leather":
            self.undo_marks.append(len(self.record.moves))
        self._play(move)
        self.buying, self.suggestions = None, []
        lines = [you_text(move)]
        if self.placing_leather:
            self._suggest_leather()
            lines.append(_("you took a leather patch: place it (a suggestion 1-{last} or a cell like 4,5)",
                           last=len(self.suggestions)))
            return Reply(lines, moved=True, placing=True)
        again = self.again_text(self.human)
        return Reply([*lines, again] if again else lines, moved=True)

    def _refusal(self, exc: IllegalMoveError, doing: str) -> str:
        """Why the rules refuse the person's move (``IllegalMoveError.why``, ``doing``: buy or advance),
        said to them; the rules' own words for a refusal that names no rule."""
        why, pid, cells = exc.why, exc.patch, exc.cells
        if why == "leather_first":
            # Translators: a refusal in the terminal game: a leather patch waits to be placed first
            return {"buy": _("place your leather patch before you buy (a suggestion number or a cell)"),
                    "advance": _("place your leather patch before you advance (a suggestion number or a cell)"),
                    }.get(doing, _("place your leather patch first (a suggestion number or a cell)"))
        if why == "fits_nowhere":
            return _("#{pid} fits nowhere on your quilt", pid=pid)
        if why == "not_offered":
            listed = ", ".join(f"#{p}" for p in self.state.offers())
            return _("#{pid} is not on offer (on offer: {listed})", pid=pid, listed=listed)
        if why == "too_dear":
            # Translators: a refused buy: #{pid} costs {count} buttons and the person has {has}
            return ngettext("#{pid} costs {count} button and you have {has}",
                            "#{pid} costs {count} buttons and you have {has}", PATCHES[pid].cost, pid=pid,
                            has=self.state.buttons[self.human])
        if why == "not_a_placement":
            return ngettext("cells {shape} are not the shape of #{pid} ({count} cell)",
                            "cells {shape} are not the shape of #{pid} ({count} cells)", PATCHES[pid].area,
                            shape=cells_text(cells), pid=pid)
        if why == "covered" and pid < 0:
            return _("cell {shape} of your quilt is already covered", shape=cells_text(cells))
        if why == "covered":
            return _("cells {shape} of your quilt are already covered", shape=cells_text(cells))
        return words(exc)

    def _play(self, move: Move) -> None:
        self.state.apply(move)
        self.record.moves.append(move)

    def _suggest_leather(self) -> None:
        self.suggestions = leather_suggestions(
            self.state.quilts[self.human], self.state.bonus < 0, self.top_k
        )

    def _undo(self) -> Reply:
        if self.buying is not None:
            pid, self.buying = self.buying, None
            self.suggestions = []
            return Reply([_("put #{pid} back on offer", pid=pid)], show=True)
        if not self.undo_marks:
            raise CommandError(_("nothing to undo: you have not moved yet"))
        mark = self.undo_marks.pop()
        taken = self.record.moves[mark:]
        state = self.record.replay(mark)
        mover_moves = []
        replies = 0
        for move in taken:
            if state.to_move() == self.human:
                mover_moves.append(move)
            else:
                replies += 1
            state.apply(move)
        self.record.takebacks.append(TakeBack(mark, taken[0]))  # the review counts it
        del self.record.moves[mark:]
        self.state = self.record.replay()
        self.suggestions = []
        taken_back = you_text(mover_moves[0]) if mover_moves else _("your move")
        # Translators: a take-back in the terminal game: {move} the person's move taken back ("you buy #12 ..."),
        # then how many replies of the AI went with it
        text = (ngettext("took back: {move}, and the AI's {count} reply", "took back: {move}, and the AI's {count} "
                         "replies", replies, move=taken_back) if replies else
                _("took back: {move}", move=taken_back))
        return Reply([text], moved=True)

    def _hint(self, count: int) -> Reply:
        if self.over:
            raise CommandError(_("the game is over"))
        if self.ai_to_move:
            raise CommandError(_("it is the AI's turn"))
        if self.hinter is None:
            raise CommandError(_("no hint function is plugged in"))
        try:
            hints = list(self.hinter(self.state.clone(), count))
        except PatchworkError as exc:
            raise CommandError(_("hint failed: {error}", error=words(exc))) from None
        return Reply(hints=hints[:count])

    # --- output ----------------------------------------------------------------------------
    def hint_text(self, hint: HintLine) -> str:
        """The hinted move as the person would type it: ``buy 2 34,35,45  (#12)``, ``advance``."""
        move = hint.move
        if move.kind == "advance":
            return "advance"
        if move.kind == "leather":
            (r, c), = cells_of(move.mask)
            # Translators: a hinted leather move as the person types it ({r},{c}: its cell)
            return _("{r},{c}  (the leather patch)", r=r, c=c)
        offers = self.state.offers()[:OFFER_SIZE]
        which = f"{offers.index(move.patch) + 1}" if move.patch in offers else f"#{move.patch}"
        return f"buy {which} {cells_text(move.mask)}  (#{move.patch})"

    def final_text(self) -> str:
        """The final scores and the winner (with the tie-break when scores are equal)."""
        you, ai = self.state.score(self.human), self.state.score(self.ai)
        winner = self.state.winner()
        # Translators: the terminal game's end: the person's score, the AI's, and who wins ({name}: the AI's name);
        # the tie-break's words when the scores are equal
        if winner == self.human:
            return (_("game over: you {you}, AI {ai}: you win (equal scores: the first to reach the centre wins)",
                      you=you, ai=ai) if you == ai else _("game over: you {you}, AI {ai}: you win", you=you, ai=ai))
        return (_("game over: you {you}, AI {ai}: the AI ({name}) wins (equal scores: the first to reach the centre "
                  "wins)", you=you, ai=ai, name=self.bot.name) if you == ai else
                _("game over: you {you}, AI {ai}: the AI ({name}) wins", you=you, ai=ai, name=self.bot.name))

    def save(self, path: str | Path) -> None:
        """Write the game record (atomically); ``patchwork replay`` reads it back."""
        self.record.save(path)


def start_record(load: str | None, seed: int | None, leather: str | None) -> Record:
    """The game to play: the record in file ``load`` (refused before the game starts when it does not
    replay, or when ``leather`` contradicts it), or a new game from ``seed`` and ``leather``."""
    if load is None:
        return Record.start(State.new(seed=seed, leather=leather or "revised"))
    record = Record.load(load)
    record.replay()
    if leather is not None and leather_spaces(leather) != record.leather:
        raise PatchworkError(_("--leather {leather} conflicts with the record's leather {spaces}", leather=leather,
                               spaces=list(record.leather)))
    return record
