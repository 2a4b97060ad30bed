"""The ``patchwork match``, ``selfplay`` and ``train`` commands: bots against bots, the solver
against itself for training data, and the learned evaluation fitted to that data (the work itself:
``patchwork_opt/apps/match.py``, ``apps/selfplay.py``, ``ai/learned/training.py``). ``cli.py`` merges these
into the top level, as it adds ``bench`` and ``puzzle`` under their names. Each command imports
what it runs in its own body: ``patchwork --help`` and the other commands do not load it."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from patchwork_opt.apps.typer_app import BackendOption, JsonFlag, RayAddressOption, new_typer
from patchwork_opt.apps.typer_app import print_json as _print_json
from patchwork_opt.i18n import H_, _, ngettext

ai_app = new_typer(H_("Matches, self-play and training."))


@ai_app.command(help=H_("Play bots against each other and report wins, scores and an Elo difference."))
def match(
    p1: Annotated[str, typer.Option("--p1",
                                    help=H_("First bot: random, greedy, mcts, solver, solver-rollout or engine:CMD "
                                            "(a program speaking docs/engine.md)."))],
    p2: Annotated[str, typer.Option("--p2",
                                    help=H_("Second bot: random, greedy, mcts, solver, solver-rollout or engine:CMD "
                                            "(a program speaking docs/engine.md)."))],
    games: Annotated[int, typer.Option(help=H_("Number of games (played in pairs, seats swapped)."))] = 20,
    seed: Annotated[int, typer.Option(help=H_("Seed for the circles and the bots."))] = 0,
    time_per_move: Annotated[
        float | None, typer.Option("--time-per-move", help=H_("Seconds per move for searching bots."))
    ] = None,
    p2_time: Annotated[float | None, typer.Option("--p2-time-per-move",
                                                  help=H_("Seconds a move for --p2 alone."))] = None,
    level: Annotated[int, typer.Option(help=H_("Level 1-5 (time per move when --time-per-move is not given)."))] = 3,
    p2_level: Annotated[int | None, typer.Option("--p2-level", help=H_("Level for --p2 alone."))] = None,
    iterations: Annotated[
        int | None, typer.Option(help=H_("Fixed simulations per move instead of a clock (repeatable)."))
    ] = None,
    workers: Annotated[int, typer.Option(help=H_("Games played in parallel (processes or Ray tasks)."))] = 1,
    save: Annotated[str | None, typer.Option(help=H_("Directory to write each game's record to."))] = None,
    backend: BackendOption = "local",
    address: RayAddressOption = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.match import checked_spec, render_summary, run_match, save_records, summarize
    from patchwork_opt.apps.progress import match_progress
    from patchwork_opt.apps.wiring import match_advisor

    solver = "solver" in (p1.strip().lower(), p2.strip().lower())
    advisor = match_advisor(p1, p2)
    spec = checked_spec(p1, p2, games=games, seed=seed, level=level, time_per_move=time_per_move,
                        iterations=iterations, workers=workers, backend=backend, save=save, advisor_factory=advisor,
                        p2_time_per_move=p2_time, p2_level=p2_level)
    if solver and advisor is None:
        typer.echo(_("warning: solvers.advisor is not available; the solver bot uses the heuristic advisor"), err=True)
    started = time.perf_counter()
    with match_progress(spec.p1, spec.p2, games) as on_result:
        results = run_match(spec, workers=workers, backend=backend, address=address, on_result=on_result)
    summary = summarize(spec, results, time.perf_counter() - started)
    if save:
        save_records(results, save, spec)
    if as_json:
        _print_json(summary.to_json())
    else:
        typer.echo(render_summary(summary))
        if save:
            # Translators: a line of a match's summary (the label padded to 13 characters): where its records went
            typer.echo(ngettext("records      {count} game written to {path}/", "records      {count} games written to "
                                "{path}/", len(results), path=save))


@ai_app.command(help=H_("The solver against itself: game records and, per position, training data (NumPy .npz)."))
def selfplay(
    out: Annotated[str, typer.Option(help=H_("Directory for the records and the position files."))],
    games: Annotated[int, typer.Option(help=H_("Games to play."))] = 100,
    seed: Annotated[int, typer.Option(help=H_("Seed for the circles, the openings and the bots."))] = 0,
    time_per_move: Annotated[
        float | None, typer.Option("--time-per-move", help=H_("Seconds per move (0.1 when --iterations is not given)."))
    ] = None,
    iterations: Annotated[int | None, typer.Option(help=H_("Fixed simulations per move instead of a clock."))] = None,
    random_openings: Annotated[
        int, typer.Option("--random-openings", help=H_("Each game opens with 0 to this many random moves."))
    ] = 0,
    workers: Annotated[int, typer.Option(help=H_("Games played in parallel (processes or Ray tasks)."))] = 1,
    backend: BackendOption = "local",
    address: RayAddressOption = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.apps.selfplay import check_request, render_report, run_selfplay, selfplay_spec
    from patchwork_opt.apps.wiring import solver_advisor_path

    spec = selfplay_spec(games=games, seed=seed, time_per_move=time_per_move, iterations=iterations,
                         advisor_factory=solver_advisor_path())
    check_request(spec, out, random_openings=random_openings, workers=workers, backend=backend)
    with phase_progress() as report:
        result = run_selfplay(spec, out, random_openings=random_openings, workers=workers, backend=backend,
                              address=address, progress=report, say=lambda line: typer.echo(line, err=True))
    _print_json(result.to_json()) if as_json else typer.echo(render_report(result, out))


@ai_app.command(help=H_(
    "Fit the learned evaluation (win chance and margin) to self-play data (needs the 'train' extra)."))
def train(
    data: Annotated[str, typer.Option(help=H_("Directory of self-play data (patchwork selfplay --out)."))],
    out: Annotated[str, typer.Option(help=H_("Weights file to write (.npz; its report goes beside it as .json)."))],
    seed: Annotated[int, typer.Option(help=H_("Seed of the split and the fits."))] = 0,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.ai.learned.training import render_train_report, train_command

    report = train_command(data, out, seed=seed, say=lambda line: typer.echo(line, err=True))
    _print_json(report) if as_json else typer.echo(render_train_report(report, out))
