"""The rules engine's commands, merged into ``patchwork``'s top level: ``replay``, ``new``, ``show``,
``schema`` and ``patches`` (a record replayed, a game set up, a quilt, position or record drawn, the
formats' JSON schema, the catalogue as a player looks for a piece). They import only the engine and
the formats (pictures and the catalogue's words in their own bodies), so they start at once.
"""

from __future__ import annotations

from typing import Annotated

import typer

from patchwork_opt.apps.typer_app import JsonFlag, new_typer
from patchwork_opt.apps.typer_app import print_json as _print_json
from patchwork_opt.core.state import State
from patchwork_opt.formats.inputs import load_position_input
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.formats.render import render_loaded, render_position
from patchwork_opt.formats.views import position_summary
from patchwork_opt.i18n import H_

rules_app = new_typer(H_("The rules engine: records, positions, quilts, formats and the catalogue."))


@rules_app.command(help=H_("Replay a game record and print the position reached."))
def replay(
    record: Annotated[str, typer.Argument(metavar="RECORD", help=H_("A game record (JSON file)."))],
    as_json: JsonFlag = False,
) -> None:
    state = Record.load(record).replay()
    if as_json:
        _print_json(position_summary(state))
    else:
        typer.echo(render_position(state))


@rules_app.command(help=H_(
    "Set up a new game: print its record (which replay, show, hint and play --load read) and position."))
def new(
    seed: Annotated[int | None, typer.Option(help=H_("Seed for the circle (random when omitted)."))] = None,
    leather: Annotated[str, typer.Option(help=H_("Leather printing: revised or classic."))] = "revised",
    save: Annotated[str | None, typer.Option(metavar="FILE", help=H_("Also write the record to FILE."))] = None,
    as_json: JsonFlag = False,
) -> None:
    state = State.new(seed=seed, leather=leather)
    record = Record.start(state)
    if save is not None:
        record.save(save)
    if as_json:
        _print_json(record.to_json())  # the record itself, so that it loads back as printed
        return
    typer.echo(f"record:   {record.dumps()}")
    typer.echo(f"position: {to_notation(state)}")
    typer.echo("")
    typer.echo(render_position(state))


@rules_app.command(help=H_(
    "Render a quilt, a record (its final position) or a position; "
    "--svg/--png draw it as the web page does."))
def show(
    what: Annotated[str, typer.Argument(
        metavar="QUILT|POSITION|RECORD",
        help=H_("A quilt (file or 9 lines), a position (file or string) or a record file.")
    )],
    svg: Annotated[str | None, typer.Option(metavar="FILE", help=H_("Also draw it as an SVG picture in FILE."))] = None,
    png: Annotated[str | None, typer.Option(metavar="FILE", help=H_("Also draw it as a PNG picture in FILE."))] = None,
    as_json: JsonFlag = False,
) -> None:
    loaded = load_position_input(what)
    if svg is not None or png is not None:
        from patchwork_opt.formats.picture import save_pictures

        save_pictures(loaded, svg=svg, png=png)
    _print_json(loaded.summary()) if as_json else typer.echo(render_loaded(loaded))


@rules_app.command(help=H_("Print the published JSON schema of the project's formats."))
def schema(
    name: Annotated[str, typer.Argument(metavar="FORMAT", help=H_("record, position, move, or all."))] = "all",
) -> None:
    from patchwork_opt.formats.models import json_schema

    _print_json(json_schema(name))


@rules_app.command(help=H_(
    "The patches with their ids, drawn with their buttons, cost, time, income and cells: find a piece's "
    'id.'))
def patches(
    cells: Annotated[str | None, typer.Option(metavar="N|LO-HI", help=H_("Cells the patch covers."))] = None,
    cost: Annotated[str | None, typer.Option(metavar="N|LO-HI", help=H_("Its cost in buttons."))] = None,
    time: Annotated[str | None, typer.Option(metavar="N|LO-HI", help=H_("Its time (the hourglass)."))] = None,
    income: Annotated[str | None, typer.Option(metavar="N|LO-HI", help=H_("Its income (buttons on it)."))] = None,
    svg: Annotated[str | None, typer.Option(metavar="FILE", help=H_("Also draw the cards as an SVG picture."))] = None,
    png: Annotated[str | None, typer.Option(metavar="FILE", help=H_("Also draw the cards as a PNG picture."))] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.patches import catalogue_json, render_patches
    from patchwork_opt.core.lookup import parse_filters

    data = catalogue_json(parse_filters({"cells": cells, "cost": cost, "time": time, "income": income}))
    if svg is not None or png is not None:
        from patchwork_opt.formats.picture import catalogue_picture, save_picture

        shown = data["patches"] or data["closest"]
        save_picture(catalogue_picture([entry["id"] for entry in shown]), svg=svg, png=png)
    _print_json(data) if as_json else typer.echo(render_patches(data))
