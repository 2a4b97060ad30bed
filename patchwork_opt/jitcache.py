"""Where the compiled code keeps its cache: a per-user directory, never beside the installed source.

Numba's ``cache=True`` writes its index and object files next to the module by default, which an
install in a read-only place (a system or container install used by another user) cannot do:
every start would compile again, for seconds. Every compiled module imports this one before its
first ``@njit``: it points Numba's cache at ``$NUMBA_CACHE_DIR`` when that is set, else at
``$XDG_CACHE_HOME/patchwork-opt/numba`` or ``~/.cache/patchwork-opt/numba``. Numba keeps each
source file's entries in a subdirectory named after the file's full path, so two installs (or
versions) never read each other's code.

Inside it the cache sits in a subdirectory named after ``source_fingerprint()``, a digest of the
compiled sources and of what they bake in: every module with compiled functions, every project
module those import (whose functions they compile or inline and whose tables and constants they
read: the exact search's rooms call and inline ``fastcore``'s transitions, ``fastcore`` compiles
``policy.outcome_value`` and reads ``heuristic``'s weights) and the patch catalogue. Numba checks
only a cached function's own file, so without it a kernel would load stale machine code after
such a file changed (an upgrade in place, or an edit). The most recent ``KEEP_FINGERPRINTS``
subdirectories are kept, older ones removed.

Compiling is watched (``WATCH``, on Numba's compile events): Numba compiles only what the cache does
not hold, so each compile is a wait this process pays once. ``WATCH.seconds()`` says how long this
process has spent compiling (what reported search times leave out) and, when the command line asks
(``NOTICE_ENV``), a compile is said on stderr as it starts, with the seconds it took when it ends.
``apps/warmup.py`` compiles ahead of the clocks; this catches whatever still compiles.

The choice goes into the environment as well as into ``numba.config``: Numba re-reads its
settings from the environment whenever a ``NUMBA_`` variable changes, and child processes (the
match runner's workers) find the same cache.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import re
import shutil
import sys
import threading
import time
from pathlib import Path

import numba
import numba.core.event

from patchwork_opt.i18n import N_, _, all_of, current, number, using

APP = "patchwork-opt"
KEEP_FINGERPRINTS = 3
_PACKAGE = Path(__file__).resolve().parent
#: What the compiled code depends on beside the modules with compiled functions and what they import:
#: the engine's tables (read as constants) and the patch catalogue they are built from.
_BAKED_IN = ("core/*.py", "data/patches.json")
#: The top-level packages of the project (beside ``_PACKAGE``) whose modules can hold compiled code.
_PACKAGES = ("patchwork_opt", "solvers")


def _module_file(name: str) -> Path | None:
    """The project's file of module ``name`` (a package's ``__init__.py``), None outside the project."""
    if name.split(".")[0] not in _PACKAGES:
        return None
    base = _PACKAGE.parent.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


#: ``from X import a, b`` (parenthesised over lines or not) and ``import X`` of the project's modules.
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+((?:patchwork_opt|solvers)[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
                     r"|import[ \t]+((?:patchwork_opt|solvers)[\w.]*))", re.MULTILINE)


def _imported_files(path: Path, text: str) -> set[Path]:
    """The project's files that module ``path`` imports (``from X import y``: y's module when it is
    one, else X's). A regular expression rather than a parse: this runs at every start, and reading
    a docstring's example as an import only widens the fingerprint."""
    names = []
    for package, imported, plain in _IMPORT.findall(text):
        if plain:
            names.append(plain)
            continue
        names.append(package)
        for item in re.sub(r"#[^\n]*", "", imported).strip("()").split(","):
            if item.strip():
                names.append(f"{package}.{item.split()[0]}")
    return {f for f in map(_module_file, names) if f is not None and f != path}


def _compiled_sources() -> list[Path]:
    """The files whose contents the compiled code depends on, in a fixed order: the modules with
    compiled functions, the project modules they import, and ``_BAKED_IN``."""
    files = {p for pattern in _BAKED_IN for p in _PACKAGE.glob(pattern)}
    for root in (_PACKAGE.parent / name for name in _PACKAGES):
        for path in root.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if path.name != "jitcache.py" and "njit(" in text:
                files |= {path, *_imported_files(path, text)}
    files.discard(Path(__file__).resolve())
    return sorted(files)


def source_fingerprint() -> str:
    """A digest of every file ``_compiled_sources`` names (paths and contents): it changes whenever
    compiled code could."""
    digest = hashlib.sha256()
    for path in _compiled_sources():
        digest.update(path.relative_to(_PACKAGE.parent).as_posix().encode())
        digest.update(path.read_bytes())
    return "src-" + digest.hexdigest()[:16]


def cache_dir() -> str:
    """``$NUMBA_CACHE_DIR``, else the per-user cache directory (XDG base directories), with the
    sources' fingerprint below it (a child process inherits the full path: it is taken as it is)."""
    fingerprint = source_fingerprint()
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return given if os.path.basename(os.path.normpath(given)) == fingerprint else os.path.join(given, fingerprint)
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative (which the XDG specification says to ignore)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, APP, "numba", fingerprint)


#: Written into a fingerprint directory made while older ones were there: the compiled sources changed
#: (an upgrade, or an edit), so what compiles there compiles again, which the notice says.
UPGRADED = "upgraded"


def prune(path: str, keep: int = KEEP_FINGERPRINTS) -> None:
    """Remove all but the ``keep`` most recently used fingerprint directories beside ``path`` (marking
    ``path`` used now); a directory another process is filling is recent, so it stays. A new ``path``
    beside older ones is marked ``UPGRADED``."""
    here = Path(path)
    try:
        fresh = not here.is_dir()
        here.mkdir(parents=True, exist_ok=True)
        os.utime(here)
        siblings = [p for p in here.parent.iterdir() if p.is_dir() and p.name.startswith("src-")]
        siblings.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        if fresh and len(siblings) > 1:
            (here / UPGRADED).touch()
    except OSError:  # an unwritable cache: Numba then compiles without caching, as before
        return
    for old in siblings[keep:]:
        shutil.rmtree(old, ignore_errors=True)


def use_user_cache() -> str:
    """Point Numba's cache at ``cache_dir()`` (for every ``cache=True`` function decorated after)."""
    path = cache_dir()
    prune(path)
    os.environ["NUMBA_CACHE_DIR"] = path
    numba.config.CACHE_DIR = path  # type: ignore[attr-defined]  # set from the environment at import
    return path


#: The directory the compiled code caches to in this process.
CACHE_DIR = use_user_cache()


def upgraded() -> bool:
    """The cache in use replaced an older one: the compiled sources changed since the last run."""
    return os.path.exists(os.path.join(CACHE_DIR, UPGRADED))


# --- compiling: when it happens, for how long, said on stderr ------------------------------------------
#: Set (to anything but "0") by the command line: every compile is announced on stderr (``_Notice``).
NOTICE_ENV = "PATCHWORK_COMPILE_NOTICE"
#: What a compiled module's code is called in a notice, and about how many seconds compiling all of it
#: takes on one free core (``patchwork bench coldstart --kernels`` measures it), by module prefix;
#: 0 s: too short to announce.
KERNEL_GROUPS: tuple[tuple[str, str, int], ...] = (
    # Translators: parts of the compiled code, listed in "compiling {groups} for first use ..."
    ("solvers.search", N_("the packing search"), 6),
    ("patchwork_opt.ai.search.exactcore", N_("the exact endgame search"), 15),
    # the prefetch's probe (a one-line function compiled as the exact search is imported, in 0.1 s):
    # no wait to announce (0 s: not said, still counted in ``CompileWatch.seconds``)
    ("patchwork_opt.ai.search.numba_prefetch", N_("the exact search's table prefetch"), 0),
    ("patchwork_opt.ai", N_("the game search and its evaluation"), 12),
)
_IDLE = 1.0  # seconds without a compile after which a notice says it is done


def kernel_words(module: str) -> tuple[str, int]:
    """What the code of ``module`` is called in a notice, and about how long compiling it takes."""
    for prefix, words, seconds in KERNEL_GROUPS:
        if module == prefix or module.startswith(prefix + "."):
            return words, seconds
    return N_("compiled code"), 5


class CompileWatch(numba.core.event.Listener):
    """Numba's compile events: code is compiled only when it is not in the cache, so each top-level
    compile (one called from Python; what it compiles inside counts with it) is a wait this process
    pays once. ``seconds`` is the time some thread spent compiling (overlaps counted once): what a
    command's reported search time leaves out. With ``NOTICE_ENV`` set a compile is said on stderr
    as it starts (``_Notice``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth: dict[int, int] = {}
        self._active = 0  # threads compiling at the top level now
        self._since = 0.0  # when compiling began (while active)
        self._done = 0.0  # seconds of compiling that ended
        #: the top-level functions compiled, each with its wall seconds and its thread's CPU seconds
        self.compiled: list[tuple[str, float, float]] = []
        self._started: dict[int, tuple[str, float, float]] = {}
        self._notice: _Notice | None = None

    def on_start(self, event: numba.core.event.Event) -> None:
        thread = threading.get_ident()
        name = _function_name(event)
        with self._lock:
            depth = self._depth.get(thread, 0)
            self._depth[thread] = depth + 1
            if depth:
                return
            if self._active == 0:
                self._since = time.perf_counter()
            self._active += 1
            self._started[thread] = (name, time.perf_counter(), time.thread_time())
            if self._notice is None and os.environ.get(NOTICE_ENV, "0") != "0":
                self._notice = _Notice(self)
            notice = self._notice
        if notice is not None:
            notice.started(name)

    def on_end(self, event: numba.core.event.Event) -> None:
        thread = threading.get_ident()
        with self._lock:
            depth = self._depth.get(thread, 1) - 1
            self._depth[thread] = depth
            if depth == 0:
                name, began, cpu = self._started.pop(thread, ("?", time.perf_counter(), time.thread_time()))
                self.compiled.append((name, time.perf_counter() - began, time.thread_time() - cpu))
                self._active -= 1
                if self._active == 0:
                    self._done += time.perf_counter() - self._since

    @property
    def active(self) -> bool:
        return self._active > 0

    def seconds(self) -> float:
        """Seconds this process has spent compiling so far (a compile under way counts up to now)."""
        with self._lock:
            return self._done + (time.perf_counter() - self._since if self._active else 0.0)


def _function_name(event: numba.core.event.Event) -> str:
    dispatcher = event.data.get("dispatcher") if isinstance(event.data, dict) else None
    function = getattr(dispatcher, "py_func", None)
    return f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', '?')}"


class _Notice:
    """Says on stderr, as soon as a compile starts, what is compiled and about how long it takes, with a
    line counting the seconds on a terminal; once nothing has compiled for ``_IDLE`` seconds (or the
    process exits) it says how long it took. stdout is never written, so ``--json`` stays clean."""

    def __init__(self, watch: CompileWatch) -> None:
        self._watch = watch
        self._lock = threading.Lock()
        self._open = False
        self._began = 0.0
        self._words: list[str] = []
        self._about = 0
        self._language = current()  # the notices' threads start without the command's context
        atexit.register(self.close)

    def started(self, function: str) -> None:
        words, about = kernel_words(function.rsplit(".", 1)[0])
        with self._lock:
            if not about and not self._open:
                return  # a compile too short to be a wait
            if self._open:
                if words not in self._words:
                    self._words.append(words)
                return
            self._open, self._began, self._words, self._about = True, self._watch.seconds(), [words], about
            self._language = current()
        with using(self._language):
            said = _(words)
            _say(_("compiling {groups} again: the compiled code changed with this version (once, about {seconds} s; "
                   "later runs load it)...", groups=said, seconds=about) if upgraded()
                 else _("compiling {groups} for first use (once, about {seconds} s; later runs load it)...",
                        groups=said, seconds=about))
        threading.Thread(target=self._follow, name="compile-notice", daemon=True).start()

    def _follow(self) -> None:
        tty = sys.stderr.isatty()
        idle_since = time.perf_counter()
        while True:
            time.sleep(0.2)
            if self._watch.active:
                idle_since = time.perf_counter()
            elif time.perf_counter() - idle_since >= _IDLE:
                self.close()
                return
            if tty:
                took = self._watch.seconds() - self._began
                filled = min(20, int(20 * took / max(self._about, 1)))
                _say(f"\r  [{'#' * filled}{'.' * (20 - filled)}] {took:4.0f} s", end="")

    def close(self) -> None:
        """Say how long the compiling took (once per burst of compiles)."""
        with self._lock:
            if not self._open:
                return
            self._open = False
            took = self._watch.seconds() - self._began
            named = list(self._words)
        clear = "\r\x1b[K" if sys.stderr.isatty() else ""
        with using(self._language):
            # Translators: {groups} lists parts of the compiled code ("the packing search and ...")
            _say(clear + _("compiled {groups} in {seconds} s (not counted in the search times reported)",
                           groups=all_of(_(w) for w in named), seconds=number(took, 1)))


def _say(text: str, end: str = "\n") -> None:
    try:
        sys.stderr.write(text + end)
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed: nothing to tell
        pass


#: The process's one compile watch.
WATCH = CompileWatch()
numba.core.event.register("numba:compile", WATCH)
