"""Self-play on the vectorised environment: a numpy-only policy learns to beat the random bot.

python examples/selfplay.py            # a quick run: 4 updates (what `make examples` runs)
python examples/selfplay.py --full --svg docs/images/selfplay.svg   # to the target, with the curve

The agent is a linear softmax policy over the normalised observation (`VectorEnv(normalize=True)`)
with a learned baseline, trained by REINFORCE on self-play: both seats play the same policy, each
decision is credited with the final result (+1 or -1) of its player, the baseline is subtracted.
No deep-learning framework: numpy only. Every ``--eval-every`` updates it plays 200 games
against the uniformly random bot (seats alternating, greedy actions); the full run stops when it
wins at least ``--target`` of 400 evaluation games (and has made ``--min-updates`` updates,
for the curve), or at ``--time-limit`` seconds. ``--svg``
writes the learning curve as an SVG picture (no plotting library needed).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hatsuden_rules import Rules, format_rules
from hatsuden_rules.vector import VectorEnv

Array = np.ndarray[Any, Any]

#: The reduced configuration: two energies, values 1-3, two copies, hands of 3, demand 4, no tech.
RULES = Rules(
    energies=2, max_value=3, copies=2, hand_size=3, city_demand=4, techs=(), stall_limit=6
)


class LinearPolicy:
    """Masked softmax over ``obs @ w + b``, with a linear value baseline ``obs @ v``."""

    def __init__(self, features: int, actions: int, rng: np.random.Generator) -> None:
        self.w = rng.normal(0.0, 0.01, (features, actions)).astype(np.float32)
        self.b = np.zeros(actions, dtype=np.float32)
        self.v = np.zeros(features, dtype=np.float32)
        self._adam: dict[str, tuple[Array, Array]] = {}
        self._t = 0

    def probabilities(self, obs: Array, mask: Array) -> Array:
        logits = obs @ self.w + self.b
        logits = np.where(mask, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p: Array = np.exp(logits) * mask
        out: Array = p / p.sum(axis=1, keepdims=True)
        return out

    def sample(self, obs: Array, mask: Array, rng: np.random.Generator) -> Array:
        p = self.probabilities(obs, mask)
        u = rng.random((len(p), 1))
        out: Array = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)
        return out

    def greedy(self, obs: Array, mask: Array) -> Array:
        out: Array = np.where(mask, obs @ self.w + self.b, -np.inf).argmax(axis=1)
        return out

    def update(self, obs: Array, mask: Array, actions: Array, returns: Array, lr: float) -> None:
        p = self.probabilities(obs, mask)
        advantage = returns - obs @ self.v
        grad_logits = -p
        grad_logits[np.arange(len(actions)), actions] += 1.0
        grad_logits *= advantage[:, None] / len(actions)
        self._step("w", self.w, obs.T @ grad_logits, lr)
        self._step("b", self.b, grad_logits.sum(axis=0), lr)
        self._step("v", self.v, obs.T @ (advantage / len(actions)), lr)

    def _step(self, name: str, param: Array, grad: Array, lr: float) -> None:
        """Adam ascent on `param` in place."""
        m, s = self._adam.get(name, (np.zeros_like(param), np.zeros_like(param)))
        if name == "w":
            self._t += 1
        m = 0.9 * m + 0.1 * grad
        s = 0.999 * s + 0.001 * grad * grad
        m_hat = m / (1 - 0.9**self._t)
        s_hat = s / (1 - 0.999**self._t)
        param += (lr * m_hat / (np.sqrt(s_hat) + 1e-8)).astype(param.dtype)
        self._adam[name] = (m, s)


def collect(
    envs: VectorEnv,
    policy: LinearPolicy,
    state: dict[str, Any],
    rng: np.random.Generator,
    episodes: int,
) -> tuple[Array, Array, Array, Array, int]:
    """Self-play until `episodes` games have ended; every decision with its player's result."""
    obs, info = state["obs"], state["info"]
    n = envs.num_envs
    pending: list[list[tuple[Array, Array, int, int]]] = [[] for _ in range(n)]
    samples: list[tuple[Array, Array, int, float]] = []
    ended = steps = 0
    while ended < episodes:
        mask = info["action_mask"]
        players = info["current_player"]
        actions = policy.sample(obs, mask, rng)
        for i in range(n):
            pending[i].append((obs[i], mask[i], int(actions[i]), int(players[i])))
        obs, rewards, terminations, _, info = envs.step(actions)
        steps += n
        for done in np.flatnonzero(terminations):
            k = int(done)
            for seen, legal, action, player in pending[k]:
                samples.append((seen, legal, action, float(rewards[k, player])))
            pending[k] = []
            ended += 1
    state["obs"], state["info"] = obs, info
    observations = np.array([sample[0] for sample in samples])
    masks = np.array([sample[1] for sample in samples])
    actions_taken = np.array([sample[2] for sample in samples])
    returns = np.array([sample[3] for sample in samples], dtype=np.float32)
    return observations, masks, actions_taken, returns, steps


def win_rate(policy: LinearPolicy, games: int, seed: int) -> float:
    """The policy's share of wins in `games` games against the random bot, seats alternating."""
    envs = VectorEnv(RULES, num_envs=games, seed=seed, normalize=True)
    rng = np.random.default_rng(seed)
    obs, info = envs.reset()
    seat = np.arange(games) % 2  # the policy's seat in each game
    result = np.zeros(games)
    done = np.zeros(games, dtype=bool)
    while not done.all():
        mask = info["action_mask"]
        random_actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        ours = info["current_player"] == seat
        actions = np.where(ours, policy.greedy(obs, mask), random_actions)
        obs, rewards, terminations, _, info = envs.step(actions)
        first = terminations & ~done
        result[first] = rewards[first, seat[first]]
        done |= terminations
    return float((result > 0).mean())


def write_svg(path: Path, curve: list[tuple[float, int, float]], target: float, title: str) -> None:
    """The learning curve (win rate against games of self-play) as a small SVG picture."""
    width, height, left, bottom, top, right = 640, 360, 60, 50, 40, 20
    max_games = max(games for _, games, _ in curve) or 1
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(games: float) -> float:
        return left + plot_w * games / max_games

    def y(rate: float) -> float:
        return top + plot_h * (1 - rate)

    points = " ".join(f"{x(g):.1f},{y(r):.1f}" for _, g, r in curve)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" '
        'stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<text x="{left - 8}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.2f}</text>'
        )
        parts.append(
            f'<line x1="{left}" y1="{y(tick):.1f}" x2="{left + plot_w}" y2="{y(tick):.1f}" '
            'stroke="#ddd"/>'
        )
    parts.append(
        f'<line x1="{left}" y1="{y(target):.1f}" x2="{left + plot_w}" y2="{y(target):.1f}" '
        f'stroke="#c33" stroke-dasharray="6 4"/><text x="{left + plot_w - 4}" '
        f'y="{y(target) - 6:.1f}" text-anchor="end" fill="#c33">target {target:.0%}</text>'
    )
    for frac in (0.0, 0.5, 1.0):
        games = max_games * frac
        parts.append(
            f'<text x="{x(games):.1f}" y="{top + plot_h + 18}" text-anchor="middle">'
            f"{games:,.0f}</text>"
        )
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle">'
        "self-play games</text>"
    )
    parts.append(
        f'<text x="16" y="{top + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 16 {top + plot_h / 2})">win rate against random</text>'
    )
    parts.append(f'<polyline points="{points}" fill="none" stroke="#2a7" stroke-width="2"/>')
    parts += [f'<circle cx="{x(g):.1f}" cy="{y(r):.1f}" r="3" fill="#2a7"/>' for _, g, r in curve]
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="train to the target (default: quick)")
    parser.add_argument("--target", type=float, default=0.75)
    parser.add_argument("--time-limit", type=float, default=280.0, help="seconds (full run)")
    parser.add_argument(
        "--min-updates", type=int, default=40, help="full run: go on this long for the curve"
    )
    parser.add_argument("--updates", type=int, default=4, help="updates of the quick run")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--episodes", type=int, default=64, help="games per update")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--eval-every", type=int, default=1, help="updates between evaluations")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--svg", type=Path, help="write the learning curve here")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    envs = VectorEnv(RULES, num_envs=args.envs, seed=args.seed, normalize=True)
    policy = LinearPolicy(envs.observation_size, envs.num_actions, rng)
    obs, info = envs.reset()
    state: dict[str, Any] = {"obs": obs, "info": info}
    print(
        f"rules: {format_rules(RULES)}; {envs.observation_size} features, "
        f"{envs.num_actions} actions"
    )
    games = 0
    steps = 0
    curve = [(0.0, 0, win_rate(policy, 200, args.seed + 1))]
    print(f"{0.0:7.1f}s {0:7d} games  win rate {curve[-1][2]:.3f} (200 games)")
    update = 0
    reached_at: tuple[float, int, float] | None = None  # (seconds, games, 400-game win rate)
    while True:
        o, m, a, r, n = collect(envs, policy, state, rng, args.episodes)
        policy.update(o, m, a, r, args.lr)
        games += args.episodes
        steps += n
        update += 1
        elapsed = time.perf_counter() - start
        quick_done = not args.full and update >= args.updates
        if (args.full and update % args.eval_every == 0) or quick_done:
            rate = win_rate(policy, 200, args.seed + 1 + update)
            curve.append((elapsed, games, rate))
            print(f"{elapsed:7.1f}s {games:7d} games  win rate {rate:.3f} (200 games)")
            if args.full and reached_at is None and rate >= args.target:
                check = win_rate(policy, 400, args.seed + 10_000)
                elapsed = time.perf_counter() - start
                print(f"check on 400 new games: {check:.3f}")
                if check >= args.target:
                    reached_at = (elapsed, games, check)
        if quick_done or (args.full and elapsed > args.time_limit):
            break
        if args.full and reached_at is not None and update >= args.min_updates:
            break
    final = win_rate(policy, 400, args.seed + 20_000)
    elapsed = time.perf_counter() - start
    if reached_at is not None:
        print(
            f"target: won {reached_at[2]:.1%} of 400 games against the random bot after "
            f"{reached_at[1]} self-play games, {reached_at[0]:.0f} s from the start"
        )
    print(
        f"final: won {final:.1%} of 400 new games against the random bot after {games} "
        f"self-play games ({steps} steps, {update} updates) in {elapsed:.0f} s"
    )
    reached = reached_at is not None or final >= args.target
    if args.svg is not None:
        title = f"Linear REINFORCE self-play on {format_rules(RULES)}: {final:.1%} won at the end"
        write_svg(args.svg, curve, args.target, title)
        print(f"curve: {args.svg}")
    return 0 if reached or not args.full else 1


if __name__ == "__main__":
    raise SystemExit(main())
