"""``patchwork bench env``: steps per second of random masked play through the PettingZoo AEC
environment (``patchwork_opt.rl``), beside PettingZoo's own ``connect_four_v3`` in the same run.

Both run the loop an agent runs: ``env.last()`` each step (the observation and the action mask
built afresh), a uniformly random legal action from the mask (the same agent code for both),
``env.step``; the game restarts when it ends. The baseline runs in the same process, in turns
with ours, so the ratio survives a noisy machine; the medians of the runs are quoted. Needs the
``rl`` extra (PettingZoo; connect four draws with pygame).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _connect_four() -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame greets on stdout otherwise
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def _patchwork() -> Any:
    from patchwork_opt.rl import env

    return env()


def steps_per_second(make: Callable[[], Any], seconds: float, seed: int) -> tuple[float, int]:
    """(steps per second, games finished) of random masked play for about ``seconds``."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=int(rng.integers(1 << 31)))
    steps = games = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            del agent
        games += 1
        if time.perf_counter() >= deadline:
            return steps / (time.perf_counter() - started), games
        env.reset(seed=int(rng.integers(1 << 31)))


def run_env_bench(seconds: float = 2.0, repeats: int = 3, seed: int = 0,
                  progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Medians over ``repeats`` turns of each environment, ``seconds`` each."""
    runs: dict[str, list[float]] = {"patchwork": [], "connect_four_v3": []}
    games: dict[str, int] = {"patchwork": 0, "connect_four_v3": 0}
    makers = {"patchwork": _patchwork, "connect_four_v3": _connect_four}
    for turn in range(repeats):
        for name, make in makers.items():
            if progress is not None:
                progress(f"bench env: {name}, run {turn + 1} of {repeats}")
            rate, finished = steps_per_second(make, seconds, seed + turn)
            runs[name].append(rate)
            games[name] += finished
    ours, theirs = statistics.median(runs["patchwork"]), statistics.median(runs["connect_four_v3"])
    return {
        "steps_per_s": ours,
        "connect_four_steps_per_s": theirs,
        "ratio": ours / theirs,
        "games": games,
        "seconds": seconds,
        "repeats": repeats,
        "runs": runs,
    }


def render_env_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench env``."""
    return "\n".join([
        f"patchwork AEC env      {result['steps_per_s']:>9.0f} steps/s   ({result['games']['patchwork']} games)",
        f"connect_four_v3        {result['connect_four_steps_per_s']:>9.0f} steps/s   "
        f"({result['games']['connect_four_v3']} games)",
        f"ratio                  {result['ratio']:>9.2f}x",
        f"(random masked play, observation and mask built every step; medians of {result['repeats']} runs of "
        f"{result['seconds']:g}s each, in turns, one core)",
    ])
