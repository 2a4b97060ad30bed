"""Patchwork for reinforcement learning and game-AI research (docs/rl.md; the ``rl`` extra).

- ``env()`` / ``raw_env``: the PettingZoo AEC environment (``aec.py``), as PettingZoo's own
  environments expose it: ``from patchwork_opt import rl; game = rl.env()``;
- ``PatchworkVsBot``: one seat against one of the project's bots, as a Gymnasium environment
  (``gym_env.py``), registered as ``patchwork_opt/PatchworkVsBot-v0`` when this package is imported;
- ``patchwork_opt.rl.openspiel``: importing it registers the OpenSpiel game ``python_patchwork``.

All three share one action encoding and observation tensor (``encoding.py``).
"""

from __future__ import annotations

from typing import Any

from patchwork_opt.rl.gym_env import ENV_ID, register_gymnasium

register_gymnasium()


def env(render_mode: str | None = None) -> Any:
    """The PettingZoo AEC environment, wrapped as PettingZoo's classic games are."""
    from patchwork_opt.rl.aec import env as make

    return make(render_mode=render_mode)


def __getattr__(name: str) -> Any:
    """``raw_env`` and ``PatchworkVsBot`` on first use (PettingZoo is imported only for the AEC one)."""
    if name == "raw_env":
        from patchwork_opt.rl.aec import raw_env

        return raw_env
    if name == "PatchworkVsBot":
        from patchwork_opt.rl.gym_env import PatchworkVsBot

        return PatchworkVsBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ENV_ID", "PatchworkVsBot", "env", "raw_env"]
