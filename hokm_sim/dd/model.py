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

import functools
from collections.abc import Callable
from typing import NamedTuple, TypeVar

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


def _key(models: Model | tuple[Model, ...] | None) -> tuple | None:
    if models is None:
        return None
    if isinstance(models, Model):
        return (models.choose_trump, models.play_card, models.params.tobytes())
    return tuple(_key(m) for m in models)


Made = TypeVar("Made")


def once_per_model(factory: Callable[..., Made]) -> Callable[..., Made]:
    """``factory`` (of models, tuples of models or None) made once per set of models
    alike (the same functions and parameters): kernels binding the same models are one
    set of dispatchers, which a process types and compiles once, whichever bots ask
    (``pimc``'s model search serves ``pimcmix`` and ``pimcnet`` too)."""
    made: dict[tuple, Made] = {}

    @functools.wraps(factory)
    def once(*models: Model | tuple[Model, ...] | None) -> Made:
        key = tuple(_key(m) for m in models)
        if key not in made:
            made[key] = factory(*models)
        return made[key]

    return once
