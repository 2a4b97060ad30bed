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

The choice goes into the environment as well as into ``numba.config``: Numba re-reads its
settings from the environment whenever a ``NUMBA_`` variable changes, and child processes (the
match runner's workers) find the same cache.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import numba

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


def prune(path: str, keep: int = KEEP_FINGERPRINTS) -> None:
    """Remove all but the ``keep`` most recently used fingerprint directories beside ``path`` (marking
    ``path`` used now); a directory another process is filling is recent, so it stays."""
    here = Path(path)
    try:
        here.mkdir(parents=True, exist_ok=True)
        os.utime(here)
        siblings = [p for p in here.parent.iterdir() if p.is_dir() and p.name.startswith("src-")]
        siblings.sort(key=lambda p: p.stat().st_mtime, reverse=True)
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
