"""A CLI that starts fast: a command imports what it needs and nothing heavier.

``show`` and ``move --ai random`` are a few milliseconds of work, and a bare quilt's ``hint`` (the
best fit of one patch, no lookahead) needs no compiled search: none of them may load Numba's
compiled searches, OR-Tools, scikit-learn or FastAPI, which take about a second to import together.
Each command runs in a fresh interpreter through the ``patchwork`` console script's entry point;
the modules it loaded are read from ``sys.modules`` when it is done. (The wall times are measured,
not tested: docs/benchmarks/startup.md, "Start-up time of the CLI".)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
POSITION = str(ROOT / "examples" / "positions" / "midgame.pos")
QUILT = str(ROOT / "examples" / "quilts" / "midgame.txt")

#: Runs the installed ``patchwork`` entry point with argv[2:], then writes the names of the loaded
#: modules to argv[1] (also when the command exits through SystemExit, as Typer's commands do).
RUN_AND_LIST_MODULES = """
import json, sys
from importlib.metadata import entry_points

out, sys.argv = sys.argv[1], ["patchwork", *sys.argv[2:]]
(main,) = [ep.load() for ep in entry_points(group="console_scripts", name="patchwork")]
try:
    main()
finally:
    with open(out, "w") as handle:
        json.dump(sorted(sys.modules), handle)
"""

#: Top-level packages a light command must not import, and the compiled searches of the project.
HEAVY = ("numpy", "numba", "llvmlite", "ortools", "pandas", "networkx", "sklearn", "fastapi", "uvicorn", "ray",
         "pettingzoo", "gymnasium", "pyspiel")
COMPILED_SEARCHES = ("patchwork_opt.ai.search.fastcore", "patchwork_opt.ai.search.exactcore",
                     "solvers.search.fastpack")


def loaded_modules(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    listing = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", RUN_AND_LIST_MODULES, str(listing), *args],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    return done, set(json.loads(listing.read_text()))


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m in COMPILED_SEARCHES)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["show", POSITION], "Player 1"),
        (["move", POSITION, "--ai", "random", "--seed", "3"], "at random"),
        (["move", POSITION, "--ai", "greedy", "--json"], '"move"'),
        (["hint", QUILT, "--patch", "5"], "#1 score"),
        (["new", "--seed", "1"], "record:"),
        (["--help"], "Usage: patchwork"),
        (["hint", "--help"], "--patch"),
        (["patches", "--cost", "3"], "#12 (3/6)"),
    ],
    ids=["show", "move-random", "move-greedy", "hint-quilt", "new", "help", "hint-help", "patches"],
)
def test_a_light_command_imports_no_heavy_library(tmp_path: Path, args: list[str], expected: str) -> None:
    done, modules = loaded_modules(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
    assert heavy_in(modules) == []


def test_the_solver_move_does_load_its_compiled_search(tmp_path: Path) -> None:
    """The check above can fail: the same listing shows the compiled search when a command uses it."""
    done, modules = loaded_modules(tmp_path, "move", POSITION, "--ai", "solver", "--time-per-move", "0.05")
    assert done.returncode == 0, done.stderr
    assert "patchwork_opt.ai.search.fastcore" in heavy_in(modules)
    assert "numba" in modules
