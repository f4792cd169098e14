"""A learned network scores every legal card against ``sharp``'s; it plays the best.

Each decision (a trump call as Hakem, a card) is scored, action by action,
by a small multilayer perceptron over what the seat sees (the vector
environment's observation: hand, legal cards, each seat's played cards, the
trick, trump, Hakem, tricks and scores) and ``sharp``'s choice at the same
view, which the network starts from and learns where to leave: it leaves
``sharp``'s action only for one scored more than ``margin`` points above it
(a learned score is noisy, and the best of a dozen noisy scores is too high
more often than the others). It was trained on the vector environment by
``experiments/learn.py``: each score is regressed on what a departure from
``sharp``'s action gained in a hand, measured against the same deal played
without it (a paired form of Deep Monte Carlo, DouZero's method), in
``sharp`` self-play and against ``expert``. The weights
(``neural_weights.npz`` beside this file) record the command that made
them; the forward pass is numba code (``_neural.py``), no PyTorch at play
time. Strength, speed and training cost are in docs/bots.md.
"""

from pathlib import Path

import numpy as np

from hokm_sim.bots.botkit import njit
from hokm_sim.strategies._neural import TRUMP_ACTION, best_action

DESCRIPTION = "a network trained on the vector environment: sharp's play, left where it learned to"
PARAMS = {"margin": 0.05}
PARAM_LIMITS = {"margin": (0, 10)}

_WEIGHTS = np.load(Path(__file__).resolve().parent / "neural_weights.npz")
W1 = np.ascontiguousarray(_WEIGHTS["w1"], np.float32)
B1 = np.ascontiguousarray(_WEIGHTS["b1"], np.float32)
W2T = np.ascontiguousarray(_WEIGHTS["w2"].T, np.float32)  # rows added per hidden unit
B2 = np.ascontiguousarray(_WEIGHTS["b2"], np.float32)
W3 = np.ascontiguousarray(_WEIGHTS["w3"], np.float32)
B3 = np.ascontiguousarray(_WEIGHTS["b3"], np.float32)
ALPHA = np.float32(_WEIGHTS["alpha"])


@njit
def choose_trump(view, params, mem, rng):
    """The trump call the network scores highest."""
    alpha = ALPHA + np.float32(params[0])
    return best_action(view, mem, rng, W1, B1, W2T, B2, W3, B3, alpha) - TRUMP_ACTION


@njit
def play_card(view, params, mem, rng):
    """The legal card the network scores highest."""
    return best_action(view, mem, rng, W1, B1, W2T, B2, W3, B3, ALPHA + np.float32(params[0]))
