"""Two agents through the environments of ``patchwork_opt.rl`` (docs/rl.md); nothing is trained.

1. A random masked agent: each step it picks uniformly among the legal actions of the mask, in
   the PettingZoo AEC environment (both seats) and in the Gymnasium one against the greedy bot.
2. Our solver bot as an agent: it reads the environment's position, chooses its move, and steps
   the Gymnasium environment with that move's action number, against the same greedy bot.

Run: .venv/bin/python examples/rl_agents.py [--episodes N] (needs the 'rl' extra)
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import patchwork_opt.rl  # registers patchwork_opt/PatchworkVsBot-v0
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.apps.wiring import bot_advisor
from patchwork_opt.rl.encoding import move_to_action


def random_aec_game(seed: int) -> dict[str, float]:
    """One game of two random masked agents in the AEC environment: the final rewards."""
    env = patchwork_opt.rl.env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = float(reward)
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return rewards


def episode(env: gymnasium.Env, seed: int, choose: object) -> tuple[float, int, int]:
    """One episode against the environment's bot; ``choose(obs, info)`` gives the action."""
    obs, info = env.reset(seed=seed)
    done, reward = False, 0.0
    while not done:
        obs, step_reward, terminated, truncated, info = env.step(choose(obs, info))  # type: ignore[operator]
        reward, done = float(step_reward), terminated or truncated
    return reward, info["score"], info["opponent_score"]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4)
    args = parser.parse_args()

    print("random masked agents, PettingZoo AEC env:")
    for seed in range(args.episodes):
        print(f"  game {seed}: {random_aec_game(seed)}")

    env = gymnasium.make("patchwork_opt/PatchworkVsBot-v0", bot="greedy", level=1)
    rng = np.random.default_rng(0)

    def random_agent(obs: np.ndarray, info: dict[str, np.ndarray]) -> int:
        return int(rng.choice(np.flatnonzero(info["action_mask"])))

    solver = make_bot("solver", time_per_move=0.1, seed=0, advisor=bot_advisor("solver"))

    def solver_agent(obs: np.ndarray, info: dict[str, np.ndarray]) -> int:
        return move_to_action(solver.decide(env.unwrapped.state).move)  # type: ignore[attr-defined]

    for name, agent in (("random masked agent", random_agent), ("solver bot (0.1 s a move)", solver_agent)):
        results = [episode(env, seed, agent) for seed in range(args.episodes)]
        wins = sum(r > 0 for r, _, _ in results)
        scores = ", ".join(f"{mine}:{theirs}" for _, mine, theirs in results)
        print(f"{name} vs greedy, Gymnasium env: {wins}/{len(results)} won (scores {scores})")


if __name__ == "__main__":
    main()
