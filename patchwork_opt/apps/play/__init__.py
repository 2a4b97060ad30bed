"""``patchwork play``: a person against a bot in the terminal, or a script on stdin.

``session`` holds the game logic (commands, undo, save), ``commands`` reads what is typed,
``suggest`` ranks where to place, ``draw`` draws with Rich, ``loop`` reads and prints, ``start``
sets a game up from the command's options.
"""

from patchwork_opt.apps.play.commands import CommandError, parse_command
from patchwork_opt.apps.play.loop import Terminal, run, terminal_for
from patchwork_opt.apps.play.session import AiReport, Hinter, HintLine, Reply, Session, start_record

__all__ = [
    "AiReport",
    "CommandError",
    "HintLine",
    "Hinter",
    "Reply",
    "Session",
    "Terminal",
    "parse_command",
    "run",
    "start_record",
    "terminal_for",
]
