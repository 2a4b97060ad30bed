"""Where the compiled code keeps its cache: a per-user directory, never beside the installed source.

Numba's ``cache=True`` writes its index and object files next to the module by default, which an
install in a read-only place (a system or container install used by another user) cannot do:
every start would compile again, for seconds. Every compiled module imports this one before its
first ``@njit``: it points Numba's cache at ``$NUMBA_CACHE_DIR`` when that is set, else at
``$XDG_CACHE_HOME/patchwork-opt/numba`` or ``~/.cache/patchwork-opt/numba``. Numba keeps each
source file's entries in a subdirectory named after the file's full path, so two installs (or
versions) never read each other's code.

The choice goes into the environment as well as into ``numba.config``: Numba re-reads its
settings from the environment whenever a ``NUMBA_`` variable changes, and child processes (the
match runner's workers) find the same cache.
"""

from __future__ import annotations

import os

import numba

APP = "patchwork-opt"


def cache_dir() -> str:
    """``$NUMBA_CACHE_DIR``, else the per-user cache directory (XDG base directories)."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return given
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative (which the XDG specification says to ignore)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, APP, "numba")


def use_user_cache() -> str:
    """Point Numba's cache at ``cache_dir()`` (for every ``cache=True`` function decorated after)."""
    path = cache_dir()
    os.environ["NUMBA_CACHE_DIR"] = path
    numba.config.CACHE_DIR = path  # type: ignore[attr-defined]  # set from the environment at import
    return path


#: The directory the compiled code caches to in this process.
CACHE_DIR = use_user_cache()
