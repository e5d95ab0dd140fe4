"""A masked DQN agent trained with Tianshou against the random bot, on the PettingZoo environment.

    pip install torch tianshou 'hatsuden-rules[pettingzoo]'
    python examples/frameworks/tianshou_dqn.py                 # 10,000 steps, then 400 games
    python examples/frameworks/tianshou_dqn.py --check-marl    # Tianshou's multi-agent route

Not run by `make examples` (which runs ``examples/*.py`` only): it needs PyTorch and Tianshou
(written for Tianshou 2.0's API: ``tianshou.algorithm.DQN``, ``OffPolicyTrainerParams``).

How the pieces fit:

- The game is ``hatsuden_rules.pettingzoo.env(rules=RULES, normalize=True)`` (float features in
  [0, 1]) wrapped in Tianshou's own ``PettingZooEnv``, which turns each AEC step into
  ``{"agent_id", "obs", "mask"}`` (``mask`` from the environment's ``action_mask``).
- The random bot is folded into the environment (``VersusRandom``): Tianshou trains a
  single-agent masked DQN (``DiscreteQLearningPolicy`` reads ``obs.mask`` and never picks an
  illegal action, exploring included), and each of its transitions runs from one of its own
  decisions to its next one, with the final result (+1 or -1) on the step that ends the game,
  whoever made the last move. The learner's seat is drawn at each game; the observation is
  always from the learner's view. Tianshou's multi-agent route (``MultiAgentOffPolicyAlgorithm``
  over ``PettingZooEnv``) stores the final reward only on the transition of the agent who made
  the last move, so a player whose opponent ends the game does not see that result on its own
  last transition (only through n-step returns that reach it); see docs/learning.md.
- Games the learner never acts in (possible in small configurations) are skipped by ``reset``
  during training and counted in the evaluation as the games they are.

The evaluation plays ``--games`` games (seats alternating, seeds apart from training) with the
greedy masked Q-values against the uniformly random bot and prints the win rate with a 95%
Wilson interval, before and after training. Everything is seeded (``--seed``): the
environments, the bot, torch, and numpy's global generator, which Tianshou's epsilon-greedy
exploration uses.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from typing import Any, Literal

import numpy as np

from hatsuden_rules import Rules, format_rules

INSTALL = "pip install torch tianshou 'hatsuden-rules[pettingzoo]'"
try:
    import gymnasium
except ImportError:  # the pettingzoo extra brings it
    sys.exit(f"error: gymnasium is not installed: {INSTALL}")

Array = np.ndarray[Any, Any]

#: The reduced configuration of examples/selfplay.py: two energies, values 1-3, two copies,
#: hands of 3, demand 4, no tech cards, stall limit 6.
RULES = Rules(
    energies=2, max_value=3, copies=2, hand_size=3, city_demand=4, techs=(), stall_limit=6
)
AGENTS = ("player_0", "player_1")
Kind = Literal["observation", "information_state"]


def tianshou_env() -> Any:
    """The library's PettingZoo environment in Tianshou's ``PettingZooEnv`` wrapper."""
    from tianshou.env.pettingzoo_env import PettingZooEnv

    from hatsuden_rules.pettingzoo import env

    return PettingZooEnv(env(rules=RULES, normalize=True))


def random_action(mask: Array, rng: np.random.Generator) -> int:
    """A uniformly random legal action: the random bot."""
    return int(rng.choice(np.flatnonzero(mask)))


class VersusRandom(gymnasium.Env[dict[str, Any], int]):
    """A single-agent Gymnasium environment: the learner against the random bot.

    ``reset`` draws the learner's seat and a game seed from its generator and plays the bot's
    moves until the learner is to act (starting a new game when one ends first); ``step`` plays
    the learner's action, then the bot's until the learner acts again or the game ends.
    Observations are ``{"obs": float32 features, "mask": bool mask}``, as Tianshou's masked
    policies expect.
    """

    def __init__(self, seed: int) -> None:
        self.game = tianshou_env()
        self.rng = np.random.default_rng(seed)
        features = self.game.observation_space["observation"]
        self.num_features: int = features.shape[0]
        self.num_actions = int(self.game.action_space.n)  # gymnasium's `n` is a numpy int
        self.observation_space = gymnasium.spaces.Dict(
            {"obs": features, "mask": gymnasium.spaces.MultiBinary(self.num_actions)}
        )
        self.action_space = self.game.action_space
        self.seat = 0
        self.skipped = 0  # games over before the learner acted

    def _bot_until_learner(self, obs: dict[str, Any]) -> tuple[dict[str, Any], float, bool]:
        while obs["agent_id"] != AGENTS[self.seat]:
            action = random_action(np.asarray(obs["mask"], dtype=bool), self.rng)
            obs, rewards, over, _, _ = self.game.step(action)
            if over:
                return obs, float(rewards[self.seat]), True
        return obs, 0.0, False

    @staticmethod
    def _features(obs: dict[str, Any]) -> dict[str, Array]:
        return {
            "obs": np.asarray(obs["obs"], dtype=np.float32),
            "mask": np.asarray(obs["mask"], dtype=bool),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Array], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        while True:
            self.seat = int(self.rng.integers(2))
            obs, _ = self.game.reset(seed=int(self.rng.integers(2**31)))
            obs, _, over = self._bot_until_learner(obs)
            if not over:
                return self._features(obs), {}
            self.skipped += 1

    def step(self, action: int) -> tuple[dict[str, Array], float, bool, bool, dict[str, Any]]:
        obs, rewards, over, _, _ = self.game.step(int(action))
        reward = float(rewards[self.seat]) if over else 0.0
        if not over:
            obs, reward, over = self._bot_until_learner(obs)
        return self._features(obs), reward, over, False, {}

    def close(self) -> None:
        self.game.close()


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def evaluate(choose: Callable[[Array, Array], int], games: int, seed: int) -> tuple[int, int]:
    """Wins of `choose` (features, mask -> action) in `games` games against the random bot.

    Game i: the learner sits in seat i % 2, the deal is ``new_game(seed=seed + i)``. Returns
    ``(wins, games the learner never acted in)``; those games count with their result.
    """
    game = tianshou_env()
    rng = np.random.default_rng(seed)
    wins = never_acted = 0
    for i in range(games):
        learner = AGENTS[i % 2]
        obs, _ = game.reset(seed=seed + i)
        acted = False
        while True:
            mask = np.asarray(obs["mask"], dtype=bool)
            if obs["agent_id"] == learner:
                acted = True
                action = choose(np.asarray(obs["obs"], dtype=np.float32), mask)
            else:
                action = random_action(mask, rng)
            obs, rewards, over, _, _ = game.step(action)
            if over:
                wins += rewards[i % 2] > 0
                never_acted += not acted
                break
    game.close()
    return wins, never_acted


def check_marl(games: int, seed: int) -> None:
    """Tianshou's multi-agent route on the environment: two masked random policies.

    For the smallest configuration and RULES, each observation kind: collect `games` games
    with ``MultiAgentOffPolicyAlgorithm`` over ``PettingZooEnv``, check every stored action
    against its mask, and count the games a player never acted in and those whose last move
    was the winner's (then the loser's own transitions never carry its -1).
    """
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv

    from hatsuden_rules.pettingzoo import env

    smallest = Rules(
        energies=1, max_value=3, copies=1, hand_size=1, city_demand=2, techs=(), stall_limit=1
    )
    kinds: tuple[Kind, ...] = ("observation", "information_state")
    for rules in (smallest, RULES):
        for kind in kinds:

            def make(rules: Rules = rules, kind: Kind = kind) -> Any:
                return PettingZooEnv(env(rules=rules, observation=kind, normalize=True))

            probe = make()
            random = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(probe.action_space)] * 2
            algorithm = MultiAgentOffPolicyAlgorithm(algorithms=random, env=probe)
            envs = DummyVectorEnv([make for _ in range(4)])
            envs.seed([seed + i for i in range(4)])
            buffer = VectorReplayBuffer(50_000, 4)
            Collector(algorithm, envs, buffer).collect(n_episode=games, reset_before_collect=True)
            never = winner_last = episodes = illegal = 0
            for part in buffer.buffers:
                acted: set[str] = set()
                for i in range(len(part)):
                    step = part[i]
                    acted.add(str(step.obs.agent_id))
                    illegal += not step.obs.mask[step.act]
                    if step.terminated:
                        episodes += 1
                        never += len(acted) < 2
                        winner_last += step.rew[AGENTS.index(str(step.obs.agent_id))] > 0
                        acted = set()
            print(
                f"multi-agent route, {format_rules(rules)}, {kind}: {episodes} games, "
                f"{buffer.__len__()} transitions, {illegal} illegal actions; a player never "
                f"acted in {never}; the last move was the winner's in {winner_last}",
                flush=True,
            )
            envs.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10_000, help="learner steps of training")
    parser.add_argument("--envs", type=int, default=8, help="training environments")
    parser.add_argument("--games", type=int, default=400, help="evaluation games")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--check-marl",
        action="store_true",
        help="run Tianshou's multi-agent route with random policies instead (see the docstring)",
    )
    args = parser.parse_args(argv)
    for name in ("steps", "envs", "games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    try:
        import torch
        from tianshou.algorithm import DQN
        from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
        from tianshou.algorithm.optim import AdamOptimizerFactory
        from tianshou.data import Collector, VectorReplayBuffer
        from tianshou.env import DummyVectorEnv
        from tianshou.trainer import OffPolicyTrainerParams
        from tianshou.utils.net.common import Net
    except ImportError as error:
        print(f"error: {error.name} is not installed: {INSTALL}", file=sys.stderr)
        return 2

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's epsilon-greedy draws from numpy's global generator
    if args.check_marl:
        check_marl(args.games, args.seed)
        return 0
    begin, cpu_begin = time.perf_counter(), time.process_time()
    envs = DummyVectorEnv(
        [lambda i=i: VersusRandom(args.seed + 1000 * (i + 1)) for i in range(args.envs)]
    )
    probe = VersusRandom(0)
    features, actions = probe.num_features, probe.num_actions
    print(
        f"rules: {format_rules(RULES)}; {features} features, {actions} actions; torch "
        f"{version('torch')}, tianshou {version('tianshou')}, pettingzoo {version('pettingzoo')}",
        flush=True,
    )
    net = Net(state_shape=features, action_shape=actions, hidden_sizes=(128, 128))
    policy = DiscreteQLearningPolicy(
        model=net,
        action_space=probe.action_space,
        observation_space=probe.observation_space,
        eps_training=1.0,
        eps_inference=0.0,
    )
    algorithm = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        n_step_return_horizon=3,
        target_update_freq=250,
    )

    def greedy(obs: Array, mask: Array) -> int:
        with torch.no_grad():
            q = net(torch.as_tensor(obs[None]))[0][0].numpy()
        return int(np.where(mask, q, -np.inf).argmax())

    eval_seed = args.seed + 10**6
    wins, never = evaluate(greedy, args.games, eval_seed)
    low, high = wilson(wins, args.games)
    print(
        f"untrained: won {wins} of {args.games} games against the random bot "
        f"({wins / args.games:.1%}, 95% CI {low:.1%}-{high:.1%}; the learner never acted in "
        f"{never})",
        flush=True,
    )

    start, cpu_start = time.perf_counter(), time.process_time()  # training from here
    buffer = VectorReplayBuffer(50_000, args.envs)
    collector = Collector(algorithm, envs, buffer, exploration_noise=True)
    collector.reset()
    # Warm-up: 1,000 steps of masked random play. Not `collect(random=True)`, which samples the
    # action space without the mask (illegal moves); outside the trainer the policy explores
    # with `eps_inference`.
    policy.set_eps_inference(1.0)
    collector.collect(n_step=1_000)
    policy.set_eps_inference(0.0)
    epochs = 10
    epoch_steps = max(args.steps // epochs, 1)
    # Gradient steps per collected step: 2 per update of 8 steps with 8 envs, at least 1.
    per_update = max(0.25, 1 / args.envs)

    def training_fn(epoch: int, env_step: int) -> None:
        # Epsilon from 1 to 0.05 over the first half of training, then 0.05.
        policy.set_eps_training(max(0.05, 1.0 - 0.95 * env_step / (args.steps / 2)))

    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=epochs,
            epoch_num_steps=epoch_steps,
            collection_step_num_env_steps=args.envs,
            update_step_num_gradient_steps_per_sample=per_update,
            batch_size=64,
            training_fn=training_fn,
            test_in_training=False,
            show_progress=False,
            verbose=False,
        )
    )
    train_wall = time.perf_counter() - start
    train_cpu = time.process_time() - cpu_start
    skipped = sum(envs.get_env_attr("skipped"))
    print(
        f"trained: {result.train_step} learner steps, {result.train_episode} games, "
        f"{result.update_step} updates ({result.update_step * round(per_update * args.envs)} "
        f"gradient steps of 64) in {train_wall:.0f} s ({train_cpu:.0f} s CPU); "
        f"{skipped} games skipped as over before the learner acted",
        flush=True,
    )
    start, cpu_start = time.perf_counter(), time.process_time()
    wins, never = evaluate(greedy, args.games, eval_seed + args.games)
    low, high = wilson(wins, args.games)
    print(
        f"trained: won {wins} of {args.games} new games against the random bot "
        f"({wins / args.games:.1%}, 95% CI {low:.1%}-{high:.1%}; the learner never acted in "
        f"{never}); evaluation {time.perf_counter() - start:.0f} s; "
        f"{time.perf_counter() - begin:.0f} s in all ({time.process_time() - cpu_begin:.0f} s CPU)",
        flush=True,
    )
    envs.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
