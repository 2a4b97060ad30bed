"""Reading what a user hands the CLI: a quilt, a record or a position, from a file or a string."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patchwork_opt.core.errors import PatchworkError, RecordError
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.record import Record, read_text
from patchwork_opt.formats.views import position_summary
from patchwork_opt.i18n import N_, _


@dataclass(frozen=True, slots=True)
class LoadedInput:
    """Either a position (from a record or a notation string) or a bare quilt."""

    quilt: Quilt
    state: State | None = None
    record: Record | None = None

    def summary(self) -> dict[str, Any]:
        """What ``show --json`` prints: a quilt's cells and counts, or a position's summary and notation."""
        if self.state is None:
            return {"cells": self.quilt.to_json(), "covered": self.quilt.covered, "empty": self.quilt.empty}
        return {**position_summary(self.state), "position": to_notation(self.state)}


def _looks_like_path(arg: str) -> bool:
    if "\n" in arg or arg.lstrip().startswith(("[", "{")):
        return False
    try:
        exists = Path(arg).exists()
    except OSError:  # a long inline string is no file name
        return False
    return exists or arg.endswith((".json", ".txt", ".quilt", ".pos"))


def load_quilt(arg: str) -> Quilt:
    """A quilt from a file (9-line text or JSON cells) or given inline.

    An inline quilt has 9 lines or starts with ``[``: any other one-line argument is a file
    name, so a mistyped path says so instead of "a quilt has 9 rows"."""
    one_line = "\n" not in arg.strip() and not arg.lstrip().startswith("[")
    text = read_text(arg) if one_line or _looks_like_path(arg) else arg
    return Quilt.parse(text)


def load_position_input(arg: str) -> LoadedInput:
    """A record file, a position (file or string) or a quilt (file or inline).

    Inline, a position is one line of several fields, a quilt 9 lines or ``[...]``, a record
    ``{...}``: a single word is a file name."""
    source = arg
    one_word = len(arg.split()) == 1 and not arg.lstrip().startswith(("[", "{"))
    text = read_text(arg) if one_word or _looks_like_path(arg) else arg
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise RecordError(N_("{source}: not JSON: {problem} at line {line}"), source=source, problem=exc.msg,
                              line=exc.lineno) from None
        if isinstance(data, dict) and "position" in data and isinstance(data["position"], str):
            state = from_notation(data["position"])
            return LoadedInput(quilt=Quilt(state.quilts[state.to_move()]), state=state)
        record = Record.from_json(data)
        state = record.replay()
        return LoadedInput(quilt=Quilt(state.quilts[state.to_move()]), state=state, record=record)
    lines = [line for line in stripped.splitlines() if line.strip()]
    if len(lines) == 1 and len(lines[0].split()) > 1 and not stripped.startswith("["):
        state = from_notation(lines[0])
        return LoadedInput(quilt=Quilt(state.quilts[state.to_move()]), state=state)
    try:
        return LoadedInput(quilt=Quilt.parse(stripped))
    except PatchworkError as exc:
        # Translators: {source} is where a quilt was read (a file name, or "input"); {error} what is wrong
        where = source if source != text else _("input")
        raise type(exc)(N_("{source}: {error}"), source=where, error=exc) from None
