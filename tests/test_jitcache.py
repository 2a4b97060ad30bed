"""The compiled code caches to a per-user directory (or ``$NUMBA_CACHE_DIR``), never beside the
installed source: a read-only install must not compile again at every start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from patchwork_opt import jitcache

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (ROOT / "patchwork_opt", ROOT / "solvers")


def _compiled_modules() -> list[str]:
    """Every module of the project with Numba-compiled functions."""
    out = []
    for package in PACKAGES:
        for path in sorted(package.rglob("*.py")):
            if "njit(" in path.read_text(encoding="utf-8") and path.name != "jitcache.py":
                out.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return out


def _beside_source() -> set[Path]:
    return {p for package in PACKAGES for p in package.rglob("*.nb[ic]")}


# Imports every compiled module, runs the compiled search and the packing search (so their code is
# compiled and saved), then reports where each cached function of each module keeps its cache.
_CHILD = """
import importlib, json, sys
from numba.core.dispatcher import Dispatcher
from numba.core.caching import NullCache
modules = [importlib.import_module(name) for name in sys.argv[1:]]
from patchwork_opt.ai.search.fastcore import warm_up
from patchwork_opt.core.bitboard import FULL
from solvers.search import PackingProblem, pack
warm_up()
pack(PackingProblem(FULL, (1, 2, 3, 9)))
paths = {}
for module in modules:
    for name, value in vars(module).items():
        cache = getattr(value, "_cache", None) if isinstance(value, Dispatcher) else None
        if cache is not None and not isinstance(cache, NullCache):
            paths[module.__name__ + "." + name] = cache.cache_path  # chosen when it was decorated
print(json.dumps(paths))
"""


@pytest.mark.slow
def test_compiled_code_caches_in_the_given_directory_and_not_beside_the_source(tmp_path: Path) -> None:
    modules = _compiled_modules()
    assert "patchwork_opt.ai.search.fastcore.rules" in modules and "solvers.search.fastpack.loop" in modules
    before = _beside_source()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _CHILD, *modules], capture_output=True, text=True, env=env,
                          cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    paths = json.loads(done.stdout)
    assert any(name.startswith("patchwork_opt.ai.search.fastcore.") for name in paths)
    assert any(name.startswith("solvers.search.fastpack.") for name in paths)
    outside = {name: path for name, path in paths.items() if not Path(path).is_relative_to(tmp_path)}
    assert outside == {}
    written = {p.name for p in tmp_path.rglob("*.nbi")}
    assert any(n.startswith("rules.") for n in written) and any(n.startswith("loop.run-") for n in written)
    assert _beside_source() - before == set()


def test_the_cache_directory_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fingerprint = jitcache.source_fingerprint()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "given"))
    assert jitcache.cache_dir() == str(tmp_path / "given" / fingerprint)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "given" / fingerprint))  # as a child process sees it
    assert jitcache.cache_dir() == str(tmp_path / "given" / fingerprint)
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert jitcache.cache_dir() == str(tmp_path / "xdg" / "patchwork-opt" / "numba" / fingerprint)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for unusable in ("", "relative/cache"):  # the XDG specification says to ignore a relative path
        monkeypatch.setenv("XDG_CACHE_HOME", unusable)
        assert jitcache.cache_dir() == str(tmp_path / "home" / ".cache" / "patchwork-opt" / "numba" / fingerprint)


def test_a_change_compiled_code_depends_on_moves_the_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Numba checks only a function's own file: a kernel inlining another module's function, or reading
    the engine's tables or another module's constants, would load stale code after that file changed.
    The fingerprint catches it: the modules with compiled code and every project module they import."""
    package = tmp_path / "patchwork_opt"
    kernel = ("from patchwork_opt.ai import weights\nfrom patchwork_opt.ai.tables import (\n    T,  # a table\n)\n"
              "@njit()\ndef f(): ...\n")
    files = {"core/catalogue.py": "TABLE = 1\n", "data/patches.json": "[]\n", "ai/kernel.py": kernel,
             "ai/weights.py": "W = 1.5\n", "ai/tables.py": "T = 3\n", "ai/plain.py": "x = 1\n",
             "web/page.py": "from patchwork_opt.ai import plain\n"}
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    monkeypatch.setattr(jitcache, "_PACKAGE", package)
    first = jitcache.source_fingerprint()
    for name in ("ai/plain.py", "web/page.py"):  # no compiled code reads these
        (package / name).write_text("changed = True\n")
        assert jitcache.source_fingerprint() == first
    seen = {first}
    for name in ("ai/kernel.py", "ai/weights.py", "ai/tables.py", "core/catalogue.py", "data/patches.json"):
        (package / name).write_text((package / name).read_text() + "# changed\n")
        now = jitcache.source_fingerprint()
        assert now not in seen
        seen.add(now)


def test_old_fingerprints_are_pruned_and_the_recent_kept(tmp_path: Path) -> None:
    for age, name in enumerate(["src-a", "src-b", "src-c", "src-d", "src-e"]):
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (1_000_000 - age * 1000, 1_000_000 - age * 1000))
    (tmp_path / "other").mkdir()  # not ours: never touched
    jitcache.prune(str(tmp_path / "src-new"), keep=3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other", "src-a", "src-b", "src-new"]


def test_the_fingerprint_covers_every_compiled_module_and_what_it_imports() -> None:
    """The exact search's rooms with kernels, the compiled UCT and what it bakes in (the heuristic's
    weights, the compiled ``policy.outcome_value``, its tables), the two-word layout, the packing search."""
    covered = {p.relative_to(ROOT).as_posix() for p in jitcache._compiled_sources()}
    for module in _compiled_modules():
        assert module.replace(".", "/") + ".py" in covered
    exact = ROOT / "patchwork_opt" / "ai" / "search" / "exactcore"
    rooms = {p.relative_to(ROOT).as_posix() for p in exact.glob("*.py") if "njit(" in p.read_text(encoding="utf-8")}
    assert len(rooms) >= 5 and rooms <= covered
    assert {"patchwork_opt/ai/heuristic.py", "patchwork_opt/ai/search/policy.py",
            "patchwork_opt/ai/search/fastcore/rules.py", "patchwork_opt/ai/search/fastcore/tables.py",
            "patchwork_opt/core/bitwords.py",
            "solvers/search/fastpack/loop.py", "solvers/search/fastpack/node.py",
            "patchwork_opt/data/patches.json"} <= covered
    assert "patchwork_opt/apps/web/app.py" not in covered and "patchwork_opt/jitcache.py" not in covered
