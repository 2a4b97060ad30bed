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
IDS_WORDS = f"ids are 0-{PATCH_COUNT - 1}"
FACTS_HINT = "or name a piece by what it shows: cost/time[/income[/cells]], e.g. 3/6"


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
            raise UnknownPatchError(f"{where}: expected a number or a range like 2-4, got {text!r}")
        low, _, high = text.strip().partition("-")
        return cls(int(low), int(high or low))

    def distance(self, value: int) -> int:
        """How far ``value`` lies outside the range (0 inside)."""
        return max(self.low - value, 0, value - self.high)

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


def _wanted_words(wanted: Mapping[str, FactRange]) -> str:
    return ", ".join(f"{name} {wanted[name]}" for name in FACTS if name in wanted)


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
    return f"no patch has {_wanted_words(wanted)}; the closest: {near}"


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
            raise UnknownPatchError(f"{where}: no patch #{pid} ({IDS_WORDS}, {FACTS_HINT})")
        return pid
    by_facts = _FACTS.fullmatch(text)
    if by_facts is None:
        raise UnknownPatchError(f"{where}: {token!r} is not a patch id ({IDS_WORDS}, {FACTS_HINT})")
    wanted = {name: FactRange(int(v), int(v)) for name, v in zip(FACTS, by_facts.groups(), strict=True)
              if v is not None}
    found = matching(wanted)
    if not found:
        raise UnknownPatchError(f"{where}: {no_match_words(wanted)}")
    if len(found) > 1:
        named = ", ".join(patch_words(i) for i in found)
        raise UnknownPatchError(f"{where}: {text} names {len(found)} patches: {named}; add more of its facts, "
                                f"e.g. {facts_name(found[0])} for #{found[0]}, or give the id")
    return found[0]


def parse_patch_ids(text: str, where: str = "--patches") -> list[int]:
    """Patches from ``1,2,5`` or ``#1, 3/6`` (commas and/or spaces; ids or facts, see ``find_patch``),
    each at most once, as ``check_patch_ids`` checks lists."""
    out = [find_patch(token, where) for token in text.replace(",", " ").split()]
    if not out:
        raise UnknownPatchError(f"{where}: no patch ids given (write them like 1,2,5)")
    return check_patch_ids(out, where)


def parse_filters(given: Mapping[str, str | None]) -> dict[str, FactRange]:
    """The filters given by fact name (``{"cost": "2-4", "time": None}``), each checked."""
    return {name: FactRange.parse(value, f"--{name}") for name, value in given.items() if value is not None}


def select(wanted: Mapping[str, FactRange]) -> tuple[list[int], list[int]]:
    """(the patches matching, the closest ones when none does)."""
    found = matching(wanted)
    return found, ([] if found else closest(wanted))

