"""The ``pimc`` bot: consistent samples, determinism, legal play in the engine.

Its samples of the hidden hands must never hold a card the seat has seen
(its own, or any played) and must respect every void shown and each seat's
card count; a seed fixes every decision; the engine (which rejects illegal
cards) plays whole hands with it.
"""

from __future__ import annotations

import random as pyrandom
from pathlib import Path

import numpy as np
import pytest
from hokm_checks import trump_view
from test_strategies import view_of

from hokm_sim import reference as ref
from hokm_sim.cards import mask_of
from hokm_sim.dd.pimc import (
    P_K,
    P_MARGIN,
    P_MS,
    P_NODES,
    pimc_scores,
    pimc_trump_scores,
    sample_hands,
    sample_view,
)
from hokm_sim.engine.records import C_TRICKS
from hokm_sim.engine.view import V_HAND, V_PLAYED, V_PLAYED_BY, V_SEAT, V_VOIDS

FAST = "pimc(k=3,nodes=20000)"


def _views(seed: int, n: int) -> list[np.ndarray]:
    """Views of random decisions in hands of random legal play (the reference's rules)."""
    rnd = pyrandom.Random(seed)
    out: list[np.ndarray] = []
    while len(out) < n:
        deck = list(range(52))
        rnd.shuffle(deck)
        stop = rnd.randrange(1, 40)
        seen = []

        def choose(seat, hand, trick, legal, pv, seen=seen, stop=stop):
            if len(seen) == stop:
                out.append(view_of(seat, hand, trick, legal, pv))
            seen.append(1)
            return rnd.choice(sorted(legal))

        ref.play_hand(deck, rnd.randrange(4), lambda five, h: rnd.randrange(4), choose)
    return out[:n]


def test_samples_hold_only_unseen_cards_and_respect_voids_and_counts():
    rng = np.array([7, 0, 0, 0], np.uint64)
    hands = np.zeros(4, np.int64)
    voided = 0
    for v in _views(1, 300):
        seat = int(v[V_SEAT])
        unseen = ((1 << 52) - 1) & ~int(v[V_HAND]) & ~int(v[V_PLAYED])
        voided += int(v[V_VOIDS]) != 0
        for _ in range(5):
            assert sample_view(v, rng, hands)
            assert hands[seat] == v[V_HAND]
            others = [int(hands[s]) for s in range(4) if s != seat]
            assert sum(bin(h).count("1") for h in others) == bin(unseen).count("1")
            assert int(np.bitwise_or.reduce(others)) == unseen  # only unseen cards, each once
            for s in range(4):
                if s == seat:
                    continue
                assert bin(int(hands[s])).count("1") == 13 - bin(int(v[V_PLAYED_BY + s])).count("1")
                for suit in range(4):
                    if int(v[V_VOIDS]) >> (s * 4 + suit) & 1:
                        assert (int(hands[s]) >> (13 * suit)) & 0x1FFF == 0
    assert voided > 50  # the voids were really put to the test


def test_samples_spread_over_the_consistent_deals():
    # Seat 0 has seen its hand only; seat 1 is void in clubs: every club
    # unseen must go to seats 2 and 3, and both get some.
    rng = np.array([3, 0, 0, 0], np.uint64)
    hand = mask_of(range(13, 26))  # all diamonds
    unseen = ((1 << 52) - 1) & ~hand
    counts = np.array([13, 13, 13, 13], np.int64)
    out = np.zeros(4, np.int64)
    got = set()
    for _ in range(200):
        assert sample_hands(rng, 0, hand, unseen, counts, 1 << (1 * 4 + 0), out)
        assert out[1] & 0x1FFF == 0
        got.add(bin(int(out[2]) & 0x1FFF).count("1"))
    assert len(got) > 3


def _params(k: int, nodes: int, ms: float, margin: int = 0) -> np.ndarray:
    p = np.zeros(16)
    p[P_K], p[P_NODES], p[P_MS], p[P_MARGIN] = k, nodes, ms, margin
    return p


def test_the_margin_adds_double_dummy_tricks_below_one_point():
    """Same samples with and without the margin: each card's total gains
    (tricks summed over the samples) / 14k, never a whole point, so it only
    orders cards the points leave level."""
    k = 4
    seen = 0
    for v in _views(8, 40):
        plain, with_margin = np.zeros(52), np.zeros(52)
        moves, used = pimc_scores(v, _params(k, 0, 0), _rng(3), plain)
        moves2, used2 = pimc_scores(v, _params(k, 0, 0, margin=1), _rng(3), with_margin)
        assert moves == moves2 and used == used2
        if used == 0:
            continue
        extra = (with_margin - plain) * 14 * k
        cards = [c for c in range(52) if moves >> c & 1]
        for c in cards:
            assert abs(extra[c] - round(extra[c])) < 1e-6 and 0 <= round(extra[c]) <= 13 * k
        best = max(with_margin[c] for c in cards)
        top = max(plain[c] for c in cards)
        assert all(plain[c] == top for c in cards if with_margin[c] == best)
        seen += 1
        if seen == 6:
            break
    assert seen == 6


def test_a_time_budget_stops_sampling_and_keeps_finished_samples():
    """k far beyond what fits in 50 ms: the budget ends the sampling, finished samples count."""
    checked = 0
    for v in _views(5, 30):
        if checked == 3 or bin(int(v[V_HAND])).count("1") > 9:
            continue
        totals = np.zeros(52)
        moves, used = pimc_scores(v, _params(1_000_000, 20_000, 50.0), _rng(1), totals)
        if bin(int(moves)).count("1") > 1:
            assert 1 <= used < 1_000_000
            checked += 1
    assert checked == 3
    used = pimc_trump_scores(
        trump_view([0, 13, 26, 39, 12], 1), _params(1_000_000, 20_000, 50.0), _rng(1), np.zeros(4)
    )
    assert 1 <= used < 1_000_000


def _rng(seed: int) -> np.ndarray:
    return np.array([seed, 0, 0, 0], np.uint64)


def test_pimc_plays_whole_hands_legally_and_reproducibly(runner):
    r = runner(FAST, "expert")
    first = r.counts(2024, 12, duplicate=True)  # an illegal card would raise
    again = r.counts(2024, 12, duplicate=True)
    assert first[C_TRICKS : C_TRICKS + 128].sum() == 24
    np.testing.assert_array_equal(first, again)


def test_decisions_are_deterministic_for_a_seed(runner):
    """A seed fixes every card and trump: deal by deal, the same results on one thread
    as on all of them (each deal's decisions draw from that deal's own streams)."""
    r = runner(FAST, "expert")
    one = [b.codes for b in r.batches(7, 16, threads=1, codes=True)]
    every = [b.codes for b in r.batches(7, 16, codes=True)]
    np.testing.assert_array_equal(np.concatenate(one), np.concatenate(every))


def test_with_no_time_left_pimc_plays_and_calls_as_expert(runner):
    """A budget spent before the first sample leaves expert's choices: against expert
    in duplicate, every deal is played the same in both seatings, so each pair is split."""
    from hokm_sim.analysis.summary import summarize

    r = runner("pimc(k=8,nodes=1,ms=0.000001)", "expert")  # the engine of FAST
    assert r.engine is runner(FAST, "expert").engine
    counts = r.counts(5, 40, duplicate=True)
    s = summarize(counts, {"a": "p", "b": "e", "seed": 5, "duplicate": True, "mode": "hands"})
    assert s.data["pair_counts"] == {"LL": 0, "split": 40, "WW": 0}
    tricks = counts[C_TRICKS : C_TRICKS + 128].reshape(2, 8, 8)
    np.testing.assert_array_equal(tricks[0], tricks[1])  # A as Hakem: as B as Hakem


def _first_called_from_a_loop(drop_nrt: bool = False):
    """A loop compiled without reference counting (as the engine's card loop is)
    that is the first to call fresh copies of pimc's two entry points.

    The copies carry the library's own options (so a change there shows here)
    and have never been compiled, in this process or on disk: whatever ran
    before, their first compilation happens from the loop.
    """
    from numba import njit

    from hokm_sim.dd import pimc

    def fresh(dispatcher):
        skip = ("cache", "nopython")  # njit sets nopython itself
        options = {k: v for k, v in dispatcher.targetoptions.items() if k not in skip}
        if drop_nrt:
            options.pop("_nrt", None)
        return njit(**options)(dispatcher.py_func)

    card, trump = fresh(pimc.pimc_card), fresh(pimc.pimc_trump)

    @njit(_nrt=False)
    def loop(view, params, rng):
        return card(view, params, rng, 0) + trump(view, params, rng, 0)

    loop.compile("(int64[:], float64[:], uint64[:])")


def test_pimc_compiles_when_first_called_from_the_card_loop():
    """The engine's card loop runs without reference counting and its callees
    inherit that; pimc's calls allocate, so they must still compile when the
    loop is the first to call them (cold caches). They once compiled only when
    called elsewhere first; the entry points now ask for reference counting."""
    from numba.core.errors import TypingError

    _first_called_from_a_loop()
    with pytest.raises(TypingError):  # the bug, without the library's _nrt=True
        _first_called_from_a_loop(drop_nrt=True)


def test_engines_with_pimc_hash_the_solver_and_others_do_not():
    """An edit of hokm_sim/dd must recompile engines that call it, and only those."""
    from hokm_sim.bots.registry import builtin_bots
    from hokm_sim.engine.jitcache import source_closure

    dd_dir = Path(sample_view.py_func.__code__.co_filename).parent
    bots = builtin_bots()

    def dd_files(name: str) -> set[str]:
        return {p.name for p in source_closure(bots[name].path) if p.parent == dd_dir}

    assert {"solver.py", "pimc.py"} <= dd_files("pimc")
    for name in ("expert", "longest", "random", "weighted"):
        assert dd_files(name) == set()
