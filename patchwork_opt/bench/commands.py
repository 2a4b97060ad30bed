"""The ``patchwork bench`` commands: each runs a benchmark and prints its figures and ratios
against a baseline run in the same process (the measuring code is beside each: patchwork_opt/bench
for the engine, the AI and the web service, solvers/bench for the solvers)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, TypeVar

import typer

from patchwork_opt.apps.typer_app import BackendOption, JsonFlag, RayAddressOption, new_typer
from patchwork_opt.apps.typer_app import print_json as _print_json
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.i18n import H_

bench_app = new_typer(H_("Benchmarks (figures and ratios)."))
N = TypeVar("N", int, float)


@bench_app.command("engine", help=H_(
    "Random games per second and legal-move generation, against a naive list-of-lists engine."))
def bench_engine(
    seconds: Annotated[float, typer.Option(help=H_("Time per measurement, in seconds."))] = 3.0,
    repeats: Annotated[int, typer.Option(help=H_("Measurements per figure; the median is quoted."))] = 3,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.bench.engine import render_engine_bench, run_engine_bench

    result = run_engine_bench(seconds=seconds, repeats=repeats, progress=not as_json)
    _print_json(result) if as_json else typer.echo(render_engine_bench(result))


@bench_app.command("coldstart", help=H_(
    "Each command with an empty compile cache (as after installing), then warm: wall times and load."))
def bench_coldstart(
    commands: Annotated[str, typer.Option(help=H_("Commands to time."))] = "fill,hint,move,warmup",
    kernels: Annotated[bool, typer.Option("--kernels", help=H_("Also each compiled function's compile time."))] = False,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.bench.coldstart import render_coldstart, run_coldstart

    result = run_coldstart([c.strip() for c in commands.split(",") if c.strip()], kernels=kernels,
                           progress=lambda line: typer.echo(line, err=True))
    _print_json(result) if as_json else typer.echo(render_coldstart(result))


@bench_app.command("hint", help=H_(
    "Best-fit latency (p50/p95) on mid-game quilts with 3-6 lookahead patches, vs plain CP-SAT."))
def bench_hint(
    quilts: Annotated[int, typer.Option(help=H_("Random mid-game hint requests to time."))] = 200,
    baseline: Annotated[int, typer.Option(help=H_("Requests also solved by the plain CP-SAT baseline."))] = 6,
    positions: Annotated[int, typer.Option(help=H_("Random mid-game positions for whole-position hints."))] = 50,
    seed: Annotated[int, typer.Option(help=H_("Seed of the random quilts."))] = 0,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench.hint import render_hint_bench, run_hint_bench

    if quilts < 1 or baseline < 0 or positions < 0:
        raise PatchworkError("--quilts must be at least 1, --baseline and --positions at least 0")
    with phase_progress(disable=as_json) as report:
        result = run_hint_bench(
            quilts=quilts, baseline_quilts=baseline, positions=positions, seed=seed, progress=report
        )
    _print_json(result) if as_json else typer.echo(render_hint_bench(result))


@bench_app.command("solvers", help=H_(
    "Optimal fill vs a naive CP-SAT model on random 4-18 patch sets, 0-40% filled quilts."))
def bench_solvers(
    sets: Annotated[int, typer.Option("--sets", help=H_("Random instances (about 3 s each on average)."))] = 40,
    max_patches: Annotated[int, typer.Option("--max-patches", help=H_("Largest patch set (from 4)."))] = 18,
    time_limit: Annotated[float, typer.Option("--time-limit", help=H_("Seconds per solve, each side."))] = 10.0,
    seed: Annotated[int, typer.Option(help=H_("Seed of the random instances."))] = 1,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench.fill import render_solver_bench, run_solver_bench

    if sets < 1 or not 4 <= max_patches <= 33 or time_limit <= 0:
        raise PatchworkError("--sets must be at least 1, --max-patches 4..33, --time-limit positive")
    with phase_progress() as report:
        result = run_solver_bench(
            sets=sets, max_patches=max_patches, time_limit=time_limit, seed=seed,
            on_step=lambda i, row: report("fill vs naive", i + 1, sets),
        )
    _print_json(result) if as_json else typer.echo(render_solver_bench(result, time_limit, seed))


@bench_app.command("bonus", help=H_(
    "7x7 completion per call (median, p90, max) with patchwork bonus's budget and the bot's."))
def bench_bonus_command(
    quilts: Annotated[int, typer.Option(help=H_("Random quilts with one 7x7 square 80-98% covered."))] = 100,
    seed: Annotated[int, typer.Option(help=H_("Seed of the random quilts."))] = 3,
    time_limit: Annotated[float, typer.Option("--time-limit", help=H_("Seconds per call, as patchwork bonus."))] = 10.0,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench.bonus import bench_bonus, render_bonus_bench

    if quilts < 1 or time_limit <= 0:
        raise PatchworkError("--quilts must be at least 1 and --time-limit positive")
    with phase_progress(disable=as_json) as report:
        result = bench_bonus(quilts=quilts, seed=seed, time_limit=min(time_limit, 3600), progress=report)
    _print_json(result) if as_json else typer.echo(render_bonus_bench(result))


@bench_app.command("ai", help=H_(
    "MCTS iterations/s and rollouts/s on one core, against rollouts through legal_moves/apply."))
def bench_ai(
    seconds: Annotated[float, typer.Option(help=H_("Time per measurement, in seconds."))] = 2.0,
    repeats: Annotated[int, typer.Option(help=H_("Measurements per figure; the median is quoted."))] = 3,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.bench.ai import render_ai_bench, run_ai_bench

    result = run_ai_bench(seconds=seconds, repeats=repeats)
    _print_json(result) if as_json else typer.echo(render_ai_bench(result))


@bench_app.command("calibration", help=H_(
    "Win chances against outcomes: log loss, calibration slope, ECE, Brier; mistakes per player per game."))
def bench_calibration(
    games: Annotated[int, typer.Option(help=H_("Fresh self-play games, each played and reviewed."))] = 20,
    seed: Annotated[int, typer.Option(help=H_("Seed of the games (circles of the benchmark's own)."))] = 0,
    time_per_move: Annotated[
        float, typer.Option("--time-per-move", help=H_("Seconds per move, to play and to review."))
    ] = 0.3,
    workers: Annotated[int, typer.Option(
        help=H_("Games played and reviewed in parallel (processes or Ray tasks)."))] = 1,
    backend: BackendOption = "local",
    address: RayAddressOption = None,
    fit_map: Annotated[str | None, typer.Option(
        "--fit-map", help=H_("Also fit the search's win map on these games and write it here "
                             "(patchwork_opt/data/search_map.json ships one; needs the train extra)."),
    )] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.apps.wiring import solver_advisor_path
    from patchwork_opt.bench.calibration import (
        calibration_spec,
        check_fit_map,
        render_calibration_bench,
        run_calibration_bench,
    )

    check_fit_map(fit_map)
    spec = calibration_spec(games=games, seed=seed, time_per_move=time_per_move, workers=workers, backend=backend,
                            advisor_factory=solver_advisor_path())
    with phase_progress() as report:
        result = run_calibration_bench(spec, workers=workers, backend=backend, address=address,
                                       reviewer="patchwork_opt.apps.hints:review_record", progress=report,
                                       fit_map=fit_map)
    _print_json(result) if as_json else typer.echo(render_calibration_bench(result))


@bench_app.command("deal", help=H_(
    "Player 1's win chance at the start over random circles: the average the deal's luck is measured "
    'against.'))
def bench_deal(
    circles: Annotated[int, typer.Option(help=H_("Random circles valued at the start, in each printing."))] = 1000,
    seed: Annotated[int, typer.Option(help=H_("Seed of the circles (a namespace of their own)."))] = 0,
    printing: Annotated[list[str] | None, typer.Option(
        "--printing", help=H_("A leather printing to measure (repeatable; default both)."))] = None,
    workers: Annotated[int, typer.Option(help=H_("Circles valued in parallel (processes)."))] = 1,
    write: Annotated[str | None, typer.Option(
        "--write", help=H_("Write the deal file the review reads (patchwork_opt/data/deal.json ships one)."))] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench.deal import check_deal_options, render_deal_bench, run_deal_bench, write_deal_file

    printings = printing or ["revised", "classic"]
    check_deal_options(circles, workers, printings, write)
    with phase_progress() as report:
        result = run_deal_bench(circles=circles, seed=seed, printings=printings, workers=workers, progress=report)
    if write is not None:
        write_deal_file(result, write)
    _print_json(result) if as_json else typer.echo(render_deal_bench(result))
    if write is not None:
        typer.echo(f"deal file written to {write}", err=True)


@bench_app.command("clock", help=H_(
    "Wall time of hint --time-limit T and move --time-per-move T against T: median, p95, max."))
def bench_clock(
    games: Annotated[int, typer.Option(help=H_("Seeded games to cut positions from (besides examples/)."))] = 3,
    seed: Annotated[int, typer.Option(help=H_("Seed of the first game."))] = 0,
    times: Annotated[list[float] | None, typer.Option("--time", help=H_("A T to time (repeatable)."))] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench.clock import TIMES, render_clock_bench, run_clock_bench

    with phase_progress(disable=as_json) as report:
        result = run_clock_bench(games=games, seed=seed, times=times or TIMES, progress=report)
    _print_json(result) if as_json else typer.echo(render_clock_bench(result))


@bench_app.command("exact", help=H_(
    "Compiled exact search vs the Python one: share solved in time, median time, nodes/s and ratio; with "
    "--suite, the compiled search and its estimate on the held-out mixed suite."))
def bench_exact(
    space: Annotated[int, typer.Option("--from",
                                       help=H_("Cut the games where both tokens first reach this space."))] = 40,
    positions: Annotated[int, typer.Option(help=H_("Positions (noisy-greedy games with seeds from --seed)."))] = 10,
    seconds: Annotated[float, typer.Option(help=H_("Wall-clock seconds per position, each search."))] = 2.0,
    seed: Annotated[int, typer.Option(help=H_("Seed of the first game."))] = 0,
    threads: Annotated[int, typer.Option(help=H_("Threads of the compiled search (root moves split)."))] = 1,
    every_move: Annotated[bool, typer.Option("--every-move", help=H_("Value every root move exactly (analysis), "
                                                                     "not only the best (the bot)."))] = False,
    baseline_seconds: Annotated[float | None, typer.Option(
        "--baseline-seconds", help=H_("Seconds per position for today's Python search (default: --seconds; 0: none)."),
    )] = None,
    suite: Annotated[bool, typer.Option("--suite", help=H_("Measure on the held-out suite of mixed styles instead "
                                        "(by style and space; --from/--positions/--seconds/--seed unused)."))] = False,
    suite_file: Annotated[str | None, typer.Option(
        "--suite-file", help=H_("A suite file of the shipped one's format (implies --suite)."))] = None,
    limits: Annotated[str, typer.Option(
        help=H_("--suite: seconds within which a position counts as solved."))] = "1,4,20",
    mode: Annotated[str, typer.Option(help=H_("--suite: best (the best move), every (every move) or both."))] = "both",
    styles: Annotated[str | None, typer.Option(help=H_("--suite: only these styles (comma-separated)."))] = None,
    spaces: Annotated[str | None, typer.Option(help=H_("--suite: only these cut spaces (comma-separated)."))] = None,
    per_cell: Annotated[int | None, typer.Option(
        "--per-cell", help=H_("--suite: the first N positions of each style and space."))] = None,
    fit: Annotated[str | None, typer.Option("--fit", metavar="DIR", help=H_("Refit the estimate (bench/exact_fit.py) "
                   "and check it on the suite; DIR keeps the measured rows (read when there, else written)."))] = None,
    move_time: Annotated[float | None, typer.Option("--move-time", help=H_("Seconds that `move --time-per-move` spends "
                         "in unfinished exact searches, on suite positions (--styles/--spaces/--per-cell)."))] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench import exact as bench

    style_list = tuple(s.strip() for s in styles.split(",") if s.strip()) if styles else None
    space_list = tuple(int(s) for s in bench.parse_numbers(spaces, "--spaces")) if spaces else None
    if fit is not None or move_time is not None:
        from patchwork_opt.bench.exact_fit import fit_command

        return fit_command(fit, move_time, styles=style_list, spaces=space_list, per_cell=per_cell, as_json=as_json)
    if suite or suite_file is not None:
        if every_move:
            raise PatchworkError("--every-move is for the noisy-greedy positions: with --suite use --mode every")
        suite_limits = tuple(bench.parse_numbers(limits, "--limits"))
        modes = ("best", "every") if mode == "both" else (mode,)
        bench.check_suite_bench(limits=suite_limits, modes=modes, threads=threads, per_cell=per_cell)
        with phase_progress(disable=as_json) as report:
            result = bench.run_suite_bench(suite=suite_file, limits=suite_limits, modes=modes, styles=style_list,
                                           spaces=space_list, per_cell=per_cell, threads=threads, progress=report)
        _print_json(result) if as_json else typer.echo(bench.render_suite_bench(result))
        return
    bench.check_exact_bench(space=space, positions=positions, seconds=seconds, threads=threads,
                            baseline_seconds=baseline_seconds)
    with phase_progress(disable=as_json) as report:
        result = bench.run_exact_bench(space=space, positions=positions, seconds=seconds, seed=seed, threads=threads,
                                       every_move=every_move, baseline_seconds=baseline_seconds, progress=report)
    _print_json(result) if as_json else typer.echo(bench.render_exact_bench(result))


@bench_app.command("web", help=H_(
    "Hints served per second, p50/p95 and shed answers of `patchwork serve` on loopback under N clients."))
def bench_web(
    clients: Annotated[int, typer.Option(min=1, max=200, help=H_("Clients asking for hints at once."))] = 20,
    seconds: Annotated[float, typer.Option(min=1, max=600, help=H_("Length of the loaded run."))] = 30.0,
    baseline_seconds: Annotated[float, typer.Option(min=1, max=600, help=H_("Length of the one-client run."))] = 5.0,
    faults: Annotated[
        bool, typer.Option("--faults", help=H_("Instead: 200 half-open connections, then 10 abandoned slow fills."))
    ] = False,
    review: Annotated[
        bool, typer.Option("--review", help=H_("Instead: a hinted game's review from the analysis cache vs empty."))
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench.web import (
        render_fault_bench,
        render_review_bench,
        render_web_bench,
        run_fault_bench,
        run_review_bench,
        run_web_bench,
    )

    def argv_for(port: int, db: str) -> list[str]:
        return [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", db]

    if faults:
        found = run_fault_bench(argv_for)
        _print_json(found) if as_json else typer.echo(render_fault_bench(found))
        return
    if review:
        with phase_progress() as on_phase:
            reviewed = run_review_bench(argv_for, on_phase=on_phase)
        _print_json(reviewed) if as_json else typer.echo(render_review_bench(reviewed))
        return

    with phase_progress() as on_phase:
        result = run_web_bench(
            argv_for, clients=clients, seconds=seconds, baseline_seconds=baseline_seconds, on_phase=on_phase
        )
    if as_json:
        _print_json(result)
    else:
        typer.echo(render_web_bench(result, clients))
        for sample in (result["hint"]["error_samples"] + result["read_during_load"]["error_samples"]
                       + result["play_during_load"]["error_samples"]):
            typer.echo(f"  error: {sample}", err=True)
    if result["errors"]:
        raise typer.Exit(1)


@bench_app.command("workshop", help=H_(
    "The workshop's API on `patchwork serve`: best placements' p95, bench solvers' fills as jobs, Cancel;"
    ' with --page, the same placements and fills timed on the page, from the click to the answer drawn.'))
def bench_workshop(
    placements: Annotated[int, typer.Option(min=1, max=10_000,
                                            help=H_("Best-placement requests, one at a time."))] = 200,
    sets: Annotated[int, typer.Option(min=1, max=400, help=H_("bench solvers' fill instances, as jobs."))] = 40,
    cancels: Annotated[int, typer.Option(min=0, max=100, help=H_("Running slow fills cancelled."))] = 10,
    seed: Annotated[int, typer.Option(help=H_("Seed of the placement requests and of the fill instances."))] = 1,
    page: Annotated[bool, typer.Option("--page", help=H_(
        "Measure on the workshop page in Chromium instead (placements drawn, fills; needs the dev extra)."))] = False,
    chromium: Annotated[str, typer.Option(help=H_("Chromium for --page."))] = "/usr/bin/chromium",
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench.workshop import render_workshop_bench, run_workshop_bench
    from patchwork_opt.bench.workshop_page import render_page_bench, run_page_bench

    def argv_for(port: int, db: str) -> list[str]:
        return [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", db]

    with phase_progress(disable=as_json) as report:
        if page:
            result = run_page_bench(argv_for, placements=placements, sets=sets, seed=seed, chromium=chromium,
                                    progress=report)
        else:
            result = run_workshop_bench(argv_for, placements=placements, sets=sets, cancels=cancels, seed=seed,
                                        progress=report)
    if as_json:
        _print_json(result)
    else:
        typer.echo(render_page_bench(result) if page else render_workshop_bench(result))


@bench_app.command("stream", help=H_(
    'The analysis stream of `patchwork serve`: the first event on a fresh server, then first event, '
    "spacing, a dropped stream's worker freed, hints' p95 while streams run, a late position's proven "
    'line.'))
def bench_stream(
    streams: Annotated[int, typer.Option(min=1, max=64,
                                         help=H_("Live analysis streams at once in the loaded run."))] = 8,
    players: Annotated[int, typer.Option(min=0, max=200, help=H_("Players asking hints meanwhile."))] = 12,
    seconds: Annotated[float, typer.Option(min=1, max=600, help=H_("Length of each hint run."))] = 30.0,
    samples: Annotated[int, typer.Option(min=1, max=200, help=H_("Streams timed one at a time (and dropped)."))] = 10,
    pause: Annotated[float, typer.Option(min=0, max=600, help=H_(
        "Seconds a player looks at the board after the AI's reply before the next hint (0: at once)."))] = 0.0,
    fresh: Annotated[int, typer.Option(min=1, max=20, help=H_(
        "Servers started one after another, each timed to its readiness and its first stream's first event."))] = 3,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench.stream import render_stream_bench, run_stream_bench

    def argv_for(port: int, db: str) -> list[str]:
        return [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", db]

    with phase_progress() as on_phase:
        result = run_stream_bench(argv_for, streams=streams, players=players, seconds=seconds, samples=samples,
                                  pause=pause, fresh=fresh, on_phase=on_phase)
    _print_json(result) if as_json else typer.echo(render_stream_bench(result))


def _numbers(text: str, option: str, kind: Callable[[str], N]) -> list[N]:
    """``0.1,0.3`` or ``44 40`` as numbers; a one-line error naming the option otherwise."""
    try:
        found = [kind(s) for s in text.replace(",", " ").split()]
    except ValueError:
        found = []
    if not found:
        raise PatchworkError(f"{option}: expected numbers like 1,2, got {text!r}")
    return found


@bench_app.command("friends", help=H_(
    "Games between people on two `patchwork serve` processes sharing PostgreSQL: a move's answer to its "
    "arrival on the other player's stream (p50, p95) at SMALL and LARGE games at once, then a server "
    'restarted mid-run: moves lost or duplicated, streams caught up.'))
def bench_friends(
    db: Annotated[str, typer.Option(help=H_("The PostgreSQL database both servers share "
                                            "(postgresql://USER:PW@HOST/DB)."))],
    small: Annotated[int, typer.Option(min=1, max=1000, help=H_("Games at once in the first run."))] = 50,
    large: Annotated[int, typer.Option(min=1, max=1000, help=H_("Games at once in the second and third runs."))] = 200,
    seconds: Annotated[float, typer.Option(min=5, max=600, help=H_("Length of each run."))] = 30.0,
    think_min: Annotated[float, typer.Option(min=0, max=60, help=H_("Least a player thinks before its move."))] = 2.0,
    think_max: Annotated[float, typer.Option(min=0, max=60, help=H_("Most a player thinks before its move."))] = 4.0,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.bench.friends import render_friends_bench, run_friends_bench

    def argv_for(port: int, db: str) -> list[str]:
        return [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", db]

    result = run_friends_bench(argv_for, db, small=small, large=large, seconds=seconds,
                               think=(think_min, max(think_min, think_max)),
                               say=lambda line: typer.echo(line, err=True))
    _print_json(result) if as_json else typer.echo(render_friends_bench(result))


@bench_app.command("agreement", help=H_(
    "One voice: hints and reviews agree, the same question gets the same answer (issue 40)."))
def bench_agreement(
    games: Annotated[int, typer.Option(min=1, max=200,
                                       help=H_("Hinted games against levels 2-4, each reviewed."))] = 20,
    seed: Annotated[int, typer.Option(help=H_("Seed of the first game's circle (the next games count up)."))] = 0,
    repeat: Annotated[
        bool, typer.Option("--repeat", help=H_("Instead: held-out endgames asked `patchwork hint` several times."))
    ] = False,
    spaces: Annotated[str, typer.Option(help=H_("--repeat: the suite's spaces whose positions are asked."))] = "44",
    asks: Annotated[int, typer.Option(min=2, max=20, help=H_("--repeat: asks per position."))] = 4,
    plies_left: Annotated[
        int | None, typer.Option(min=1, max=60,
                                 help=H_("--repeat: play each on along best play to this many plies "
                                         "before the end first."))
    ] = None,
    seconds: Annotated[float, typer.Option(min=0.05, max=60, help=H_("--repeat: the hint's --time-limit."))] = 1.0,
    budgets: Annotated[str, typer.Option(help=H_("--noise: the analyses' budgets, seconds."))] = "0.1,0.3,1",
    noise: Annotated[
        bool, typer.Option("--noise", help=H_("Instead: fit the search's spread (the review's error bars)."))
    ] = False,
    positions: Annotated[int, typer.Option(min=2, max=1000, help=H_("--noise: positions analysed again."))] = 80,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.bench import agreement

    if noise:
        with phase_progress(disable=as_json) as on_phase:
            fitted = agreement.run_noise_fit(positions=positions, seconds=_numbers(budgets, "--budgets", float),
                                             on_phase=on_phase)
        _print_json(fitted) if as_json else typer.echo(agreement.render_noise_fit(fitted))
        return
    if repeat:
        asked = _numbers(spaces, "--spaces", int)
        with phase_progress(disable=as_json) as on_phase:
            result = agreement.run_repeat_bench(spaces=asked, asks=asks, seconds=seconds, plies_left=plies_left,
                                                on_phase=on_phase)
        _print_json(result) if as_json else typer.echo(agreement.render_repeat_bench(result))
        return

    def argv_for(port: int, db: str) -> list[str]:
        return [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", db]

    with phase_progress(disable=as_json) as on_phase:
        found = agreement.run_agreement_bench(argv_for, games=games, seed=seed, on_phase=on_phase)
    _print_json(found) if as_json else typer.echo(agreement.render_agreement_bench(found))


@bench_app.command("judge", help=H_(
    "The review against strength: each side's accuracy and mistakes, and the judge's promises checked."))
def bench_judge(
    p1: Annotated[str, typer.Option("--p1", help=H_("First bot (as patchwork match names them)."))] = "random",
    p2: Annotated[str, typer.Option("--p2", help=H_("Second bot."))] = "solver",
    games: Annotated[int, typer.Option(min=1, max=200, help=H_("Games, seats swapped every other game."))] = 4,
    seed: Annotated[int, typer.Option(help=H_("Seed for the circles and the bots."))] = 71,
    level: Annotated[int, typer.Option(min=1, max=5, help=H_("Level of searching bots."))] = 3,
    p2_level: Annotated[int | None, typer.Option("--p2-level", min=1, max=5, help=H_("Level for --p2 alone."))] = None,
    review_seconds: Annotated[
        float, typer.Option("--review-seconds", min=0.01, max=60, help=H_("Analysis per position of each review."))
    ] = 0.5,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.hints import review_record
    from patchwork_opt.apps.match import GameResult, checked_spec
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.apps.review import GameReview
    from patchwork_opt.apps.wiring import solver_advisor_path
    from patchwork_opt.bench.judge import render_judge_bench, run_judge_bench

    spec = checked_spec(p1, p2, games=games, seed=seed, level=level, time_per_move=None, iterations=None, workers=1,
                        backend="local", save=None, advisor_factory=solver_advisor_path(), p2_level=p2_level)

    def review(result: GameResult) -> GameReview:
        return review_record(result.record, seconds=review_seconds)

    with phase_progress(disable=as_json) as report:
        result = run_judge_bench(spec, review, progress=report)
    _print_json(result) if as_json else typer.echo(render_judge_bench(result))


@bench_app.command("puzzles", help=H_(
    "Does puzzle difficulty mean something (the bot at levels 1-5 on each difficulty), "
    "and the time to make one."))
def bench_puzzles(
    per_difficulty: Annotated[
        int, typer.Option("--per-difficulty", help=H_("Endgame puzzles of each difficulty the bots answer."))
    ] = 10,
    generate: Annotated[int, typer.Option(help=H_("Endgame puzzles made from fresh seeds, each timed."))] = 10,
    practise: Annotated[
        int, typer.Option(
            help=H_("Games between levels reviewed, their mistakes made exercises (Practise your mistakes)."))
    ] = 0,
    seed: Annotated[int, typer.Option(help=H_("Seed of the sample, the bots and the fresh puzzles."))] = 0,
    ai: Annotated[str, typer.Option("--ai", help=H_("The bot answering the puzzles at levels 1-5."))] = "solver",
    bank: Annotated[
        str | None, typer.Option(help=H_("A bank directory (puzzle bank --out); the shipped one by default."))
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.apps.wiring import bot_advisor
    from patchwork_opt.bench.puzzles import render_puzzle_bench, run_puzzle_bench
    from patchwork_opt.puzzles.bank import load_bank

    if per_difficulty < 0 or generate < 0 or practise < 0:
        raise PatchworkError("--per-difficulty, --generate and --practise must be at least 0")
    with phase_progress() as report:
        result = run_puzzle_bench(load_bank(bank), per_difficulty=per_difficulty, generate=generate, seed=seed, ai=ai,
                                  advisor=bot_advisor(ai), progress=report, practise=practise)
    _print_json(result) if as_json else typer.echo(render_puzzle_bench(result))


@bench_app.command("env", help=H_(
    "Steps/s of random masked play through the PettingZoo env, beside connect_four_v3 (needs the 'rl' "
    'extra).'))
def bench_env(
    seconds: Annotated[float, typer.Option(help=H_("Seconds per run of each environment."))] = 2.0,
    repeats: Annotated[int, typer.Option(help=H_("Runs of each, in turns; the median is quoted."))] = 3,
    seed: Annotated[int, typer.Option(help=H_("Seed of the games and the random actions."))] = 0,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.bench.env import render_env_bench, run_env_bench

    if seconds <= 0 or repeats < 1:
        raise PatchworkError("--seconds must be positive and --repeats at least 1")
    say = None if as_json else (lambda line: typer.echo(line, err=True))
    result = run_env_bench(seconds=seconds, repeats=repeats, seed=seed, progress=say)
    _print_json(result) if as_json else typer.echo(render_env_bench(result))
