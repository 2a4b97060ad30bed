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
from patchwork_opt.core.words import cells_words, plural
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
    return f"{reasons.where}: " + "; ".join(f for f in facts if f)


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def score_rule(weights: ScoreWeights) -> str:
    """How a placement's score is made, in words (the page's legend, the CLI's footnote)."""
    return (
        f"score = {weights.contact:g} x the share of its sides touching the edge or covered cells"
        f" - {weights.unfillable:g} for each empty cell it shuts in for good (no patch still to come can fill it)"
        f" - {weights.lookahead:g} for each cell of the next patches that no longer fits"
        f" - {weights.bonus:g} for closing off the last 7x7 square still open"
        f" + {weights.completes:g} for completing a 7x7 square"
    )


def _touches(mask: int, quilt: int) -> str:
    touching, outline = contact_edges(mask, quilt)
    verb = "touches" if touching == 1 else "touch"
    return f"{touching} of its {outline} sides {verb} the edge or covered cells"


def _keeps_open(parts: dict[str, float]) -> str:
    empty, regions = int(parts.get("empty_after", 0)), int(parts.get("regions_after", 0))
    left = f"leaves {plural(empty, 'empty cell')}" + (f" in {plural(regions, 'part')}" if regions > 1 else "")
    shut = int(parts.get("new_unfillable", 0))
    if shut > 0:
        return f"{left}; shuts in {plural(shut, 'cell')} no patch still to come can fill"
    if shut < 0:
        return f"{left}; covers {plural(-shut, 'cell')} no other patch still to come could fill"
    return f"{left}; shuts in no cell for good"


_COUNTS = {2: "two", 3: "three", 4: "four"}
_NAMED = 4  # a hole's fitting pieces named one by one up to this many, counted past it


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" or {names[-1]}"


def _split(change: OpenAreaChange) -> str:
    sizes = " and ".join(plural(part.bit_count(), "cell") for part in change.large)
    area = "the open area" if change.regions_before == 1 else "its part of the open area"
    count = len(change.large)
    into = f"in {_COUNTS[count]}" if count in _COUNTS else f"into {count} parts"
    words = f"splits {area} {into} (parts of {sizes})"
    cut = change.cut.bit_count()
    if cut:
        cells = f"any one of {cut} of its cells" if cut > 2 else _either(
            [cells_words(1 << i) for i in range(change.cut.bit_length()) if change.cut >> i & 1])
        words += f"; covering {cells} alone would have split it"
    return words


def _hole(hole: Hole) -> str:
    pieces = [f"#{pid}" for pid in hole.fits] + (["a leather patch"] if hole.leather else [])
    left = f"leaves a {hole.size}-cell hole"
    if not pieces:
        return f"{left} no patch still to come can fill"
    which = f"{len(pieces)} of the patches still to come" if len(pieces) > _NAMED else f"only {_either(pieces)}"
    if hole.fillable < hole.size:
        return f"{left} {which} can go in, covering at most {hole.fillable} of its cells"
    return f"{left} {which} can fill"


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
    proof = "" if hint.exact else " (a bound: the search ran out of time)"
    one = len(lookahead) == 1
    which, its, fits, loses = (f"the next patch {named}", "its", "fits", "loses") if one else (
        f"the next patches {named}", "their", "fit", "lose")
    if lost <= 0:
        return f"{which} still {fits} as well as before: {cover} of {its} {area} cells{proof}"
    return f"{which} {loses} room: {cover} of {its} {area} cells still fit, {lost} fewer than before ({before}){proof}"


def _square(parts: dict[str, float]) -> str:
    if parts.get("completes_square"):
        return "completes a 7x7 square (+7 points)"
    if parts.get("bonus_lost"):
        return "closes off the last 7x7 square that could still be completed"
    return ""


def _score(hint: Hint, weights: ScoreWeights) -> str:
    parts = hint.parts
    contact = parts.get("contact", 0.0)
    terms = [f"{_signed(weights.contact * contact)} for contact ({weights.contact:g} x {contact:.0%} of its sides "
             "touching)"]
    shut = parts.get("new_unfillable", 0.0)
    if shut:
        terms.append(f"{_signed(-weights.unfillable * shut)} for {plural(int(shut), 'cell')} shut in")
    lost = parts.get("lookahead_lost", 0.0)
    if lost:
        terms.append(f"{_signed(-weights.lookahead * lost)} for {plural(int(lost), 'cell')} of the next patches lost")
    if parts.get("bonus_lost"):
        terms.append(f"{_signed(-weights.bonus)} for closing off the last open 7x7 square")
    if parts.get("completes_square"):
        terms.append(f"{_signed(weights.completes)} for completing a 7x7 square")
    return f"score {_signed(hint.score)} = " + ", ".join(terms)


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
