"""Text renderings of quilts and positions for people (the CLI prints these)."""

from __future__ import annotations

from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.quilt import label_grid, render_grid, render_quilt
from patchwork_opt.core.state import END, INCOME_MARKS, LEATHER_PATCH, State
from patchwork_opt.core.words import player_name
from patchwork_opt.formats.inputs import LoadedInput
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.i18n import _

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def piece_labels(placed: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """A letter per placed patch in the order placed; leather patches are ``L``... ``*``."""
    out = []
    letters = iter(LABELS.replace("L", ""))
    for pid, mask in placed:
        out.append(("*" if pid == LEATHER_PATCH else next(letters), mask))
    return out


def quilt_lines(quilt: int, placed: list[tuple[int, int]]) -> list[str]:
    known = 0
    for _patch, mask in placed:
        known |= mask
    return render_grid(label_grid(piece_labels(placed), quilt & ~known))


def track_line(state: State) -> str:
    """Spaces 0..53: ``$`` income marks, ``L`` leather still there, ``1``/``2`` the players' tokens."""
    cells = []
    leather = set(state.leather_left())
    for space in range(END + 1):
        here = [str(p + 1) for p in (0, 1) if state.pos[p] == space]
        if here:
            cells.append("".join(here) if len(here) == 1 else "⚑")
        elif space in leather:
            cells.append("L")
        elif space in INCOME_MARKS:
            cells.append("$")
        else:
            cells.append("·")
    return "".join(cells)


def patch_summary(pid: int) -> str:
    p = PATCHES[pid]
    # Translators: a patch in brief: its number, price in buttons, spaces on the time board, button income, cells
    return _("#{patch} cost {cost} time {time} income {income} area {area}", patch=pid, cost=p.cost, time=p.time,
             income=p.income, area=p.area)


def render_position(state: State) -> str:
    left = quilt_lines(state.quilts[0], state.placed[0])
    right = quilt_lines(state.quilts[1], state.placed[1])
    width = len(left[0])
    lines = []
    for p in (0, 1):
        view = state.player(p)
        if view.bonus:
            # Translators: a player's figures; they hold the 7x7 bonus tile
            said = _("{player}: space {space}, buttons {buttons}, income {income}, empty {empty}, 7x7 bonus, score now "
                     "{score}", player=player_name(p), space=view.position, buttons=view.buttons, income=view.income,
                     empty=view.empty, score=view.score)
        else:
            # Translators: a player's figures: the space of their time token, buttons, button income, empty cells, score
            said = _("{player}: space {space}, buttons {buttons}, income {income}, empty {empty}, score now {score}",
                     player=player_name(p), space=view.position, buttons=view.buttons, income=view.income,
                     empty=view.empty, score=view.score)
        lines.append(said)
    lines.append("")
    lines.append(player_name(0).ljust(width + 3) + player_name(1))
    for a, b in zip(left, right, strict=True):
        lines.append(f"{a}   {b}")
    lines.append("")
    # Translators: the time board drawn in one line, then its legend (keep the marks $, L, 1/2, ⚑)
    lines.append(_("track  {track}", track=track_line(state)))
    lines.append("       " + _("($ income mark, L leather, 1/2 players' tokens, ⚑ both)"))
    if state.is_terminal():
        winner = state.winner()
        assert winner is not None
        lines.append(_("game over: {first} {first_score}, {second} {second_score}; {winner} wins",
                       first=player_name(0), first_score=state.score(0), second=player_name(1),
                       second_score=state.score(1), winner=player_name(winner)))
    else:
        mover = state.to_move()
        if state.pending >= 0:
            lines.append(_("{player} places a leather patch", player=player_name(mover)))
        else:
            lines.append(_("{player} to move", player=player_name(mover)))
        offers = state.offers()
        lines.append(_("on offer: {patches}", patches="; ".join(patch_summary(pid) for pid in offers)))
        rest = state.circle[len(offers) : len(offers) + 6]
        if rest:
            more = " ..." if len(state.circle) > len(offers) + len(rest) else ""
            # Translators: the patches after the offer, in the circle's order (aligned under "on offer:")
            lines.append(_("then:     {patches}", patches=", ".join(f"#{pid}" for pid in rest) + more))
    return "\n".join(lines)




def render_loaded(loaded: LoadedInput) -> str:
    """What ``show`` prints: a quilt with its counts, or a position with its notation."""
    if loaded.state is None:
        quilt = loaded.quilt
        return f"{render_quilt(quilt)}\ncovered {quilt.covered}, empty {quilt.empty}"
    return f"{render_position(loaded.state)}\nposition: {to_notation(loaded.state)}"
