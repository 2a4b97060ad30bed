"""``patchwork bench coldstart``: each command as a new user meets it (an empty compile cache), then warm.

Every new install and every upgrade starts with an empty Numba cache (``jitcache``): the first
command compiles what it uses. This runs each command of ``COMMANDS`` in a fresh process with a cache
directory of its own, empty (cold), then again on the cache that run left (warm), and reports both
wall times and CPU seconds, the compile the cold run announced on stderr ("compiled in N s"), how
long a compile it left in the background ran on after it answered (waited for before the warm run:
``fill`` answers by CP-SAT alone while the packing search compiles) and the
machine's load before and after (compiling is CPU work: on a busy machine cold figures grow with the load, so quote
it). With ``kernels`` it also compiles every group of ``apps.warmup`` in one process, sequentially,
and reports each compiled function's seconds (what it compiled inside counts with it): where the
compile time goes. The figures of docs/benchmarks/startup.md ("First use: compiling") come from here.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from patchwork_opt.core.errors import PatchworkError

ROOT = Path(__file__).resolve().parents[2]
#: A new game's position (seed 1), as the issue's newcomer asked for a hint on it.
NEW_GAME = ("27,18,12,11,29,2,6,5,8,17,10,20,31,14,23,1,22,30,7,13,21,24,15,16,4,32,3,25,26,28,19,9,0 "
            "0/5/0/000000000000000000000 0/5/0/000000000000000000000 0 - - 26,32,38,44,50 - 26,32,38,44,50")
#: The commands timed, by name: the README's first command, the newcomer's hint and AI move, warmup.
COMMANDS: dict[str, tuple[str, ...]] = {
    "fill": ("fill", "--quilt", str(ROOT / "examples" / "quilts" / "late.json"), "--patches",
             "5,8,9,12,14,16,22,23,24,30,31"),
    "hint": ("hint", NEW_GAME),
    "move": ("move", NEW_GAME, "--level", "1"),
    "warmup": ("warmup",),
}
#: The targets of issue 44 for a cold run on the 2-core machine (seconds).
TARGETS = {"fill": 4.0, "hint": 20.0, "move": 10.0}
_COMPILED = re.compile(r"compiled .*?in ([0-9.]+) s")

#: Compiles every group of ``apps.warmup`` in this process and prints each compiled function's seconds.
_KERNELS = """
import json
from patchwork_opt import jitcache
from patchwork_opt.apps.warmup import GROUPS
out = []
for name, group in GROUPS.items():
    start = len(jitcache.WATCH.compiled)
    group.warm()
    out += [{"group": name, "function": f, "seconds": round(s, 2), "cpu": round(c, 2)}
            for f, s, c in jitcache.WATCH.compiled[start:]]
print(json.dumps(out))
"""


def load() -> float:
    """The 1-minute load average (0 where the system does not say)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return 0.0


def _background(stderr: str, cache: str, timeout: float = 900.0) -> float | None:
    """The seconds until a compile the run left in the background (``warmup.answer_while_compiling``:
    "compiling ... in the background") marked its group ready in ``cache``, waited for here so the
    warm run finds it done; None when the run left none."""
    from patchwork_opt.apps.warmup import GROUPS, MARK

    line = next((x for x in stderr.splitlines() if "in the background" in x), None)
    if line is None:
        return None
    names = [n for n, g in GROUPS.items() if f"compiling {g.words} " in line]
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if names and all(any(Path(cache).rglob(MARK.format(n))) for n in names):
            return time.perf_counter() - started
        time.sleep(0.1)
    raise PatchworkError(f"bench coldstart: the background compile of {', '.join(names) or '?'} did not finish")


def _run(args: Sequence[str], cache: str) -> tuple[float, float, float | None, str]:
    """Wall seconds of ``patchwork ARGS`` with the cache directory ``cache``, the CPU seconds it and its
    worker processes used (less sensitive to the load than the wall time), the compile seconds it
    announced (None: it compiled nothing) and its stderr."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PATCHWORK_COMPILE_NOTICE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode != 0:
        raise PatchworkError(f"bench coldstart: {' '.join(args[:1])} failed: "
                             f"{(done.stderr.strip().splitlines() or ['no message'])[-1]}")
    found = _COMPILED.findall(done.stderr)
    return wall, cpu, sum(float(x) for x in found) if found else None, done.stderr


def run_coldstart(commands: Sequence[str] = tuple(COMMANDS), *, kernels: bool = False,
                  progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Each command cold (an empty cache of its own) then warm; with ``kernels``, the compile of every
    function, group by group."""
    unknown = [c for c in commands if c not in COMMANDS]
    if unknown or not commands:
        raise PatchworkError(f"--commands takes some of {','.join(COMMANDS)}, got {','.join(commands) or 'none'}")
    rows = []
    for name in commands:
        with tempfile.TemporaryDirectory(prefix="patchwork-coldstart-") as cache:
            if progress is not None:
                progress(f"{name}: cold...")
            before = load()
            cold, cold_cpu, compiled, said = _run(COMMANDS[name], cache)
            behind = _background(said, cache)
            warm, warm_cpu, again, _ = _run(COMMANDS[name], cache)
            rows.append({"command": name, "args": list(COMMANDS[name]), "cold": round(cold, 2), "warm": round(warm, 2),
                         "cold_cpu": round(cold_cpu, 2), "warm_cpu": round(warm_cpu, 2), "compile": compiled,
                         "background": round(behind, 2) if behind is not None else None,
                         "compiled_again_when_warm": again is not None, "target": TARGETS.get(name),
                         "load": [before, load()]})
    result: dict[str, Any] = {"rows": rows, "cpus": os.cpu_count()}
    if kernels:
        result["kernels"] = _kernels(progress)
    return result


def _kernels(progress: Callable[[str], None] | None) -> list[dict[str, Any]]:
    """Every compiled function's compile seconds, each group compiled alone in one cold process."""
    if progress is not None:
        progress("kernels: compiling every group in one process...")
    with tempfile.TemporaryDirectory(prefix="patchwork-kernels-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PATCHWORK_COMPILE_NOTICE": "0"}
        done = subprocess.run([sys.executable, "-c", _KERNELS], cwd=ROOT, env=env, capture_output=True, text=True,
                              check=False)
    if done.returncode != 0:
        raise PatchworkError(f"bench coldstart --kernels failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
    rows: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return rows


def render_coldstart(result: dict[str, Any]) -> str:
    """The table of cold and warm wall times (and the kernels' compile seconds, when measured)."""
    lines = [f"{'command':8} {'cold s':>7} {'warm s':>7} {'compile s':>9} {'after s':>7} {'target':>7}  "
             f"{'cpu cold/warm':>13}  load before/after",
             *(f"{r['command']:8} {r['cold']:7.1f} {r['warm']:7.1f} "
               f"{(r['compile'] if r['compile'] is not None else 0.0):9.1f} "
               f"{(r['background'] if r['background'] is not None else 0.0):7.1f} "
               f"{(str(r['target']) if r['target'] is not None else '-'):>7}  "
               f"{r['cold_cpu']:6.1f}/{r['warm_cpu']:<6.1f}  {r['load'][0]:.2f} / {r['load'][1]:.2f}"
               for r in result["rows"])]
    if "kernels" in result:
        lines += ["", "compile seconds by function, wall and CPU (each group alone, one process):"]
        lines += [f"  {k['seconds']:6.2f} {k['cpu']:6.2f}  {k['group']:8} {k['function']}"
                  for k in sorted(result["kernels"], key=lambda k: -k["seconds"])]
    return "\n".join(lines)
