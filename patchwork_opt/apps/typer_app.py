"""The frame of the ``patchwork`` command line (cli.py and its ``bench`` group): the one place
where errors become ``error: <one line>`` and an exit code, ``--version``, ``--json`` and ``--lang``
(the language words are said in: ``--lang``, else LANGUAGE / LC_ALL / LC_MESSAGES / LANG)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from patchwork_opt.core.errors import PatchworkError, words
from patchwork_opt.i18n import LANGUAGE, _, from_environment, known, languages, set_language

#: Libraries of the optional extras (pyproject.toml), for a one-line hint when one is missing: every
#: one the project imports itself (the web service imports anyio and h11, which come with the web
#: extra's FastAPI and Uvicorn; tests/test_core_install.py runs the commands without them).
EXTRAS = {
    "fastapi": "web", "uvicorn": "web", "starlette": "web", "anyio": "web", "h11": "web", "httpx": "web",
    "psycopg": "web", "psycopg_pool": "web",
    "ray": "ray", "sklearn": "train", "pettingzoo": "rl", "gymnasium": "rl", "pyspiel": "rl", "open_spiel": "rl",
    "pygame": "rl", "playwright": "dev",
}


@contextmanager
def one_line_errors() -> Iterator[None]:
    """Domain errors, usage errors (a missing option, a value that is no number) and a missing
    extra as ``error: <one line>`` on stderr with their exit code (2 for usage and extras)."""
    try:
        yield
    except PatchworkError as exc:
        # Translators: how the command line reports an error ({message}: what is wrong, one line)
        typer.echo(_("error: {message}", message=words(exc)), err=True)
        raise typer.Exit(exc.exit_code) from None
    except typer.TyperException as exc:  # Typer's usage errors (it carries its own click)
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" or ctx is None:
            raise  # the help shown for a bare command, or an error with no command to point at
        # Translators: a usage error: {message} is Click's own words (English), {command} the command ("patchwork hint")
        typer.echo(_("error: {message} (see {command} --help)", message=exc.format_message().rstrip("."),
                     command=ctx.command_path), err=True)
        raise typer.Exit(getattr(exc, "exit_code", 2)) from None
    except ModuleNotFoundError as exc:
        extra = EXTRAS.get((exc.name or "").split(".")[0])
        if extra is None:
            raise
        # Translators: a missing optional part of the install; keep the pip command as it is
        said = _("error: this command needs the {extra!r} extra: pip install -e '.[{extra}]'", extra=extra)
        typer.echo(said, err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        # Translators: the command was stopped with Ctrl-C
        typer.echo(_("interrupted"), err=True)
        raise typer.Exit(130) from None


class ErrorMappingGroup(TyperGroup):
    """A command group whose parsing (``make_context``) and commands (``invoke``) report errors
    through ``one_line_errors``."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with one_line_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with one_line_errors():
            return super().invoke(ctx)


def new_typer(help_text: str) -> typer.Typer:
    """A command group with one-line errors and plain help (``rich_markup_mode=None``: Typer's rich
    panels show every flag as ``--json <bool>``, as if it took a value)."""
    return typer.Typer(
        cls=ErrorMappingGroup, no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False,
        rich_markup_mode=None, help=help_text,
    )


def _print_version(wanted: bool) -> None:
    if wanted:
        from importlib import metadata  # about 20 ms: only when asked

        typer.echo(f"patchwork-opt {metadata.version('patchwork-opt')}")
        raise typer.Exit()


VersionFlag = Annotated[
    bool, typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit.")
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
LangOption = Annotated[str | None, typer.Option(
    "--lang", metavar="CODE", help="Language of the words: en, de, fr, ru (default: from LANGUAGE, LC_ALL, "
    "LC_MESSAGES or LANG, else English); --json keys and values stay English.")]


def use_language(ctx: typer.Context, code: str | None) -> None:
    """Put ``--lang`` (or the environment's language, ``i18n.from_environment``) in effect for the
    command ``ctx`` runs, and back as it was when it closes (a test's runner calls many commands)."""
    chosen = known(code) if code else from_environment()
    if chosen is None:
        raise PatchworkError(_("unknown language {code!r}: one of {codes}", code=code, codes=", ".join(languages())))
    token = set_language(chosen)
    ctx.call_on_close(lambda: LANGUAGE.reset(token))
#: Where the games of ``match``, ``selfplay`` and ``bench calibration`` run.
BackendOption = Annotated[str, typer.Option(help="local (processes) or ray.")]
RayAddressOption = Annotated[str | None, typer.Option(help="Ray cluster address (a local Ray when omitted).")]


def print_json(data: object) -> None:
    typer.echo(json.dumps(data, indent=2))
