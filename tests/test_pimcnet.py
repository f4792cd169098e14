"""``pimcnet``: deals weighed by ``neural``'s likelihood of the play, legal and seeded.

The likelihood must put the real deal far above one that breaks a void an
opponent showed, and above most deals consistent with the view when the
opponents play as the network's prior does; with a large ``miss`` only deals
``expert`` explains are resampled when the draws hold any; the bot's card is
legal and fixed by its stream. Every check calls the kernels on a handful of
decisions (no engine is compiled for the bot).
"""

from __future__ import annotations

import random as pyrandom

import numpy as np
from test_pimc import _mem, _rng, _seat0_decisions
from test_strategies import view_of

from hokm_sim import reference as ref
from hokm_sim.bots.botkit import default_params
from hokm_sim.dd.infer import JUDGE_OPPONENTS, judged_seats, new_scratch
from hokm_sim.dd.sample import sample_view
from hokm_sim.dd.weigh import P_TEMP, PARAM_NAMES
from hokm_sim.engine.view import V_LEGAL, V_VOIDS
from hokm_sim.strategies import _pimcnet, expert, neural, pimcnet, sharp
from hokm_sim.strategies._pimc import EXPERT_PARAMS, KERNELS

NET = (neural.W1, neural.B1, neural.W2T, neural.B2, neural.W3, neural.B3, neural.ALPHA)
OPPONENTS = judged_seats(0, JUDGE_OPPONENTS)
SHARP_PARAMS = default_params(sharp.PARAMS)


def _as_sharp(v):
    return sharp.play_card(v, SHARP_PARAMS, _mem(), _rng(0))


def _log_weight(d, hands, temp=0.01, miss=0.0):
    return _pimcnet.log_likelihood(
        d.view, hands, d.seats, d.cards, d.n, OPPONENTS, _rng(1), new_scratch(), temp, miss, *NET
    )


def test_the_bots_parameters_fill_the_slots_the_kernels_read():
    assert tuple(pimcnet.PARAMS) == _pimcnet.PARAM_NAMES == tuple(pimcnet.PARAM_LIMITS)
    assert _pimcnet.PARAM_NAMES[: len(PARAM_NAMES)] == PARAM_NAMES
    assert PARAM_NAMES[P_TEMP] == "temp"
    assert pimcnet.PARAMS["prior"] == neural.PARAMS["margin"]  # neural's own policy


def test_a_deal_that_breaks_a_shown_void_weighs_next_to_nothing():
    """Move a card of a suit an opponent showed void in into its hand (for one of its
    own of another suit, from the other opponent): the policy cannot have played the
    discard that showed the void, so the deal's log-weight falls by a million."""
    checked = 0
    for d in _seat0_decisions(3, 12, _as_sharp, hakems=(0, 2)):
        voids = int(d.view[V_VOIDS])
        for s, other in ((1, 3), (3, 1)):
            for suit in range(4):
                suit_cards = 0x1FFF << (13 * suit)
                have = int(d.hands[other]) & suit_cards
                give = int(d.hands[s]) & ~suit_cards
                if not (voids >> (4 * s + suit)) & 1 or not have or not give:
                    continue
                alt = d.hands.copy()
                swap = (have & -have) | (give & -give)
                alt[s] ^= swap
                alt[other] ^= swap
                assert _log_weight(d, alt) < _log_weight(d, d.hands) - 1e5
                checked += 1
                break
    assert checked >= 5


def test_the_real_deal_is_likelier_than_most_deals_the_view_allows():
    """Opponents who play as ``sharp`` (the network's prior): the real deal's
    likelihood ranks above most deals consistent with the view (chance: half)."""
    rng = _rng(5)
    hands = np.zeros(4, np.int64)
    ranks = []
    for d in _seat0_decisions(4, 4, _as_sharp, hakems=(0, 2)):
        if d.n < 8:
            continue
        real = _log_weight(d, d.hands)
        others = []
        for _ in range(15):
            sample_view(d.view, rng, hands)
            others.append(_log_weight(d, hands))
        ranks.append(np.mean([o < real for o in others]))
    assert len(ranks) >= 10
    assert np.mean(ranks) > 0.7


def test_with_a_large_miss_only_deals_expert_explains_are_resampled():
    """Opponents who play as ``expert``: of the deals drawn, those ``expert`` explains
    are the only ones kept whenever there are any, and the ``k`` draws all land."""

    def as_expert(v):
        return expert.play_card(v, EXPERT_PARAMS, _mem(), _rng(0))

    # The Hakem on seat 0's team: an opponent's call is judged on five cards drawn
    # from the stream, which would make the two counts below differ.
    play = _seat0_decisions(6, 5, as_expert, hakems=(0, 2))
    tries, k, checked = 40, 10, 0
    rng, scratch = _rng(2), new_scratch()
    for d in play:
        if d.n < 4:
            continue
        pool = np.zeros((tries, 4), np.int64)
        cost = np.zeros(tries)
        deals = np.zeros((k, 4), np.int64)
        counts = np.zeros(k, np.int64)
        m = _pimcnet.weighted_deals(
            d.view, rng, d.seats, d.cards, d.n, OPPONENTS, tries, k, 0.03, 1000.0, pool, cost,
            deals, counts, *NET,
        )  # fmt: skip
        assert counts[:m].sum() == k and (counts[:m] > 0).all()

        def misses(hands, d=d):
            return KERNELS.misses(
                d.view, hands, d.seats, d.cards, d.n, OPPONENTS, _rng(1), scratch, 99
            )

        if min(misses(pool[i]) for i in range(tries)) == 0:
            assert all(misses(deals[i]) == 0 for i in range(m))
            checked += 1
    assert checked >= 5


def test_pimcnet_plays_a_legal_card_fixed_by_its_stream():
    """Seat 0 plays ``pimcnet`` (few samples) in hands the reference deals, the others
    ``expert``: every card legal, and the same seed gives the same cards."""
    params = default_params(pimcnet.PARAMS)
    params[[_pimcnet.PARAM_NAMES.index(p) for p in ("k", "nodes", "tries")]] = (3, 20000, 20)

    def hands(seed):
        rnd = pyrandom.Random(seed)
        cards = []
        for _ in range(2):
            deck = list(range(52))
            rnd.shuffle(deck)
            mem, rng = _mem(), _rng(seed)

            def choose(seat, hand, trick, legal, pv, mem=mem, rng=rng):
                v = view_of(seat, hand, trick, legal, pv)
                if seat != 0:
                    return expert.play_card(v, EXPERT_PARAMS, _mem(), _rng(0))
                fallback = expert.play_card(v, EXPERT_PARAMS, mem, rng)
                c = _pimcnet.pimcnet_card(v, params, mem, rng, fallback, *NET)
                assert (int(v[V_LEGAL]) >> int(c)) & 1
                cards.append(int(c))
                return int(c)

            ref.play_hand(deck, 1, lambda five, h: 0, choose)
        return cards

    first = hands(9)
    assert len(first) >= 20
    assert hands(9) == first
