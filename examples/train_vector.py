"""Train a policy with PPO on the vector environment, then play it against ``longest`` in duplicate.

The agent plays both seats of team 0 (seats 0 and 2) of ``HokmVectorEnv``
against ``longest`` opponents at thousands of tables at once; the opponents
decide inside the environment's numba kernel, so nearly all the CPU goes to
the network. The policy is a small PyTorch network over what the seat sees
(its ``view``):

- a body over the environment's 432 features and a few facts of the trick
  (leading or the position in it, partner winning, trick number);
- a card head that scores each held card with the same small network, from
  the body's output and the card's own facts (rank, trump or suit led,
  legal, whether it beats the trick's winning card now, how many higher
  cards of its suit are still unseen, the suit's length in hand and unseen,
  which other seat has shown a void in it), so what it learns about one
  card carries over to the others;
- a trump head that scores the four suits the same way from the five cards
  (count, rank sum, ace, king, queen), and a value head.

Illegal actions are masked out. It learns by PPO (clipped policy gradient,
GAE advantages, entropy bonus) from the hands it plays: the reward is +1 for
a hand won and -1 for one lost, plus ``--shape`` times the change in the
trick margin (tricks won less tricks lost, over 7) on every step.

Then the trained network plays as a batched hokm-sim bot (greedy: its most
likely legal action), partnering itself against ``longest`` in a duplicate
run (``hokm_sim.run``) on the deals of another seed, never seen in training:
the last line is hokm-sim's own pair score with its 95% interval, and the
policy beats ``longest`` when that interval lies above 0.5.

    python examples/train_vector.py                          # the full run (see examples/README.md)
    python examples/train_vector.py --steps 3000000 --deals 5000 --curve curve.csv

Training prints a line every ``--report`` steps (the win rate of the hands
played since the line before, CPU time, rate and time left). Ctrl-C stops
training where it is and goes on to evaluate the network trained so far;
Ctrl-C during the evaluation stops it after the batch in flight, with a
partial result, as in ``hokm-sim run``. Needs the env extra and PyTorch's
CPU build:
``pip install 'hokm-sim[env]' torch==2.13.0``.
"""

from __future__ import annotations

import argparse
import csv
import io
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

import hokm_sim
from hokm_sim.bots.observation import FEATURES, bits_of, features
from hokm_sim.bots.pyrules import batched
from hokm_sim.engine.vector import TRUMP_ACTION
from hokm_sim.engine.view import (
    V_HAND,
    V_LED,
    V_LEGAL,
    V_NTRICK,
    V_PLAYED,
    V_SEAT,
    V_TRICK_NO,
    V_TRICKS,
    V_TRUMP,
    V_VOIDS,
    V_WIN_CARD,
    V_WIN_SEAT,
)
from hokm_sim.env.vector import HokmVectorEnv
from hokm_sim.writing import atomic_bytes, atomic_text

TRICK_FACTS = 7
CARD_FACTS = 12
SUIT_FACTS = 5
SLOTS = 13 + 4
"""The policy's actions: up to 13 held cards (in card order), then the four trump calls."""


def inputs(views: np.ndarray) -> tuple[torch.Tensor, ...]:
    """The network's inputs for views ``int64[n, VIEW_SIZE]``: the body's
    ``float32[n, FEATURES + TRICK_FACTS]``, the held cards' ``[n, 13, CARD_FACTS]``, the
    suits' ``[n, 4, SUIT_FACTS]``, the legal slots ``bool[n, SLOTS]``; and, as numpy,
    the card in each of the 13 card slots (held cards first, in card order)."""
    n = views.shape[0]
    rows = np.arange(n)[:, None]
    seat, trump, led = views[:, V_SEAT], views[:, V_TRUMP], views[:, V_LED]
    win, ntrick = views[:, V_WIN_CARD], views[:, V_NTRICK]
    held = bits_of(views[:, V_HAND])
    choosing = trump < 0

    body = np.zeros((n, TRICK_FACTS), np.float32)
    body[rows[:, 0], np.minimum(ntrick, 3)] = 1  # leading, second, third or last
    win_seat = views[:, V_WIN_SEAT]
    body[:, 4] = (win_seat >= 0) & ((win_seat - seat) % 2 == 0)  # partner winning
    body[:, 5] = views[:, V_TRICK_NO] / 12
    body[:, 6] = choosing

    slot = np.argsort(~held, axis=1, kind="stable")[:, :13]  # the held cards, then others
    suit, rank = slot // 13, slot % 13
    unseen = (~held & ~bits_of(views[:, V_PLAYED])).reshape(n, 4, 13)
    above = np.cumsum(unseen[:, :, ::-1], axis=2)[:, :, ::-1] - unseen  # unseen higher ranks
    above = above.reshape(n, 52)[rows, slot]
    is_trump = (suit == trump[:, None]) & ~choosing[:, None]
    win_suit = np.where(win >= 0, win // 13, -1)[:, None]
    beats = (win >= 0)[:, None] & (
        ((suit == win_suit) & (rank > (win % 13)[:, None]))
        | (is_trump & (win_suit != trump[:, None]))
    )
    legal = ((views[:, V_LEGAL][:, None] >> slot) & 1).astype(bool) & ~choosing[:, None]
    cards = np.empty((n, 13, CARD_FACTS), np.float32)
    cards[:, :, 0] = rank / 12
    cards[:, :, 1] = is_trump
    cards[:, :, 2] = suit == led[:, None]
    cards[:, :, 3] = legal
    cards[:, :, 4] = beats
    cards[:, :, 5] = above == 0
    cards[:, :, 6] = above / 12
    cards[:, :, 7] = held.reshape(n, 4, 13).sum(axis=2)[rows, suit] / 13
    cards[:, :, 8] = unseen.sum(axis=2)[rows, suit] / 13
    voids = views[:, V_VOIDS][:, None]
    for k in range(1, 4):  # left-hand opponent, partner, right-hand opponent
        cards[:, :, 8 + k] = (voids >> (((seat + k) % 4)[:, None] * 4 + suit)) & 1

    five = held.reshape(n, 4, 13)
    suits = np.empty((n, 4, SUIT_FACTS), np.float32)
    suits[:, :, 0] = five.sum(axis=2) / 5
    suits[:, :, 1] = (five * np.arange(1, 14)).sum(axis=2) / 60
    suits[:, :, 2:5] = five[:, :, 12:9:-1]  # ace, king, queen

    mask = np.concatenate([legal, np.repeat(choosing[:, None], 4, axis=1)], axis=1)
    feats = np.concatenate([features(views), body], axis=1)
    return *(torch.from_numpy(a) for a in (feats, cards, suits, mask)), slot


def env_actions(slots: np.ndarray, slot_cards: np.ndarray) -> np.ndarray:
    """The environment's actions for the policy's ``slots``: a held card, or 52 + a suit."""
    card = np.take_along_axis(slot_cards, np.minimum(slots, 12)[:, None], axis=1)[:, 0]
    return np.where(slots < 13, card, TRUMP_ACTION + slots - 13)


class Net(nn.Module):
    """Slot logits (masked) and a value from :func:`inputs`."""

    def __init__(self, hidden: int, head: int = 16) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(FEATURES + TRICK_FACTS, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )  # fmt: skip
        self.value = nn.Linear(hidden, 1)
        self.card_ctx, self.card_in = nn.Linear(hidden, head), nn.Linear(CARD_FACTS, head)
        self.suit_ctx, self.suit_in = nn.Linear(hidden, head), nn.Linear(SUIT_FACTS, head)
        self.card_out, self.suit_out = nn.Linear(head, 1), nn.Linear(head, 1)

    def forward(self, feats, cards, suits, mask) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(feats)
        c = self.card_out(torch.relu(self.card_ctx(h)[:, None] + self.card_in(cards)))
        s = self.suit_out(torch.relu(self.suit_ctx(h)[:, None] + self.suit_in(suits)))
        logits = torch.cat([c.squeeze(-1), s.squeeze(-1)], dim=1).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)


def margin(views: np.ndarray) -> np.ndarray:
    """Team 0's tricks less team 1's, over 7, in each view."""
    return (views[:, V_TRICKS] - views[:, V_TRICKS + 1]) / 7


def train(args: argparse.Namespace) -> tuple[Net, list[dict]]:
    """The trained network and its learning curve (a row every ``--report`` steps)."""
    torch.manual_seed(args.seed)
    n, horizon = args.envs, args.horizon
    env = HokmVectorEnv(num_envs=n, opponents=args.opponents, seat=(0, 2),
                        autoreset_mode="SameStep", copy=False)  # fmt: skip
    net = Net(args.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    x_buf = [
        torch.zeros(horizon, n, FEATURES + TRICK_FACTS),
        torch.zeros(horizon, n, 13, CARD_FACTS),
        torch.zeros(horizon, n, 4, SUIT_FACTS),
        torch.zeros(horizon, n, SLOTS, dtype=torch.bool),
    ]
    act_buf = torch.zeros(horizon, n, dtype=torch.long)
    logp_buf = torch.zeros(horizon, n)
    val_buf = torch.zeros(horizon + 1, n)
    rew_buf = torch.zeros(horizon, n)
    done_buf = torch.zeros(horizon, n)
    obs, _ = env.reset(seed=args.seed)
    curve: list[dict] = []
    won = played = steps = 0
    next_report = args.report
    cpu0, wall0 = time.process_time(), time.perf_counter()
    try:
        while steps < args.steps:
            with torch.no_grad():
                for t in range(horizon):
                    before = margin(obs["view"])
                    *x, slot_cards = inputs(obs["view"])
                    for buf, part in zip(x_buf, x, strict=True):
                        buf[t] = part
                    logits, value = net(*x)
                    dist = torch.distributions.Categorical(logits=logits)
                    a = dist.sample()
                    act_buf[t], logp_buf[t], val_buf[t] = a, dist.log_prob(a), value
                    obs, reward, terminated, _, info = env.step(env_actions(a.numpy(), slot_cards))
                    after = margin(obs["view"])
                    if "hand" in info:
                        ended = info["_hand"]
                        tricks = info["hand"]["tricks"]
                        last = ended & terminated  # the next episode's view is in obs
                        after[last] = (tricks[last, 0] - tricks[last, 1]) / 7
                        played += int(ended.sum())
                        won += int((ended & (info["hand"]["winner"] == 0)).sum())
                    shaped = np.sign(reward) + args.shape * (after - before)
                    rew_buf[t] = torch.from_numpy(shaped.astype(np.float32))
                    done_buf[t] = torch.from_numpy(terminated.astype(np.float32))
                val_buf[horizon] = net(*inputs(obs["view"])[:4])[1]
                adv = torch.zeros(horizon, n)
                gae = torch.zeros(n)
                for t in reversed(range(horizon)):
                    alive = 1.0 - done_buf[t]
                    delta = rew_buf[t] + alive * val_buf[t + 1] - val_buf[t]
                    gae = delta + alive * args.lam * gae
                    adv[t] = gae
                ret = adv + val_buf[:horizon]
            update(net, opt, args, [b.flatten(0, 1) for b in x_buf], act_buf.reshape(-1),
                   logp_buf.reshape(-1), adv.reshape(-1), ret.reshape(-1))  # fmt: skip
            steps += horizon * n
            if steps >= next_report or steps >= args.steps:
                next_report += args.report
                curve.append(_report(steps, played, won, cpu0, wall0, args.steps))
                won = played = 0
    except KeyboardInterrupt:
        print(f"  stopped after {steps:,} steps: evaluating the policy trained so far")
    env.close()
    return net, curve


def update(net: Net, opt, args: argparse.Namespace, x, acts, old_logp, adv, ret) -> None:
    """PPO's epochs of minibatch steps over one rollout (``x``: the inputs of its steps)."""
    total = acts.shape[0]
    for _ in range(args.epochs):
        perm = torch.randperm(total)
        for start in range(0, total, args.minibatch):
            idx = perm[start : start + args.minibatch]
            logits, value = net(*(part[idx] for part in x))
            dist = torch.distributions.Categorical(logits=logits)
            ratio = torch.exp(dist.log_prob(acts[idx]) - old_logp[idx])
            a = adv[idx]
            a = (a - a.mean()) / (a.std() + 1e-8)
            pg = -torch.min(ratio * a, ratio.clamp(1 - args.clip, 1 + args.clip) * a).mean()
            vloss = 0.5 * ((value - ret[idx]) ** 2).mean()
            loss = pg + args.vcoef * vloss - args.ent * dist.entropy().mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()


def _report(steps: int, played: int, won: int, cpu0: float, wall0: float, total: int) -> dict:
    """Print and return one row of the learning curve."""
    row = {"steps": steps, "hands": played, "win_rate": round(won / max(played, 1), 4),
           "cpu_s": round(time.process_time() - cpu0, 1)}  # fmt: skip
    rate = steps / (time.perf_counter() - wall0)
    left = max(total - steps, 0) / rate
    print(f"  {steps:>11,} steps  {played:>8,} hands  win rate {row['win_rate']:.4f}  "
          f"{row['cpu_s']:>6.0f} s CPU  {rate:>7,.0f} steps/s  {left / 60:>5.1f} min left",
          flush=True)  # fmt: skip
    return row


class Policy:
    """The trained network as a batched hokm-sim bot: its most likely legal action."""

    NAME = "trained-vector-policy"

    def __init__(self, net: Net) -> None:
        self.net = net.eval()

    def _best(self, obs) -> np.ndarray:
        *x, slot_cards = inputs(np.ascontiguousarray(obs.view))
        with torch.no_grad():
            logits, _ = self.net(*x)
        return env_actions(logits.argmax(dim=1).numpy(), slot_cards)

    @batched
    def choose_trump(self, obs):
        return self._best(obs) - TRUMP_ACTION

    @batched
    def play_card(self, obs):
        return self._best(obs)


def parser() -> argparse.ArgumentParser:
    """The example's options."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=12_000_000, help="agent decisions to train on")
    ap.add_argument("--envs", type=int, default=2048, help="tables stepped together")
    ap.add_argument("--horizon", type=int, default=32, help="steps per table between updates")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=4096)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--vcoef", type=float, default=0.5)
    ap.add_argument("--ent", type=float, default=0.01)
    ap.add_argument("--shape", type=float, default=1.0, help="weight of the trick margin reward")
    ap.add_argument("--report", type=int, default=1_000_000, help="steps between curve rows")
    ap.add_argument("--opponents", default="longest", help="the opponents' strategy")
    ap.add_argument("--deals", type=int, default=20_000, help="duplicate deals to evaluate on")
    ap.add_argument("--seed", type=int, default=1, help="training deals; evaluation: seed + 1")
    ap.add_argument("--curve", help="write the learning curve to this CSV file")
    ap.add_argument("--save", help="write the network's weights to this file")
    ap.add_argument("--out", help="report folder of the evaluation run")
    ap.add_argument("--force", action="store_true", help="write into an existing --out folder")
    return ap


def main(argv: list[str] | None = None) -> dict:
    ap = parser()
    args = ap.parse_args(argv)
    for path in (Path(p) for p in (args.curve, args.save, args.out) if p):  # before training
        if path.exists() and not args.force and (not path.is_dir() or any(path.iterdir())):
            ap.error(f"{path} exists: give --force to write over it")
    torch.set_num_threads(1)
    print(f"training on {args.steps:,} decisions at {args.envs:,} tables (seats 0 and 2 "
          f"against {args.opponents}), seed {args.seed}")  # fmt: skip
    net, curve = train(args)
    if args.curve and curve:
        text = io.StringIO()
        w = csv.DictWriter(text, fieldnames=list(curve[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(curve)
        atomic_text(args.curve, text.getvalue())
    if args.save:
        weights = io.BytesIO()
        torch.save(net.state_dict(), weights)
        atomic_bytes(args.save, weights.getvalue())
    s = hokm_sim.run(Policy(net), args.opponents, hands=args.deals, seed=args.seed + 1, threads=1,
                     out=args.out, force=args.force)  # fmt: skip
    print(repr(s))
    return {"curve": curve, "summary": s.to_dict()}


if __name__ == "__main__":
    main()
