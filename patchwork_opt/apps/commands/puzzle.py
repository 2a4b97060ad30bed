"""The ``patchwork puzzle`` commands: make a puzzle proven by the solvers, solve one in the terminal,
judge an answer, write a bank (the puzzles themselves: ``patchwork_opt/puzzles`` and
``patchwork_opt/puzzles/making.py``)."""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer

from patchwork_opt.apps.typer_app import JsonFlag, new_typer
from patchwork_opt.apps.typer_app import print_json as _print_json
from patchwork_opt.i18n import H_, _, ngettext, number

puzzle_app = new_typer(H_("Puzzles proven by the solvers (find the winning move, fill the quilt) and exercises from "
                          "your own mistakes (find a better move)."))


@puzzle_app.command("new", help=H_(
    "Make a puzzle from seeded games and prove it (endgame: the exact search; fill: the optimal fill)."))
def puzzle_new(
    kind: Annotated[str, typer.Option(
        help=H_("endgame (find the winning move) or fill (fill the quilt)."))] = "endgame",
    difficulty: Annotated[
        int | None, typer.Option(min=1, max=5, help=H_("1 (easy) to 5 (hard); any when omitted."))
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help=H_("Seed of the games the puzzle comes from (random when omitted)."))
    ] = None,
    variant: Annotated[
        str | None, typer.Option(help=H_("A fill's variant: cells, points (with a button budget) or bonus (a 7x7)."))
    ] = None,
    theme: Annotated[
        str | None,
        typer.Option(help=H_("A theme the puzzle must have. Endgames: 7x7-race, leather, income-timing, tie-break, "
                             "placement, buttons, long-line; fills: budget, 7x7, points.")),
    ] = None,
    save: Annotated[str | None, typer.Option(metavar="FILE", help=H_("Also write the puzzle to FILE."))] = None,
    as_json: JsonFlag = False,
) -> None:
    import random

    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.apps.puzzle import render_puzzle
    from patchwork_opt.formats.record import write_atomic
    from patchwork_opt.puzzles.making import check_puzzle_request, new_puzzle

    check_puzzle_request(kind, variant, theme)
    if seed is None:
        seed = random.randrange(1 << 31)
        # Translators: the seed a puzzle was made from, on stderr (to make it again)
        typer.echo(_("seed {seed}", seed=seed), err=True)
    with phase_progress() as report:
        puzzle = new_puzzle(kind, difficulty, seed, variant=variant, theme=theme,
                            progress=lambda tries: report(_("games tried"), tries, tries))
    data = puzzle.to_json()
    if save is not None:
        write_atomic(save, json.dumps(data, indent=1) + "\n")
    if as_json:
        _print_json(data)
        return
    from rich.console import Console

    Console(highlight=False).print(render_puzzle(puzzle))
    # Translators: {id} is a puzzle's id; keep "--save FILE" as it is
    typer.echo(_("puzzle {id} written to {path}", id=puzzle.id, path=save) if save
               else _("puzzle {id} (--save FILE keeps it)", id=puzzle.id))


@puzzle_app.command("solve", help=H_(
    "Solve a puzzle in the terminal: make your move (or place the patches), then see the proof."))
def puzzle_solve(
    path: Annotated[str, typer.Argument(metavar="PUZZLE", help=H_("A puzzle file (as puzzle new --save writes it)."))],
) -> None:
    import sys

    from patchwork_opt.apps.play import terminal_for
    from patchwork_opt.apps.practice import cli_judging
    from patchwork_opt.apps.puzzle import solve
    from patchwork_opt.puzzles.kinds import load_puzzle

    solve(load_puzzle(path), terminal_for(sys.stdin, sys.stdout, sys.stderr), cli_judging())


@puzzle_app.command("check", help=H_(
    'Judge an answer for scripts: correct or not, the final margin (a fill: value minus the optimum; an '
    "exercise: expected), and the proof (the line of best play, or the optimum's placements); an "
    "exercise's also the best move and why the move played was worse."))
def puzzle_check(
    path: Annotated[str, typer.Argument(metavar="PUZZLE", help=H_("A puzzle file."))],
    move: Annotated[
        str | None, typer.Option(help=H_('The answer to an endgame or an exercise: a move in JSON, e.g. {"type": '
                                         '"advance"}.'))
    ] = None,
    placements: Annotated[
        str | None, typer.Option(help=H_('A fill\'s answer: [{"patch": ID, "cells": [[r, c], ...]}, ...] in JSON.'))
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.practice import cli_judging
    from patchwork_opt.puzzles.kinds import check_answer, load_puzzle

    puzzle = load_puzzle(path)
    verdict = check_answer(puzzle, move=move, placements=placements, judging=cli_judging())
    _print_json(verdict.to_json()) if as_json else typer.echo(verdict.text)


@puzzle_app.command("bank", help=H_(
    "Write a bank of puzzles (the shipped one is patchwork_opt/data/puzzles, written by this command); "
    "the same options write the same bank, whichever backend runs it."))
def puzzle_bank(
    out: Annotated[str, typer.Option(help=H_("Directory to write endgames.json and fills.json to."))],
    endgames: Annotated[int, typer.Option(help=H_("Endgame puzzles, spread over the five difficulties."))] = 200,
    fills: Annotated[int, typer.Option(help=H_("Fill puzzles, spread over the five difficulties."))] = 200,
    seed: Annotated[int, typer.Option(help=H_("Seed of the games (the same command writes the same bank)."))] = 0,
    workers: Annotated[int, typer.Option(help=H_("Worker processes (local), or CPUs of a local Ray cluster."))] = 2,
    backend: Annotated[
        str, typer.Option(help=H_("local (worker processes) or ray (the 'ray' extra; where one machine is too slow)."))
    ] = "local",
    address: Annotated[
        str | None, typer.Option(help=H_("With --backend ray: the address of a running Ray cluster."))
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.puzzles.banking import build_bank, check_backend
    from patchwork_opt.puzzles.kinds.endgame import ENDGAME
    from patchwork_opt.puzzles.kinds.fill import FILL

    check_backend(backend, workers)
    command = (f"patchwork puzzle bank --out {out} --endgames {endgames} --fills {fills} --seed {seed} "
               f"--workers {workers}")
    started = time.perf_counter()
    with phase_progress() as report:
        counts = build_bank(out, {ENDGAME.name: endgames, FILL.name: fills}, seed=seed, workers=workers,
                            progress=report, command=command, backend=backend, address=address)
    seconds = time.perf_counter() - started
    if as_json:
        _print_json({"counts": counts, "seconds": round(seconds, 1)})
        return
    for kind, by_difficulty in counts.items():
        spread = ", ".join(f"{d}: {n}" for d, n in by_difficulty.items())
        # Translators: a line of the puzzle bank's summary: {kind} (endgame, fill: keep them), {spread} "1: 40, ..."
        typer.echo(ngettext("{kind} {count} puzzle (by difficulty {spread})", "{kind} {count} puzzles (by difficulty "
                            "{spread})", sum(by_difficulty.values()), kind=kind.ljust(8), spread=spread))
    typer.echo(_("written to {path}/ in {seconds} s", path=out, seconds=number(seconds, 0)))
