"""Game records of RULES.md and the move formats inside them: round trips and clear refusals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import ORDERED_CIRCLE

from patchwork_opt.ai.random_play import random_move
from patchwork_opt.core.bitboard import bit
from patchwork_opt.core.errors import IllegalMoveError, NotationError, PatchworkError, RecordError, ReplayError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record, write_atomic

BUY_1 = {"type": "buy", "patch": 1, "cells": [[0, 2], [0, 0], [0, 1]]}  # any order


def record_json(moves: Any, **extra: Any) -> dict[str, Any]:
    return {"circle": ORDERED_CIRCLE, "moves": moves, **extra}


def played(seed: int, plies: int, leather: str = "revised") -> tuple[Record, State]:
    rng = random.Random(seed)
    state = State.new(seed=seed, leather=leather)
    record = Record.start(state)
    for _ in range(plies):
        if state.is_terminal():
            break
        move = random_move(state, rng)
        state.apply(move)
        record.moves.append(move)
    return record, state


def test_a_record_in_the_rules_format_replays() -> None:
    record = Record.from_json(record_json([{"type": "advance"}, BUY_1, {"type": "advance"}]))
    state = record.replay()
    assert state.pos == [3, 2]
    assert state.quilts[1] == bit(0, 0) | bit(0, 1) | bit(0, 2)
    assert record.moves[1] == Move.buy(1, bit(0, 0) | bit(0, 1) | bit(0, 2))
    assert record.replay(upto=1).pos == [1, 0]


def test_json_forms_of_the_three_moves() -> None:
    assert ADVANCE.to_json() == {"type": "advance"}
    assert Move.leather(4, 7).to_json() == {"type": "leather", "cell": [4, 7]}
    assert Move.from_json(BUY_1).to_json() == {"type": "buy", "patch": 1, "cells": [[0, 0], [0, 1], [0, 2]]}
    for move in (ADVANCE, Move.leather(4, 7), Move.from_json(BUY_1)):
        assert Move.from_json(move.to_json()) == move
        assert Move.parse(str(move)) == move


def test_text_forms_of_moves() -> None:
    assert str(Move.from_json(BUY_1)) == "1@00,01,02"
    assert str(Move.leather(4, 7)) == "L@47"
    assert Move.parse("advance") == ADVANCE


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    for leather in ("revised", "classic"):
        record, state = played(9, 200, leather)
        path = tmp_path / leather / "game.json"
        record.save(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) == ({"circle", "moves"} if leather == "revised" else {"circle", "moves", "leather"})
        loaded = Record.load(path)
        assert loaded.to_json() == record.to_json()
        assert loaded.replay() == state
        assert Record.loads(record.dumps()).to_json() == record.to_json()
        assert [p.name for p in path.parent.iterdir()] == ["game.json"], "no temporary file left"


def test_leather_field_accepts_five_spaces() -> None:
    record = Record.from_json(record_json([], leather=[20, 26, 32, 44, 50]))
    assert record.replay().printing == (20, 26, 32, 44, 50)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([1, 2], "^record must be a JSON object; \\[...\\] is not one$"),
        (record_json([], winner=0), "^winner is not a field of this format$"),
        ({"moves": []}, "^circle is missing$"),
        ({"circle": "1,2,3", "moves": []}, "^circle must be a list; \"1,2,3\" is not one$"),
        ({"circle": [*range(1, 33), 1], "moves": []}, "^circle: .*missing \\[0\\]"),
        ({"circle": [*range(1, 33), 40], "moves": []}, "^circle\\[32\\] must be 32 or less; it is 40$"),
        ({"circle": [*range(1, 33), "0"], "moves": []}, "^circle\\[32\\] must be a whole number; \"0\" is not one$"),
        (record_json({"type": "advance"}), "^moves must be a list"),
        (record_json([], leather=[26, 32]), "^leather needs at least 5 spaces; it has 2$"),
        (record_json([], leather=7), "^leather must be a list; 7 is not one$"),
        (record_json([], leather="classic"), "^leather must be a list; \"classic\" is not one$"),
        (record_json([], leather=[26, 26, 32, 44, 50]), "^leather: leather spaces repeat"),
    ],
)
def test_malformed_records_are_refused(data: object, words: str) -> None:
    with pytest.raises(RecordError, match=words) as info:
        Record.from_json(data)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({"type": "jump"}, "move has the unknown type 'jump'; the types are 'advance', 'buy', or 'leather'"),
        ({"patch": 1}, "move needs a 'type'"),
        ("advance", "move must be a JSON object; \"advance\" is not one"),
        ({"type": "advance", "cells": []}, "cells is not a field of this format"),
        ({"type": "leather"}, "cell is missing"),
        ({"type": "leather", "cell": [9, 0]}, "cell\\[0\\] must be 8 or less; it is 9"),
        ({"type": "buy", "patch": "1", "cells": [[0, 0]]}, "patch must be a whole number; \"1\" is not one"),
        ({"type": "buy", "patch": True, "cells": [[0, 0]]}, "patch must be a whole number; true is not one"),
        ({"type": "buy", "patch": 1}, "cells is missing"),
        ({"type": "buy", "patch": 1, "cells": [[0, 0], [0, 9], [0, 1]]},
         "cells\\[1\\]\\[1\\] must be 8 or less; it is 9"),
        ({"type": "buy", "patch": 1, "cells": [[0, 0], [0, 1], [0, 1]]}, "cells\\[2\\]: .* listed twice"),
        (
            {"type": "buy", "patch": 1, "cells": [[0, 0], [0, 1], [1, 1]]},
            "cells \\[\\[0, 0\\], \\[0, 1\\], \\[1, 1\\]\\] are not a placement of patch 1",
        ),
        ({"type": "buy", "patch": 33, "cells": [[0, 0]]}, "patch must be 32 or less; it is 33"),
    ],
)
def test_malformed_moves_are_refused_naming_the_ply(move: object, words: str) -> None:
    data = record_json([{"type": "advance"}, {"type": "advance"}, move])
    with pytest.raises(ReplayError, match="^ply 2: .*" + words) as info:
        Record.from_json(data)
    assert info.value.ply == 2
    # a move that cannot be read is a notation error (exit 2); one that reads but is no placement
    # of its patch is refused by the rules (exit 1)
    assert info.value.exit_code == (1 if "not a placement" in words else 2)
    assert info.value.http_status == (422 if "not a placement" in words else 400)


@pytest.mark.parametrize(
    ("moves", "ply", "words"),
    [
        (
            [{"type": "advance"}, {"type": "buy", "patch": 4, "cells": [[0, 0], [0, 1], [1, 0], [1, 1]]}],
            1,
            "patch 4 is not on offer",
        ),
        ([{"type": "buy", "patch": 3, "cells": [[0, i] for i in range(5)]}], 0, "costs 7 buttons, Player 1 has 5"),
        ([{"type": "leather", "cell": [0, 0]}], 0, "no leather patch is waiting"),
        (
            [BUY_1, {"type": "advance"}, {"type": "buy", "patch": 2, "cells": [[0, i] for i in range(4)]}],
            2,
            "patch 2 overlaps covered cells [[0, 0], [0, 1], [0, 2]] on Player 1's quilt",
        ),
    ],
)
def test_illegal_moves_are_refused_at_replay_naming_the_ply(moves: list[Any], ply: int, words: str) -> None:
    record = Record.from_json(record_json(moves))
    with pytest.raises(ReplayError) as info:
        record.replay()
    assert info.value.ply == ply
    assert str(info.value) == f"ply {ply}: {info.value.reason}"
    assert words in info.value.reason


def test_moves_after_the_end_are_refused() -> None:
    record, state = played(4, 1000)
    assert state.is_terminal()
    record.moves.append(ADVANCE)
    with pytest.raises(ReplayError, match=f"^ply {len(record.moves) - 1}: the game is over"):
        record.replay()


def test_loading_files_that_are_not_records(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such file"):
        Record.load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="is a directory"):
        Record.load(tmp_path)
    broken = tmp_path / "broken.json"
    broken.write_text('{"circle": [1, 2,', encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken\.json: not JSON: .* at line 1, column"):
        Record.load(broken)
    position = tmp_path / "midgame.pos"
    position.write_text(to_notation(State.new(seed=1)) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"midgame\.pos: not a game record"):
        Record.load(position)
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"circle": "nope", "moves": []}', encoding="utf-8")
    with pytest.raises(RecordError, match=r"^.*wrong\.json: .*circle"):
        Record.load(wrong)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="not a UTF-8 text file"):
        Record.load(binary)


def test_write_atomic_refuses_an_unwritable_place_cleanly(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(PatchworkError, match="cannot write"):
        write_atomic(blocker / "record.json", "{}")
    assert blocker.read_text(encoding="utf-8") == "x"


def test_move_text_errors() -> None:
    for bad in ("B", "1@0", "1@00,0", "L@9", "1@00 01", "@00"):
        with pytest.raises(NotationError, match="cannot read move") as info:
            Move.parse(bad)
        assert info.value.exit_code == 2
    with pytest.raises(IllegalMoveError, match="not a placement of patch 0") as refused:
        Move.parse("0@00,11")
    assert refused.value.exit_code == 1
    with pytest.raises(NotationError, match="unknown patch id 40"):
        Move.parse("40@00")


EXAMPLES = sorted((Path(__file__).parent.parent / "examples" / "records").glob("*.json"))


@pytest.mark.skipif(not EXAMPLES, reason="no example records")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_records_replay_as_the_reference_model_does(path: Path) -> None:
    from test_properties import assert_same

    from patchwork_opt.bench.reference import Ref, as_ref

    record = Record.load(path)
    state = record.initial_state()
    ref = Ref(circle=record.circle[:], leather=list(record.leather))
    for move in record.moves:
        assert {as_ref(m) for m in state.legal_moves()} == ref.legal()
        state.apply(move)
        ref.play(as_ref(move))
        assert_same(state, ref)
    assert record.replay() == state


def test_the_loader_refuses_what_the_published_schema_refuses() -> None:
    """One validator: the schema's types and bounds are the loader's (no string printings, no string ids)."""
    from patchwork_opt.formats.models import json_schema

    schema = json_schema("record")
    assert schema["properties"]["circle"]["items"]["maximum"] == 32
    assert schema["additionalProperties"] is False
    for bad in (record_json([], leather="classic"), record_json([], leather=[20, 26, 32, 44, 53])):
        with pytest.raises(RecordError):
            Record.from_json(bad)
    assert Record.from_json(record_json([], leather=[50, 20, 26, 32, 44])).leather == (20, 26, 32, 44, 50)


def test_write_atomic_gives_the_usual_permissions_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    import os
    import stat

    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "game.json", "{}\n")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "game.json").stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
