"""The core install plays: with the core dependencies alone every command runs except ``serve``,
``bench web``, ``train`` and ``--backend ray``, and those name the extra they need in one line.

Each command runs the ``patchwork`` console script's entry point in a fresh interpreter that sees
only what ``pip install -e .`` installs: every installed distribution outside the closure of the
core dependencies (the extras, the test tools and whatever they pulled in) is hidden by a finder
placed first on ``sys.meta_path``, which answers ``ModuleNotFoundError`` for its modules as Python
does when a package is not installed (checked before the command runs). Inputs are small: short
time limits, a game or two.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
POSITION = str(ROOT / "examples" / "positions" / "midgame.pos")
QUILT = str(ROOT / "examples" / "quilts" / "midgame.txt")
NEARLY_BONUS = str(ROOT / "examples" / "quilts" / "nearly-bonus.txt")  # 3 cells short of a 7x7 square
RECORD = str(ROOT / "examples" / "records" / "random-game.json")

#: Libraries of the extras (pyproject.toml) that the issue names: none of them is in a core install.
EXTRAS_LIBRARIES = ("fastapi", "uvicorn", "psycopg", "sklearn", "ray", "pettingzoo")


def core_distributions() -> set[str]:
    """The project and every distribution its core dependencies need, transitively (no extras)."""
    found: set[str] = set()
    todo = [canonicalize_name("patchwork-opt")]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        try:
            requirements = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for text in requirements:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(canonicalize_name(requirement.name))
    return found


def not_in_a_core_install() -> list[str]:
    """Top-level modules of the installed distributions a core install would not have (a backport
    that shadows a standard module's name is left alone: the standard one is there anyway)."""
    core = core_distributions()
    return sorted(module for module, dists in metadata.packages_distributions().items()
                  if not any(canonicalize_name(dist) in core for dist in dists)
                  and module not in sys.stdlib_module_names)


HIDDEN = not_in_a_core_install()

#: argv[1]: the packages to hide (comma-separated); argv[2:]: the command line of ``patchwork``.
CORE_ONLY_PATCHWORK = """
import importlib.abc, sys
from importlib.metadata import entry_points

# what the interpreter's start-up loaded (a .pth hook of setuptools) is part of any install
hidden = set(sys.argv[1].split(",")) - {name.partition(".")[0] for name in sys.modules}

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in hidden:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
for name in hidden:
    try:
        __import__(name)
    except ModuleNotFoundError:
        continue
    raise SystemExit(f"{name} is still importable")
sys.argv = ["patchwork", *sys.argv[2:]]
(main,) = [ep.load() for ep in entry_points(group="console_scripts", name="patchwork")]
main()
"""


def core_only(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``patchwork ARGS`` as a core install runs it."""
    return subprocess.run(
        [sys.executable, "-c", CORE_ONLY_PATCHWORK, ",".join(HIDDEN), *args],
        input=stdin, capture_output=True, text=True, timeout=300, cwd=cwd,
    )


def test_the_extras_are_really_hidden(tmp_path: Path) -> None:
    assert set(EXTRAS_LIBRARIES) <= set(HIDDEN)
    assert not {"ortools", "numba", "typer", "rich", "pydantic", "numpy"} & set(HIDDEN)
    for library in EXTRAS_LIBRARIES:
        done = subprocess.run(
            [sys.executable, "-c", CORE_ONLY_PATCHWORK.replace("main()\n", f"import {library}\n"), ",".join(HIDDEN)],
            capture_output=True, text=True, timeout=60, cwd=tmp_path,
        )
        assert done.returncode != 0
        assert f"No module named '{library}'" in done.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["show", POSITION], "Player 1"),
        (["move", POSITION, "--ai", "random", "--seed", "1"], "at random"),
        (["move", POSITION, "--level", "2", "--seed", "1"], "chance of winning"),
        (["hint", QUILT, "--patch", "5"], "#1 score"),
        (["hint", POSITION, "--time-limit", "0.3", "--top", "3"], "#1 "),
        (["fill", "--patches", "1,2,5", "--time-limit", "5", "--workers", "1"], "optimal (proven)"),
        (["bonus", NEARLY_BONUS, "--patches", "25,26", "--time-limit", "5", "--workers", "1"], "7x7 square: feasible"),
        (["analyze", RECORD, "--time-per-move", "0.02"], "accuracy"),
        (["match", "--p1", "random", "--p2", "greedy", "--games", "2"], "Elo diff"),
    ],
    ids=["show", "move-random", "move-level-2", "hint-quilt", "hint-position", "fill", "bonus", "analyze", "match"],
)
def test_a_core_install_runs_the_command(tmp_path: Path, args: list[str], expected: str) -> None:
    done = core_only(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
    assert "Traceback" not in done.stderr


def test_a_core_install_plays_in_the_terminal(tmp_path: Path) -> None:
    done = core_only("play", "--ai", "solver", "--level", "1", "--seed", "1", "--save", "game.json",
                     cwd=tmp_path, stdin="advance\nhint\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "hints, best first" in done.stdout
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["moves"][0] == {"type": "advance"}  # the move typed, then the AI's reply
    assert len(saved["moves"]) == 2


def test_a_core_install_writes_self_play_data(tmp_path: Path) -> None:
    done = core_only("selfplay", "--out", "data", "--games", "1", "--iterations", "20", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 1 and report["positions"] > 0
    assert any(path.suffix == ".npz" for path in (tmp_path / "data").rglob("*"))


def test_a_core_install_makes_and_judges_a_puzzle(tmp_path: Path) -> None:
    made = core_only("puzzle", "new", "--kind", "fill", "--difficulty", "1", "--seed", "0", "--save", "fill.json",
                     "--json", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    checked = core_only("puzzle", "check", "fill.json", "--placements", "[]", "--json", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    verdict = json.loads(checked.stdout)
    assert verdict["correct"] is False and verdict["margin"] < 0  # nothing placed: short of the optimum
    proof = json.dumps(verdict["line"])  # the optimum's placements, given back as the answer
    solved = core_only("puzzle", "check", "fill.json", "--placements", proof, "--json", cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["correct"] is True


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["serve", "--port", "8765"], "web"),
        (["bench", "web", "--seconds", "1"], "web"),
        (["bench", "workshop", "--placements", "1"], "web"),
        (["train", "--data", "data", "--out", "weights.npz"], "train"),
        (["match", "--p1", "random", "--p2", "random", "--games", "2", "--backend", "ray"], "ray"),
        (["puzzle", "bank", "--out", "bank", "--endgames", "1", "--fills", "0", "--backend", "ray"], "ray"),
    ],
    ids=["serve", "bench-web", "bench-workshop", "train", "match-ray", "bank-ray"],
)
def test_a_command_that_needs_an_extra_names_it_in_one_line(tmp_path: Path, args: list[str], extra: str) -> None:
    done = core_only(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert f"'{extra}' extra: pip install -e '.[{extra}]'" in done.stderr


def test_every_library_of_an_extra_the_project_imports_is_named_by_its_extra() -> None:
    """A missing one would end a core install's command in a traceback, not the line above."""
    from patchwork_opt.apps.typer_app import EXTRAS

    sources = [*(ROOT / "patchwork_opt").rglob("*.py"), *(ROOT / "solvers").rglob("*.py"), ROOT / "cli.py"]
    imported = set()
    for source in sources:
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.partition(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.partition(".")[0])
    assert {"fastapi", "sklearn"} <= imported  # the scan sees the imports inside functions too
    assert sorted(imported & set(HIDDEN) - set(EXTRAS)) == []
