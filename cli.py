"""The ``patchwork`` command line. Commands parse, call the library and render; nothing more.

Domain errors are mapped to one-line messages and exit codes in one place, ``_ErrorMappingGroup``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from patchwork_opt.errors import PatchworkError
from patchwork_opt.inputs import load_position_input
from patchwork_opt.notation import to_notation
from patchwork_opt.record import Record
from patchwork_opt.render import render_position
from patchwork_opt.state import State
from patchwork_opt.views import position_summary


class _ErrorMappingGroup(TyperGroup):
    """Turns domain errors into ``error: <one line>`` on stderr and the error's exit code."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except PatchworkError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(130) from None


app = typer.Typer(
    cls=_ErrorMappingGroup,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    help="Patchwork rules engine, CP-SAT quilt optimizer and AI.",
)
bench_app = typer.Typer(cls=_ErrorMappingGroup, no_args_is_help=True, help="Benchmarks (figures and ratios).")
app.add_typer(bench_app, name="bench")

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


def _print_json(data: object) -> None:
    typer.echo(json.dumps(data, indent=2))


# ==== engine commands ==========================================================================


@app.command()
def replay(
    record: Annotated[str, typer.Argument(help="A game record (JSON file).")],
    as_json: JsonFlag = False,
) -> None:
    """Replay a game record and print the position reached."""
    state = Record.load(record).replay()
    if as_json:
        _print_json(position_summary(state))
    else:
        typer.echo(render_position(state))


@app.command()
def new(
    seed: Annotated[int | None, typer.Option(help="Seed for the circle (random when omitted).")] = None,
    leather: Annotated[str, typer.Option(help="Leather printing: revised or classic.")] = "revised",
    as_json: JsonFlag = False,
) -> None:
    """Set up a new game: print its record and its position."""
    state = State.new(seed=seed, leather=leather)
    record = Record.start(state)
    if as_json:
        _print_json({"record": record.to_json(), "position": to_notation(state)})
        return
    typer.echo(f"record:   {record.dumps()}")
    typer.echo(f"position: {to_notation(state)}")
    typer.echo("")
    typer.echo(render_position(state))


@app.command()
def show(
    what: Annotated[str, typer.Argument(help="A quilt file, a record file, a position file or a position string.")],
    as_json: JsonFlag = False,
) -> None:
    """Render a quilt, a record (its final position) or a position."""
    loaded = load_position_input(what)
    if loaded.state is None:
        quilt = loaded.quilt
        if as_json:
            _print_json({"cells": quilt.to_json(), "covered": quilt.covered, "empty": quilt.empty})
        else:
            from patchwork_opt.quilt import render_quilt

            typer.echo(render_quilt(quilt))
            typer.echo(f"covered {quilt.covered}, empty {quilt.empty}")
        return
    if as_json:
        _print_json({**position_summary(loaded.state), "position": to_notation(loaded.state)})
    else:
        typer.echo(render_position(loaded.state))
        typer.echo(f"position: {to_notation(loaded.state)}")


@app.command()
def schema(
    name: Annotated[str, typer.Argument(help="record, position, move, or all.")] = "all",
) -> None:
    """Print the published JSON schema of the project's formats."""
    from patchwork_opt.models import json_schema

    _print_json(json_schema(name))


@bench_app.command("engine")
def bench_engine(
    seconds: Annotated[float, typer.Option(help="Time per measurement, in seconds.")] = 3.0,
    repeats: Annotated[int, typer.Option(help="Measurements per figure; the median is quoted.")] = 3,
    as_json: JsonFlag = False,
) -> None:
    """Random games per second and legal-move generation, against a naive list-of-lists engine."""
    from patchwork_opt.bench import run_engine_bench

    result = run_engine_bench(seconds=seconds, repeats=repeats, progress=not as_json)
    if as_json:
        _print_json(result)
        return
    typer.echo(f"random games/s      {result['games_per_s']:>10.0f}   naive {result['naive_games_per_s']:>8.1f}"
               f"   ratio {result['games_ratio']:.1f}x")
    typer.echo(f"legal-move gen /s   {result['movegen_per_s']:>10.0f}   naive {result['naive_movegen_per_s']:>8.1f}"
               f"   ratio {result['movegen_ratio']:.1f}x")
    typer.echo(f"moves per game      {result['moves_per_game']:>10.1f}")
    typer.echo(f"(medians of {repeats} runs of {seconds:g}s on one core)")


# ==== solver commands (hint, fill, bonus) ======================================================

# ==== AI commands (match) ======================================================================

# ==== play =====================================================================================

# ==== serve ====================================================================================


def main() -> None:
    app()


if __name__ == "__main__":
    main()
