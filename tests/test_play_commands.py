"""What a person types in ``patchwork play``, read into commands; bad lines give one clear line."""

from __future__ import annotations

import pytest

from patchwork_opt.apps.play.commands import (
    Advance,
    Buy,
    Cancel,
    CommandError,
    Help,
    Hint,
    Place,
    PlaceSpec,
    PlayMove,
    Quit,
    Save,
    Undo,
    parse_command,
    parse_place,
)
from patchwork_opt.core.bitboard import mask_of
from patchwork_opt.core.move import ADVANCE, Move


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("buy 2", Buy(offer=2)),
        ("BUY #12", Buy(patch=12)),
        ("b 1 3", Buy(offer=1, place=PlaceSpec(suggestion=3))),
        ("buy #7 o3 4,5", Buy(patch=7, place=PlaceSpec(orientation=3, cell=(4, 5)))),
        ("buy 3 34, 35,45", Buy(offer=3, place=PlaceSpec(cells=mask_of([(3, 4), (3, 5), (4, 5)])))),
        ("advance", Advance()),
        ("a", Advance()),
        ("hint", Hint(5)),
        ("hint 3", Hint(3)),
        ("undo", Undo()),
        ("cancel", Cancel()),
        ("save games/x.json", Save("games/x.json")),
        ("?", Help()),
        ("q", Quit()),
        ("2", Place(PlaceSpec(suggestion=2))),
        ("o0 45", Place(PlaceSpec(orientation=0, cell=(4, 5)))),
        ("place 4 5", Place(PlaceSpec(cell=(4, 5)))),
        ("0@34,35", PlayMove(Move.buy(0, mask_of([(3, 4), (3, 5)])))),
        ("A", PlayMove(ADVANCE)),
        ("l@44", PlayMove(Move.leather(4, 4))),
    ],
)
def test_commands_are_read(line: str, command: object) -> None:
    assert parse_command(line) == command


def test_blank_line_is_no_command() -> None:
    assert parse_command("   ") is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("buy", "buy which patch?"),
        ("buy 4", "numbered 1-3, not 4"),
        ("buy #x", "cannot read patch id '#x'"),
        ("buy two", "cannot read 'two'"),
        ("buy 1 99,98", "cannot read placement '99,98'"),
        ("advance now", "advance takes nothing after it"),
        ("hint lots", "hint takes a number of moves 1-20"),
        ("0", "suggestions are numbered from 1"),
        ("o2 9,9", "cannot read cell '9,9'"),
        ("12@34,35", "not a placement of patch 12"),
        ("jump", "unknown command 'jump'"),
    ],
)
def test_bad_lines_say_what_is_wrong_in_one_line(line: str, message: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_command(line)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_cells_listed_twice_are_refused() -> None:
    with pytest.raises(CommandError, match="cell 34 is listed twice"):
        parse_place("34,34,35")
