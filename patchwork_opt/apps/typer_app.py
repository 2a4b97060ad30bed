"""The frame of the ``patchwork`` command line (cli.py and its ``bench`` group): the one place
where errors become ``error: <one line>`` and an exit code, where help pages are said in the
language in effect (the commands' ``H_`` texts and Click's own words, ``click_words``), and
``--version``, ``--json`` and ``--lang`` (the language words are said in: ``--lang``, else
LANGUAGE / LC_ALL / LC_MESSAGES / LANG)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from patchwork_opt.apps.click_words import USAGE, install, said, usage_words
from patchwork_opt.core.errors import PatchworkError, words
from patchwork_opt.i18n import H_, LANGUAGE, _, from_environment, known, languages, set_language

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
        if type(exc).__name__ == "NoArgsIsHelpError":
            raise  # the help shown for a bare command
        ctx = getattr(exc, "ctx", None)  # None: the parser's own errors ("Option '--top' requires an argument")
        message = usage_words(exc.format_message()).rstrip(".")  # Click's words, in the language in effect
        # Translators: a usage error: {message} is Click's own words (English), {command} the command ("patchwork hint")
        said_line = (_("error: {message} (see {command} --help)", message=message, command=ctx.command_path)
                     if ctx is not None else _("error: {message}", message=message))
        typer.echo(said_line, err=True)
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


@contextmanager
def help_said(*things: Any) -> Iterator[None]:
    """The ``help`` (and ``short_help``) of ``things`` (Click's commands and parameters) in the
    language in effect while Click writes a help page, then back to the source's words: the texts
    are ``H_`` messages, and the same command may be shown again in another language. A text may
    name ``{codes}``: the languages there are (``i18n.languages``: a catalogue added is listed)."""
    saved = [(thing, thing.help, getattr(thing, "short_help", None)) for thing in things]
    try:
        for thing, text, short in saved:
            if text:
                thing.help = said(text).replace("{codes}", ", ".join(languages()))
            if short:
                thing.short_help = said(short)
        yield
    finally:
        for thing, text, short in saved:
            thing.help = text
            if short:
                thing.short_help = short


class SaidHelp:
    """A command whose help page is said in the language in effect: its help, its parameters' help
    (``--help``'s own too), its subcommands' short help and Click's frame words (``click_words``)."""

    help: str | None
    short_help: str | None

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=f"{said(USAGE)} ")

    def format_help(self, ctx: Any, formatter: Any) -> None:
        with help_said(self, *self.get_params(ctx)):  # type: ignore[attr-defined]
            super().format_help(ctx, formatter)  # type: ignore[misc]

    def get_short_help_str(self, limit: int = 45) -> str:
        with help_said(self):
            return str(super().get_short_help_str(limit))  # type: ignore[misc]


class HelpCommand(SaidHelp, TyperCommand):
    """A command of the ``patchwork`` line: its help said in the language in effect."""


class ErrorMappingGroup(SaidHelp, TyperGroup):
    """A command group whose parsing (``make_context``) and commands (``invoke``) report errors
    through ``one_line_errors``, and whose help is said in the language in effect. The outermost
    group puts the environment's language in effect before it reads its options (its ``--help``
    answers before any command runs; ``--lang``, eager, then overrides it) and back when it closes,
    so a test's runner calling many commands in one process carries no language from one to the next."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        install()
        token = LANGUAGE.set(from_environment()) if parent is None else None
        try:
            with one_line_errors():
                ctx = super().make_context(info_name, args, parent=parent, **extra)
        except BaseException:
            if token is not None:
                LANGUAGE.reset(token)
            raise
        if token is not None:
            ctx.call_on_close(lambda: LANGUAGE.reset(token))
        return ctx

    def invoke(self, ctx: Any) -> Any:
        with one_line_errors():
            return super().invoke(ctx)


class PatchworkTyper(typer.Typer):
    """A Typer app whose commands are ``HelpCommand``s unless one says otherwise."""

    def command(self, *args: Any, cls: type[TyperCommand] | None = None, **kwargs: Any) -> Callable[..., Any]:
        return super().command(*args, cls=cls or HelpCommand, **kwargs)


def new_typer(help_text: str) -> typer.Typer:
    """A command group with one-line errors and plain help said in the language in effect
    (``help_text`` is an ``H_`` message; ``rich_markup_mode=None``: Typer's rich panels show every
    flag as ``--json <bool>``, as if it took a value)."""
    return PatchworkTyper(
        cls=ErrorMappingGroup, no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False,
        rich_markup_mode=None, help=help_text,
    )


def _print_version(wanted: bool) -> None:
    if wanted:
        from importlib import metadata  # about 20 ms: only when asked

        typer.echo(f"patchwork-opt {metadata.version('patchwork-opt')}")
        raise typer.Exit()


def _take_language(code: str | None) -> str | None:
    """``--lang``, eager: the language put in effect before any other option is read, ``--help``
    among them (the outermost group set the environment's, and sets it back when it closes)."""
    if code:
        chosen = known(code)
        if chosen is None:
            codes = ", ".join(languages())
            raise PatchworkError(_("unknown language {code!r}: one of {codes}", code=code, codes=codes))
        set_language(chosen)
    return code


VersionFlag = Annotated[
    bool, typer.Option("--version", callback=_print_version, is_eager=True, help=H_("Print the version and exit."))
]
JsonFlag = Annotated[bool, typer.Option("--json", help=H_("Print one JSON object on stdout."))]
LangOption = Annotated[str | None, typer.Option(
    "--lang", metavar="CODE", callback=_take_language, is_eager=True,
    # Translators: --lang's help; {codes} lists the language codes there are ("en, de, fr, ru")
    help=H_("Language of the words: {codes} (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else "
            "English); --json keys and values stay English."))]
#: Where the games of ``match``, ``selfplay`` and ``bench calibration`` run.
BackendOption = Annotated[str, typer.Option(help=H_("local (processes) or ray."))]
RayAddressOption = Annotated[str | None, typer.Option(help=H_("Ray cluster address (a local Ray when omitted)."))]


def print_json(data: object) -> None:
    typer.echo(json.dumps(data, indent=2))
