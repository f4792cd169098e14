"""How well inference places the cards a seat cannot see: expert's yes or no against neural's
likelihood.

Hands are played by the reference with ``--players`` at every seat (a rule
bot, or ``pimc``), the trump always clubs and the Hakem on seat 0's team (so
no opponent's call is judged). At each decision of seat 0 with at least
``--min-played`` cards played, ``--pool`` deals consistent with its view are
drawn, and each way of weighing them is scored by the share of the unseen
cards its weighted deals give the right seat (the posterior mean, which
resampling by weight estimates), and by its difference from ``expert``'s on
the same decision (the interval treats decisions as independent; those of one
hand are not quite):

- ``uniform``: every deal alike (no inference);
- ``expert``: the deals with the fewest of ``expert``'s misses (``pimc``'s
  inference, ``infer=1``);
- ``net T``: ``neural``'s likelihood of the opponents' cards at temperature
  ``T`` (``pimcnet(miss=0,temp=T)``);
- ``expert+net T``: the deals with the fewest misses, weighed by that
  likelihood (``pimcnet(temp=T)``, ``miss`` at its default).

    python benchmarks/pimc_inference.py [--players sharp] [--deals 12] [--seed 29]
        [--pool 1000] [--temps 0.003,0.01,0.03,0.1] [--margin 0.05]

``--margin`` is added to ``sharp``'s action's score, as ``neural``'s own
``margin`` is when it plays (its default is ``neural``'s).

Seat 0's decisions come from ``tests/test_pimc.py``'s ``_seat0_decisions``
(run from the repository root).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_pimc import _mem, _rng, _seat0_decisions  # noqa: E402

from hokm_sim.bots.botkit import default_params  # noqa: E402
from hokm_sim.dd.infer import JUDGE_OPPONENTS, judged_seats, new_scratch  # noqa: E402
from hokm_sim.dd.sample import sample_view  # noqa: E402
from hokm_sim.engine.view import V_PLAYED, V_SEAT  # noqa: E402
from hokm_sim.strategies import _pimc, _pimcnet, expert, neural  # noqa: E402


def _player(name: str):
    """``play(view)`` for every seat: the bot ``name`` (``pimc``: each seat with its own
    memory for the hand, as the engine gives it)."""
    if name == "pimc":
        params = default_params(importlib.import_module("hokm_sim.strategies.pimc").PARAMS)
        mems: dict[int, np.ndarray] = {}

        def play_pimc(v):
            if int(v[V_PLAYED]) == 0:  # a new hand's first card
                mems.clear()
            mem = mems.setdefault(int(v[V_SEAT]), _mem())
            rng = _rng(int(v[V_PLAYED]) % 997 + 1)
            fallback = expert.play_card(v, _pimc.EXPERT_PARAMS, mem, rng)
            return _pimc.pimc_card(v, params, mem, rng, fallback)

        return play_pimc
    bot = importlib.import_module(f"hokm_sim.strategies.{name}")
    params = default_params(getattr(bot, "PARAMS", {}))
    return lambda v: bot.play_card(v, params, _mem(), _rng(0))


def _placed(deal: np.ndarray, real: np.ndarray, seat: int) -> float:
    """Share of the cards the seat cannot see that ``deal`` gives the seat holding them."""
    others = [s for s in range(4) if s != seat]
    unseen = sum(bin(int(real[s])).count("1") for s in others)
    return sum(bin(int(deal[s]) & int(real[s])).count("1") for s in others) / max(1, unseen)


def main() -> None:
    """Print, for each way of weighing, the mean share placed right over the decisions."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="sharp")
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--pool", type=int, default=1000)
    ap.add_argument("--min-played", type=int, default=6)
    ap.add_argument("--temps", default="0.003,0.01,0.03,0.1")
    ap.add_argument("--margin", type=float, default=neural.PARAMS["margin"], help="neural's margin")
    args = ap.parse_args()
    alpha = neural.ALPHA + np.float32(args.margin)
    net = (neural.W1, neural.B1, neural.W2T, neural.B2, neural.W3, neural.B3, alpha)
    temps = [float(t) for t in args.temps.split(",")]
    judged = judged_seats(0, JUDGE_OPPONENTS)
    rng, scratch = _rng(9), new_scratch()
    hands = np.zeros(4, np.int64)
    play = _player(args.players)
    decisions = _seat0_decisions(args.seed, args.deals, play, hakems=(0, 2))
    scores: dict[str, list[float]] = {}

    def add(name: str, weight: np.ndarray, placed: np.ndarray) -> None:
        scores.setdefault(name, []).append(float((weight * placed).sum() / weight.sum()))

    for d in decisions:
        if d.n < args.min_played:
            continue
        placed = np.zeros(args.pool)
        missed = np.zeros(args.pool)
        loglik = np.zeros((len(temps), args.pool))
        for i in range(args.pool):
            sample_view(d.view, rng, hands)
            placed[i] = _placed(hands, d.hands, 0)
            missed[i] = _pimc.KERNELS.misses(
                d.view, hands, d.seats, d.cards, d.n, judged, _rng(1), scratch, 99
            )
            for j, t in enumerate(temps):
                loglik[j, i] = _pimcnet.log_likelihood(
                    d.view, hands, d.seats, d.cards, d.n, judged, _rng(1), scratch, t, 0.0, *net
                )
        explained = (missed == missed.min()).astype(float)
        add("uniform", np.ones(args.pool), placed)
        add("expert", explained, placed)
        for j, t in enumerate(temps):
            add(f"net {t}", np.exp(loglik[j] - loglik[j].max()), placed)
            best = loglik[j][explained > 0].max()
            add(f"expert+net {t}", explained * np.exp(np.minimum(loglik[j] - best, 0)), placed)
    n = len(scores["uniform"])
    print(f"{args.players} at every seat, seed {args.seed}: {n} decisions of seat 0")
    print(f"{'weighing':<20}{'placed right':>14}{'less expert':>14}  (± 1.96 SE, decisions)")
    base = np.array(scores["expert"])
    for name, got in scores.items():
        diff = np.array(got) - base
        half = 1.96 * np.std(diff) / np.sqrt(n)
        print(f"{name:<20}{np.mean(got):>14.4f}{np.mean(diff):>+14.4f}  (± {half:.4f})")


if __name__ == "__main__":
    main()
