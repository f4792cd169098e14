"""``pimcmix``'s kernels: ``pimc``'s, with inference judged by a mixture of the field.

Not a bot (the name starts with ``_``). As ``_pimc.py``, but a sampled deal
explains a decision when any of six rule-playing bots of the field, each with
its default parameters, would have made it (:func:`hokm_sim.dd.infer.make_replay`):
``expert``, ``sharp``, ``drawer``, ``eager``, ``kots`` and ``cautious``. ``signal``
is left out: it reads its partner's signals from its memory, which a replay
does not keep for a model. The search against the opponents' defence still has
them play as ``expert``.
"""

from numba import njit

from hokm_sim.bots.botkit import default_params
from hokm_sim.dd.model import Model
from hokm_sim.dd.pimc import make_pimc
from hokm_sim.strategies import cautious, drawer, eager, kots, sharp
from hokm_sim.strategies._pimc import MODEL

JUDGES = (MODEL,) + tuple(
    Model(bot.choose_trump, bot.play_card, default_params(getattr(bot, "PARAMS", {})))
    for bot in (sharp, drawer, eager, kots, cautious)
)
"""The bots whose plays inference counts as explained, ``expert`` first."""

KERNELS = make_pimc(MODEL, JUDGES)
_card = KERNELS.pimc_card


@njit(cache=True, _nrt=True)
def pimc_card(view, params, mem, rng, fallback):
    """``pimc_card`` of :func:`hokm_sim.dd.pimc.make_pimc` with the field's judges."""
    return _card(view, params, mem, rng, fallback)
