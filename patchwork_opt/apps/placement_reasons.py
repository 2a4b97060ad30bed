"""A best placement's reasons in words: what it touches, what it keeps open, how it divides the
open area (a region it splits, the small holes it leaves and which patches can fill them), whether
the next patches still fit, the 7x7 square, and how its score adds up.

One place for these words: ``patchwork hint QUILT --patch`` prints them and the workshop's API
returns them (``POST /api/workshop/placements``), so the terminal and the page say the same thing.
The figures come from the best fit's score parts (``solvers.bestfit``: contact, cells shut in,
cells of the next patches lost, the 7x7 square) and its weights, said as facts of the quilt; the
open area's from its graph (``solvers.open_area``: regions, articulation points, the catalogue's
shapes that fit a hole).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from patchwork_opt.core.bitboard import contact_edges, mask_of
from patchwork_opt.core.words import cells_words
from patchwork_opt.i18n import _, all_of, ngettext, npgettext, number, one_of, percent, pgettext, signed
from solvers.bestfit import BestFitResult, Hint, ScoreWeights
from solvers.bounds import Pool
from solvers.open_area import Hole, OpenAreaChange, open_area_change


class PlacementReasons(BaseModel):
    """One placement in words, each part a sentence ("" where it has nothing to say)."""

    where: str = Field(description="where it lies: \"rows 7-8, cols 0-2\"")
    touches: str = Field(description="how snugly it sits: \"7 of its 10 sides touch the edge or covered cells\"")
    keeps_open: str = Field(description="the empty cells it leaves, and any it shuts in for good")
    open_area: str = Field(description="a region of the open area it splits, and the small holes it leaves "
                           "with the patches still to come that can fill them (\"\" when neither)")
    next_patches: str = Field(description="whether the next patches still fit (\"\" without next patches)")
    square: str = Field(description="a 7x7 square it completes or closes off (\"\" otherwise)")
    score: str = Field(description="how its score adds up, term by term")


def summary(reasons: PlacementReasons) -> str:
    """The reasons in one line (a hint's ``reason`` in ``patchwork hint --json``): where, then the facts."""
    facts = [reasons.square, reasons.touches, reasons.keeps_open, reasons.open_area, reasons.next_patches]
    # Translators: a placement in one line: where it lies, then its facts, "; " between them
    return _("{where}: {facts}", where=reasons.where, facts="; ".join(f for f in facts if f))


def _signed(value: float) -> str:
    return signed(value, 2)


def score_rule(weights: ScoreWeights) -> str:
    """How a placement's score is made, in words (the page's legend, the CLI's footnote)."""
    # Translators: how a placement's score is made; each {name} is a weight ("0.5"); "x" is "times"
    return _(
        "score = {contact} x the share of its sides touching the edge or covered cells"
        " - {unfillable} for each empty cell it shuts in for good (no patch still to come can fill it)"
        " - {lookahead} for each cell of the next patches that no longer fits"
        " - {bonus} for closing off the last 7x7 square still open"
        " + {completes} for completing a 7x7 square",
        contact=number(weights.contact), unfillable=number(weights.unfillable), lookahead=number(weights.lookahead),
        bonus=number(weights.bonus), completes=number(weights.completes),
    )


def _touches(mask: int, quilt: int) -> str:
    touching, outline = contact_edges(mask, quilt)
    # Translators: how snugly a placed patch sits: {count} of the {outline} unit sides of its outline
    # touch the board's edge or cells already covered
    return ngettext("{count} of its {outline} sides touches the edge or covered cells",
                    "{count} of its {outline} sides touch the edge or covered cells", touching, outline=outline)


def _keeps_open(parts: dict[str, float]) -> str:
    empty, regions = int(parts.get("empty_after", 0)), int(parts.get("regions_after", 0))
    if regions > 1:
        # Translators: the quilt's empty cells after a placement, in {regions} separate parts (2 or more)
        left = ngettext("leaves {count} empty cell in {regions} parts", "leaves {count} empty cells in {regions} parts",
                        empty, regions=regions)
    else:
        # Translators: the quilt's empty cells after a placement
        left = ngettext("leaves {count} empty cell", "leaves {count} empty cells", empty)
    shut = int(parts.get("new_unfillable", 0))
    if shut > 0:
        # Translators: {left} is "leaves 40 empty cells"; then the cells the placement shuts in for good
        return ngettext("{left}; shuts in {count} cell no patch still to come can fill",
                        "{left}; shuts in {count} cells no patch still to come can fill", shut, left=left)
    if shut < 0:
        # Translators: {left} is "leaves 40 empty cells"; then the shut-in cells the placement covers
        return ngettext("{left}; covers {count} cell no other patch still to come could fill",
                        "{left}; covers {count} cells no other patch still to come could fill", -shut, left=left)
    # Translators: {left} is "leaves 40 empty cells"
    return _("{left}; shuts in no cell for good", left=left)


_NAMED = 4  # a hole's fitting pieces named one by one up to this many, counted past it


def _either(names: list[str]) -> str:
    return str(one_of(names))  # "#0, #1, or #2"; "#0, #1 oder #2"


def _split(change: OpenAreaChange) -> str:
    # Translators: the size of one part of the split area, after "parts of" ("parts of 8 cells and 7 cells")
    sizes = [npgettext("part size", "{count} cell", "{count} cells", part.bit_count()) for part in change.large]
    listed = str(all_of(sizes))  # "8 cells and 7 cells"; "8 cells, 7 cells, and 5 cells"
    if change.regions_before == 1:
        # Translators: the object of "splits {area} in two": the quilt's open (empty) area, all in one part
        area = pgettext("split", "the open area")
    else:
        # Translators: the object of "splits {area} in two": the one part (of several) of the open area it is in
        area = pgettext("split", "its part of the open area")
    words = _split_words(area, len(change.large), listed)
    cut = change.cut.bit_count()
    if cut:
        cells = _("any one of {count} of its cells", count=cut) if cut > 2 else _either(
            [cells_words(1 << i) for i in range(change.cut.bit_length()) if change.cut >> i & 1])
        # Translators: follows "splits the open area ...": the cells ({cells}) that alone held it together
        words = _("{split}; covering {cells} alone would have split it", split=words, cells=cells)
    return words


def _split_words(area: str, count: int, sizes: str) -> str:
    """How a placement splits ``area`` in ``count`` parts of ``sizes``."""
    # Translators: a placement cuts {area} ("the open area") apart; {sizes}: "8 cells and 7 cells"
    if count == 2:
        return _("splits {area} in two (parts of {sizes})", area=area, sizes=sizes)
    if count == 3:
        return _("splits {area} in three (parts of {sizes})", area=area, sizes=sizes)
    if count == 4:
        return _("splits {area} in four (parts of {sizes})", area=area, sizes=sizes)
    return _("splits {area} into {count} parts (parts of {sizes})", area=area, count=count, sizes=sizes)


def _hole(hole: Hole) -> str:
    # Translators: the patch that is the 1x1 leather patch, among patch numbers that can fill a hole
    pieces = [f"#{pid}" for pid in hole.fits] + ([_("a leather patch")] if hole.leather else [])
    if not pieces:
        # Translators: a placement leaves a hole of {count} empty cells that nothing can fill
        return ngettext("leaves a {count}-cell hole no patch still to come can fill",
                        "leaves a {count}-cell hole no patch still to come can fill", hole.size)
    # Translators: the patches that fit a hole: more than four of those still to come, counted
    which = _("{count} of the patches still to come", count=len(pieces)) if len(pieces) > _NAMED else _(
        # Translators: the patches that fit a hole, named: {names} is "#0, #1 or a leather patch"
        "only {names}", names=_either(pieces))
    if hole.fillable < hole.size:
        # Translators: a hole of {count} cells; {which}: "only #0 or #1" or "11 of the patches still to come"
        return ngettext("leaves a {count}-cell hole {which} can go in, covering at most {fillable} of its cells",
                        "leaves a {count}-cell hole {which} can go in, covering at most {fillable} of its cells",
                        hole.size, which=which, fillable=hole.fillable)
    # Translators: a hole of {count} cells; {which}: "only #0 or #1" or "11 of the patches still to come"
    return ngettext("leaves a {count}-cell hole {which} can fill", "leaves a {count}-cell hole {which} can fill",
                    hole.size, which=which)


def open_area_words(quilt: int, mask: int, pool: Pool) -> str:
    """How covering ``mask`` divides ``quilt``'s open area, in words ("" when it neither splits a
    region nor leaves a hole): each part a clause, "; " between them."""
    change = open_area_change(quilt, mask, pool)
    clauses = ([_split(change)] if change.splits else []) + [_hole(h) for h in change.holes]
    return "; ".join(clauses)


def _next_patches(hint: Hint, lookahead: Sequence[int], before: int) -> str:
    if not lookahead:
        return ""
    named = ", ".join(f"#{i}" for i in lookahead)
    area, cover = int(hint.parts.get("lookahead_area", 0)), int(hint.parts.get("lookahead_cover", 0))
    lost = int(hint.parts.get("lookahead_lost", 0))
    if lost <= 0:
        # Translators: the next patch(es) of the circle ({named}: "#3, #5") still fit after the placement:
        # {cover} of their {area} cells
        words = ngettext("the next patch {named} still fits as well as before: {cover} of its {area} cells",
                         "the next patches {named} still fit as well as before: {cover} of their {area} cells",
                         len(lookahead), named=named, cover=cover, area=area)
    else:
        # Translators: the next patch(es) of the circle ({named}: "#3, #5") fit worse after the placement:
        # {cover} of their {area} cells, {lost} fewer than the {before} before it
        words = ngettext("the next patch {named} loses room: {cover} of its {area} cells still fit, {lost} fewer "
                         "than before ({before})",
                         "the next patches {named} lose room: {cover} of their {area} cells still fit, {lost} fewer "
                         "than before ({before})", len(lookahead), named=named, cover=cover, area=area, lost=lost,
                         before=before)
    # Translators: follows a figure the search could not finish proving
    return words if hint.exact else _("{words} (a bound: the search ran out of time)", words=words)


def _square(parts: dict[str, float]) -> str:
    if parts.get("completes_square"):
        return _("completes a 7x7 square (+7 points)")
    if parts.get("bonus_lost"):
        return _("closes off the last 7x7 square that could still be completed")
    return ""


def _score(hint: Hint, weights: ScoreWeights) -> str:
    parts = hint.parts
    contact = parts.get("contact", 0.0)
    # Translators: a term of a placement's score: {value} ("+0.40"), {weight} x {share} ("50%")
    terms = [_("{value} for contact ({weight} x {share} of its sides touching)", value=_signed(
        weights.contact * contact), weight=number(weights.contact), share=percent(contact))]
    shut = parts.get("new_unfillable", 0.0)
    if shut:
        # Translators: a term of a placement's score ({value}: "-1.00")
        terms.append(ngettext("{value} for {count} cell shut in", "{value} for {count} cells shut in", int(shut),
                              value=_signed(-weights.unfillable * shut)))
    lost = parts.get("lookahead_lost", 0.0)
    if lost:
        # Translators: a term of a placement's score ({value}: "-0.20")
        terms.append(ngettext("{value} for {count} cell of the next patches lost",
                              "{value} for {count} cells of the next patches lost", int(lost),
                              value=_signed(-weights.lookahead * lost)))
    if parts.get("bonus_lost"):
        # Translators: a term of a placement's score ({value}: "-2.00")
        terms.append(_("{value} for closing off the last open 7x7 square", value=_signed(-weights.bonus)))
    if parts.get("completes_square"):
        # Translators: a term of a placement's score ({value}: "+2.00")
        terms.append(_("{value} for completing a 7x7 square", value=_signed(weights.completes)))
    # Translators: a placement's score ({score}: "+0.85") as the sum of its terms
    return _("score {score} = {terms}", score=_signed(hint.score), terms=", ".join(terms))


def placement_reasons(quilt: int, hint: Hint, result: BestFitResult) -> PlacementReasons:
    """The reasons of one of ``result``'s placements on ``quilt`` (an 81-bit mask)."""
    mask = mask_of(hint.cells)
    return PlacementReasons(
        where=cells_words(mask),
        touches=_touches(mask, quilt),
        keeps_open=_keeps_open(hint.parts),
        open_area=open_area_words(quilt, mask, Pool.of(result.pool_ids, result.singles)),
        next_patches=_next_patches(hint, result.lookahead, result.lookahead_cover_before),
        square=_square(hint.parts),
        score=_score(hint, result.weights),
    )


def reasons_lines(reasons: PlacementReasons) -> list[str]:
    """The reasons as the CLI prints them under a placement, one a line: the facts, then the score's terms."""
    return [line for line in (reasons.square, reasons.touches, reasons.keeps_open, reasons.open_area,
                              reasons.next_patches, reasons.score) if line]
