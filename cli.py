"""The ``patchwork`` command line. Commands parse, call the library and render; nothing more.

Errors become one-line messages and exit codes in one place, ``patchwork_opt.apps.typer_app``; the
``bench`` commands are in ``patchwork_opt/bench/commands.py``, ``puzzle`` in ``patchwork_opt/apps/commands/puzzle.py``,
``match``, ``selfplay`` and ``train`` in ``patchwork_opt/apps/commands/ai.py``, the rules engine's ``replay``,
``new``, ``show``, ``schema`` and ``patches`` in ``patchwork_opt/apps/commands/rules.py``.

Start-up time: this module and the command groups import only the engine, the formats and Typer.
Every command imports what it calls inside its own body (Numba's compiled searches, OR-Tools,
Rich's progress bars, the web service), so that ``show`` or ``move --ai random`` does not pay
for the solvers, and the core install runs every command whose extra it does not need
(tests/test_cli_startup.py, tests/test_core_install.py).
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from patchwork_opt.apps.commands.ai import ai_app
from patchwork_opt.apps.commands.engine import engine_app
from patchwork_opt.apps.commands.puzzle import puzzle_app
from patchwork_opt.apps.commands.rules import rules_app
from patchwork_opt.apps.typer_app import JsonFlag, LangOption, VersionFlag, new_typer
from patchwork_opt.apps.typer_app import print_json as _print_json
from patchwork_opt.bench.commands import bench_app
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.lookup import parse_patch_ids
from patchwork_opt.formats.inputs import load_position_input
from patchwork_opt.i18n import H_, N_, _, ngettext, number

app = new_typer(H_("Patchwork rules engine, CP-SAT quilt optimizer and AI."))
app.add_typer(rules_app)  # replay, new, show, schema, patches: top-level commands
app.add_typer(bench_app, name="bench")
app.add_typer(puzzle_app, name="puzzle")
app.add_typer(ai_app)  # match, selfplay, train: top-level commands
app.add_typer(engine_app)  # engine: the protocol for other programs


#: ``jitcache.NOTICE_ENV``: a command says on stderr when it waits for code to compile (unless set to "0").
COMPILE_NOTICE_ENV = "PATCHWORK_COMPILE_NOTICE"


@app.callback()
def _root(version: VersionFlag = False, lang: LangOption = None) -> None:
    """The options before any command (``--lang`` and ``--version`` act as they are read)."""
    os.environ.setdefault(COMPILE_NOTICE_ENV, "1")


def _prepare(*groups: str) -> None:
    """Load the compiled code ``groups`` (``apps.warmup.GROUPS``) before any clock starts, compiling
    it first where it is not cached (said on stderr), so no reported time includes compiling."""
    if groups:
        from patchwork_opt.apps.warmup import prepare

        prepare(groups)


# ==== solver commands (hint, fill, bonus) ======================================================


@app.command(help=H_("Best placements of a patch on a quilt, or the ranked moves of the player to move."))
def hint(
    what: Annotated[str, typer.Argument(
        metavar="QUILT|POSITION|RECORD",
        help=H_("A quilt (file or 9 lines), a position (file or string) or a record file.")
    )],
    patch_text: Annotated[
        str | None, typer.Option("--patch", help=H_("Patch id to place (required for a bare quilt)."))
    ] = None,
    next_ids: Annotated[
        str | None,
        typer.Option("--next", help=H_("Next patches, e.g. 3,5,7 (default: none for a quilt, the circle's).")),
    ] = None,
    pool_ids: Annotated[
        str | None,
        typer.Option("--pool", help=H_("Patches still to come, e.g. 0,4,9 (default: all but --patch).")),
    ] = None,
    top: Annotated[int | None, typer.Option("--top",
                                            help=H_("Placements shown (3), or moves of a position (8)."))] = None,
    lookahead: Annotated[int, typer.Option(help=H_("Upcoming patches of the circle to look ahead over."))] = 6,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", help=H_("Seconds for the solver part (1; with --watch: none, until Ctrl-C).")
    )] = None,
    watch: Annotated[bool, typer.Option(
        "--watch", help=H_("A position's best lines live, growing as the AI thinks, until Ctrl-C (--json: JSON lines).")
    )] = False,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.hints import hint_command, render_hint

    answer = hint_command(what, patch_text=patch_text, next_text=next_ids, pool_text=pool_ids, top=top,
                          lookahead=lookahead, time_limit=time_limit, watch=watch, as_json=as_json)
    if answer is not None:  # (None: --watch printed its lines as they came)
        loaded, result = answer
        _print_json(result.model_dump(mode="json")) if as_json else typer.echo(render_hint(result, loaded))


@app.command(help=H_("Optimal fill: the patches (each at most once) and placements that cover the most."))
def fill(
    patches: Annotated[str, typer.Option("--patches", help=H_("Patch ids to choose from, e.g. 1,2,5."))],
    quilt_arg: Annotated[
        str | None, typer.Option("--quilt", help=H_("Starting quilt (file, 9 lines or JSON cells); empty by default."))
    ] = None,
    objective: Annotated[str, typer.Option(help=H_("cells (covered cells) or points (score change)."))] = "cells",
    marks: Annotated[int, typer.Option(help=H_("Income marks still ahead, for --objective points."))] = 9,
    budget: Annotated[int | None, typer.Option(help=H_("Total button cost at most this."))] = None,
    require_bonus: Annotated[bool, typer.Option("--require-bonus", help=H_("A 7x7 square must be complete."))] = False,
    time_limit: Annotated[float, typer.Option("--time-limit", help=H_("Seconds."))] = 10.0,
    workers: Annotated[int, typer.Option(help=H_("CP-SAT workers."))] = 2,
    seed: Annotated[int, typer.Option(help=H_("CP-SAT random seed."))] = 0,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.first_fill import fill_on_any_run
    from patchwork_opt.apps.progress import solve_status
    from patchwork_opt.apps.solutions import render_fill
    from patchwork_opt.formats.inputs import load_quilt
    from solvers.model import SolverConfig

    ids = parse_patch_ids(patches)
    if objective not in ("cells", "points"):
        raise PatchworkError(N_("--objective must be cells or points, not {given}"), given=repr(objective))
    if time_limit <= 0 or workers < 1 or seed < 0:
        raise PatchworkError(N_("--time-limit must be positive, --workers at least 1, --seed at least 0"))
    quilt = load_quilt(quilt_arg).mask if quilt_arg is not None else 0
    with solve_status("fill") as report:
        result = fill_on_any_run(quilt, ids, seconds=min(time_limit, 3600),
                                 objective=objective, marks=marks, budget=budget,  # type: ignore[arg-type]
                                 require_bonus=require_bonus, config=SolverConfig(workers=min(workers, 64), seed=seed),
                                 progress=report)
    _print_json(result.to_json()) if as_json else typer.echo(render_fill(quilt, result, objective))


@app.command(help=H_("Can a 7x7 square be completed with these patches (each at most once)?"))
def bonus(
    quilt_arg: Annotated[str, typer.Argument(metavar="QUILT", help=H_("A quilt (file, 9 lines or JSON cells)."))],
    patches: Annotated[str, typer.Option("--patches", help=H_("Patch ids available, e.g. 1,2,5."))],
    time_limit: Annotated[float, typer.Option("--time-limit", help=H_("Seconds."))] = 10.0,
    workers: Annotated[int, typer.Option(help=H_("CP-SAT workers."))] = 2,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.solutions import render_bonus
    from patchwork_opt.formats.inputs import load_quilt
    from solvers.bonus import bonus_completion
    from solvers.model import SolverConfig

    ids = parse_patch_ids(patches)
    if time_limit <= 0 or workers < 1:
        raise PatchworkError(N_("--time-limit must be positive and --workers at least 1"))
    quilt = load_quilt(quilt_arg).mask
    _prepare("packing")
    result = bonus_completion(quilt, ids, deadline=Deadline.after(min(time_limit, 3600)),  # the edge: one clock
                              config=SolverConfig(workers=min(workers, 64)))
    _print_json(result.to_json()) if as_json else typer.echo(render_bonus(quilt, result))


# ==== play =====================================================================================


@app.command(help=H_("Play a game against the AI in the terminal (or from a script on standard input)."))
def play(
    ai: Annotated[str, typer.Option("--ai",
                                    help=H_("The AI: random, greedy, mcts, solver or solver-rollout."))] = "solver",
    level: Annotated[int, typer.Option(min=1, max=5, help=H_("AI strength 1-5 (its thinking time)."))] = 3,
    seed: Annotated[int | None, typer.Option(help=H_("Seed for the circle and the AI (random when omitted)."))] = None,
    you: Annotated[str, typer.Option(help=H_("Play first or second."))] = "first",
    leather: Annotated[str | None, typer.Option(help=H_("Leather printing: revised (default) or classic."))] = None,
    load: Annotated[str | None, typer.Option(help=H_("Continue the game in this record."))] = None,
    save: Annotated[str | None, typer.Option(help=H_("Keep the game record in this file."))] = None,
) -> None:
    from patchwork_opt.apps.play.start import play_in_terminal

    raise typer.Exit(play_in_terminal(ai=ai, level=level, seed=seed, you=you, leather=leather, load=load, save=save))


# ==== serve ====================================================================================

@app.command(help=H_(
    "Serve the web page, the Puzzles page and the JSON API (games, puzzles, hint, fill, bonus; "
    "docs at /docs)."))
def serve(
    host: Annotated[str, typer.Option(
        help=H_("Address to bind (loopback by default; 0.0.0.0 exposes it)."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help=H_("TCP port."))] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help=H_("Games database: a SQLite file, or a postgresql:// URL that several servers share. "
                             "Default: games.sqlite3 in the per-user data directory (printed when serving)."),
                     show_default=False),
    ] = None,
    max_solver_seconds: Annotated[
        float, typer.Option(min=0.1, max=60, help=H_("Cap on any solver time limit a request asks for."))
    ] = 5.0,
    max_ai_seconds: Annotated[float, typer.Option(min=0.05, max=60, help=H_("Cap on the AI's time per move."))] = 3.0,
    max_review_seconds: Annotated[
        float, typer.Option(min=1, max=600, help=H_("Cap on the AI's time for a whole game review."))
    ] = 30.0,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(help=H_("Host header name to accept (repeatable; loopback names always; '*' any)."),
                     show_default=False),
    ] = None,
    expire_days: Annotated[
        float, typer.Option(min=0, max=36500, help=H_("Delete games with no move for this many days (0: never)."))
    ] = 30.0,
    max_analyses: Annotated[
        int, typer.Option(min=0, max=256, help=H_("Live analyses (the analysis board's stream) running at once."))
    ] = 8,
    max_analysis_seconds: Annotated[
        float, typer.Option(min=1, max=3600, help=H_("Cap on how long one live analysis thinks."))
    ] = 30.0,
) -> None:
    from patchwork_opt.apps.web.server import LOOPBACK_NAMES, run_server
    from patchwork_opt.apps.web.services import Limits
    from patchwork_opt.apps.web.solver_services import web_services

    limits = Limits(
        max_solver_seconds=max_solver_seconds, max_ai_seconds=max_ai_seconds, game_idle_seconds=expire_days * 86400,
        max_review_seconds=max_review_seconds, allowed_hosts=(*LOOPBACK_NAMES, *(allow_host or ())),
        max_analyses=max_analyses, max_analysis_seconds=max_analysis_seconds,
    )
    run_server(web_services(max_ai_seconds), limits, host=host, port=port, db=db,
               say=lambda line: typer.echo(line, err=True))


@app.command(help=H_("Compile every search a command can use, once (in parallel processes), so no first use waits."))
def warmup(
    sequential: Annotated[bool, typer.Option("--sequential", help=H_("Compile in this process only."))] = False,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.warmup import GROUPS, prepare

    done = prepare(list(GROUPS), parallel=not sequential, say=lambda line: typer.echo(line, err=True))
    if as_json:
        _print_json(done.to_json())
    elif done.compiled:
        processes = ngettext("{count} process", "{count} processes", done.processes)
        typer.echo(_("compiled {done} of {parts} parts in {seconds} s ({processes}); every command now starts warm",
                     done=len(done.compiled), parts=len(done.groups), seconds=number(done.seconds, 1),
                     processes=processes))
    else:
        typer.echo(_("already compiled: all {parts} parts loaded from the cache in {seconds} s", parts=len(done.groups),
                     seconds=number(done.seconds, 1)))


# ==== move (the AI's move for a position, for scripts) ==========================================


@app.command("move", help=H_("The AI's move for the player to move, with its reason, win chance and expected margin."))
def move_command(
    what: Annotated[str, typer.Argument(
        metavar="RECORD|POSITION", help=H_("A game record (file) or a position (file or string)."))],
    ai: Annotated[str, typer.Option("--ai",
                                    help=H_("The AI: random, greedy, mcts, solver or solver-rollout."))] = "solver",
    level: Annotated[int, typer.Option(min=1, max=5, help=H_("AI strength 1-5."))] = 3,
    time_per_move: Annotated[
        float | None, typer.Option("--time-per-move", help=H_("Seconds to think (overrides the level's)."))
    ] = None,
    seed: Annotated[int | None, typer.Option(help=H_("Seed for the AI (repeatable choices)."))] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.ai.bots.answer import move_answer, render_answer
    from patchwork_opt.apps.warmup import groups_for_bot
    from patchwork_opt.apps.wiring import bot_advisor
    from patchwork_opt.core.move import Move

    state = load_position_input(what).state
    if state is not None and not state.is_terminal():
        _prepare(*groups_for_bot(ai, None if time_per_move is not None else level))
    answer = move_answer(state, ai=ai, level=level, time_per_move=time_per_move, seed=seed, advisor=bot_advisor(ai))
    if as_json:
        _print_json(answer)
    else:
        typer.echo(render_answer(answer, str(Move.from_json(answer["move"]))))


@app.command(help=H_("Review a game: each move against the AI's best, win chances, mistakes and accuracy."))
def analyze(
    record: Annotated[str, typer.Argument(metavar="RECORD", help=H_("A game record (JSON file)."))],
    time_per_move: Annotated[float, typer.Option("--time-per-move",
                                                 help=H_("Seconds of analysis per position."))] = 0.5,
    chart: Annotated[str | None, typer.Option(help=H_("Write the win-chance chart to this .svg or .png file."))] = None,
    puzzles: Annotated[
        str | None,
        typer.Option(metavar="DIR", help=H_("Also write each mistake or blunder as an exercise, find a better move, "
                                            "in DIR (puzzle solve FILE plays one, puzzle check FILE judges).")),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    from patchwork_opt.apps.practice import analyze_command

    analysed = analyze_command(record, seconds=time_per_move, chart=chart, puzzles=puzzles)
    _print_json(analysed.to_json()) if as_json else typer.echo(analysed.render())
    if analysed.chart:
        typer.echo(_("chart written to {path}", path=analysed.chart), err=True)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
