"""The ``patchwork`` command line. Commands parse, call the library and render; nothing more.

Domain errors are mapped to one-line messages and exit codes in one place, ``_ErrorMappingGroup``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.formats.inputs import load_position_input
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.formats.render import render_position
from patchwork_opt.formats.views import position_summary


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


@contextmanager
def _phase_progress(disable: bool = False) -> Iterator[Callable[[str, float, float], None]]:
    """A Rich progress display on stderr with one bar per named phase; yields ``report(name, done, total)``."""
    from rich.console import Console
    from rich.progress import Progress, TaskID

    with Progress(console=Console(stderr=True), transient=True, disable=disable) as bar:
        tasks: dict[str, TaskID] = {}

        def report(name: str, done: float, total: float) -> None:
            if name not in tasks:
                tasks[name] = bar.add_task(name, total=total)
            bar.update(tasks[name], completed=done)

        yield report


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
            from patchwork_opt.core.quilt import render_quilt

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
    from patchwork_opt.formats.models import json_schema

    _print_json(json_schema(name))


@bench_app.command("engine")
def bench_engine(
    seconds: Annotated[float, typer.Option(help="Time per measurement, in seconds.")] = 3.0,
    repeats: Annotated[int, typer.Option(help="Measurements per figure; the median is quoted.")] = 3,
    as_json: JsonFlag = False,
) -> None:
    """Random games per second and legal-move generation, against a naive list-of-lists engine."""
    from patchwork_opt.bench.engine import run_engine_bench

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


def _hint_ids(text: str | None, option: str) -> list[int]:
    """Patch ids from ``3,5,7`` (or spaces); a token that is not a number is a one-line error."""
    if text is None:
        return []
    out = []
    for token in text.replace(",", " ").split():
        if not token.lstrip("-").isdigit():
            raise PatchworkError(f"{option}: {token!r} is not a patch id (ids are 0..32)")
        out.append(int(token))
    return out


@app.command()
def hint(
    what: Annotated[str, typer.Argument(help="A quilt (file or 9 lines), a position, or a record file.")],
    patch_text: Annotated[
        str | None, typer.Option("--patch", help="Patch id to place (required for a bare quilt).")
    ] = None,
    next_ids: Annotated[
        str | None,
        typer.Option("--next", help="Next patches, e.g. 3,5,7 (default: none for a quilt, the circle's)."),
    ] = None,
    pool_ids: Annotated[
        str | None,
        typer.Option("--pool", help="Patches still to come, e.g. 0,4,9 (default: all but --patch)."),
    ] = None,
    top: Annotated[int, typer.Option("--top", help="Suggestions per patch.")] = 3,
    lookahead: Annotated[int, typer.Option(help="Upcoming patches of the circle to look ahead over.")] = 6,
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds for the solver part.")] = 1.0,
    as_json: JsonFlag = False,
) -> None:
    """Best placements of a patch on a quilt, or the ranked moves of the player to move."""
    from solvers.hints import PositionHints, hint_for, render_best_fit, render_position_hints

    patch_ids = _hint_ids(patch_text, "--patch")
    if len(patch_ids) > 1:
        raise PatchworkError(f"--patch takes one patch id, got {patch_text!r}")
    loaded = load_position_input(what)
    result = hint_for(
        loaded,
        patch_ids[0] if patch_ids else None,
        _hint_ids(next_ids, "--next") if next_ids is not None else None,
        _hint_ids(pool_ids, "--pool") if pool_ids is not None else None,
        top_k=top,
        lookahead=lookahead,
        time_limit=time_limit,
    )
    if as_json:
        _print_json(result.model_dump(mode="json"))
    elif isinstance(result, PositionHints):
        assert loaded.state is not None
        typer.echo(render_position_hints(result, loaded.state))
    else:
        typer.echo(render_best_fit(result, loaded.quilt.mask))


@bench_app.command("hint")
def bench_hint(
    quilts: Annotated[int, typer.Option(help="Random mid-game hint requests to time.")] = 200,
    baseline: Annotated[int, typer.Option(help="Requests also solved by the plain CP-SAT baseline.")] = 6,
    positions: Annotated[int, typer.Option(help="Random mid-game positions for whole-position hints.")] = 50,
    seed: Annotated[int, typer.Option(help="Seed of the random quilts.")] = 0,
    as_json: JsonFlag = False,
) -> None:
    """Best-fit latency (p50/p95) on mid-game quilts with 3-6 lookahead patches, vs plain CP-SAT."""
    from solvers.bench.hint import run_hint_bench

    if quilts < 1 or baseline < 0 or positions < 0:
        raise PatchworkError("--quilts must be at least 1, --baseline and --positions at least 0")
    with _phase_progress(disable=as_json) as report:
        result = run_hint_bench(
            quilts=quilts, baseline_quilts=baseline, positions=positions, seed=seed, progress=report
        )
    if as_json:
        _print_json(result)
        return
    typer.echo(
        f"hint, {result['quilts']} mid-game quilts, lookahead {result['lookahead'][0]}-{result['lookahead'][1]}: "
        f"p50 {result['p50_ms']:.1f} ms   p95 {result['p95_ms']:.1f} ms   max {result['max_ms']:.1f} ms   "
        f"({result['exact']} of {result['quilts']} proven)"
    )
    if result["positions"]:
        typer.echo(
            f"hint POSITION, {result['positions']} random positions (every offer, lookahead 6): "
            f"p50 {result['position_p50_ms']:.1f} ms   p95 {result['position_p95_ms']:.1f} ms"
        )
    if result["baseline_quilts"]:
        typer.echo(
            f"plain CP-SAT baseline on the first {result['baseline_quilts']}: median "
            f"{result['baseline_p50_ms']:.0f} ms vs ours {result['ours_p50_ms_on_baseline_quilts']:.1f} ms"
            f"   ratio {result['ratio']}x   same best score {result['baseline_agree']}/{result['baseline_quilts']}"
        )

@app.command()
def fill(
    patches: Annotated[str, typer.Option("--patches", help="Patch ids to choose from, e.g. 1,2,5.")],
    quilt_arg: Annotated[
        str | None, typer.Option("--quilt", help="Starting quilt (file, 9 lines or JSON cells); empty by default.")
    ] = None,
    objective: Annotated[str, typer.Option(help="cells (covered cells) or points (score change).")] = "cells",
    marks: Annotated[int, typer.Option(help="Income marks still ahead, for --objective points.")] = 9,
    budget: Annotated[int | None, typer.Option(help="Total button cost at most this.")] = None,
    require_bonus: Annotated[bool, typer.Option("--require-bonus", help="A 7x7 square must be complete.")] = False,
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds.")] = 10.0,
    workers: Annotated[int, typer.Option(help="CP-SAT workers.")] = 2,
    seed: Annotated[int, typer.Option(help="CP-SAT random seed.")] = 0,
    as_json: JsonFlag = False,
) -> None:
    """Optimal fill: the patches (each at most once) and placements that cover the most."""
    from rich.console import Console

    from patchwork_opt.formats.inputs import load_quilt
    from solvers.fill import optimal_fill, parse_patch_ids
    from solvers.model import SolverConfig
    from solvers.render import placement_lines

    ids = parse_patch_ids(patches)
    if objective not in ("cells", "points"):
        raise PatchworkError(f"--objective must be cells or points, not {objective!r}")
    if time_limit <= 0 or workers < 1 or seed < 0:
        raise PatchworkError("--time-limit must be positive, --workers at least 1, --seed at least 0")
    quilt = load_quilt(quilt_arg).mask if quilt_arg is not None else 0
    config = SolverConfig(time_limit=min(time_limit, 3600), workers=min(workers, 64), seed=seed)
    console = Console(stderr=True)
    with console.status("fill: searching", spinner="dots") as status:

        def report(best: float | None, bound: float, phase: str) -> None:
            status.update(f"fill ({phase}): best {best if best is not None else '-'}   bound {bound:g}")

        result = optimal_fill(
            quilt, ids, objective=objective, marks=marks, budget=budget,  # type: ignore[arg-type]
            require_bonus=require_bonus, config=config, progress=report,
        )
    if as_json:
        _print_json(result.to_json())
        return
    for line in placement_lines(quilt, result.placements):
        typer.echo(line)
    proof = "optimal (proven)" if result.optimal else f"best found, bound {result.bound}"
    if result.objective is None:
        typer.echo(f"no fill meets the requirements ({result.status.value})")
    else:
        typer.echo(
            f"{objective} {result.objective}: {proof}; covered {result.covered}, empty {result.empty}, "
            f"cost {result.cost}, income {result.income}"
            + (f", 7x7 square at {list(result.bonus_window)}" if result.bonus_window else "")
        )
    typer.echo(f"({result.method}, {result.wall_time:.2f}s)")


@app.command()
def bonus(
    quilt_arg: Annotated[str, typer.Argument(metavar="QUILT", help="A quilt (file, 9 lines or JSON cells).")],
    patches: Annotated[str, typer.Option("--patches", help="Patch ids available, e.g. 1,2,5.")],
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds.")] = 10.0,
    workers: Annotated[int, typer.Option(help="CP-SAT workers.")] = 2,
    as_json: JsonFlag = False,
) -> None:
    """Can a 7x7 square be completed with these patches (each at most once)?"""
    from patchwork_opt.formats.inputs import load_quilt
    from solvers.bonus import bonus_completion
    from solvers.fill import parse_patch_ids
    from solvers.model import SolverConfig
    from solvers.render import placement_lines

    ids = parse_patch_ids(patches)
    if time_limit <= 0 or workers < 1:
        raise PatchworkError("--time-limit must be positive and --workers at least 1")
    quilt = load_quilt(quilt_arg).mask
    result = bonus_completion(quilt, ids, SolverConfig(time_limit=min(time_limit, 3600), workers=min(workers, 64)))
    if as_json:
        _print_json(result.to_json())
        return
    if result.feasible:
        for line in placement_lines(quilt, result.placements):
            typer.echo(line)
    verdict = {True: "feasible", False: "infeasible (proven)", None: "unknown"}[result.feasible]
    typer.echo(f"7x7 square: {verdict}" + (f" at {list(result.window)}" if result.window else "")
               + f" - {result.reason}")
    if result.feasible is not True:
        for v in result.windows:
            typer.echo(f"  square at {list(v.window)} ({v.missing} missing): {v.status.value}, {v.reason}")


@bench_app.command("solvers")
def bench_solvers(
    sets: Annotated[int, typer.Option("--sets", help="Random instances (about 3 s each on average).")] = 40,
    max_patches: Annotated[int, typer.Option("--max-patches", help="Largest patch set (from 4).")] = 18,
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds per solve, each side.")] = 10.0,
    seed: Annotated[int, typer.Option(help="Seed of the random instances.")] = 1,
    as_json: JsonFlag = False,
) -> None:
    """Optimal fill vs a naive CP-SAT model on random 4-18 patch sets, 0-40% filled quilts."""
    from rich.console import Console
    from rich.progress import Progress

    from solvers.bench.fill import run_solver_bench

    if sets < 1 or not 4 <= max_patches <= 33 or time_limit <= 0:
        raise PatchworkError("--sets must be at least 1, --max-patches 4..33, --time-limit positive")
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("fill vs naive", total=sets)
        result = run_solver_bench(
            sets=sets, max_patches=max_patches, time_limit=time_limit, seed=seed,
            on_step=lambda i, row: bar.update(task, completed=i + 1),
        )
    if as_json:
        _print_json(result)
        return
    typer.echo(f"{'k':>3} {'fill':>4} {'naive s':>9} {'ours s':>9} {'ratio':>8}  value  how")
    for row in result["rows"]:
        naive = f"{row['naive_s']:.3f}" + ("" if row["naive_proven"] else "*")
        ours = f"{row['ours_s']:.3f}" + ("" if row["ours_proven"] else "*")
        ratio = (">=" if row["ratio_is_lower_bound"] else "") + f"{row['ratio']:.1f}x"
        typer.echo(f"{row['patches']:>3} {row['filled']:>4} {naive:>9} {ours:>9} {ratio:>8}  {row['ours_value']:>5}"
                   f"  {row['method']}")
    typer.echo(
        f"median ratio {result['median_ratio']:.1f}x (min {result['min_ratio']:.2f}x, max {result['max_ratio']:.0f}x); "
        f"median time naive {result['median_naive_s']:.3f}s, ours {result['median_ours_s']:.4f}s"
    )
    typer.echo(
        f"proven optimal: ours {result['ours_proven']}/{sets}, naive {result['naive_proven']}/{sets}; "
        f"slower than naive on {result['slower']}; value disagreements {result['disagreements']}"
    )
    typer.echo(f"(* = not proven within {time_limit:g}s, charged the full limit; seed {seed}; "
               "naive 2 CP-SAT workers, ours 1)")


# ==== AI commands (match) ======================================================================

SOLVER_ADVISOR = "solvers.advisor:SolverAdvisor"


def _solver_advisor_factory() -> str | None:
    """The CP-SAT advisor's import path when it is installed (imported lazily, in each worker)."""
    import importlib.util

    try:
        found = importlib.util.find_spec(SOLVER_ADVISOR.split(":")[0]) is not None
    except ModuleNotFoundError:
        found = False
    if not found:
        typer.echo("warning: solvers.advisor is not available; the solver bot uses the heuristic advisor",
                   err=True)
        return None
    return SOLVER_ADVISOR


def _render_match(summary: Any) -> None:
    data = summary.to_json()
    p1, p2 = data["p1"], data["p2"]
    n = data["games"]
    w1, w2 = data["wins"]
    (m1, m2), (c1, c2) = data["mean_score"], data["mean_score_ci95"]
    diff, elo = data["score_diff"], data["elo"]
    clamped = " (all games won by one side: clamped at half a game)" if elo["clamped"] else ""
    typer.echo(f"{p1} (p1) vs {p2} (p2): {n} games in {data['pairs']} pairs, seats swapped within a pair")
    typer.echo(f"wins         {p1} {w1}   {p2} {w2}   ({w1 / n:.1%} for {p1})")
    typer.echo(f"mean score   {p1} {m1:.1f} [{c1[0]:.1f}, {c1[1]:.1f}]   {p2} {m2:.1f} [{c2[0]:.1f}, {c2[1]:.1f}]")
    typer.echo(f"score diff   {diff['mean']:+.1f}   95% CI [{diff['ci95'][0]:+.1f}, {diff['ci95'][1]:+.1f}]")
    typer.echo(f"Elo diff     {elo['diff']:+.0f}   95% CI [{elo['ci95'][0]:+.0f}, {elo['ci95'][1]:+.0f}]{clamped}")
    typer.echo(f"time         {data['seconds']:.1f}s")


@app.command()
def match(
    p1: Annotated[str, typer.Option("--p1", help="First bot: random, greedy, mcts or solver.")],
    p2: Annotated[str, typer.Option("--p2", help="Second bot: random, greedy, mcts or solver.")],
    games: Annotated[int, typer.Option(help="Number of games (played in pairs, seats swapped).")] = 20,
    seed: Annotated[int, typer.Option(help="Seed for the circles and the bots.")] = 0,
    time_per_move: Annotated[
        float | None, typer.Option("--time-per-move", help="Seconds per move for searching bots.")
    ] = None,
    level: Annotated[int, typer.Option(help="Level 1-5 (time per move when --time-per-move is not given).")] = 3,
    iterations: Annotated[
        int | None, typer.Option(help="Fixed simulations per move instead of a clock (repeatable).")
    ] = None,
    workers: Annotated[int, typer.Option(help="Games played in parallel (processes or Ray tasks).")] = 1,
    save: Annotated[str | None, typer.Option(help="Directory to write each game's record to.")] = None,
    backend: Annotated[str, typer.Option(help="local (processes) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (a local Ray when omitted).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Play bots against each other and report wins, scores and an Elo difference."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from patchwork_opt.apps.match import MatchSpec, check_run, check_save_dir, run_match, save_records, summarize

    uses_solver = "solver" in (p1.strip().lower(), p2.strip().lower())
    spec = MatchSpec(
        p1=p1.strip().lower(),
        p2=p2.strip().lower(),
        games=games,
        seed=seed,
        level=level,
        time_per_move=time_per_move,
        iterations=iterations,
        advisor_factory=None,
    )
    spec.check()
    check_run(workers, backend)
    if save:
        check_save_dir(save)
    if uses_solver:
        from dataclasses import replace

        spec = replace(spec, advisor_factory=_solver_advisor_factory())
    started = time.perf_counter()
    wins = [0, 0]
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]match"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[score]}"),
        TimeRemainingColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("games", total=games, score="")

        def on_result(result: Any) -> None:
            wins[0 if result.p1_won else 1] += 1
            score = f"{spec.p1} {wins[0]} - {wins[1]} {spec.p2}"
            progress.update(task, advance=1, score=score)
            if not console.is_terminal:  # a log file gets one plain line per game instead of a bar
                typer.echo(f"game {sum(wins)}/{games}: {score} ({result.scores[0]}:{result.scores[1]})", err=True)

        results = run_match(spec, workers=workers, backend=backend, address=address, on_result=on_result)
    summary = summarize(spec, results, time.perf_counter() - started)
    if save:
        save_records(results, save, spec)
    if as_json:
        _print_json(summary.to_json())
    else:
        _render_match(summary)
        if save:
            typer.echo(f"records      {len(results)} games written to {save}/")


@bench_app.command("ai")
def bench_ai(
    seconds: Annotated[float, typer.Option(help="Time per measurement, in seconds.")] = 2.0,
    repeats: Annotated[int, typer.Option(help="Measurements per figure; the median is quoted.")] = 3,
    as_json: JsonFlag = False,
) -> None:
    """MCTS iterations/s and rollouts/s on one core, against rollouts through legal_moves/apply."""
    from patchwork_opt.bench.ai import run_ai_bench

    result = run_ai_bench(seconds=seconds, repeats=repeats)
    if as_json:
        _print_json(result)
        return
    for label in ("opening", "middle"):
        f = result[label]
        typer.echo(f"{label}:")
        typer.echo(f"  MCTS iterations/s      {f['mcts_iterations']:>9.0f}")
        typer.echo(f"  rollouts/s (fast)      {f['rollouts']:>9.0f}   generic legal_moves/apply "
                   f"{f['generic_rollouts']:>7.1f}   ratio {f['rollout_ratio']:.1f}x")
        typer.echo(f"  uniform random games/s {f['random_playouts']:>9.0f}")
    typer.echo(f"(medians of {repeats} runs of {seconds:g}s on one core)")


# ==== play =====================================================================================

PLAY_SIDES = {"first": 0, "second": 1}


def _play_record(load: str | None, seed: int | None, leather: str | None) -> Record:
    """The game to play: a loaded record, or a new game from the seed and leather printing."""
    if load is None:
        return Record.start(State.new(seed=seed, leather=leather or "revised"))
    record = Record.load(load)
    record.replay()  # an unplayable record is refused before the game starts
    if leather is not None:
        from patchwork_opt.core.state import leather_spaces

        if leather_spaces(leather) != record.leather:
            raise PatchworkError(f"--leather {leather} conflicts with the record's leather {list(record.leather)}")
    return record


@app.command()
def play(
    ai: Annotated[str, typer.Option("--ai", help="The AI: random, greedy, mcts or solver.")] = "solver",
    level: Annotated[int, typer.Option(min=1, max=5, help="AI strength 1-5 (its thinking time).")] = 3,
    seed: Annotated[int | None, typer.Option(help="Seed for the circle and the AI (random when omitted).")] = None,
    you: Annotated[str, typer.Option(help="Play first or second.")] = "first",
    leather: Annotated[str | None, typer.Option(help="Leather printing: revised (default) or classic.")] = None,
    load: Annotated[str | None, typer.Option(help="Continue the game in this record.")] = None,
    save: Annotated[str | None, typer.Option(help="Keep the game record in this file.")] = None,
) -> None:
    """Play a game against the AI in the terminal (or from a script on standard input)."""
    import sys

    from patchwork_opt.ai.registry import make_bot
    from patchwork_opt.apps.play import HintLine, Session, run, terminal_for
    from patchwork_opt.core.move import ADVANCE, Move
    from solvers.advisor import SolverAdvisor
    from solvers.hints import position_hints

    def hinter(state: State, count: int) -> list[HintLine]:
        """The solvers' ranked moves of the position, as the session shows them."""
        lines = []
        for hint in position_hints(state, top_k=3).hints[:count]:
            if hint.type == "advance":
                move = ADVANCE
            elif hint.type == "leather":
                move = Move("leather", -1, hint.mask)
            else:
                assert hint.patch is not None
                move = Move.buy(hint.patch, hint.mask)
            lines.append(HintLine(move, hint.reason, hint.score))
        return lines

    if you not in PLAY_SIDES:
        raise PatchworkError(f"--you must be first or second, not {you!r}")
    record = _play_record(load, seed, leather)
    advisor = SolverAdvisor()
    bot = make_bot(ai, level=level, seed=seed, advisor=advisor)
    session = Session(record, PLAY_SIDES[you], bot, advisor=advisor, hinter=hinter)
    if save is not None:
        session.save(save)  # a path that cannot be written is refused before the game starts
    raise typer.Exit(run(session, terminal_for(sys.stdin, sys.stdout, sys.stderr), save))


# ==== serve ====================================================================================

DEFAULT_DB = "patchwork-games.sqlite3"


def _web_hint(request: Any, time_cap: float) -> Any:
    """``POST /api/hint``: what ``patchwork hint WHAT ... --json`` prints, for the same inputs."""
    from solvers.hints import hint_for

    return hint_for(
        request.load(), request.patch, request.next, request.pool,
        top_k=request.top, lookahead=request.lookahead, time_limit=min(request.time_limit, time_cap),
    )


def _web_fill(request: Any, time_cap: float) -> Any:
    """``POST /api/fill``: what ``patchwork fill ... --json`` prints for the same options."""
    from patchwork_opt.apps.web.schemas import SERVER_WORKERS
    from solvers.fill import optimal_fill
    from solvers.model import SolverConfig, validate_patch_ids

    ids = validate_patch_ids(request.patches)
    config = SolverConfig(
        time_limit=min(request.time_limit, time_cap), workers=min(request.workers, SERVER_WORKERS), seed=request.seed
    )
    return optimal_fill(
        request.quilt_mask(), ids, objective=request.objective, marks=request.marks, budget=request.budget,
        require_bonus=request.require_bonus, config=config,
    )


def _web_bonus(request: Any, time_cap: float) -> Any:
    """``POST /api/bonus``: what ``patchwork bonus QUILT --patches ... --json`` prints."""
    from patchwork_opt.apps.web.schemas import SERVER_WORKERS
    from solvers.bonus import bonus_completion
    from solvers.model import SolverConfig, validate_patch_ids

    ids = validate_patch_ids(request.patches)
    config = SolverConfig(time_limit=min(request.time_limit, time_cap), workers=min(request.workers, SERVER_WORKERS))
    return bonus_completion(request.quilt_mask(), ids, config)


def _web_services(max_ai_seconds: float) -> Any:
    """The solver-backed functions and the AI, plugged into the web app (which never imports solvers)."""
    from patchwork_opt.ai.base import Bot
    from patchwork_opt.ai.registry import BOT_NAMES, level_time, make_bot
    from patchwork_opt.apps.web.schemas import BonusRequest, FillRequest, HintRequest
    from patchwork_opt.apps.web.services import Services, SolverEndpoint
    from solvers.bestfit import BestFitResult
    from solvers.bonus import BonusResult
    from solvers.fill import FillResult
    from solvers.hints import PositionHints

    solvers = {
        "hint": SolverEndpoint(
            HintRequest, PositionHints | BestFitResult, _web_hint,
            "Ranked moves of a position, or best placements of a patch (as patchwork hint --json)",
        ),
        "fill": SolverEndpoint(
            FillRequest, FillResult, _web_fill, "Patches and placements that cover the most (as patchwork fill --json)"
        ),
        "bonus": SolverEndpoint(
            BonusRequest, BonusResult, _web_bonus, "Can a 7x7 square be completed (as patchwork bonus --json)"
        ),
    }

    def game_hint(state: State, time_cap: float) -> Any:
        return _web_hint(HintRequest(position=to_notation(state)), time_cap)

    def bot_factory(name: str, level: int, seed: int, time_cap: float) -> Bot:
        seconds = min(level_time(level), time_cap, max_ai_seconds)
        advisor = None
        if name == "solver":
            from solvers.advisor import SolverAdvisor

            advisor = SolverAdvisor()
        return make_bot(name, level=level, seed=seed, time_per_move=seconds, advisor=advisor)

    return Services(
        solvers=solvers, game_hint=game_hint, make_bot=bot_factory, ai_names=BOT_NAMES, default_ai="solver"
    )


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to bind (loopback by default; 0.0.0.0 exposes it).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    db: Annotated[str, typer.Option(help="SQLite file holding the games.")] = DEFAULT_DB,
    max_solver_seconds: Annotated[
        float, typer.Option(min=0.1, max=60, help="Cap on any solver time limit a request asks for.")
    ] = 5.0,
    max_ai_seconds: Annotated[float, typer.Option(min=0.05, max=60, help="Cap on the AI's time per move.")] = 3.0,
) -> None:
    """Serve the web page and the JSON API (games, hint, fill, bonus; docs at /docs)."""
    import uvicorn

    from patchwork_opt.apps.web.app import create_app
    from patchwork_opt.apps.web.services import Limits

    if host not in ("127.0.0.1", "localhost", "::1"):
        typer.echo(f"warning: binding {host}: the games and solvers are open to other machines", err=True)
    limits = Limits(max_solver_seconds=max_solver_seconds, max_ai_seconds=max_ai_seconds)
    web = create_app(db, _web_services(max_ai_seconds), limits)
    typer.echo(f"serving on http://{host}:{port}/ (games in {db}; API docs at /docs)", err=True)
    uvicorn.run(web, host=host, port=port, log_level="warning", limit_concurrency=200, timeout_keep_alive=5)


@bench_app.command("web")
def bench_web(
    clients: Annotated[int, typer.Option(min=1, max=200, help="Clients asking for hints at once.")] = 20,
    seconds: Annotated[float, typer.Option(min=1, max=600, help="Length of the loaded run.")] = 30.0,
    baseline_seconds: Annotated[float, typer.Option(min=1, max=600, help="Length of the one-client run.")] = 5.0,
    as_json: JsonFlag = False,
) -> None:
    """Hint latency (p50/p95) of `patchwork serve` on loopback under N clients, vs one client alone."""
    import sys

    from patchwork_opt.bench.web import run_web_bench

    def argv_for(port: int, db: str) -> list[str]:
        return [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", db]

    with _phase_progress() as on_phase:
        result = run_web_bench(
            argv_for, clients=clients, seconds=seconds, baseline_seconds=baseline_seconds, on_phase=on_phase
        )
    if as_json:
        _print_json(result)
    else:
        base, hint, read = result["baseline"], result["hint"], result["read_during_load"]
        rows = [("hint, 1 client alone", base), (f"hint, {clients} clients", hint), ("game reads meanwhile", read)]
        for label, row in rows:
            typer.echo(f"{label:<22} p50 {row['p50_ms']:8.1f} ms   p95 {row['p95_ms']:8.1f} ms   "
                       f"{row['per_second']:6.1f}/s   {row['requests']} requests, {row['errors']} errors")
        typer.echo(f"ratios vs alone: p50 {result['p50_ratio_vs_alone']}x, throughput "
                   f"{result['throughput_ratio_vs_alone']}x   ({result['seconds']:g}s on loopback)")
        for sample in hint["error_samples"] + read["error_samples"]:
            typer.echo(f"  error: {sample}", err=True)
    if result["errors"]:
        raise typer.Exit(1)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
