"""Finding a patch by what a player has in hand: its id, or the facts its piece shows.

The physical pieces carry no numbers. What a player can read off a piece is its cost (the buttons
printed on it), its time (the hourglass), its income (the buttons woven into it) and its size (its
cells), so besides an id (``12`` or ``#12``) a patch may be named by those facts, written
``COST/TIME[/INCOME[/CELLS]]`` (``3/6``, ``2/2/0/5``): the four together name exactly one patch.

Filters over the same facts (``patchwork patches --cost 2-4``, the workshop's patch list) and the
near matches that errors name (``no patch has cost 5, time 4, income 1; the closest: #21 ...``)
are here too, so that the command line and the service say it the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from patchwork_opt.core.catalogue import PATCH_COUNT, PATCHES, Patch, check_patch_ids
from patchwork_opt.core.errors import UnknownPatchError
from patchwork_opt.i18n import N_, _, ngettext

#: The facts a piece shows, in the order a patch named by its facts gives them.
FACTS = ("cost", "time", "income", "cells")
#: Near matches an error names at most.
CLOSEST_SHOWN = 3
#: An id (``12``, ``#12``) or the facts (``3/6``, ``3/6/2``, ``3/6/2/6``).
_ID = re.compile(r"#?(\d{1,6})")
_FACTS = re.compile(r"(\d{1,3})/(\d{1,3})(?:/(\d{1,3}))?(?:/(\d{1,3}))?")
#: A fact's filter: one value (``3``) or an inclusive range (``2-4``).
RANGE_PATTERN = r"^[0-9]{1,3}(-[0-9]{1,3})?$"
_RANGE = re.compile(RANGE_PATTERN)
#: How a patch is named, said in the refusals of a name that is none (``{last}``: the last id).
# Translators: how to name a patch: keep cost/time[/income[/cells]] as it is (the order of the facts typed)
NAMING = N_("ids are 0-{last}, or name a piece by what it shows: cost/time[/income[/cells]], e.g. 3/6")


def facts_of(p: Patch) -> dict[str, int]:
    """The facts of a patch by name (``cells``: how many cells it covers)."""
    return {"cost": p.cost, "time": p.time, "income": p.income, "cells": p.area}


def patch_words(patch_id: int) -> str:
    """``#21 (cost 5, time 4, income 2, 5 cells)``: a patch as a player finds it."""
    p = PATCHES[patch_id]
    return f"#{p.id} (cost {p.cost}, time {p.time}, income {p.income}, {p.area} cells)"


@dataclass(frozen=True, slots=True)
class FactRange:
    """An inclusive range of one fact's values (``low == high``: one value)."""

    low: int
    high: int

    @classmethod
    def parse(cls, text: str, where: str) -> FactRange:
        """``3`` or ``2-4`` (UnknownPatchError naming ``where`` otherwise)."""
        if not _RANGE.search(text.strip()):
            raise UnknownPatchError(N_("{where}: expected a number or a range like 2-4, got {text!r}"), where=where,
                                    text=text)
        low, _, high = text.strip().partition("-")
        return cls(int(low), int(high or low))

    def distance(self, value: int) -> int:
        """How far ``value`` lies outside the range (0 inside)."""
        return max(self.low - value, 0, value - self.high)

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


def _wanted_words(wanted: Mapping[str, FactRange]) -> str:
    # Translators: the facts a patch was asked for ("cost 5, time 4"): a fact's name and its value or range
    names = {"cost": _("cost {value}"), "time": _("time {value}"), "income": _("income {value}"),
             "cells": _("cells {value}")}
    return ", ".join(names[name].format(value=wanted[name]) for name in FACTS if name in wanted)


def matching(wanted: Mapping[str, FactRange]) -> list[int]:
    """The ids of the patches whose facts all lie in the ranges ``wanted`` (every patch for none)."""
    return [p.id for p in PATCHES if all(r.distance(facts_of(p)[name]) == 0 for name, r in wanted.items())]


def closest(wanted: Mapping[str, FactRange], count: int = CLOSEST_SHOWN) -> list[int]:
    """The ``count`` patches nearest the facts ``wanted`` (summed distance, then id)."""
    def off(p: Patch) -> tuple[int, int]:
        return sum(r.distance(facts_of(p)[name]) for name, r in wanted.items()), p.id

    return [p.id for p in sorted(PATCHES, key=off)[:count]]


def no_match_words(wanted: Mapping[str, FactRange]) -> str:
    """``no patch has cost 5, time 4, income 1; the closest: #21 (...), #23 (...)``."""
    near = ", ".join(patch_words(i) for i in closest(wanted))
    # Translators: {wanted} is the facts asked for ("cost 5, time 4"), {near} the closest patches in words
    return _("no patch has {wanted}; the closest: {near}", wanted=_wanted_words(wanted), near=near)


def facts_name(patch_id: int) -> str:
    """The fewest facts naming the patch alone: ``3/6`` for #12, ``2/2/0/3`` for #1."""
    values = [facts_of(PATCHES[patch_id])[name] for name in FACTS]
    for k in range(2, len(FACTS) + 1):
        wanted = {name: FactRange(v, v) for name, v in zip(FACTS[:k], values, strict=False)}
        if len(matching(wanted)) == 1:
            break
    return "/".join(str(v) for v in values[:k])


def find_patch(token: str, where: str = "patch") -> int:
    """The patch a player names: an id (``12``, ``#12``) or its facts (``3/6``, ``2/2/0/5``). An id
    out of range, facts no patch has (with the closest ones) or facts several patches share (with
    them) raise ``UnknownPatchError`` naming ``where``."""
    text = token.strip()
    by_id = _ID.fullmatch(text)
    if by_id:
        pid = int(by_id.group(1))
        if pid >= PATCH_COUNT:
            raise UnknownPatchError(N_("{where}: no patch #{pid} ({naming})"), where=where, pid=pid,
                                    naming=_(NAMING, last=PATCH_COUNT - 1))
        return pid
    by_facts = _FACTS.fullmatch(text)
    if by_facts is None:
        raise UnknownPatchError(N_("{where}: {token!r} is not a patch id ({naming})"), where=where, token=token,
                                naming=_(NAMING, last=PATCH_COUNT - 1))
    wanted = {name: FactRange(int(v), int(v)) for name, v in zip(FACTS, by_facts.groups(), strict=True)
              if v is not None}
    found = matching(wanted)
    if not found:
        raise UnknownPatchError(N_("{where}: {error}"), where=where, error=no_match_words(wanted))
    if len(found) > 1:
        named = ", ".join(patch_words(i) for i in found)
        patches = ngettext("{count} patch", "{count} patches", len(found))
        # Translators: facts several patches share: {text} the facts typed, {patches} how many ("3 patches"),
        # {named} the patches in words, {facts} more facts that name the first alone ("3/6/2"), {pid} its id
        raise UnknownPatchError(N_("{where}: {text} names {patches}: {named}; add more of its facts, e.g. {facts} for "
                                   "#{pid}, or give the id"), where=where, text=text, patches=patches, named=named,
                                facts=facts_name(found[0]), pid=found[0])
    return found[0]


def parse_patch_ids(text: str, where: str = "--patches") -> list[int]:
    """Patches from ``1,2,5`` or ``#1, 3/6`` (commas and/or spaces; ids or facts, see ``find_patch``),
    each at most once, as ``check_patch_ids`` checks lists."""
    out = [find_patch(token, where) for token in text.replace(",", " ").split()]
    if not out:
        raise UnknownPatchError(N_("{where}: no patch ids given (write them like 1,2,5)"), where=where)
    return check_patch_ids(out, where)


def parse_filters(given: Mapping[str, str | None]) -> dict[str, FactRange]:
    """The filters given by fact name (``{"cost": "2-4", "time": None}``), each checked."""
    return {name: FactRange.parse(value, f"--{name}") for name, value in given.items() if value is not None}


def select(wanted: Mapping[str, FactRange]) -> tuple[list[int], list[int]]:
    """(the patches matching, the closest ones when none does)."""
    found = matching(wanted)
    return found, ([] if found else closest(wanted))

