"""First use without a silent wait (issue 44): a command whose compiled code is not in the cache says
so on stderr at once and leaves the compile out of the times it reports; ``patchwork warmup`` and
``prepare`` compile each group once (in worker processes, falling back to this one) and say when an
upgrade makes them compile again; ``bench coldstart`` runs. Figures are benchmarks, not tests: the
checks here compare a run's own compile with its own search time, never a wall time with a target."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import late_positions
from typer.testing import CliRunner

from cli import COMPILE_NOTICE_ENV, app
from patchwork_opt import jitcache
from patchwork_opt.apps import warmup
from patchwork_opt.bench.coldstart import COMMANDS, NEW_GAME, run_coldstart
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal

ROOT = Path(__file__).resolve().parents[1]
FILL = ["fill", "--quilt", str(ROOT / "examples" / "quilts" / "late.json"),
        "--patches", "5,8,9,12,14,16,22,23,24,30,31"]
runner = CliRunner()


def _patchwork(args: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    env.pop(COMPILE_NOTICE_ENV, None)  # as a user runs it: the command line turns the notice on
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False, timeout=900)


def test_the_command_line_names_the_notice_as_jitcache_reads_it() -> None:
    assert COMPILE_NOTICE_ENV == jitcache.NOTICE_ENV


def _await_mark(cache: Path, group: str, timeout: float = 600.0) -> None:
    began = time.monotonic()
    while not any(cache.rglob(warmup.MARK.format(group))):
        assert time.monotonic() - began < timeout, f"the background compile of {group} never finished"
        time.sleep(0.2)


@pytest.mark.slow
def test_a_cold_fill_answers_by_cp_sat_while_the_packing_search_compiles_in_the_background(tmp_path: Path) -> None:
    cold = _patchwork([*FILL, "--json"], tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.splitlines() == [
        "compiling the packing search for first use in the background (once, about 6 s; later runs load it); "
        "answering without it meanwhile..."]
    data = json.loads(cold.stdout)  # stdout is the one JSON object: the notice went to stderr
    assert data["optimal"] and data["objective"] == 25 and data["method"] == "cp-sat"
    _await_mark(tmp_path, "packing")  # the worker outlived the command and left the cache warm
    warm = _patchwork(FILL, tmp_path)
    assert warm.returncode == 0 and warm.stderr == ""  # compiled once: nothing to announce
    assert re.fullmatch(r"settled by the packing search in \d+\.\d\d s", warm.stdout.splitlines()[-1])


class _Worker:
    """A compile worker that ends when the test says."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.done = threading.Event()

    def wait(self) -> int:
        self.done.wait(30)
        return 0

    def poll(self) -> int | None:
        return 0 if self.done.is_set() else None


def test_an_answer_without_the_compiled_code_stands_when_settled_else_it_waits_for_the_compile(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    warmed = _fake_groups(monkeypatch, tmp_path)
    workers: list[_Worker] = []

    def start(*args: object, **kwargs: object) -> _Worker:
        workers.append(_Worker())
        return workers[-1]

    monkeypatch.setattr(warmup.subprocess, "Popen", start)
    said: list[str] = []
    settled = warmup.answer_while_compiling("alpha", without=lambda stop: "settled", settled=lambda r: r == "settled",
                                            with_it=lambda: "with", say=said.append)
    assert settled == "settled" and warmed == [] and len(workers) == 1  # the worker is left to finish
    assert said == ["compiling the alpha search for first use in the background (once, about 3 s; later runs "
                    "load it); answering without it meanwhile..."]

    def unsettled(stop: StopSignal) -> str:  # runs until the compile ends
        workers[-1].done.set()
        began = time.monotonic()
        while not stop.is_set():
            assert time.monotonic() - began < 10, "the end of the compile never stopped the answer without it"
            time.sleep(0.01)
        return "open"

    answer = warmup.answer_while_compiling("beta", without=unsettled, settled=lambda r: r == "settled",
                                           with_it=lambda: "with", say=said.append)
    assert answer == "with" and warmed == ["beta"]  # loaded (here: compiled) once the worker was done
    warmup._mark("alpha")
    assert warmup.answer_while_compiling("alpha", without=lambda stop: "x", settled=bool, with_it=lambda: "with",
                                         say=said.append) == "with" and len(workers) == 2


def test_an_analysis_of_a_new_game_needs_no_exact_search_and_one_near_the_end_does() -> None:
    assert warmup.groups_for_analysis(State.new(seed=3)) == ["search", "learned"]
    assert warmup.groups_for_analysis(late_positions(3, 46)[0]) == ["search", "learned", "exact"]


@pytest.mark.slow
def test_a_cold_hint_on_a_new_game_compiles_the_game_search_and_its_evaluation_alone(tmp_path: Path) -> None:
    cold = _patchwork(["hint", NEW_GAME, "--json", "--time-limit", "0.3"], tmp_path)
    assert cold.returncode == 0, cold.stderr
    lines = cold.stderr.splitlines()
    assert lines[0].startswith("compiling the game search and its learned evaluation for first use (once, about ")
    assert "exact" not in cold.stderr
    compiled = float(re.fullmatch(r"compiled in ([0-9.]+) s \(not counted in the search times reported\)",
                                  lines[-1]).group(1))  # type: ignore[union-attr]
    data = json.loads(cold.stdout)  # stdout is the one JSON object
    assert data["hints"] and data["seconds"] < compiled  # the search's own time, not the compile before it
    assert not warmup_marked(tmp_path, "exact")


def warmup_marked(cache: Path, group: str) -> bool:
    return any(cache.rglob(warmup.MARK.format(group)))


def _fake_groups(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    warmed: list[str] = []

    def warm(name: str) -> Callable[[], None]:
        return lambda: warmed.append(name)

    groups = {name: warmup.Group(name, f"the {name} search", warm(name), 3) for name in ("alpha", "beta")}
    monkeypatch.setattr(warmup, "GROUPS", groups)
    monkeypatch.setattr(jitcache, "CACHE_DIR", str(tmp_path))
    return warmed


def test_prepare_compiles_each_group_once_and_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    warmed = _fake_groups(monkeypatch, tmp_path)
    said: list[str] = []
    first = warmup.prepare(["alpha"], say=said.append)
    assert said[0] == "compiling the alpha search for first use (once, about 3 s; later runs load it)..."
    assert said[-1].startswith("compiled in ") and first.compiled == ("alpha",) and warmed == ["alpha"]
    said.clear()
    again = warmup.prepare(["alpha"], say=said.append)  # loaded from the cache: nothing to say
    assert said == [] and again.compiled == () and warmed == ["alpha", "alpha"]
    (tmp_path / jitcache.UPGRADED).touch()  # the cache replaced an older one: an upgrade
    warmup.prepare(["beta"], say=said.append)
    assert said[0] == ("compiling the beta search again: the compiled code changed with this version "
                       "(once, about 3 s; later runs load it)...")
    with pytest.raises(ValueError, match="unknown compiled groups"):
        warmup.prepare(["gamma"])


def test_warmup_compiles_in_workers_and_falls_back_to_this_process(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """Two groups missing on two cores: a worker process each. The fake groups exist only here, so
    the workers fail, and their groups are compiled in this process instead: the command still ends
    warm, and says what happened."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    warmed = _fake_groups(monkeypatch, tmp_path)
    out = runner.invoke(app, ["warmup", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["compiled"] == ["alpha", "beta"] and data["processes"] == 2 and sorted(warmed) == ["alpha", "beta"]
    assert out.stderr.count("a compile worker failed") == 2 and "compiling its part here" in out.stderr
    again = runner.invoke(app, ["warmup"])
    assert again.exit_code == 0 and again.stdout.startswith("already compiled: all 2 parts loaded from the cache")


def test_groups_are_split_evenly_over_the_workers() -> None:
    bins = warmup._bins(list(warmup.GROUPS), 2)
    loads = sorted(sum(warmup.GROUPS[n].seconds for n in b) for b in bins)
    assert len(bins) == 2 and sorted(n for b in bins for n in b) == sorted(warmup.GROUPS)
    assert loads[1] - loads[0] <= max(g.seconds for g in warmup.GROUPS.values())


def test_a_new_fingerprint_beside_an_old_one_is_an_upgrade(tmp_path: Path) -> None:
    (tmp_path / "src-old").mkdir()
    jitcache.prune(str(tmp_path / "src-new"))
    assert (tmp_path / "src-new" / jitcache.UPGRADED).exists()
    jitcache.prune(str(tmp_path / "src-first-alone" / "src-a"))  # a first install: nothing replaced
    assert not (tmp_path / "src-first-alone" / "src-a" / jitcache.UPGRADED).exists()


@pytest.mark.slow
def test_bench_coldstart_runs_each_command_cold_then_warm() -> None:
    result = run_coldstart(["fill"])
    (row,) = result["rows"]
    assert row["command"] == "fill" and row["args"] == list(COMMANDS["fill"]) and row["target"] == 4.0
    # answered by CP-SAT while the packing search compiled in the background, waited for before the warm run
    assert row["compile"] is None and row["background"] is not None and row["background"] > 0
    assert not row["compiled_again_when_warm"] and row["cold"] > 0 and row["warm"] > 0 and len(row["load"]) == 2
    with pytest.raises(ValueError, match="--commands takes some of"):
        run_coldstart(["serve"])
