"""A model of how the other seats play: a bot's two decisions and the parameters it plays with.

Inference (:mod:`hokm_sim.dd.infer`) judges a sampled deal by whether the
model, holding the cards the deal gives each seat, would have played the
cards those seats played; the search against the opponents' defence
(:mod:`hokm_sim.dd.respond`) has them play the model's cards. The
double-dummy library names no bot: a bot that uses these kernels passes its
model in (``strategies/pimc.py`` passes ``expert``), and each factory binds
the model's functions into the kernels it returns as compile-time constants,
so that numba inlines them as it inlines a bot into the engine.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core.dispatcher import Dispatcher


class Model(NamedTuple):
    """A bot as a model of a seat's play.

    ``choose_trump`` and ``play_card`` have a bot's signature ``(view,
    params, mem, rng)`` (see docs/bots.md) and are called with ``params``.
    The kernels hand the model a memory and a stream of their own that they
    never reset, so a model must decide from the view and its parameters
    alone, as ``expert`` does.
    """

    choose_trump: Dispatcher
    play_card: Dispatcher
    params: np.ndarray
    """``float64[PARAM_SIZE]``: the parameters the model plays with."""
