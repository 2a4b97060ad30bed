"""Compiled code ready before any clock starts: ``patchwork warmup``, and each command's own groups.

The searches are compiled by Numba on first use and cached (``jitcache``): every new install and
every upgrade pays it once. Here the compiled code is cut into groups a command can ask for alone
(``GROUPS``: the packing search of fills, the game search, its learned evaluation, the exact
endgame search, the reference bot's rollout; the game search takes its evaluator as a value, so it
and an evaluator compile apart). ``prepare`` makes the groups a command needs ready
before the command starts its clock, so no search time reported, and no time budget, includes
compiling: a group already compiled loads from the cache in milliseconds; groups still to compile
are announced on stderr at once ("compiling ... for first use (once, about N s)"), with a line
counting the seconds on a terminal, and compiled side by side in worker processes (one per core,
each writing Numba's cache) when there are several, then loaded. ``patchwork warmup`` prepares
every group; ``serve`` prepares them in the background as it starts.

Whether a group is compiled is kept as a mark in the cache directory of the compiled sources'
fingerprint, so an upgrade that changes them compiles again, once, and says so. Importing this
module loads no Numba (``jitcache`` is imported where it is used): a command that needs no compiled
code asks for no group and stays light (tests/test_cli_startup.py).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from patchwork_opt.i18n import N_, _, all_of, number

if TYPE_CHECKING:
    from patchwork_opt.core.state import State
    from patchwork_opt.core.stop import StopSignal


@dataclass(frozen=True, slots=True)
class Group:
    """Compiled code a command can ask for alone: ``warm`` loads it from the cache or compiles it;
    ``seconds``: about how long compiling it takes on one free core (``bench coldstart --kernels``)."""

    name: str
    words: str  # marked for the catalogue, said through ``_``
    warm: Callable[[], None]
    seconds: int


def _packing() -> None:
    from solvers.search import warm_up

    warm_up()


def _search() -> None:
    from patchwork_opt.ai.search import fastcore

    fastcore.compile_search()


def _learned() -> None:
    from patchwork_opt.ai.analysis.run import default_evaluator
    from patchwork_opt.ai.learned.value import win_chance
    from patchwork_opt.core.state import State

    default_evaluator().slot()  # compiled for the search's evaluator slot
    win_chance(State.new(seed=0))


def _exact() -> None:
    from patchwork_opt.ai.search import exactcore

    exactcore.warm_up()


def _rollout() -> None:
    from patchwork_opt.ai.search import fastcore

    fastcore.ROLLOUT.slot()


#: Every group a user can meet, by name.
GROUPS: dict[str, Group] = {g.name: g for g in (
    # Translators: parts of the compiled code, listed in "compiling {groups} for first use ..."
    # ("its": the game search's)
    Group("packing", N_("the packing search"), _packing, 6),
    Group("search", N_("the game search"), _search, 8),
    Group("learned", N_("its learned evaluation"), _learned, 6),
    Group("exact", N_("the exact endgame search"), _exact, 25),
    Group("rollout", N_("the reference bot's rollout"), _rollout, 4),
)}
#: Marks of groups compiled under the cache's fingerprint.
MARK = "ready-{}"


def is_ready(name: str) -> bool:
    """The group was compiled (and cached) under the compiled sources' current fingerprint."""
    from patchwork_opt import jitcache

    return os.path.exists(os.path.join(jitcache.CACHE_DIR, MARK.format(name)))


def _mark(name: str) -> None:
    from patchwork_opt import jitcache

    with contextlib.suppress(OSError):  # an unwritable cache: it compiles again next time, and says so
        Path(jitcache.CACHE_DIR, MARK.format(name)).touch()


def groups_for_bot(ai: str, level: int | None) -> list[str]:
    """The groups the bot ``ai`` at ``level`` (None: a time per move, every part on) plays with."""
    from patchwork_opt.ai.bots.registry import LEVEL_EXACT

    if ai == "solver":
        return ["search", "learned", *(["exact"] if level is None or LEVEL_EXACT.get(level, True) else [])]
    return ["search", "rollout"] if ai == "solver-rollout" else []


def groups_for_analysis(state: State) -> list[str]:
    """The groups an analysis of ``state`` (a hint, the board's lines) runs: the game search and its
    learned evaluation, and the exact search unless it is out of reach there
    (``exactcore.out_of_reach``): a hint on a new game compiles no exact search."""
    from patchwork_opt.ai.search.exactcore import out_of_reach

    return ["search", "learned", *([] if out_of_reach(state) else ["exact"])]


T = TypeVar("T")


def answer_while_compiling(name: str, *, without: Callable[[StopSignal], T], settled: Callable[[T], bool],
                           with_it: Callable[[], T], say: Callable[[str], None] | None = None) -> T:
    """An answer that need not wait for group ``name`` to compile: with it ready, ``with_it()``.
    Otherwise it compiles in the background, in a worker process of its own session that outlives
    this one and marks it ready (so the next command loads it), announced at once, while
    ``without(stop)`` answers without it: that answer stands when ``settled`` (or when it ran to
    its end while the compile went on); when the compile ends first, ``stop`` is set and
    ``with_it()`` answers, the group loaded from the cache. ``patchwork fill``'s first use: CP-SAT
    alone proves most fills in a fraction of the packing search's compile."""
    if is_ready(name):
        prepare([name], say=say)
        return with_it()
    from patchwork_opt.core.stop import StopSignal

    tell = _teller(say)
    worker = subprocess.Popen([sys.executable, "-m", "patchwork_opt.apps.warmup", name], env=_worker_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    # Translators: {groups} is a part of the compiled code ("the packing search"), {seconds} about how long it takes
    tell(_("compiling {groups} for first use in the background (once, about {seconds} s; later runs load it); "
           "answering without it meanwhile...", groups=_(GROUPS[name].words), seconds=GROUPS[name].seconds))
    stop = StopSignal()

    def compiled() -> None:
        worker.wait()
        stop.set()

    threading.Thread(target=compiled, name="compile-wait", daemon=True).start()
    first = without(stop)
    if settled(first) or worker.poll() is None:
        return first  # the worker goes on alone and marks the group ready
    prepare([name], say=say)  # loads what the worker compiled (or compiles here, said, if it failed)
    return with_it()


@dataclass(frozen=True, slots=True)
class Prepared:
    """What ``prepare`` did: the groups it compiled (not found in the cache), in how many processes,
    and the seconds it took."""

    groups: tuple[str, ...]
    compiled: tuple[str, ...]
    processes: int
    seconds: float

    def to_json(self) -> dict[str, object]:
        return {"groups": list(self.groups), "compiled": list(self.compiled), "processes": self.processes,
                "seconds": round(self.seconds, 2)}


def prepare(names: Sequence[str], *, parallel: bool = True, say: Callable[[str], None] | None = None) -> Prepared:
    """Load the groups ``names`` from the cache, or compile them first (announced through ``say``, by
    default on stderr unless ``jitcache.NOTICE_ENV`` is "0"; in worker processes side by side when
    several are missing and ``parallel``)."""
    from patchwork_opt import jitcache

    started = time.perf_counter()
    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        raise ValueError(f"unknown compiled groups {unknown}; known: {sorted(GROUPS)}")  # the program's own names
    missing = [n for n in dict.fromkeys(names) if not is_ready(n)]
    quiet = say is None and os.environ.get(jitcache.NOTICE_ENV) == "0"
    tell = _teller(say)
    processes = 0
    ticker = None
    if missing:
        words = all_of(_(GROUPS[n].words) for n in missing)
        bins = _bins(missing, _workers(missing) if parallel else 1)
        about = max(sum(GROUPS[n].seconds for n in b) for b in bins)
        # Translators: {groups} lists parts of the compiled code ("the game search and ..."), {seconds} the time
        tell(_("compiling {groups} again: the compiled code changed with this version (once, about {seconds} s; "
               "later runs load it)...", groups=words, seconds=about) if jitcache.upgraded()
             else _("compiling {groups} for first use (once, about {seconds} s; later runs load it)...", groups=words,
                    seconds=about))
        ticker = _Ticker(about) if say is None and not quiet and sys.stderr.isatty() else None
        if len(bins) > 1:
            processes = _compile_in_workers(bins, tell)
    try:
        for name in dict.fromkeys(names):
            _warm(name, quietly=name in missing)  # from the cache (the workers filled it), or compiled here
            _mark(name)
    finally:
        if ticker is not None:
            ticker.stop()
    seconds = time.perf_counter() - started
    if missing:
        tell(_("compiled in {seconds} s (not counted in the search times reported)", seconds=number(seconds, 1)))
    return Prepared(tuple(dict.fromkeys(names)), tuple(missing), processes, seconds)


def _warm(name: str, *, quietly: bool) -> None:
    """Load or compile group ``name`` here; ``quietly``: its compile was announced already, so
    ``jitcache``'s own notice keeps still (a group marked ready that compiles all the same, its
    cache gone, is still said)."""
    from patchwork_opt import jitcache

    notice = os.environ.pop(jitcache.NOTICE_ENV, None) if quietly else None
    try:
        GROUPS[name].warm()
    finally:
        if notice is not None:
            os.environ[jitcache.NOTICE_ENV] = notice


def _workers(missing: Sequence[str]) -> int:
    return max(1, min(len(missing), os.cpu_count() or 1))


def _bins(missing: Sequence[str], workers: int) -> list[list[str]]:
    """``missing`` split into ``workers`` lists of about equal compile time (longest first)."""
    bins: list[list[str]] = [[] for _ in range(workers)]
    for name in sorted(missing, key=lambda n: -GROUPS[n].seconds):
        min(bins, key=lambda b: sum(GROUPS[n].seconds for n in b)).append(name)
    return [b for b in bins if b]


def _compile_in_workers(bins: list[list[str]], tell: Callable[[str], None]) -> int:
    """Compile each of ``bins`` in a worker process (``python -m patchwork_opt.apps.warmup GROUP...``),
    all writing the shared cache; a worker that fails leaves its groups to compile here."""

    workers = [subprocess.Popen([sys.executable, "-m", "patchwork_opt.apps.warmup", *b], env=_worker_env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for b in bins]
    for worker in workers:
        _out, err = worker.communicate()
        if worker.returncode != 0 and err.strip():
            # Translators: {reason} is the failed worker's last line (Python's own words)
            tell(_("a compile worker failed ({reason}); compiling its part here", reason=err.strip().splitlines()[-1]))
    return len(workers)


class _Ticker:
    """A line on stderr counting the seconds against the expected, while the workers compile."""

    def __init__(self, about: int) -> None:
        self._about, self._began, self._done = max(about, 1), time.perf_counter(), threading.Event()
        threading.Thread(target=self._run, name="compile-ticker", daemon=True).start()

    def _run(self) -> None:
        while not self._done.wait(0.2):
            took = time.perf_counter() - self._began
            filled = min(20, int(20 * took / self._about))
            sys.stderr.write(f"\r  [{'#' * filled}{'.' * (20 - filled)}] {took:4.0f} s")
            sys.stderr.flush()

    def stop(self) -> None:
        self._done.set()
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


def _teller(say: Callable[[str], None] | None) -> Callable[[str], None]:
    """Where notices go: ``say`` when given, else stderr unless ``jitcache.NOTICE_ENV`` is "0"."""
    from patchwork_opt import jitcache

    if say is not None:
        return say
    return (lambda _: None) if os.environ.get(jitcache.NOTICE_ENV) == "0" else _stderr


def _worker_env() -> dict[str, str]:
    """A compile worker's environment: no notice of its own, the cache directory of this process."""
    from patchwork_opt import jitcache

    return {**os.environ, jitcache.NOTICE_ENV: "0", "NUMBA_CACHE_DIR": jitcache.CACHE_DIR}


def _stderr(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def main(argv: Sequence[str]) -> int:
    """A compile worker: load or compile the groups named, in this process (no notice of its own),
    each marked ready once done."""
    for name in argv:
        GROUPS[name].warm()
        _mark(name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
