"""``pimc``'s kernels with ``expert`` as its model of the other seats, compiled once and cached.

Not a bot (the name starts with ``_``). The double-dummy library names no
bot: inference and the search against the opponents' defence take a model
of how the other seats play (:class:`hokm_sim.dd.model.Model`), and
:func:`hokm_sim.dd.pimc.make_pimc` binds one into its kernels. ``pimc``'s
model is ``expert`` with its default parameters, the strongest of the
rule-playing bots.

The bound kernels are closures, which numba compiles anew in every process;
the functions below are ``cache=True`` entry points over them, kept on disk
under a key of this file and everything it imports (``expert``, ``_tips``
and the double-dummy kernels among them: see :mod:`hokm_sim.engine.jitcache`),
so an edit to any of them compiles them anew. They are not in ``pimc.py``
itself because the engine inlines a bot file's own jitted functions, and
these allocate.
"""

from numba import njit

from hokm_sim.bots.botkit import default_params
from hokm_sim.dd.model import Model
from hokm_sim.dd.pimc import make_pimc
from hokm_sim.strategies import expert

EXPERT_PARAMS = default_params(expert.PARAMS)
"""``expert``'s parameters as the model plays and as ``pimc`` falls back on them."""
MODEL = Model(expert.choose_trump, expert.play_card, EXPERT_PARAMS)
"""``pimc``'s model of the other seats."""

KERNELS = make_pimc(MODEL)
"""The kernels with the model bound in (uncached; the functions below call them)."""
_card = KERNELS.pimc_card
_scores = KERNELS.pimc_scores
_value_vs_model = KERNELS.model_value_after


@njit(cache=True, _nrt=True)
def pimc_card(view, params, mem, rng, fallback):
    """``pimc_card`` of :func:`hokm_sim.dd.pimc.make_pimc`: the card ``pimc`` plays."""
    return _card(view, params, mem, rng, fallback)


@njit(cache=True)
def pimc_scores(view, params, mem, rng, totals):
    """``pimc_scores`` of :func:`hokm_sim.dd.pimc.make_pimc`: card points over the samples."""
    return _scores(view, params, mem, rng, totals)


@njit(cache=True)
def model_value_after(
    view, hands, card, team, we_are_hakem, departs, keys, answers, scratch, stats
):
    """``model_value_after`` of :func:`hokm_sim.dd.respond.make_model_search`."""
    return _value_vs_model(
        view, hands, card, team, we_are_hakem, departs, keys, answers, scratch, stats
    )
