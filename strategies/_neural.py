"""``neural``'s kernels: its input features and its network's forward pass, in numba.

Not a bot (the name starts with ``_``). ``neural`` scores every action it may
take (a card, or a trump suit when it calls) with a small multilayer
perceptron and takes the best; ``experiments/learn.py`` trains that network
with PyTorch (Monte Carlo regression on the returns of played hands) and
calls :func:`features` on the same views, so training and play see the
same numbers.

The input (:data:`FEATURES` floats) is the vector environment's observation
(:func:`hokm_sim.engine.features.encode_one`: hand, legal cards, cards
played by each seat, the trick, trump, suit led, the Hakem, tricks and
scores) and one plane over the 56 actions marking the one ``sharp`` would
take. The network is ``x -> relu(x W1 + b1) -> relu(h1 W2' + b2) -> h2 W3'
+ b3 + alpha * prior``: the last term adds ``alpha`` to ``sharp``'s action,
so an untrained network plays as ``sharp`` and training learns where to
depart from it.

The weights are arguments, not globals: the functions below are cached on
disk under a key of their source only (:mod:`hokm_sim.engine.jitcache`), and
``neural.py`` passes the arrays it loaded from its weights file, which key
the bot's own compiled unit. They allocate their scratch rows, so they run
with numba's reference counting, outside the bot's decisions (as ``pimc``'s
search does).
"""

import numpy as np
from numba import njit

from hokm_sim.bots.botkit import V_LEGAL, V_TRUMP, default_params
from hokm_sim.engine.bits import ctz
from hokm_sim.engine.features import FEATURES as OBSERVATION
from hokm_sim.engine.features import encode_one
from hokm_sim.strategies import sharp

ACTIONS = 56
"""Cards 0..51, then the four trump calls 52..55 (the environment's action space)."""
TRUMP_ACTION = 52
FEATURES = OBSERVATION + ACTIONS
"""The environment's observation, then the plane of ``sharp``'s action."""
SHARP_PARAMS = default_params(sharp.PARAMS)


@njit(inline="always")
def _prior(view, mem, rng):
    """The action ``sharp`` takes at this view (its parameters at their defaults)."""
    if view[V_TRUMP] < 0:
        return TRUMP_ACTION + sharp.choose_trump(view, SHARP_PARAMS, mem, rng)
    return sharp.play_card(view, SHARP_PARAMS, mem, rng)


@njit(inline="always")
def _fill(view, mem, rng, x):
    """One row of features ``x`` (``float32[FEATURES]``) from ``view``; returns the prior."""
    encode_one(view, x[:OBSERVATION])
    x[OBSERVATION:] = 0
    a = _prior(view, mem, rng)
    x[OBSERVATION + a] = 1
    return a


@njit(cache=True)
def features(views, out):
    """Fill ``out`` (``float32[n, FEATURES]``) from ``views`` (``int64[n, VIEW_SIZE]``). A
    view with no decision due (no legal card once trump is called: a hand's last view in
    the vector environment) has no ``sharp`` action: its plane stays 0."""
    mem = np.zeros(16, np.int64)
    rng = np.zeros(4, np.uint64)
    for i in range(views.shape[0]):
        v = views[i]
        if v[V_TRUMP] >= 0 and v[V_LEGAL] == 0:
            encode_one(v, out[i, :OBSERVATION])
            out[i, OBSERVATION:] = 0
        else:
            _fill(v, mem, rng, out[i])


@njit(inline="always")
def _hidden(x, w1, b1, w2t, b2, h1, h2):
    """The two hidden layers of one row: ``h2`` from ``x``. Both products run over the
    nonzero inputs only (most of ``x`` is 0, and about half of ``h1`` after the relu),
    adding rows of ``w1`` (``[FEATURES, H1]``) and of ``w2t`` (``[H1, H2]``)."""
    h1[:] = b1
    for i in range(x.shape[0]):
        v = x[i]
        if v != 0:
            for j in range(h1.shape[0]):
                h1[j] += v * w1[i, j]
    h2[:] = b2
    for j in range(h1.shape[0]):
        v = h1[j]
        if v > 0:
            for k in range(h2.shape[0]):
                h2[k] += v * w2t[j, k]
    for k in range(h2.shape[0]):
        if h2[k] < 0:
            h2[k] = 0


@njit(inline="always")
def _score(a, x, h2, w3, b3, alpha):
    s = b3[a] + alpha * x[OBSERVATION + a]
    for k in range(h2.shape[0]):
        s += w3[a, k] * h2[k]
    return s


@njit(inline="always")
def _forward(view, mem, rng, w1, b1, w2t, b2, buf):
    """Features and hidden layers of one view in ``buf``: returns ``(x, h2)``."""
    n1 = b1.shape[0]
    x = buf[:FEATURES]
    h1 = buf[FEATURES : FEATURES + n1]
    h2 = buf[FEATURES + n1 :]
    _fill(view, mem, rng, x)
    _hidden(x, w1, b1, w2t, b2, h1, h2)
    return x, h2


@njit(inline="always")
def action_scores(view, mem, rng, w1, b1, w2t, b2, w3, b3, alpha, buf, out):
    """The network's score of each action the seat may take at ``view`` into ``out``
    (``float32[56]``, the others left as they were); returns the mask of those actions
    (legal cards, or the four calls ``52 + suit`` when calling trump). ``buf`` is
    ``float32[FEATURES + H1 + H2]`` scratch. For callers that score many views (a
    policy's likelihood of observed play) and own their scratch."""
    x, h2 = _forward(view, mem, rng, w1, b1, w2t, b2, buf)
    legal = np.int64(0xF) << TRUMP_ACTION if view[V_TRUMP] < 0 else view[V_LEGAL]
    m = legal
    while m != 0:
        a = ctz(m)
        m &= m - 1
        out[a] = _score(a, x, h2, w3, b3, alpha)
    return legal


@njit(cache=True, _nrt=True, fastmath=True)
def q_values(view, mem, rng, w1, b1, w2t, b2, w3, b3, alpha, out):
    """The network's score of every action at ``view`` into ``out`` (``float32[56]``);
    what the learner's tests compare with PyTorch's forward pass."""
    buf = np.empty(FEATURES + b1.shape[0] + b2.shape[0], np.float32)
    x, h2 = _forward(view, mem, rng, w1, b1, w2t, b2, buf)
    for a in range(ACTIONS):
        out[a] = _score(a, x, h2, w3, b3, alpha)


@njit(cache=True, _nrt=True, fastmath=True)
def best_action(view, mem, rng, w1, b1, w2t, b2, w3, b3, alpha):
    """The legal action of highest score: a card, or ``52 + suit`` when calling trump."""
    buf = np.empty(FEATURES + b1.shape[0] + b2.shape[0], np.float32)
    x, h2 = _forward(view, mem, rng, w1, b1, w2t, b2, buf)
    if view[V_TRUMP] < 0:
        lo, hi, legal = TRUMP_ACTION, ACTIONS, np.int64(0xF) << TRUMP_ACTION
    else:
        lo, hi, legal = 0, TRUMP_ACTION, view[V_LEGAL]
    best = -1
    best_s = np.float32(0)
    for a in range(lo, hi):
        if (legal >> a) & 1:
            s = _score(a, x, h2, w3, b3, alpha)
            if best < 0 or s > best_s:
                best = a
                best_s = s
    return best
