"""A whole game through the engine protocol, as any other program would play it: this script
starts ``patchwork engine``, speaks to it over its stdin and stdout only, and prints the
transcript (``>`` what it sent, ``<`` what the engine answered). docs/engine.md shows its output.

Run: .venv/bin/python examples/engine_game.py [--movetime MS] [--seed S]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

PATCHWORK = Path(sys.executable).parent / "patchwork"


class Engine:
    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line: str) -> None:
        print(f"> {line}")
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, *prefixes: str) -> str:
        """Print the engine's lines up to the first that starts with one of ``prefixes``; return it."""
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline().rstrip("\n")
            if not line:
                raise SystemExit("the engine exited")
            print(f"< {line}")
            if line.startswith(prefixes):
                return line


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds per move")
    parser.add_argument("--seed", type=int, default=7, help="the circle's seed")
    args = parser.parse_args()
    engine = Engine([str(PATCHWORK), "engine"])
    engine.send("upi")
    engine.until("upiok")
    engine.send("setoption name Seed value 1")
    engine.send("isready")
    engine.until("readyok")
    engine.send("newgame")
    moves: list[str] = []
    while True:  # the engine plays both sides until it says the game is over
        engine.send(f"position startpos seed {args.seed}" + (f" moves {' '.join(moves)}" if moves else ""))
        engine.send(f"go movetime {args.movetime}")
        answer = engine.until("bestmove", "info string error")
        if not answer.startswith("bestmove"):
            break
        moves.append(answer.split()[1])
    engine.send("quit")
    engine.process.wait()
    print(f"# {len(moves)} moves; {final_scores(args.seed, moves)}")


def final_scores(seed: int, moves: list[str]) -> str:
    """The final scores by the project's rules (for the reader: the engine does not announce them)."""
    from patchwork_opt.core.move import Move
    from patchwork_opt.core.state import State

    state = State.new(seed=seed)
    for text in moves:
        state.apply(Move.parse(text))
    winner = state.winner()
    return (f"final scores: Player 1 {state.score(0)}, Player 2 {state.score(1)}"
            + (f"; Player {winner + 1} wins" if winner is not None else ""))


if __name__ == "__main__":
    main()
