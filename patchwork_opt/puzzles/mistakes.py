"""Your own mistakes as puzzles: the position before a mistake or blunder becomes an endgame puzzle
when it has an only-move answer (``endgame.only_move``), proven by the exact search.

The review (``apps/review.py``) finds the mistakes; this turns each one into a puzzle of the same
kind as the bank's: exactly one winning decision, few winning moves, a natural wrong move refuted by
best play (often the move that was played), the themes of its proof and a difficulty measured by the
bots. A mistake made in a position already lost, or where several decisions win, makes no puzzle.
Positions before both tokens reach ``endgame.FROM_SPACE`` are beyond the exact search's reach and are
not tried; later ones the search cannot settle in ``seconds`` are skipped, as the lichess puzzle maker
skips what its engine cannot settle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.endgame import FROM_SPACE, as_candidate, bot_rates, puzzle_of, puzzle_seed
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle
from patchwork_opt.puzzles.proof import Prover, UnprovenError

#: Seconds the exact search may take to prove one mistake's position (and then its lines).
MISTAKE_SECONDS = 5.0


def check_plies(record: Record, plies: Sequence[int]) -> list[int]:
    """The plies in order, each an index into ``record.moves`` (``PatchworkError`` naming one that is not)."""
    for ply in plies:
        if not 0 <= ply < len(record.moves):
            raise PatchworkError(f"ply {ply} is not a move of the record (it has {len(record.moves)} moves)")
    return sorted(set(plies))


def mistake_puzzles(record: Record, plies: Sequence[int], *, seconds: float = MISTAKE_SECONDS,
                    stop: StopSignal | None = None,
                    progress: Callable[[int, int], None] | None = None) -> list[EndgamePuzzle]:
    """For each ply (an index into record.moves whose move was a mistake or blunder), the position
    before that move becomes a puzzle when the exact search proves it within ``seconds`` and exactly
    one decision wins there; in ply order, with themes and difficulty. ``progress(done, total)`` after
    each position; ``stop`` ends the work between positions (``PatchworkError``)."""
    wanted = check_plies(record, plies)
    out: list[EndgamePuzzle] = []
    for done, ply in enumerate(wanted):
        if stop is not None and stop.is_set():
            raise PatchworkError("making puzzles of the mistakes was stopped")
        puzzle = _puzzle_at(record, ply, seconds, stop)
        if puzzle is not None:
            out.append(puzzle)
        if progress is not None:
            progress(done + 1, len(wanted))
    return out


def _puzzle_at(record: Record, ply: int, seconds: float, stop: StopSignal | None) -> EndgamePuzzle | None:
    """The puzzle of the position before ``record.moves[ply]``, or None when it makes none in time."""
    head = Record(record.circle[:], record.moves[:ply], record.leather)
    state = head.replay()
    if min(state.pos) < FROM_SPACE:
        return None
    prover = Prover(seconds, stop=stop.attach if stop is not None else None)
    try:
        candidate = as_candidate(tuple(head.moves), state, prover.classify(state), prover)
    except UnprovenError:
        return None
    if candidate is None:
        return None
    seed = puzzle_seed(state)
    return puzzle_of(candidate, record, None, bot_rates(state, candidate.classified, seed))
