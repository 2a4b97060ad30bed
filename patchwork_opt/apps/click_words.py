"""Click's own words in the language in effect: the help's frame ("Usage:", "Options", "[default: 6]")
and the usage errors ("Missing option '--patches'"), as the ``cli`` catalogue says them.

Why this module: the command line's Click is the copy Typer carries (``typer._click``), and it says
its words with f-strings, through no gettext at all, so no catalogue can reach them where they are
made. Three places are left, and the CLI's frame (``apps/typer_app.py``) uses each once:

- Typer's own words ("Arguments", "Options", "Commands", "default: {default}", "required", "No such
  command {name!r}.") go through the ``gettext`` function that ``typer.core`` bound at import as
  ``_``: ``install`` binds that name to ``said``, which reads the language in effect at each call
  (a test's runner calls many commands in many languages in one process). No other hook exists.
- "Usage:" is the prefix Click's formatter writes unless it is given one; "Show this message and
  exit." is the help of the ``--help`` option, translated with the other options' help.
- A usage error reaches the frame as Click's English line (``one_line_errors``): ``usage_words``
  matches it against ``USAGE_ERRORS``, Click's messages with their values as placeholders, and says
  the match's translation with the same values (themselves said again: a reason inside "Invalid value
  for '--top': {reason}" is one of pydantic's messages, which Typer uses to read a number).

The English texts here are Typer's and pydantic's, byte for byte (tests/test_cli_languages.py fails
when an upgrade rewords one, and when one no longer leaves Click through these words). Babel is only
imported when a language other than English is in effect: English returns each text as it is.
"""

from __future__ import annotations

import re
from functools import cache

from patchwork_opt.i18n import CLI_DOMAIN, H_, HN_, SOURCE, current, gettext_in, translations

#: The prefix of a command's usage line, given to Click's formatter.
# Translators: the start of a command's help: "Usage: patchwork hint [OPTIONS] ..."
USAGE = H_("Usage:")
#: What Click's help frame says itself besides: the ``--help`` option's help and Typer's ``_(...)``.
FRAME = (
    H_("Show this message and exit."),
    # Translators: the headings of a command's help; keep them short
    H_("Arguments"), H_("Options"), H_("Commands"),
    # Translators: after an option's help, in brackets: its value when it is not given
    H_("default: {default}"),
    # Translators: after an option's or an argument's help, in brackets: it must be given
    H_("required"),
    H_("Missing command."),
    # Translators: a usage error: a command name that is none ({name} is the name typed, quoted)
    H_("No such command {name!r}."),
    H_("Aborted!"),
)

#: Click's (and pydantic's) usage errors as Typer words them, most specific first: the first whose
#: text matches a message whole says it. Each placeholder stands for a value of the message, itself
#: said again (a command or option name, quoted, passes through unchanged).
USAGE_ERRORS = (
    # Translators: a usage error after a command name that is none: {message} says which, {suggestions} the names meant
    H_("{message}. Did you mean {suggestions}?"),
    # Translators: a usage error: {message} says which option is none, {options} lists the options meant
    H_("{message} (Possible options: {options})"),
    # Translators: a usage error: {name} is the option or argument ('--top'), {reason} what is wrong with its value
    H_("Invalid value for {name}: {reason}"),
    # Translators: a usage error: {name} is the option not given, quoted ('--patches')
    H_("Missing option {name}."),
    # Translators: a usage error: {name} is the argument not given, quoted ('QUILT|POSITION|RECORD')
    H_("Missing argument {name}."),
    # Translators: a usage error: {name} is the option typed that the command does not have (--x)
    H_("No such option: {name}"),
    # Translators: a usage error: a flag given a value (--json=3); {name} is the flag, quoted
    H_("Option {name} does not take a value."),
    # Translators: a usage error: an option given last, without its value; {name} is the option, quoted
    H_("Option {name} requires an argument."),
    # Translators: why a value is no whole number (after "Invalid value for '--top':")
    H_("Input should be a valid integer, unable to parse string as an integer"),
    # Translators: why a value is no number (after "Invalid value for '--time-limit':")
    H_("Input should be a valid number, unable to parse string as a number"),
    # Translators: why a number is too large (after "Invalid value for '--level':"); {le} is the largest allowed
    H_("Input should be less than or equal to {le}"),
    # Translators: why a number is too small (after "Invalid value for '--level':"); {ge} is the smallest allowed
    H_("Input should be greater than or equal to {ge}"),
)

#: Click's one usage error that counts something, as it says it ("argument(s)"), and its message with
#: plural forms, said for the number of arguments in ``{args}``.
EXTRA_ARGUMENTS = "Got unexpected extra argument(s) ({args})"
# Translators: a usage error: words typed after the command that it takes no place for; {args} lists them
EXTRA_ARGUMENTS_SAID = HN_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})")


def said(text: str) -> str:
    """``text``, a message of the ``cli`` domain, in the language in effect (English: as it is)."""
    return gettext_in(CLI_DOMAIN, text)


def install() -> None:
    """Let Typer's own words (its ``_``, bound to ``gettext.gettext`` at import) say ``said``: the
    language in effect at each call, so nothing is fixed here. Called as the command line starts;
    doing it again changes nothing."""
    import typer.core

    setattr(typer.core, "_", said)  # noqa: B010 (a module's global, not an attribute known to mypy)


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """``template`` as a pattern matching the texts it makes: each ``{name}`` a group of that name."""
    parts = re.split(r"\{([a-z_]+)\}", template)
    return re.compile("".join(f"(?P<{p}>.+?)" if i % 2 else re.escape(p) for i, p in enumerate(parts)), re.DOTALL)


def usage_words(message: str) -> str:
    """Click's English usage error ``message`` in the language in effect: the translation of the
    first of ``USAGE_ERRORS`` (or ``EXTRA_ARGUMENTS``) that matches it whole, with its values said
    the same way; a message none matches stays as Click says it."""
    code = current()
    if code == SOURCE:
        return message
    table = translations(CLI_DOMAIN, code)
    for template in USAGE_ERRORS:
        found = _pattern(template).fullmatch(message)
        if found:
            return table.gettext(template).format(**{k: usage_words(v) for k, v in found.groupdict().items()})
    found = _pattern(EXTRA_ARGUMENTS).fullmatch(message)
    if found:
        args = found.group("args")
        return table.ngettext(*EXTRA_ARGUMENTS_SAID, len(args.split())).format(args=args)
    return message
