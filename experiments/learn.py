"""Train ``neural``'s network on the vector environment; export its weights for the bot.

The network and its input are those of ``strategies/_neural.py``: the
environment's 432 observation features and a plane marking ``sharp``'s
action at the same view; a perceptron with two hidden layers scores the 56
actions (52 cards, 4 trump calls) at once, and a learned ``alpha`` is added
to ``sharp``'s action, so an untrained network plays as ``sharp``.

Two methods (``--method``), both Monte Carlo regressions of an (observation,
action) score on what followed the action in a played hand, the return:
the points the acting seat's team won (+1, +2 a Kot, +3 a Hakem Kot,
negative when lost) plus ``--shape`` times its trick margin over 7.

- ``dmc``: Deep Monte Carlo as in DouZero. The network plays every seat it
  holds epsilon-greedily (``--eps``); each decision's score is regressed on
  its return. The return of one hand varies far more with the cards than
  with one card choice, so the scores of the actions ``sharp`` does not take
  learn slowly, and the greedy policy drifts below ``sharp`` (docs/bots.md).
- ``paired`` (the default): each deal is played in ``--copies`` + 1 copies
  of the environment, with ``sharp`` at every seat the network holds; in
  each copy but the first, at one decision drawn at random, the seat departs
  from ``sharp``'s action, to the network's best other action or (``--explore``
  of the time) a random one, and plays ``sharp`` again after. The field's
  bots are deterministic, so the copies differ only by that departure: the
  departing team's return less the first copy's is what the departure gained
  on that deal, and the network's score of the departure less its score of
  ``sharp``'s action is regressed on it. Greedy on the scores is one step of
  policy improvement over ``sharp``, each step measured on the same cards.

Every iteration plays one hand at every table of each part of ``--mix``
(``self``: the network's seats are all four; a strategy name: the network
at seats 0 and 2 against it at 1 and 3), each part reset to a seed of its
own from ``--seed`` and the iteration (training seeds are ``seed *
1,000,000 + iteration * 16 + part``), then trains one pass over the samples
in minibatches. Every ``--eval-every`` iterations the network is exported
beside a copy of ``neural.py`` and played against ``sharp`` in duplicate by
``hokm_sim.run`` on ``--eval-hands`` deals of ``--eval-seed`` (the
model-selection seed: never a training seed, and never a seed docs/bots.md
reports): the learning curve (``curve.csv``, ``curve.png``) and the best
network so far (``best.npz``) are kept in ``--out``. A checkpoint
(``checkpoint.pt``) is written every 10 iterations and when training stops
(``--iterations`` done or ``--minutes`` spent; Ctrl-C keeps the last one);
the same command with ``--resume`` goes on from it, and gives the same
network as an uninterrupted run (everything random is drawn from the seed
and the iteration).

    python experiments/learn.py --out runs/neural --minutes 35
    python experiments/learn.py --out runs/neural --minutes 20 --resume
    cp runs/neural/best.npz strategies/neural_weights.npz

Needs PyTorch's CPU build (``pip install torch==2.13.0``; then the ``learn``
extra) and uses one thread (``torch.set_num_threads(1)``).
"""

from __future__ import annotations

import argparse
import csv
import io
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

import hokm_sim
from hokm_sim.engine.view import V_SEAT
from hokm_sim.env.vector import HokmVectorEnv
from hokm_sim.strategies import _neural
from hokm_sim.strategies._neural import ACTIONS, FEATURES
from hokm_sim.writing import atomic_bytes, atomic_text

BOT = Path(_neural.__file__).resolve().parent / "neural.py"
SEED_STRIDE = 1_000_000


class Net(nn.Module):
    """The scores of the 56 actions from :data:`FEATURES` inputs (see ``_neural.py``)."""

    def __init__(self, hidden: tuple[int, int], alpha: float = 0.3) -> None:
        super().__init__()
        self.l1 = nn.Linear(FEATURES, hidden[0])
        self.l2 = nn.Linear(hidden[0], hidden[1])
        self.l3 = nn.Linear(hidden[1], ACTIONS)
        self.alpha = nn.Parameter(torch.tensor(float(alpha)))
        nn.init.zeros_(self.l3.weight)  # untrained, it plays as sharp (through alpha)
        nn.init.zeros_(self.l3.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.l2(torch.relu(self.l1(x))))
        return self.l3(h) + self.alpha * x[:, FEATURES - ACTIONS :]


def weights(net: Net) -> dict[str, np.ndarray]:
    """The arrays ``neural.py`` loads: ``w1`` as ``[FEATURES, hidden]`` (rows read sparsely)."""
    with torch.no_grad():
        return {
            "w1": net.l1.weight.T.contiguous().numpy().astype(np.float32),
            "b1": net.l1.bias.numpy().astype(np.float32),
            "w2": net.l2.weight.numpy().astype(np.float32),
            "b2": net.l2.bias.numpy().astype(np.float32),
            "w3": net.l3.weight.numpy().astype(np.float32),
            "b3": net.l3.bias.numpy().astype(np.float32),
            "alpha": np.float32(net.alpha.item()),
        }


def export(net: Net, path: Path, command: str) -> None:
    """Write the weights (and the command that trained them) as ``.npz``, atomically."""
    buf = io.BytesIO()
    np.savez_compressed(buf, **weights(net), command=np.array(command))
    atomic_bytes(path, buf.getvalue())


def play_hands(env: HokmVectorEnv, net: Net, seed: int, eps: float, shape: float, rng):
    """One hand at every table, epsilon-greedy; every decision of the network's seats as
    ``(features, action, return)``."""
    n = env.num_envs
    obs, _ = env.reset(seed=seed)
    xs, acts, teams, tables = [], [], [], []
    done = np.zeros(n, bool)
    ret = np.zeros((n, 2), np.float32)
    while not done.all():
        views = obs["view"]
        x = np.empty((n, FEATURES), np.float32)
        _neural.features(views, x)
        mask = obs["action_mask"].astype(bool)
        with torch.no_grad():
            q = net(torch.from_numpy(x)).numpy()
        greedy = np.where(mask, q, -np.inf).argmax(axis=1)
        wild = np.where(mask, rng.random((n, ACTIONS)), -1.0).argmax(axis=1)
        a = np.where(rng.random(n) < eps, wild, greedy)
        live = ~done & mask.any(axis=1)
        xs.append(x[live])
        acts.append(a[live])
        teams.append(views[live, V_SEAT] & 1)
        tables.append(np.flatnonzero(live))
        obs, _, terminated, _, info = env.step(np.where(mask.any(axis=1), a, 0))
        new = terminated & ~done
        if new.any():
            ret[new] = _outcome(info, new, shape)
        done |= terminated
    table, team = np.concatenate(tables), np.concatenate(teams)
    return np.concatenate(xs), np.concatenate(acts), ret[table, team]


def _outcome(info: dict, new: np.ndarray, shape: float) -> np.ndarray:
    """Both teams' returns ``[k, 2]`` at the tables ``new`` whose hand just ended."""
    tricks = info["hand"]["tricks"][new]
    margin = (tricks[:, 0] - tricks[:, 1]) / 7
    return info["team_reward"][new] + shape * np.stack([margin, -margin], axis=1)


def play_paired(envs: list[HokmVectorEnv], net: Net, seed: int, args, rng):
    """One deal at every table of ``envs`` (copies of one environment, the same deals):
    every seat the network holds plays ``sharp``'s action, but once a hand in every copy
    after the first, at a decision drawn at random, where it departs: to the network's
    best other action, or (``--explore`` of the time) any other legal one. Each departure
    as ``(features, action, sharp's action, its team's return less the first copy's)``."""
    m, k = envs[0].num_envs, len(envs) - 1
    obs = [env.reset(seed=seed)[0] for env in envs]
    horizon = 41 if len(envs[0].seats) == 4 else 21  # every hand has so many decisions
    at = rng.integers(0, horizon, size=(k, m))
    taken = np.zeros((k + 1, m), np.int64)
    done = np.zeros((k + 1, m), bool)
    ret = np.zeros((k + 1, m, 2), np.float32)
    xs, acts, priors, teams, rows = [], [], [], [], []
    while not done.all():
        for j, env in enumerate(envs):
            views = obs[j]["view"]
            x = np.empty((m, FEATURES), np.float32)
            _neural.features(views, x)
            mask = obs[j]["action_mask"].astype(bool)
            deciding = mask.any(axis=1)
            prior = x[:, FEATURES - ACTIONS :].argmax(axis=1)
            a = prior.copy()
            if j > 0:
                alt = mask.copy()
                alt[np.arange(m), prior] = False
                go = np.flatnonzero(~done[j] & deciding & (taken[j] == at[j - 1]) & alt.any(1))
                if go.size:
                    with torch.no_grad():
                        q = net(torch.from_numpy(x[go])).numpy()
                    best = np.where(alt[go], q, -np.inf).argmax(axis=1)
                    wild = np.where(alt[go], rng.random((go.size, ACTIONS)), -1.0).argmax(axis=1)
                    a[go] = np.where(rng.random(go.size) < args.explore, wild, best)
                    xs.append(x[go])
                    acts.append(a[go])
                    priors.append(prior[go])
                    teams.append(views[go, V_SEAT] & 1)
                    rows.append(go + (j - 1) * m)
            taken[j] += ~done[j] & deciding
            obs[j], _, terminated, _, info = env.step(np.where(deciding, a, 0))
            new = terminated & ~done[j]
            if new.any():
                ret[j, new] = _outcome(info, new, args.shape)
            done[j] |= terminated
    if not rows:
        empty = np.zeros(0, np.int64)
        return np.zeros((0, FEATURES), np.float32), empty, empty, np.zeros(0, np.float32)
    row, team = np.concatenate(rows), np.concatenate(teams)
    copy, table = row // m + 1, row % m
    gain = ret[copy, table, team] - ret[0, table, team]
    return np.concatenate(xs), np.concatenate(acts), np.concatenate(priors), gain


def evaluate(net: Net, hands: int, seed: int, margin: float, opponent: str = "sharp") -> dict:
    """The pair score of the network as ``neural`` (with ``margin``) against ``opponent``
    in duplicate."""
    with tempfile.TemporaryDirectory() as tmp:
        bot = Path(tmp) / "neural_eval.py"
        shutil.copy(BOT, bot)
        export(net, Path(tmp) / "neural_weights.npz", "evaluation copy")
        spec = f"'{bot}'(margin={margin})"
        s = hokm_sim.run(spec, opponent, hands=hands, seed=seed, duplicate=True)
    if s.partial:  # hokm_sim.run took a Ctrl-C as "stop after this batch": stop training too
        raise KeyboardInterrupt
    return s.data["pair_score"]


def plot(curve: list[dict], path: Path, title: str) -> None:
    """The learning curve: pair score against ``sharp`` with its interval, by decisions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r["samples"] / 1e6 for r in curve]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.fill_between(x, [r["low"] for r in curve], [r["high"] for r in curve], alpha=0.3)
    ax.plot(x, [r["pair_score"] for r in curve], marker="o")
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xlabel("training decisions (millions)")
    ax.set_ylabel("pair score vs sharp (95%)")
    ax.set_title(title)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    atomic_bytes(path, buf.getvalue())


def parse_mix(text: str) -> list[tuple[str, int]]:
    """``self:512,sharp:256`` as ``[("self", 512), ("sharp", 256)]``."""
    out = []
    for part in text.split(","):
        name, _, tables = part.partition(":")
        out.append((name.strip(), int(tables)))
    return out


def make_envs(mix: list[tuple[str, int]], copies: int) -> list[list[HokmVectorEnv]]:
    """For each part of ``--mix``, ``copies`` environments of its tables (dealt alike)."""
    groups = []
    for name, n in mix:
        if name == "self":
            group = [
                HokmVectorEnv(num_envs=n, seat=(0, 1, 2, 3), copy=False) for _ in range(copies)
            ]
        else:
            group = [
                HokmVectorEnv(num_envs=n, opponents=name, seat=(0, 2), copy=False)
                for _ in range(copies)
            ]
        groups.append(group)
    return groups


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, required=True, help="folder of checkpoint, curve, weights")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--iterations", type=int, default=100_000, help="hands per table, at most")
    p.add_argument("--minutes", type=float, default=60.0, help="wall-clock budget of this call")
    p.add_argument("--method", choices=["paired", "dmc"], default="paired")
    p.add_argument("--mix", help="tables by opponents [paired: self:256,expert:256; "
                   "dmc: self:256,sharp:256,expert:128]")  # fmt: skip
    p.add_argument("--copies", type=int, default=7, help="paired: departing copies of a deal")
    p.add_argument("--explore", type=float, default=0.5, help="paired: random departures")
    p.add_argument("--hidden", default="128,64")
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--alpha", type=float, default=0.3, help="initial bonus of sharp's action")
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--eps", type=float, default=0.05)
    p.add_argument("--shape", type=float, default=0.5)
    p.add_argument("--eval-every", type=int, default=100, help="iterations; 0: never")
    p.add_argument("--eval-hands", type=int, default=10_000)
    p.add_argument("--eval-seed", type=int, default=424242)
    p.add_argument("--eval-margin", type=float, default=0.0, help="neural's margin in the curve")
    p.add_argument("--resume", action="store_true")
    return p


class Run:
    """One training run: the network, its optimiser and its state, kept in ``--out``."""

    def __init__(self, args: argparse.Namespace, command: str) -> None:
        self.args, self.command = args, command
        self.ckpt = args.out / "checkpoint.pt"
        torch.manual_seed(args.seed)
        self.net = Net(tuple(int(h) for h in args.hidden.split(",")), args.alpha)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=args.lr)
        self.state = {"iteration": 0, "samples": 0, "cpu": 0.0, "curve": [], "best": -1.0}
        self.loss = 0.0

    def load(self) -> None:
        saved = torch.load(self.ckpt, weights_only=False)
        self.net.load_state_dict(saved["net"])
        self.opt.load_state_dict(saved["opt"])
        self.state = saved["state"]

    def save(self) -> None:
        buf = io.BytesIO()
        torch.save({"net": self.net.state_dict(), "opt": self.opt.state_dict(),
                    "state": self.state}, buf)  # fmt: skip
        atomic_bytes(self.ckpt, buf.getvalue())

    def iteration(self, envs: list[list[HokmVectorEnv]]) -> None:
        """One hand at every table, then one pass of minibatches over its decisions."""
        args, it = self.args, self.state["iteration"]
        rng = np.random.default_rng([args.seed, it])
        parts = []
        for k, group in enumerate(envs):
            seed = args.seed * SEED_STRIDE + it * 16 + k
            if args.method == "paired":
                parts.append(play_paired(group, self.net, seed, args, rng))
            else:
                parts.append(play_hands(group[0], self.net, seed, args.eps, args.shape, rng))
        cols = [
            torch.from_numpy(np.concatenate([q[i] for q in parts])) for i in range(len(parts[0]))
        ]
        x, a, g = cols[0], cols[1], cols[-1]
        perm = torch.from_numpy(rng.permutation(len(a)))
        for start in range(0, len(a), args.batch):
            idx = perm[start : start + args.batch]
            q = self.net(x[idx])
            pred = q.gather(1, a[idx, None])[:, 0]
            if args.method == "paired":  # the gain of the departure over sharp's action
                pred = pred - q.gather(1, cols[2][idx, None])[:, 0]
            loss = ((pred - g[idx]) ** 2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.loss = 0.99 * self.loss + 0.01 * loss.item() if self.loss else loss.item()
        self.state["iteration"] = it + 1
        self.state["samples"] += len(a)

    def evaluate(self) -> None:
        """A point of the learning curve; the best network so far kept as ``best.npz``."""
        st, out = self.state, self.args.out
        args = self.args
        score = evaluate(self.net, args.eval_hands, args.eval_seed, args.eval_margin)
        value = score["value"]
        low = value if score["low"] is None else score["low"]  # None: every pair level
        high = value if score["high"] is None else score["high"]
        row = {
            "iteration": st["iteration"],
            "samples": st["samples"],
            "cpu_s": round(st["cpu"], 1),
            "pair_score": value,
            "low": low,
            "high": high,
        }
        st["curve"].append(row)
        made = f"{self.command}  # iteration {st['iteration']}"
        if value > st["best"]:
            st["best"] = value
            export(self.net, out / "best.npz", made)
        export(self.net, out / "last.npz", made)
        text = io.StringIO()
        w = csv.DictWriter(text, fieldnames=list(row))
        w.writeheader()
        w.writerows(st["curve"])
        atomic_text(out / "curve.csv", text.getvalue())
        title = f"neural ({args.method}, margin {args.eval_margin:g}): model-selection deals"
        plot(st["curve"], out / "curve.png", title)
        self.save()
        print(f"  eval at {st['samples']:,} decisions: pair score vs sharp "
              f"{value:.4f} [{low:.4f}, {high:.4f}]", flush=True)  # fmt: skip

    def progress(self, wall: float, first: int) -> str:
        """The progress line: decisions, rate, loss, time spent and left."""
        st, args = self.state, self.args
        per_it = wall / max(st["iteration"] - first, 1)
        left = min(args.minutes * 60 - wall, (args.iterations - st["iteration"]) * per_it)
        rate = st["samples"] / max(st["cpu"], 1e-9)
        return (f"iter {st['iteration']:,}/{args.iterations:,}  {st['samples']:,} decisions  "
                f"{rate:,.0f}/CPU s  loss {self.loss:.3f}  "
                f"{wall / 60:.1f} min, {max(left, 0) / 60:.1f} min left")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    torch.set_num_threads(1)
    command = "python experiments/learn.py " + shlex.join(sys.argv[1:] if argv is None else argv)
    args.out.mkdir(parents=True, exist_ok=True)
    run = Run(args, command)
    if args.resume:
        run.load()
        print(f"resumed at iteration {run.state['iteration']:,}")
    elif run.ckpt.exists():
        print(f"{run.ckpt} exists: add --resume to go on from it, or choose another --out",
              file=sys.stderr)  # fmt: skip
        sys.exit(2)
    if args.mix is None:
        args.mix = (
            "self:256,expert:256" if args.method == "paired" else "self:256,sharp:256,expert:128"
        )
    envs = make_envs(parse_mix(args.mix), args.copies + 1 if args.method == "paired" else 1)
    st = run.state
    if args.eval_every and not st["curve"]:
        run.evaluate()  # the untrained network: sharp's play through the prior
    wall0, cpu0, cpu_before, first = (
        time.perf_counter(),
        time.process_time(),
        st["cpu"],
        st["iteration"],
    )
    try:
        while st["iteration"] < args.iterations:
            run.iteration(envs)
            st["cpu"] = cpu_before + time.process_time() - cpu0
            wall = time.perf_counter() - wall0
            due = args.eval_every > 0 and st["iteration"] % args.eval_every == 0
            if st["iteration"] % 10 == 0 or due:
                print(run.progress(wall, first), flush=True)
            if due:
                run.evaluate()
            elif st["iteration"] % 10 == 0:
                run.save()
            if wall > args.minutes * 60:
                print("time budget spent")
                break
        run.save()
    except KeyboardInterrupt:  # mid-iteration: the last checkpoint (<= 10 iterations) stays
        print(f"interrupted: {run.ckpt} holds the last checkpoint")
    for group in envs:
        for env in group:
            env.close()
    print(f"checkpoint {run.ckpt}; best pair score vs sharp {st['best']:.4f}; "
          f"{st['cpu'] / 60:.1f} CPU minutes in all")  # fmt: skip


if __name__ == "__main__":
    main()
