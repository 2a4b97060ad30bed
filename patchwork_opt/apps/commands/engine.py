"""The ``patchwork engine`` command: the engine protocol on stdin and stdout (docs/engine.md; the
loop itself is ``patchwork_opt/apps/engine/server.py``, imported when the command runs)."""

from __future__ import annotations

import sys

import typer

from patchwork_opt.apps.typer_app import new_typer
from patchwork_opt.i18n import H_

engine_app = new_typer(H_("The engine protocol."))


@engine_app.command(help=H_(
    "Speak the engine protocol (modelled on UCI) on stdin and stdout, for other programs: upi, isready, "
    "setoption, newgame, position, go, stop, quit (docs/engine.md)."))
def engine() -> None:
    from patchwork_opt.apps.engine.server import serve

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    raise typer.Exit(serve(iter(sys.stdin.readline, ""), write))
