"""``patchwork patches``: the catalogue as a player looks for a piece, each patch drawn with its id.

A player with a physical game finds a piece's id here by what the piece shows: its shape (drawn
with its buttons), its cost, time, income and cells, filtered by any of them. Each card also gives
the shortest way to name the patch by those facts (``3/6``), which ``hint`` and ``fill`` read in place
of an id. The JSON is what the workshop's patch list answers (``GET /api/workshop/patches``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.lookup import FACTS, FactRange, facts_name, no_match_words, select
from patchwork_opt.i18n import ngettext, npgettext, pgettext

#: Cards per row of the terminal drawing (each ``CARD`` characters wide: 80 columns).
PER_ROW = 5
CARD = 16
#: A cell of a patch drawn two characters wide (terminal characters are about twice as tall as wide).
CLOTH, BUTTON, GAP = "##", "()", "  "


def patch_entry(patch_id: int) -> dict[str, Any]:
    """One patch as JSON: its facts, its shape (rows of ``#`` cloth, ``o`` button, ``.`` nothing, as
    printed on the piece) and the facts that name it."""
    p = PATCHES[patch_id]
    return {
        "id": p.id, "cost": p.cost, "time": p.time, "income": p.income,
        "buttons": sum(row.count("o") for row in p.shape), "cells": p.area,
        "shape": list(p.shape), "name": facts_name(p.id),
    }


def catalogue_json(wanted: Mapping[str, FactRange]) -> dict[str, Any]:
    """What ``patchwork patches --json`` prints: the patches matching the filters, the filters, and
    when none matches the closest patches and that in words."""
    found, near = select(wanted)
    return {
        "filters": {name: str(wanted[name]) for name in FACTS if name in wanted},
        "patches": [patch_entry(i) for i in found],
        "closest": [patch_entry(i) for i in near],
        "words": "" if found else no_match_words(wanted),
    }


def _card(patch_id: int) -> list[str]:
    """A patch's card: its id and the facts that name it, its shape, then its cost, time, income and cells."""
    p = PATCHES[patch_id]
    shape = ["".join(CLOTH if ch == "#" else BUTTON if ch == "o" else GAP for ch in row).rstrip() for row in p.shape]
    lines = [f"#{p.id} ({facts_name(p.id)})", *shape, *([""] * (3 - len(shape))),
             # Translators: a patch's card in the catalogue's drawing; keep it within 15 characters
             pgettext("patch card", "cost {cost}  time {time}", cost=p.cost, time=p.time),
             # Translators: a patch's card: the buttons it earns at each income mark; within 15 characters
             pgettext("patch card", "income {income}", income=p.income),
             # Translators: a patch's card: the quilt cells it covers; within 15 characters
             npgettext("patch card", "{count} cell", "{count} cells", p.area)]
    return lines


def render_catalogue(ids: Sequence[int]) -> list[str]:
    """The cards of ``ids``, ``PER_ROW`` to a row, a blank line between rows; a card is ``CARD``
    characters wide, or as wide as its language's longest line and a space."""
    cards = [_card(i) for i in ids]
    width = max([CARD - 1, *(len(line) for card in cards for line in card)]) + 1
    lines: list[str] = []
    for start in range(0, len(ids), PER_ROW):
        row = cards[start : start + PER_ROW]
        lines += ["".join(part.ljust(width) for part in parts).rstrip() for parts in zip(*row, strict=True)]
        lines.append("")
    return lines


def render_patches(data: Mapping[str, Any]) -> str:
    """What ``patchwork patches`` prints: the matching cards and a legend, or the closest ones."""
    ids = [entry["id"] for entry in data["patches"]]
    if not ids:
        near = [entry["id"] for entry in data["closest"]]
        return "\n".join([f"{data['words']}", "", *render_catalogue(near)]).rstrip()
    # Translators: under the catalogue's cards: how many there are and how to read them (## and () are drawn
    # as they are; 3/6 is a patch's name by its cost/time, which hint and fill read in place of its number)
    legend = ngettext("{count} patch. ## cloth, () a button; (3/6) names a piece by its cost/time[/income[/cells]], "
                      "as hint and fill read it in place of the id",
                      "{count} patches. ## cloth, () a button; (3/6) names a piece by its cost/time[/income[/cells]], "
                      "as hint and fill read it in place of the id", len(ids))
    return "\n".join([*render_catalogue(ids), legend])

